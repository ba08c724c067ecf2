import numpy as np
import torch
from PIL import Image
from torch import nn

import predict


class BoxDetector(nn.Module):
    """Stand-in for the RetinaNet tree-crown detector: one box per image."""

    def __init__(self, num_classes=1):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.box_head = nn.Linear(16, 4)
        self.cls_head = nn.Linear(16, num_classes)

    def forward(self, images):
        features = self.backbone(images).flatten(1)
        scores, labels = self.cls_head(features).sigmoid().max(dim=1)
        return [{"boxes": box[None], "scores": score[None], "labels": label[None]}
                for box, score, label in zip(self.box_head(features), scores, labels)]


class deepforest(nn.Module):
    """Holds the detector in `self.model` and offers prediction helpers."""

    def __init__(self, num_classes=1):
        super().__init__()
        self.model = BoxDetector(num_classes)
        self.numeric_to_label_dict = {0: "Tree"}

    def predict_image(self, image: np.ndarray = None, path: str = None):
        self.model.eval()
        if path:
            image = np.array(Image.open(path).convert("RGB")).astype("float32")
        result = predict._predict_image_(model=self.model, image=image, path=path)
        result["label"] = result.label.apply(lambda x: self.numeric_to_label_dict[x])
        return result


if __name__ == "__main__":
    m = deepforest()
    m.model.to("cuda")  # equivalent to what Lightning does in trainer.predict
    print(m.predict_image(path="some_rgb.tif"))
