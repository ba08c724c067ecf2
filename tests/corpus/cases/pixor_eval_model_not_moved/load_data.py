import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


def my_collate_test(batch):
    """Point clouds are stacked; labels and calibration objects stay lists."""
    point_clouds, labels, calibs = [], [], []
    for sample in batch:
        point_clouds.append(sample[0])
        labels.append(sample[1])
        calibs.append(sample[2])
    return torch.stack(point_clouds), labels, calibs


class PointCloudDataset(Dataset):
    """KITTI lidar scans voxelised into a bird's-eye-view grid, created on the model's device."""

    def __init__(self, root_dir, split="training", device=torch.device("cpu")):
        self.device = device
        self.root_dir = root_dir
        self.num_samples = 6481 if split == "training" else 1000

    def __len__(self):
        return self.num_samples

    def __getitem__(self, index):
        lidar_data = np.fromfile(f"{self.root_dir}/{index:06d}.bin", dtype=np.float32).reshape(36, 800, 700)
        voxel_point_cloud = torch.tensor(lidar_data, requires_grad=True, device=self.device).float()
        return voxel_point_cloud, [], None


def load_dataset(root="Data/", batch_size=1, device=torch.device("cpu")):
    test_dataset = PointCloudDataset(root_dir=root, device=device, split="testing")
    return DataLoader(test_dataset, batch_size=batch_size, shuffle=False, collate_fn=my_collate_test, drop_last=True)
