import torch
from torch import nn


class EfficientDetBackbone(nn.Module):
    def __init__(self, num_anchors=9, num_classes=80):
        super().__init__()
        self.backbone_net = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.SiLU())
        self.regressor = nn.Conv2d(32, num_anchors * 4, 1)
        self.classifier = nn.Conv2d(32, num_anchors * num_classes, 1)
        self.num_anchors = num_anchors

    def forward(self, inputs):
        features = self.backbone_net(inputs)
        regression = self.regressor(features).flatten(2).transpose(1, 2).reshape(inputs.shape[0], -1, 4)
        classification = self.classifier(features).flatten(2).transpose(1, 2).reshape(inputs.shape[0], -1,
                                                                                      self.classifier.out_channels // self.num_anchors)
        anchors = torch.zeros(1, regression.shape[1], 4, device=inputs.device)
        return features, regression, classification.sigmoid(), anchors


class FocalLoss(nn.Module):
    def forward(self, classifications, regressions, anchors, annotations):
        cls_loss = classifications.mean() * (annotations[..., 4] >= 0).float().mean()
        reg_loss = (regressions - anchors).abs().mean()
        return cls_loss, reg_loss


class CustomDataParallel(nn.DataParallel):
    """Splits the CPU batch itself and sends each chunk to its GPU."""

    def __init__(self, module, num_gpus):
        super().__init__(module)
        self.num_gpus = num_gpus

    def scatter(self, inputs, kwargs, device_ids):
        devices = ["cuda:" + str(x) for x in range(self.num_gpus)]
        splits = inputs[0].shape[0] // self.num_gpus
        return [(inputs[0][splits * i:splits * (i + 1)].to(f"cuda:{i}", non_blocking=True),)
                for i in range(len(devices))], [kwargs] * len(devices)
