import numpy as np
import pandas as pd
import torch


def _predict_image_(model, image: np.ndarray = None, path: str = None, iou_threshold: float = 0.15):
    """Predict a single image with a deepforest model."""
    image = torch.tensor(image).permute(2, 0, 1)
    image = image / 255

    with torch.no_grad():
        prediction = model(image.unsqueeze(0))

    prediction = prediction[0]
    boxes = prediction["boxes"].cpu().numpy()
    df = pd.DataFrame(boxes, columns=["xmin", "ymin", "xmax", "ymax"])
    df["label"] = prediction["labels"].cpu().numpy()
    df["score"] = prediction["scores"].cpu().numpy()
    return df if len(df) else None
