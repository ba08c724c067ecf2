import torch
from torch import nn

from .. import data
from .base import BaseEncoderDecoder


class LSTMEncoderDecoder(BaseEncoderDecoder):
    """Stand-in for the attentive LSTM: a pooled feed-forward encoder, a decoder
    scoring every target position."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.embeddings = nn.Embedding(self.vocab_size, self.embedding_size, padding_idx=self.pad_idx)
        self.encoder = nn.Sequential(nn.Linear(self.embedding_size, self.hidden_size), nn.Tanh())
        self.classifier = nn.Linear(self.hidden_size, self.vocab_size)
        self.max_target_length = 10

    def forward(self, batch: data.PaddedBatch) -> torch.Tensor:
        encoded = self.encoder(self.embeddings(batch.source.padded)).mean(dim=1)
        length = batch.target.padded.size(1) if batch.target is not None else self.max_target_length
        state = encoded.unsqueeze(1).expand(-1, length, -1)
        return nn.functional.log_softmax(self.classifier(state), dim=-1)
