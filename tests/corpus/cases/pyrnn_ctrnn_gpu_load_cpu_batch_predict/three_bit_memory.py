import numpy as np
from numpy import random as rnd
import torch
import torch.utils.data as data


class ThreeBitDataset(data.Dataset):
    """3 bit memory task: inputs are flips (1 / -1) on three channels, outputs the remembered state."""

    def __init__(self, sequence_length, dataset_length=1):
        self.sequence_length = sequence_length
        self.dataset_length = dataset_length
        self.make_trials()

    def __len__(self):
        return self.dataset_length

    def make_trials(self):
        seq_len = self.sequence_length
        self.items = {}
        for i in range(self.dataset_length * 2):
            X_batch = torch.zeros((seq_len, 3))
            Y_batch = torch.zeros((seq_len, 3))
            for m in range(3):
                flips = rnd.uniform(1, seq_len - 1, max(1, int(seq_len / 20))).astype(np.int32)
                x = np.zeros(seq_len, dtype=np.float32)
                x[flips] = rnd.choice([-1, 1], len(flips))
                x[0] = 1
                y = np.zeros(seq_len, dtype=np.float32)
                state = 0
                for n, v in enumerate(x):
                    if v != 0:
                        state = v
                    y[n] = state
                X_batch[:, m] = torch.from_numpy(x)
                Y_batch[:, m] = torch.from_numpy(y)
            self.items[i] = (X_batch, Y_batch)

    def __getitem__(self, item):
        X_batch, Y_batch = self.items[item]
        return X_batch, Y_batch


def make_batch(seq_len):
    """Return a single batch of given length."""
    dataloader = torch.utils.data.DataLoader(ThreeBitDataset(seq_len, dataset_length=1), batch_size=1, shuffle=True)
    batch = [b for b in dataloader][0]
    return batch


def plot_predictions(model, seq_len, batch_size):
    """Run the model on a single batch and compare its predictions with the input data and labels."""
    X, Y = make_batch(seq_len)
    o, h = model.predict(X)
    for n in range(3):
        print("Input", n, float(X[0, :, n].sum()), float(Y[0, :, n].sum()), float(o[0, :, n].sum()))
