import torch
from torch import nn


class _TFTModule(nn.Module):
    """Temporal fusion transformer core (variable selection and attention left out)."""

    def __init__(self, input_chunk_length, output_chunk_length, n_features, hidden_size=16, add_relative_index=True):
        super().__init__()
        self.input_chunk_length = input_chunk_length
        self.output_chunk_length = output_chunk_length
        self.add_relative_index = add_relative_index
        n_in = n_features + (1 if add_relative_index else 0)
        self.lstm_encoder = nn.LSTM(n_in, hidden_size, batch_first=True)
        self.lstm_decoder = nn.LSTM(n_in, hidden_size, batch_first=True)
        self.attention = nn.MultiheadAttention(hidden_size, 4, batch_first=True)
        self.output_layer = nn.Linear(hidden_size, 1)
        # initialize last batch size to check if new mask needs to be generated
        self.batch_size_last = -1
        self.attention_mask = None
        self.relative_index = None

    @staticmethod
    def get_relative_index(encoder_length, decoder_length, batch_size, dtype, device):
        index = torch.arange(encoder_length + decoder_length, dtype=dtype, device=device)
        index = index / (encoder_length - 1)
        return index.reshape(1, len(index), 1).repeat(batch_size, 1, 1)

    @staticmethod
    def get_attention_mask_future(encoder_length, decoder_length, batch_size, device):
        attend_step = torch.arange(decoder_length, device=device)
        predict_step = torch.arange(0, decoder_length, device=device)[:, None]
        decoder_mask = attend_step >= predict_step
        encoder_mask = torch.zeros(batch_size, encoder_length, dtype=torch.bool, device=device)
        return torch.cat(
            (encoder_mask.unsqueeze(1).expand(-1, decoder_length, -1), decoder_mask.unsqueeze(0).expand(batch_size, -1, -1)),
            dim=2,
        )

    def forward(self, x_in):
        x_cont_past, x_cont_future = x_in
        device = x_in[0].device
        batch_size = x_cont_past.shape[0]
        encoder_length = self.input_chunk_length
        decoder_length = self.output_chunk_length

        # avoid unnecessary regeneration of attention mask
        if batch_size != self.batch_size_last:
            self.attention_mask = self.get_attention_mask_future(encoder_length, decoder_length, batch_size, device)
            if self.add_relative_index:
                self.relative_index = self.get_relative_index(
                    encoder_length, decoder_length, batch_size, x_cont_past.dtype, device
                )
            self.batch_size_last = batch_size

        if self.add_relative_index:
            x_cont_past = torch.cat([x_cont_past, self.relative_index[:, :encoder_length, :]], dim=2)
            x_cont_future = torch.cat([x_cont_future, self.relative_index[:, -decoder_length:, :]], dim=2)

        encoded, state = self.lstm_encoder(x_cont_past)
        decoded, _ = self.lstm_decoder(x_cont_future, state)
        memory = torch.cat([encoded, decoded], dim=1)
        mask = self.attention_mask.repeat_interleave(self.attention.num_heads, dim=0)
        attended, _ = self.attention(decoded, memory, memory, attn_mask=mask)
        return self.output_layer(attended)
