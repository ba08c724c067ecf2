import numpy as np


class BaseDataset:
    """Stand-in for a WRENCH text dataset with pre-extracted (BERT) features."""

    def __init__(self, n_examples, n_lf=10, n_class=2, feature_dim=32, seed=0):
        rng = np.random.RandomState(seed)
        self.n_class = n_class
        self.n_lf = n_lf
        self.examples = [{'text': f'comment {i}'} for i in range(n_examples)]
        self.labels = rng.randint(0, n_class, n_examples).tolist()
        self.weak_labels = rng.randint(-1, n_class, (n_examples, n_lf)).tolist()
        self.features = rng.randn(n_examples, feature_dim).astype(np.float32)

    def __len__(self):
        return len(self.examples)

    def get_covered_subset(self):
        covered = [i for i, l in enumerate(self.weak_labels) if any(x != -1 for x in l)]
        subset = BaseDataset.__new__(BaseDataset)
        subset.n_class, subset.n_lf = self.n_class, self.n_lf
        subset.examples = [self.examples[i] for i in covered]
        subset.labels = [self.labels[i] for i in covered]
        subset.weak_labels = [self.weak_labels[i] for i in covered]
        subset.features = self.features[covered]
        return subset
