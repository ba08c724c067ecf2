import random


class _Dataset(object):
    """Stand-in for the IMDB/AG News readers: reviews already split into sentences of word ids."""

    def __init__(self, n_classes=2, n_train=64, n_test=16, n_tokens=500):
        self.n_classes = n_classes
        self.n_train = n_train
        self.n_test = n_test
        self.n_tokens = n_tokens

    def _review(self):
        return [[random.randrange(2, self.n_tokens) for _ in range(random.randint(3, 12))]
                for _ in range(random.randint(1, 6))]

    def load_train_data(self):
        for _ in range(self.n_train):
            yield self._review(), random.randrange(self.n_classes)

    def load_test_data(self):
        for _ in range(self.n_test):
            yield self._review(), random.randrange(self.n_classes)


def load_datasets(names=["imdb"]):
    return [_Dataset() for _ in names]
