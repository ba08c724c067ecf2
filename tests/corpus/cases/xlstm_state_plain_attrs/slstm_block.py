import torch
from torch import nn


class SLSTMBlock(nn.Module):
    def __init__(self, x_example, dropout=0.2):
        super().__init__()
        self.input_size = x_example.shape[2]
        self.ln = nn.LayerNorm(self.input_size)
        self.gates = nn.Linear(self.input_size, 4 * self.input_size)
        self.drop = nn.Dropout(dropout)
        self.init_states(x_example)

    def init_states(self, x_example):
        self.nt_1 = torch.zeros(1, 1, x_example.shape[2], device=x_example.device)
        self.ct_1 = torch.zeros(1, 1, x_example.shape[2], device=x_example.device)
        self.ht_1 = torch.zeros(1, 1, x_example.shape[2], device=x_example.device)
        self.mt_1 = torch.zeros(1, 1, x_example.shape[2], device=x_example.device)

    def forward(self, x):
        i_t, f_t, o_t, z_t = self.gates(self.ln(x) + self.ht_1).chunk(4, dim=-1)
        m_t = torch.maximum(f_t + self.mt_1, i_t)
        i = torch.exp(i_t - m_t)
        f = torch.exp(f_t + self.mt_1 - m_t)
        c_t = f * self.ct_1 + i * torch.tanh(z_t)
        n_t = f * self.nt_1 + i
        h_t = torch.sigmoid(o_t) * (c_t / n_t)
        return self.drop(h_t) + x
