import torchvision
from torchvision.models.detection.retinanet import RetinaNet


class RetinaNetHub(RetinaNet):
    """RetinaNet whose weights come from the Hugging Face hub."""

    def __init__(self, num_classes=1, nms_thresh=0.05, score_thresh=0.5):
        backbone = torchvision.models.detection.retinanet_resnet50_fpn(weights=None).backbone
        super().__init__(backbone=backbone, num_classes=num_classes, score_thresh=score_thresh, nms_thresh=nms_thresh)
        self.num_classes = num_classes


class Model:
    def __init__(self, config):
        self.config = config

    def create_model(self, pretrained=None, revision=None):
        if pretrained is None:
            return RetinaNetHub(num_classes=self.config["num_classes"])
        return RetinaNetHub.from_pretrained(pretrained, revision=revision)
