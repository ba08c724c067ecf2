from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


def compute_freq_cis(emb_dim: int, seq_len: int, thetha: Optional[float] = 10000.0, device: Optional[str] = 'cpu'):
    t_thetha = 1.0 / (thetha ** (torch.arange(0, emb_dim, 2, device=device)[:emb_dim // 2] / emb_dim))
    t = torch.arange(seq_len, device=device)
    freqs = torch.outer(t, t_thetha)
    return torch.polar(torch.ones_like(freqs), freqs)


def RoPE(freq_cis: torch.Tensor, query: torch.Tensor, key: torch.Tensor, device: Optional[str] = 'cpu'):
    b, t, c = query.size()
    query = query.to(device)
    key = key.to(device)
    freq_cis = freq_cis.to(device)
    query_complex = torch.view_as_complex(query.float().reshape(b, t, c // 2, 2))
    key_complex = torch.view_as_complex(key.float().reshape(b, t, c // 2, 2))
    q_rot = torch.view_as_real(query_complex * freq_cis).flatten(2)
    k_rot = torch.view_as_real(key_complex * freq_cis).flatten(2)
    return q_rot.type_as(query), k_rot.type_as(key)


class InfiniAttention(nn.Module):
    def __init__(self, seq_len: int, emb_dim: int, d_head: int, n_head: int, n_segments: int,
                 is_causal: Optional[bool] = True, update: Optional[str] = 'linear',
                 use_rope: Optional[bool] = True, device: Optional[str] = 'cpu'):
        super().__init__()
        assert seq_len % n_segments == 0, 'seq_len must be divisible to n_segments'
        assert emb_dim % n_head == 0, 'emb_dim must be divisible to n_head'
        self.seq_len = seq_len
        self.n_segments = n_segments
        self.n_head = n_head
        self.emb_dim = emb_dim
        self.d_head = d_head
        self.is_causal = is_causal
        self.use_rope = use_rope
        self.update = update
        self.device = device

        self.beta = nn.Parameter(torch.ones((1,), device=device))  # learnable gate between memory and local attention
        self.q = nn.Linear(emb_dim, emb_dim, device=device)
        self.k = nn.Linear(emb_dim, emb_dim, device=device)
        self.v = nn.Linear(emb_dim, emb_dim, device=device)
        self.o = nn.Linear(emb_dim, emb_dim, device=device)
        self.elu = nn.ELU()
        self.freq_cis = compute_freq_cis(emb_dim, seq_len, 10000.0, device=device)
        self.register_buffer('causal', torch.tril(torch.ones(seq_len // n_segments, seq_len // n_segments, device=device)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch_size, _, _ = x.size()

        # compressive memory and its normaliser, started from zero for every sequence
        memory = torch.zeros((self.n_head, self.d_head, self.d_head)).to(self.device)
        z = torch.zeros((self.n_head, self.d_head, 1)).to(self.device)

        query = self.q(x)
        key = self.k(x)
        value = self.v(x)
        if self.use_rope:
            query, key = RoPE(self.freq_cis, query, key, self.device)

        seg = self.seq_len // self.n_segments
        query = query.view(batch_size, self.n_head, self.n_segments, seg, self.d_head)
        key = key.view(batch_size, self.n_head, self.n_segments, seg, self.d_head)
        value = value.view(batch_size, self.n_head, self.n_segments, seg, self.d_head)

        output = []
        for idx in range(self.n_segments):
            sigma_q = self.elu(query[:, :, idx, :, :]) + 1.0
            sigma_k = self.elu(key[:, :, idx, :, :]) + 1.0
            A_mem = (sigma_q @ memory) / ((sigma_q @ z) + 1e-6)

            A_dot = query[:, :, idx, :, :] @ key[:, :, idx, :, :].transpose(-2, -1)
            if self.is_causal:
                A_dot = A_dot.masked_fill(self.causal == 0, float('-inf'))
            A_dot = F.softmax(A_dot / (self.d_head ** 0.5), dim=-1)
            A_dot = A_dot @ value[:, :, idx, :, :]

            attention = (torch.sigmoid(self.beta) * A_mem) + ((1 - torch.sigmoid(self.beta)) * A_dot)

            if self.update == 'linear':
                memory = memory + (sigma_k.transpose(-2, -1) @ value[:, :, idx, :, :])
            else:
                delta = (sigma_k @ memory) / ((sigma_k @ z) + 1e-6)
                memory = memory + (sigma_k.transpose(-2, -1) @ (value[:, :, idx, :, :] - delta))
            z = z + sigma_k.sum(dim=-2, keepdim=True)
            output.append(attention)

        attention = torch.concat(output, dim=2).view(batch_size, self.seq_len, self.emb_dim)
        return self.o(attention)


if __name__ == '__main__':
    seq_len = 256
    emb_dim = 128
    n_head = 4
    d_head = emb_dim // n_head
    n_segments = 4  # seq_len must be divisible by n_segments
    batch_size = 1

    device = 'cuda' if torch.cuda.is_available() else 'cpu'

    x = torch.randn(batch_size, seq_len, emb_dim, device=device)
    Attention = InfiniAttention(seq_len, emb_dim, d_head, n_head, n_segments, device=device)
    output = Attention(x)
    print(output.shape)
