import torch
from torch.utils import data

from .batches import PaddedBatch, PaddedTensor


class Collator:
    def __init__(self, pad_idx):
        self.pad_idx = pad_idx

    def __call__(self, itemlist):
        source = PaddedTensor([item[0] for item in itemlist], self.pad_idx)
        target = PaddedTensor([item[1] for item in itemlist], self.pad_idx)
        return PaddedBatch(source, target=target)


class DataModule:
    """Stand-in for the LightningDataModule reading TSV files: random symbol strings."""

    pad_idx = 0
    start_idx = 1
    end_idx = 2

    def __init__(self, batch_size=8, vocab_size=20, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.vocab_size = vocab_size
        self.batch_size = batch_size

        def sample(n):
            items = []
            for _ in range(n):
                ln = int(torch.randint(3, 9, (1,), generator=g))
                src = torch.randint(3, vocab_size, (ln,), generator=g)
                tgt = torch.cat([src.flip(0), torch.tensor([self.end_idx])])
                items.append((src, tgt))
            return items

        self.train_items, self.dev_items = sample(32), sample(16)
        self.collator = Collator(self.pad_idx)

    def train_dataloader(self):
        return data.DataLoader(self.train_items, collate_fn=self.collator, batch_size=self.batch_size, shuffle=True)

    def val_dataloader(self):
        return data.DataLoader(self.dev_items, collate_fn=self.collator, batch_size=self.batch_size, shuffle=False)
