"""VOC reduced to a few synthetic images with boxes and labels, and mmdet's
collate: images stacked, metadata kept in DataContainers, boxes and labels as
per-image lists."""
import torch
from mmcv.parallel import DataContainer


class VOCDataset(torch.utils.data.Dataset):
    CLASSES = tuple('class%d' % i for i in range(20))

    def __init__(self, num_images=4):
        self.num_images = num_images

    def __len__(self):
        return self.num_images

    def __getitem__(self, i):
        return dict(img=torch.rand(3, 64, 64),
                    img_metas=dict(img_shape=(64, 64, 3), pad_shape=(64, 64, 3)),
                    gt_bboxes=torch.tensor([[4., 4., 30., 30.], [10., 12., 50., 60.]]),
                    gt_labels=torch.tensor([i % 20, (i + 3) % 20]))


def collate(batch):
    return dict(img=torch.stack([b['img'] for b in batch]),
                img_metas=DataContainer([b['img_metas'] for b in batch], cpu_only=True),
                gt_bboxes=[b['gt_bboxes'] for b in batch],
                gt_labels=[b['gt_labels'] for b in batch])


def build_dataset(cfg):
    return VOCDataset(num_images=cfg.data.num_images)


def build_dataloader(dataset, samples_per_gpu, workers_per_gpu, num_gpus=1, dist=False, seed=None):
    return torch.utils.data.DataLoader(dataset, batch_size=samples_per_gpu * num_gpus,
                                       num_workers=workers_per_gpu, collate_fn=collate)
