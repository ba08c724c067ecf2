"""Dataset of posed images (and optional masks)."""
from typing import Dict

import torch
from torch.utils.data import Dataset


class InputDataset(Dataset):
    def __init__(self, num_images=4, height=48, width=64, has_masks=True):
        super().__init__()
        self.images = torch.rand(num_images, height, width, 3)
        self.masks = torch.rand(num_images, height, width, 1) > 0.3 if has_masks else None
        self.has_masks = has_masks

    def __len__(self):
        return len(self.images)

    def get_data(self, image_idx: int) -> Dict:
        data = {"image_idx": image_idx}
        data["image"] = self.images[image_idx]
        if self.has_masks:
            data["mask"] = self.masks[image_idx]
        return data

    def __getitem__(self, image_idx: int) -> Dict:
        return self.get_data(image_idx)
