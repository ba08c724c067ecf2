import torch.nn as nn

from ..builder import HEADS
from .base import AvgConsensus, BaseHead


@HEADS.register_module()
class TSNHead(BaseHead):
    def __init__(self, num_classes, in_channels, loss_cls=dict(type='CrossEntropyLoss'),
                 dropout_ratio=0.4, **kwargs):
        super().__init__(num_classes, in_channels, loss_cls=loss_cls, **kwargs)
        self.consensus = AvgConsensus(dim=1)
        self.avg_pool = nn.AdaptiveAvgPool2d((1, 1))
        self.dropout = nn.Dropout(p=dropout_ratio)
        self.fc_cls = nn.Linear(self.in_channels, self.num_classes)

    def forward(self, x, num_segs):
        x = self.avg_pool(x)
        x = x.reshape((-1, num_segs) + x.shape[1:])
        x = self.consensus(x).squeeze(1)
        x = self.dropout(x)
        x = x.view(x.size(0), -1)
        return self.fc_cls(x)
