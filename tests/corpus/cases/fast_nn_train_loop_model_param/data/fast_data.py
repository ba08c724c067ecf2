import numpy as np
import torch
from torch.utils.data import Dataset


class RegressionDataset(Dataset):
    def __init__(self, x, y):
        self.n = np.shape(x)[0]
        if self.n != np.shape(y)[0]:
            raise ValueError("RegressionDataset: Sample size doesn't match!")
        self.feature = x
        self.response = y

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        return torch.tensor(self.feature[idx, :], dtype=torch.float32), \
            torch.tensor(self.response[idx, :], dtype=torch.float32)
