import numpy as np
import torch

from .modeling import Sam


class SamPredictor:
    def __init__(self, sam_model: Sam) -> None:
        super().__init__()
        self.model = sam_model
        self.reset_image()

    def set_image(self, image: np.ndarray, image_format: str = "RGB") -> None:
        if image_format != self.model.image_format:
            image = image[..., ::-1]

        # Transform the image to the form expected by the model (stand-in: the
        # images are already at the encoder's size, no ResizeLongestSide)
        input_image = image
        input_image_torch = torch.as_tensor(input_image, device=self.device)
        input_image_torch = input_image_torch.permute(2, 0, 1).contiguous()[None, :, :, :]

        self.set_torch_image(input_image_torch, image.shape[:2])

    @torch.no_grad()
    def set_torch_image(self, transformed_image: torch.Tensor, original_image_size) -> None:
        self.reset_image()

        self.original_size = original_image_size
        self.input_size = tuple(transformed_image.shape[-2:])
        input_image = self.model.preprocess(transformed_image)
        self.features = self.model.image_encoder(input_image)
        self.is_image_set = True

    @torch.no_grad()
    def predict_torch(self, point_coords, point_labels, multimask_output=True):
        if not self.is_image_set:
            raise RuntimeError("An image must be set with .set_image(...) before mask prediction.")
        sparse_embeddings, _ = self.model.prompt_encoder(points=(point_coords, point_labels))
        low_res_masks, iou_predictions = self.model.mask_decoder(
            image_embeddings=self.features,
            sparse_prompt_embeddings=sparse_embeddings,
            multimask_output=multimask_output,
        )
        masks = low_res_masks > self.model.mask_threshold
        return masks, iou_predictions, low_res_masks

    @property
    def device(self) -> torch.device:
        return self.model.device

    def reset_image(self) -> None:
        self.is_image_set = False
        self.features = None
        self.original_size = None
        self.input_size = None
