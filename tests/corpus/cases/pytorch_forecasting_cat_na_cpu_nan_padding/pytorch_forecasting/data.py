from typing import List

import torch
from torch.utils.data import DataLoader, Dataset


class TimeSeriesDataSet(Dataset):
    """Encoder/decoder windows; the decoder (prediction) length varies between min and max prediction length."""

    def __init__(self, n_samples: int, encoder_length: int, n_features: int, decoder_lengths: List[int]):
        self.encoder_length = encoder_length
        self.n_features = n_features
        self.decoder_lengths = list(decoder_lengths)[:n_samples]

    def __len__(self):
        return len(self.decoder_lengths)

    def __getitem__(self, idx):
        decoder_length = self.decoder_lengths[idx]
        x = dict(
            encoder_cont=torch.randn(self.encoder_length, self.n_features),
            decoder_cont=torch.randn(decoder_length, self.n_features),
            decoder_length=decoder_length,
        )
        return x, torch.randn(decoder_length)

    @staticmethod
    def _collate_fn(batches):
        max_decoder_length = max(x["decoder_length"] for x, _ in batches)
        decoder_cont = torch.zeros(len(batches), max_decoder_length, batches[0][0]["decoder_cont"].shape[1])
        target = torch.zeros(len(batches), max_decoder_length)
        for i, (x, y) in enumerate(batches):
            decoder_cont[i, : x["decoder_length"]] = x["decoder_cont"]
            target[i, : x["decoder_length"]] = y
        x = dict(
            encoder_cont=torch.stack([x["encoder_cont"] for x, _ in batches]),
            decoder_cont=decoder_cont,
            decoder_lengths=torch.tensor([x["decoder_length"] for x, _ in batches]),
        )
        return x, target

    def to_dataloader(self, train: bool = True, batch_size: int = 64, **kwargs) -> DataLoader:
        return DataLoader(self, batch_size=batch_size, shuffle=train, collate_fn=self._collate_fn, **kwargs)
