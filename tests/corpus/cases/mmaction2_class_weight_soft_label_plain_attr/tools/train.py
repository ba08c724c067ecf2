import argparse
import runpy

import torch
from torch.utils.data import DataLoader, Dataset

from mmaction.models import build_model


class RandomVideoDataset(Dataset):
    """Stands in for VideoDataset: (num_segments, 3, H, W) clips and a class index."""

    def __init__(self, num_classes, num_segments, img_size, length=64):
        self.num_classes, self.num_segments, self.img_size, self.length = num_classes, num_segments, img_size, length

    def __len__(self):
        return self.length

    def __getitem__(self, idx):
        imgs = torch.randn(self.num_segments, 3, self.img_size, self.img_size)
        label = torch.tensor([idx % self.num_classes])
        return dict(imgs=imgs, label=label)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('config')
    args = parser.parse_args()
    cfg = runpy.run_path(args.config)

    model = build_model(cfg['model'])
    model = model.cuda()
    optimizer = torch.optim.SGD(model.parameters(), **cfg['optimizer'])

    data_cfg = cfg['data']
    dataset = RandomVideoDataset(cfg['num_classes'], data_cfg['num_segments'], data_cfg['img_size'])
    loader = DataLoader(dataset, batch_size=data_cfg['videos_per_gpu'], shuffle=True)

    model.train()
    for epoch in range(cfg['total_epochs']):
        for data_batch in loader:
            imgs = data_batch['imgs'].cuda()
            label = data_batch['label'].cuda()
            losses = model(imgs, label, return_loss=True)
            loss = losses['loss_cls']
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f'epoch {epoch}: loss_cls={loss.item():.4f}')


if __name__ == '__main__':
    main()
