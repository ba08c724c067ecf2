from typing import Optional, Tuple

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class BiLSTM(nn.Module):
    """Multi-layer bidirectional LSTM representation preceded by dropout."""

    class Config:
        dropout: float = 0.4
        lstm_dim: int = 32
        num_layers: int = 1
        bidirectional: bool = True

    def __init__(self, config: Config, embed_dim: int, padding_value: float = 0.0) -> None:
        super().__init__()
        self.config = config
        self.padding_value = padding_value
        self.dropout = nn.Dropout(config.dropout)
        self.lstm = nn.LSTM(
            embed_dim,
            config.lstm_dim,
            num_layers=config.num_layers,
            bidirectional=config.bidirectional,
        )
        self.representation_dim = config.lstm_dim * (2 if config.bidirectional else 1)

    def forward(
        self,
        embedded_tokens: torch.Tensor,
        seq_lengths: torch.Tensor,
        states: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
    ) -> Tuple[torch.Tensor, Tuple[torch.Tensor, torch.Tensor]]:
        embedded_tokens = self.dropout(embedded_tokens)
        if states is not None:
            # (bsz x layers*directions x nhid) -> (layers*directions x bsz x nhid)
            states = (
                states[0].transpose(0, 1).contiguous(),
                states[1].transpose(0, 1).contiguous(),
            )
        else:
            # an explicit zero state sized by the batch, so that a traced model
            # does not freeze the batch size (pytorch/pytorch#16664)
            state = torch.zeros(
                self.config.num_layers * (2 if self.config.bidirectional else 1),
                seq_lengths.size(0),
                self.config.lstm_dim,
            )
            states = (state, state)

        rnn_input = pack_padded_sequence(embedded_tokens, seq_lengths.int(), batch_first=True)
        rep, new_state = self.lstm(rnn_input, states)
        rep, _ = pad_packed_sequence(
            rep, padding_value=self.padding_value, batch_first=True, total_length=embedded_tokens.size(1)
        )
        new_state = (new_state[0].transpose(0, 1), new_state[1].transpose(0, 1))
        return rep, new_state
