# coding: utf-8
"""
Data module (reduced): torchtext's bucket iterator yields batches whose `src` and `trg`
fields are (padded token ids, lengths) pairs of CPU tensors, sorted by source length.
"""
from types import SimpleNamespace

import torch


def make_data_iter(num_batches: int = 2, batch_size: int = 3, vocab_size: int = 10, pad_index: int = 1):
    for _ in range(num_batches):
        lengths = [5, 4, 2][:batch_size]
        src = torch.randint(2, vocab_size, (batch_size, 5))
        for row, length in enumerate(lengths):
            src[row, length:] = pad_index
        src_length = torch.tensor(lengths)
        trg = torch.randint(2, vocab_size, (batch_size, 6))
        yield SimpleNamespace(src=(src, src_length), trg=(trg, torch.full((batch_size,), 6)))
