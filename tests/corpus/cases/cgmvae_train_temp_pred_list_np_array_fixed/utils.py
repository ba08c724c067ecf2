import os
import numpy as np

THRESHOLDS = [0.3, 0.5]


def build_path(path):
    os.makedirs(path, exist_ok=True)


def load_data(path, n=300, label_dim=38, feature_dim=15):
    """Stand-in for np.load(path): rows of [labels | features]."""
    rng = np.random.default_rng(0)
    labels = (rng.random((n, label_dim)) < 0.2).astype("float32")
    labels[np.arange(n), rng.integers(0, label_dim, n)] = 1
    feats = rng.normal(size=(n, feature_dim)).astype("float32")
    return np.concatenate([labels, feats], axis=1)


def load_idx(path, n=300, split=0.8):
    """Stand-in for np.load(idx_path)."""
    cut = int(n * split)
    return np.arange(cut) if "train" in path else np.arange(cut, n)


def get_label(data, order, offset, label_dim):
    output = []
    for i in order:
        output.append(data[i][offset:offset + label_dim])
    output = np.array(output, dtype="int")
    return output


def get_feat(data, order, meta_offset, label_dim, feature_dim):
    output = []
    meta_output = []
    offset = meta_offset + label_dim
    for i in order:
        meta_output.append(data[i][:meta_offset])
        output.append(data[i][offset:offset + feature_dim])
    output = np.array(output, dtype="float32")
    meta_output = np.array(meta_output, dtype="float32")
    return np.concatenate([output, meta_output], axis=1)


class SummaryWriter:
    """Stand-in for torch.utils.tensorboard.SummaryWriter."""

    def __init__(self, log_dir=None):
        self.log_dir = log_dir

    def add_scalar(self, *args, **kwargs):
        pass
