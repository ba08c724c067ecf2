"""Encoder of a command-to-action seq2seq model (commands are padded token sequences)."""
from typing import List, Tuple

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class EncoderRNN(nn.Module):
    def __init__(self, input_size: int, embedding_dim: int, hidden_size: int, num_layers: int,
                 dropout_probability: float, padding_idx: int):
        super().__init__()
        self.embedding = nn.Embedding(input_size, embedding_dim, padding_idx=padding_idx)
        self.dropout = nn.Dropout(dropout_probability)
        self.lstm = nn.LSTM(input_size=embedding_dim, hidden_size=hidden_size, num_layers=num_layers,
                            dropout=dropout_probability)

    def forward(self, input_batch: torch.LongTensor, input_lengths: List[int]) -> Tuple[torch.Tensor, dict]:
        input_embeddings = self.dropout(self.embedding(input_batch))

        # Sort the sequences by length in descending order.
        input_lengths = torch.tensor(input_lengths, device=device, dtype=torch.long)
        input_lengths, perm_idx = torch.sort(input_lengths, descending=True)
        input_embeddings = input_embeddings.index_select(dim=0, index=perm_idx)

        packed_input = pack_padded_sequence(input_embeddings, input_lengths.cpu(), batch_first=True)
        packed_output, (hidden, cell) = self.lstm(packed_input)
        output_per_timestep, _ = pad_packed_sequence(packed_output)
        hidden = hidden[-1, :, :]

        # Reverse the sorting.
        _, unperm_idx = perm_idx.sort(0)
        hidden = hidden.index_select(dim=0, index=unperm_idx)
        output_per_timestep = output_per_timestep.index_select(dim=1, index=unperm_idx)
        return hidden, {"encoder_outputs": output_per_timestep, "sequence_lengths": input_lengths[unperm_idx].tolist()}


if __name__ == "__main__":
    encoder = EncoderRNN(input_size=20, embedding_dim=16, hidden_size=32, num_layers=1,
                         dropout_probability=0.1, padding_idx=0).to(device)
    commands = torch.randint(1, 20, (3, 6), device=device)
    print(encoder(commands, [6, 4, 5])[0].shape)
