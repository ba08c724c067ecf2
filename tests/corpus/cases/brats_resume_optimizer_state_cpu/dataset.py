import torch
from torch.utils.data import DataLoader, Dataset


class BraTSDataset(Dataset):
    """FLAIR slices with one-hot (background, tumour) masks; random stand-ins for the .npy files."""

    def __init__(self, n=32, size=64):
        self.images = torch.rand(n, 1, size, size)
        labels = (torch.rand(n, size, size) > 0.9).long()
        self.labels = torch.nn.functional.one_hot(labels, 2).permute(0, 3, 1, 2).float()

    def __len__(self):
        return len(self.images)

    def __getitem__(self, idx):
        return self.images[idx], self.labels[idx], 'slice_%d' % idx


def data_loader(args, mode):
    return DataLoader(BraTSDataset(), batch_size=args.batch_size, shuffle=(mode == 'train'))
