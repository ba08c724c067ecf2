import os
import random


class DataFolder(object):
    """Iterates over the tensorized batches of a folder. Stand-in: each file of
    the real folder is a pickle of (graphs, tensors, orders) batches made by
    preprocess.py; here a file's batches are generated."""

    def __init__(self, data_folder, batch_size, shuffle=True):
        self.data_folder = data_folder
        self.data_files = ['tensors-0.pkl']
        self.batch_size = batch_size
        self.shuffle = shuffle

    def __len__(self):
        return len(self.data_files) * 1000

    def _load(self, fn):
        rng = random.Random(0)
        batches = []
        for _ in range(3):
            graphs, fnode, scope, orders = [], [], [], []
            for _ in range(self.batch_size):
                n = rng.randint(2, 4)
                labels = [('c1ccccc1', 'c1ccccc1-1') if k % 2 == 0 else ('CC', 'CC-1') for k in range(n)]
                scope.append((len(fnode), n))
                fnode.extend(k % 2 for k in range(n))
                graphs.append(labels)
                orders.append([(0, k, 1) for k in range(1, n)] + [(0, None, 0)])
            tree_tensors = (fnode, scope)
            graph_tensors = (fnode, scope)
            batches.append((graphs, (tree_tensors, graph_tensors), orders))
        return batches

    def __iter__(self):
        for fn in self.data_files:
            fn = os.path.join(self.data_folder, fn)
            batches = self._load(fn)
            if self.shuffle:
                random.shuffle(batches)
            for batch in batches:
                yield batch
