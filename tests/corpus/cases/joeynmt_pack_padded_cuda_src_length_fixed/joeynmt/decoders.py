# coding: utf-8

import torch
import torch.nn as nn


class Decoder(nn.Module):
    """
    Base decoder class
    """


class RecurrentDecoder(Decoder):
    """A conditional RNN decoder (reduced: the bridge and the output layer, no attention)."""
    def __init__(self, hidden_size: int = 1, emb_size: int = 1, encoder=None, vocab_size: int = 0, **kwargs) -> None:
        super().__init__()
        self.bridge_layer = nn.Linear(encoder.output_size, emb_size, bias=True)
        self.output_layer = nn.Linear(emb_size, vocab_size, bias=False)

    def forward(self, trg_embed, encoder_output, encoder_hidden, src_mask, unroll_steps,
                hidden=None, prev_att_vector=None, trg_mask=None, **kwargs):
        hidden = torch.tanh(self.bridge_layer(encoder_hidden))
        outputs = self.output_layer(trg_embed + hidden.unsqueeze(1))
        return outputs, hidden, None, None
