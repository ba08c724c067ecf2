import torch.nn as nn

from ...datasets.blending_utils import BLENDINGS
from ...registry import build_from_cfg
from ..builder import RECOGNIZERS, build_backbone, build_head


@RECOGNIZERS.register_module()
class Recognizer2D(nn.Module):
    def __init__(self, backbone, cls_head, train_cfg=None, test_cfg=None):
        super().__init__()
        self.backbone = build_backbone(backbone)
        self.cls_head = build_head(cls_head)
        self.train_cfg = train_cfg
        self.test_cfg = test_cfg
        # mini-batch blending, e.g. mixup: turns hard labels into soft ones
        self.blending = None
        if train_cfg is not None and 'blending' in train_cfg:
            self.blending = build_from_cfg(train_cfg['blending'], BLENDINGS)

    def forward_train(self, imgs, labels):
        batches = imgs.shape[0]
        imgs = imgs.reshape((-1, ) + imgs.shape[2:])
        num_segs = imgs.shape[0] // batches
        x = self.backbone(imgs)
        cls_score = self.cls_head(x, num_segs)
        gt_labels = labels.squeeze()
        return self.cls_head.loss(cls_score, gt_labels)

    def forward(self, imgs, label=None, return_loss=True):
        if return_loss:
            if self.blending is not None:
                imgs, label = self.blending(imgs, label)
            return self.forward_train(imgs, label)
        batches = imgs.shape[0]
        imgs = imgs.reshape((-1, ) + imgs.shape[2:])
        return self.cls_head(self.backbone(imgs), imgs.shape[0] // batches)
