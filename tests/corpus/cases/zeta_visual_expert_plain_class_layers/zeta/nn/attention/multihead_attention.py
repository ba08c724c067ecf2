import torch
from torch import nn


class MultiheadAttention(nn.Module):
    """Stand-in for zeta's MultiheadAttention: scaled dot-product attention over q, k, v with heads."""

    def __init__(self, embed_dim, num_heads, dropout=0.0):
        super().__init__()
        self.num_heads = num_heads
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value):
        b, n, d = query.shape
        h = self.num_heads
        q, k, v = (t.reshape(t.shape[0], t.shape[1], h, d // h).transpose(1, 2) for t in (query, key, value))
        attn = torch.softmax(q @ k.transpose(-2, -1) / (d // h) ** 0.5, dim=-1)
        out = (self.dropout(attn) @ v).transpose(1, 2).reshape(b, n, d)
        return self.out_proj(out)
