import torch.nn as nn

from .base import BaseDetector
from ..dense_heads.MIAOD_head import MIAODHead


class SingleStageDetector(BaseDetector):
    """RetinaNet-style detector; the ResNet-50 + FPN backbone is reduced to two
    strided convolutions giving two feature levels."""

    def __init__(self, num_classes, in_channels, feat_channels, num_anchors):
        super(SingleStageDetector, self).__init__()
        self.backbone = nn.Conv2d(in_channels, feat_channels, 3, stride=8, padding=1)
        self.neck = nn.Conv2d(feat_channels, feat_channels, 3, stride=2, padding=1)
        self.bbox_head = MIAODHead(num_classes, feat_channels, num_anchors)

    def extract_feat(self, img):
        p3 = self.backbone(img)
        p4 = self.neck(p3)
        return [p3, p4]

    def forward_train(self, x, img_metas, y_loc_img, y_cls_img, y_loc_img_ignore=None):
        x = self.extract_feat(x)
        losses = self.bbox_head.forward_train(x, img_metas, y_loc_img, y_cls_img, y_loc_img_ignore)
        return losses

    def forward(self, img, img_metas, gt_bboxes=None, gt_labels=None, return_loss=True, **kwargs):
        return self.forward_train(img, img_metas, gt_bboxes, gt_labels)
