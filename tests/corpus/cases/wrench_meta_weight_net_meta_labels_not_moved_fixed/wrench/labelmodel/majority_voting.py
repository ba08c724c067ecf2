import numpy as np


class MajorityVoting:
    def fit(self, dataset_train, dataset_valid=None, **kwargs):
        return self

    def predict(self, dataset):
        L = np.array(dataset.weak_labels)
        votes = np.stack([(L == c).sum(1) for c in range(dataset.n_class)], 1)
        return votes.argmax(1)
