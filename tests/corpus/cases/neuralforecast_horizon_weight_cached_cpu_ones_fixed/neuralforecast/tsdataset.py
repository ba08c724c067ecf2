import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset


class TimeSeriesDataset(Dataset):
    """One [C, T] tensor (y and its availability mask) per series."""

    def __init__(self, series):
        self.temporal = [torch.tensor(np.stack([s, np.ones_like(s)]), dtype=torch.float32) for s in series]
        self.temporal_cols = ['y', 'available_mask']

    def __len__(self):
        return len(self.temporal)

    def __getitem__(self, idx):
        return {'temporal': self.temporal[idx], 'temporal_cols': self.temporal_cols}

    @staticmethod
    def from_df(df):
        return TimeSeriesDataset([np.asarray(v, dtype=np.float32) for v in df.values()])


def _collate(batch):
    return {'temporal': torch.stack([b['temporal'] for b in batch]), 'temporal_cols': batch[0]['temporal_cols']}


class TimeSeriesDataModule:
    def __init__(self, dataset, batch_size=32):
        self.dataset, self.batch_size = dataset, batch_size

    def train_dataloader(self):
        return DataLoader(self.dataset, batch_size=self.batch_size, shuffle=True, collate_fn=_collate)
