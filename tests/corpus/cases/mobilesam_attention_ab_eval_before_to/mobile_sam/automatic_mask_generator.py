import numpy as np
import torch

from .modeling import Sam
from .predictor import SamPredictor


def build_point_grid(n_per_side: int) -> np.ndarray:
    offset = 1 / (2 * n_per_side)
    points_one_side = np.linspace(offset, 1 - offset, n_per_side)
    points_x = np.tile(points_one_side[None, :], (n_per_side, 1))
    points_y = np.tile(points_one_side[:, None], (1, n_per_side))
    return np.stack([points_x, points_y], axis=-1).reshape(-1, 2)


class SamAutomaticMaskGenerator:
    def __init__(self, model: Sam, points_per_side: int = 4, points_per_batch: int = 8,
                 pred_iou_thresh: float = 0.88) -> None:
        self.predictor = SamPredictor(model)
        self.point_grid = build_point_grid(points_per_side)
        self.points_per_batch = points_per_batch
        self.pred_iou_thresh = pred_iou_thresh

    @torch.no_grad()
    def generate(self, image: np.ndarray):
        mask_data = self._generate_masks(image)
        return mask_data

    def _generate_masks(self, image: np.ndarray):
        orig_size = image.shape[:2]
        crop_box = [0, 0, orig_size[1], orig_size[0]]
        return self._process_crop(image, crop_box, orig_size)

    def _process_crop(self, image, crop_box, orig_size):
        x0, y0, x1, y1 = crop_box
        cropped_im = image[y0:y1, x0:x1, :]
        cropped_im_size = cropped_im.shape[:2]
        self.predictor.set_image(cropped_im)

        points_scale = np.array(cropped_im_size)[None, ::-1]
        points_for_image = self.point_grid * points_scale

        data = []
        for start in range(0, len(points_for_image), self.points_per_batch):
            points = points_for_image[start:start + self.points_per_batch]
            data.append(self._process_batch(points, cropped_im_size))
        self.predictor.reset_image()
        return data

    def _process_batch(self, points, im_size):
        in_points = torch.as_tensor(points, dtype=torch.float32, device=self.predictor.device)
        in_labels = torch.ones(in_points.shape[0], dtype=torch.int, device=in_points.device)
        masks, iou_preds, _ = self.predictor.predict_torch(
            in_points[:, None, :], in_labels[:, None], multimask_output=True)
        keep = iou_preds > self.pred_iou_thresh
        return {"masks": masks, "iou_preds": iou_preds, "keep": keep}
