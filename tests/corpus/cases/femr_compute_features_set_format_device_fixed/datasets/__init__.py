"""Stand-in for the parts of HuggingFace `datasets` that femr uses.

`set_format("pt", device=...)` behaves as in datasets' TorchFormatter: every
row that is read is converted recursively, numpy arrays and numbers becoming
torch tensors created with the format's keyword arguments (the device
included)."""
import numpy as np
import torch


class Dataset(object):
    def __init__(self, rows):
        self._rows = list(rows)
        self._format_type = None
        self._format_kwargs = {}

    @classmethod
    def from_list(cls, rows):
        return cls(rows)

    @classmethod
    def from_generator(cls, generator, gen_kwargs=None):
        return cls(generator(**(gen_kwargs or {})))

    def select(self, indices):
        return Dataset([self._rows[i] for i in indices])

    def set_format(self, type=None, columns=None, **format_kwargs):
        self._format_type = type
        self._format_kwargs = format_kwargs

    def _tensorize(self, value):
        if isinstance(value, dict):
            return {k: self._tensorize(v) for k, v in value.items()}
        if isinstance(value, (np.ndarray, np.number, int, float, bool)):
            return torch.tensor(value, **self._format_kwargs)
        return value

    def __len__(self):
        return len(self._rows)

    def __getitem__(self, i):
        row = self._rows[i]
        return self._tensorize(row) if self._format_type == "pt" else row

    def __iter__(self):
        for i in range(len(self._rows)):
            yield self[i]
