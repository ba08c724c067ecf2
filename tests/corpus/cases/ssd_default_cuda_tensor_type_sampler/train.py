import argparse

import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data as data


def str2bool(v):
    return v.lower() in ("yes", "true", "t", "1")


def detection_collate(batch):
    """Images are stacked; each image keeps its own (n_objects, 5) annotation tensor."""
    targets, imgs = [], []
    for sample in batch:
        imgs.append(sample[0])
        targets.append(torch.FloatTensor(sample[1]))
    return torch.stack(imgs, 0), targets


parser = argparse.ArgumentParser(description="Single Shot MultiBox Detector Training")
parser.add_argument("--batch_size", default=32, type=int)
parser.add_argument("--num_workers", default=4, type=int)
parser.add_argument("--cuda", default=True, type=str2bool)
args = parser.parse_args()

if torch.cuda.is_available():
    if args.cuda:
        torch.set_default_tensor_type("torch.cuda.FloatTensor")
    else:
        torch.set_default_tensor_type("torch.FloatTensor")
else:
    torch.set_default_tensor_type("torch.FloatTensor")


def train(dataset, net, criterion, max_iter=120000):
    if args.cuda:
        net = net.cuda()
    optimizer = optim.SGD(net.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    data_loader = data.DataLoader(dataset, args.batch_size, num_workers=args.num_workers, shuffle=True,
                                  collate_fn=detection_collate, pin_memory=True)
    batch_iterator = iter(data_loader)
    for iteration in range(max_iter):
        images, targets = next(batch_iterator)
        if args.cuda:
            images = images.cuda()
            targets = [ann.cuda() for ann in targets]
        out = net(images)
        optimizer.zero_grad()
        loss = criterion(out, targets)
        loss.backward()
        optimizer.step()


class TinySSD(nn.Module):
    def __init__(self, num_classes=21):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.conf = nn.Linear(64, num_classes)

    def forward(self, x):
        return self.conf(self.features(x).flatten(1))
