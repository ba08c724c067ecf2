import torch
from torch import nn

from stanza.models.constituency.positional_encoding import ConcatSinusoidalEncoding


class LSTMModel(nn.Module):
    """Stand-in for the constituency parser's word encoder: word embeddings, the concatenated
    sinusoidal position encoding and a bidirectional LSTM scoring the transitions."""

    def __init__(self, vocab_size, word_dim=32, pattn_d_model=16, max_len=64, hidden_size=32, num_transitions=5):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, word_dim)
        self.partitioned_transformer_module = ConcatSinusoidalEncoding(d_model=pattn_d_model, max_len=max_len)
        self.word_lstm = nn.LSTM(word_dim + pattn_d_model, hidden_size, batch_first=True, bidirectional=True)
        self.output = nn.Linear(2 * hidden_size, num_transitions)

    def forward(self, word_ids):
        embedded = self.embedding(word_ids)
        embedded = self.partitioned_transformer_module(embedded)
        hidden, _ = self.word_lstm(embedded)
        return self.output(hidden)
