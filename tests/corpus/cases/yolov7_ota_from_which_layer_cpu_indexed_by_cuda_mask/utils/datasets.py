import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class LoadImagesAndLabels(Dataset):
    """Random uint8 images and one or two labels (class, x, y, w, h; normalized) per image."""

    def __init__(self, img_size=64, n=8, nc=2):
        self.img_size, self.n, self.nc = img_size, n, nc

    def __len__(self):
        return self.n

    def __getitem__(self, index):
        img = np.random.randint(0, 255, (3, self.img_size, self.img_size), dtype=np.uint8)
        nl = 1 + index % 2
        labels_out = torch.zeros((nl, 6))
        labels_out[:, 1] = torch.randint(0, self.nc, (nl,)).float()
        labels_out[:, 2:4] = torch.rand(nl, 2) * 0.5 + 0.25
        labels_out[:, 4:6] = torch.rand(nl, 2) * 0.3 + 0.1
        return torch.from_numpy(img), labels_out, f'{index}.jpg', None

    @staticmethod
    def collate_fn(batch):
        img, label, path, shapes = zip(*batch)  # transposed
        for i, l in enumerate(label):
            l[:, 0] = i  # add target image index for build_targets()
        return torch.stack(img, 0), torch.cat(label, 0), path, shapes


def create_dataloader(imgsz, batch_size, nc=2):
    dataset = LoadImagesAndLabels(imgsz, nc=nc)
    loader = DataLoader(dataset, batch_size=batch_size, shuffle=True, collate_fn=LoadImagesAndLabels.collate_fn)
    return loader, dataset
