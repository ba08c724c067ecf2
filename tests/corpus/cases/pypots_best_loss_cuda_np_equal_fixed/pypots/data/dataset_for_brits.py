import torch
from torch.utils.data import Dataset


class DatasetForBRITS(Dataset):
    """ Dataset class for BRITS.
    """

    def __init__(self, X):
        super().__init__()
        self.X = X
        self.missing_mask = (~torch.isnan(X)).type(torch.float32)
        self.X_filled = torch.nan_to_num(X)

    def __len__(self):
        return len(self.X)

    def __getitem__(self, idx):
        return [
            torch.tensor(idx),
            self.X_filled[idx].to(torch.float32),
            self.missing_mask[idx].to(torch.float32),
        ]
