import os

import numpy as np
import pytorch_lightning as pl
from PIL import Image

from deepforest import predict
from deepforest.models import retinanet


class deepforest(pl.LightningModule):
    """Tree crown detector: a torchvision RetinaNet plus training and prediction helpers."""

    def __init__(self, config=None):
        super().__init__()
        self.config = config or {"num_classes": 1, "nms_thresh": 0.05, "model_name": "weecology/deepforest-tree"}
        self.numeric_to_label_dict = {0: "Tree"}
        self.model = None

    def load_model(self, model_name=None, revision=None):
        model_name = model_name or self.config["model_name"]
        self.model = retinanet.Model(config=self.config).create_model(pretrained=model_name, revision=revision)

    def predict_image(self, image: np.ndarray = None, path: str = None):
        self.model.eval()
        if path:
            image = np.array(Image.open(path).convert("RGB")).astype("float32")
        result = predict._predict_image_(model=self.model, image=image, path=path, iou_threshold=self.config["nms_thresh"])
        if result is None:
            return None
        result["label"] = result.label.apply(lambda x: self.numeric_to_label_dict[x])
        result["image_path"] = os.path.basename(path) if path else None
        return result
