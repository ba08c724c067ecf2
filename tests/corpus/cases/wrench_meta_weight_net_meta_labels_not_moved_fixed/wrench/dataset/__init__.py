from .basedataset import BaseDataset
from .torchdataset import TorchDataset, sample_batch


def load_dataset(data_home, dataset, extract_feature=False, extract_fn=None, **kwargs):
    """Stand-in: the real loader reads train/valid/test json files and extracts BERT features."""
    return BaseDataset(256, seed=0), BaseDataset(64, seed=1), BaseDataset(64, seed=2)
