import numpy as np
import pandas as pd
import torch


def _predict_image_(model, image: np.ndarray, path: str = None, iou_threshold: float = 0.15):
    """Predict a single (H, W, C) float32 image with a deepforest model."""
    device = next(model.parameters()).device
    image = torch.tensor(image, device=device).permute(2, 0, 1)
    image = image / 255

    with torch.no_grad():
        prediction = model(image.unsqueeze(0))

    prediction = prediction[0]
    df = pd.DataFrame(prediction["boxes"].cpu().numpy(), columns=["xmin", "ymin", "xmax", "ymax"])
    df["score"] = prediction["scores"].cpu().numpy()
    df["label"] = prediction["labels"].cpu().numpy()
    if path is not None:
        df["image_path"] = path
    return df
