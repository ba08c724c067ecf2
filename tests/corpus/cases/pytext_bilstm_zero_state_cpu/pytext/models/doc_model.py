import torch
import torch.nn as nn

from pytext.models.representations.bilstm import BiLSTM


class DocModel(nn.Module):
    """Word embedding -> BiLSTM representation -> max pooling -> MLP decoder."""

    def __init__(self, vocab_size: int, embed_dim: int, num_labels: int, lstm_config: BiLSTM.Config):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim, padding_idx=0)
        self.representation = BiLSTM(lstm_config, embed_dim)
        self.decoder = nn.Linear(self.representation.representation_dim, num_labels)

    def forward(self, tokens: torch.Tensor, seq_lens: torch.Tensor) -> torch.Tensor:
        embedded = self.embedding(tokens)
        rep, _ = self.representation(embedded, seq_lens)
        return self.decoder(rep.max(dim=1)[0])
