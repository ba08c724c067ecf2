from abc import ABCMeta, abstractmethod

import torch
import torch.nn as nn

from ..builder import build_loss


class AvgConsensus(nn.Module):
    def __init__(self, dim=1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return x.mean(dim=self.dim, keepdim=True)


class BaseHead(nn.Module, metaclass=ABCMeta):
    def __init__(self, num_classes, in_channels,
                 loss_cls=dict(type='CrossEntropyLoss', loss_weight=1.0)):
        super().__init__()
        self.num_classes = num_classes
        self.in_channels = in_channels
        self.loss_cls = build_loss(loss_cls)

    @abstractmethod
    def forward(self, x, num_segs):
        pass

    def loss(self, cls_score, labels, **kwargs):
        losses = dict()
        if labels.shape == torch.Size([]):
            labels = labels.unsqueeze(0)
        if cls_score.size() != labels.size():
            # hard labels: also report top-1 accuracy
            top1 = (cls_score.argmax(dim=1) == labels).float().mean()
            losses['top1_acc'] = top1
        losses['loss_cls'] = self.loss_cls(cls_score, labels, **kwargs)
        return losses
