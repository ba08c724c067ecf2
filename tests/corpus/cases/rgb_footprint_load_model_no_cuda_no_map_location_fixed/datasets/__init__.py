import numpy as np
import torch
from torch.utils.data import Dataset


class NumpyDataset(Dataset):
    """Grid blocks of one (H, W, 4) RGB+DSM array stored as .npy (datasets/NumpyDataset.py)."""

    def __init__(self, filename, window_size=None, stride=None):
        self.image = np.load(filename).astype(np.float32)
        self.height, self.width = self.image.shape[:2]
        self.window_size = window_size or self.height
        self.stride = stride or self.height
        self.coords = [(r, c) for r in range(0, self.height - self.window_size + 1, self.stride)
                       for c in range(0, self.width - self.window_size + 1, self.stride)]

    def __len__(self):
        return len(self.coords)

    def __getitem__(self, index):
        row, col = self.coords[index]
        block = self.image[row:row + self.window_size, col:col + self.window_size]
        return {"image": torch.from_numpy(block).permute(2, 0, 1), "coord": torch.tensor([row, col])}


class RandomSegmentationDataset(Dataset):
    """Stand-in for the Urban3D/SpaceNet/CrowdAI datasets: random RGB+DSM tiles and masks."""

    def __init__(self, n=8, size=64):
        self.images = torch.rand(n, 4, size, size)
        self.masks = torch.randint(0, 2, (n, size, size))

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return {"image": self.images[index], "mask": self.masks[index], "name": "tile_{}.npy".format(index)}


def build_dataloader(dataset, data_root, boundary_ks, transforms, resize, split):
    return RandomSegmentationDataset(), RandomSegmentationDataset(n=4)


def build_test_dataloader(args, transforms=None):
    if args.dataset == "numpy":
        return NumpyDataset(args.input_filename, args.window_size, args.stride)
    return RandomSegmentationDataset(n=4)
