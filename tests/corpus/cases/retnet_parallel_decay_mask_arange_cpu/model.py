from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class RetNetConfig:
    num_layers: int
    vocab_size: int
    hidden_size: int
    num_heads: int
    qk_dim: int = None
    v_dim: int = None

    def __post_init__(self):
        if self.qk_dim is None:
            self.qk_dim = self.hidden_size
        if self.v_dim is None:
            self.v_dim = self.hidden_size * 2


def split_heads(tensors, bsz, seqlen, num_heads):
    return [x.view(bsz, seqlen, num_heads, -1).transpose(1, 2) for x in tensors]


class MultiScaleRetention(nn.Module):
    def __init__(self, config: RetNetConfig):
        super().__init__()
        self.config = config
        self.qkv = nn.Linear(config.hidden_size, config.qk_dim * 2 + config.v_dim, bias=False)
        self.silu = nn.SiLU()
        self.gated = nn.Linear(config.hidden_size, config.v_dim, bias=False)
        self.proj = nn.Linear(config.v_dim, config.hidden_size)
        self.gn = nn.GroupNorm(num_groups=config.num_heads, num_channels=config.v_dim, affine=False)
        s = torch.log(torch.tensor(1 / 32))
        e = torch.log(torch.tensor(1 / 512))
        gamma = 1 - torch.exp(torch.linspace(s, e, config.num_heads))  # [h,]
        self.decay = nn.Parameter(gamma, requires_grad=False)

    def get_parallel_decay_mask(self, length):
        range_tensor = torch.arange(length)
        range_tensor = range_tensor[None, :, None].expand(self.config.num_heads, length, 1)
        exponent = range_tensor - range_tensor.transpose(-1, -2)
        decay_mask = self.decay.view(-1, 1, 1) ** exponent
        decay_mask = torch.tril(decay_mask, diagonal=0)
        return decay_mask

    def parallel_retention(self, q, k, v, decay_mask):
        retention = q @ k.transpose(-1, -2) * k.size(-1) ** -0.5
        retention = retention * decay_mask
        return retention @ v

    def forward(self, x):
        B, T, H = x.size()
        q, k, v = self.qkv(x).split([self.config.qk_dim, self.config.qk_dim, self.config.v_dim], dim=-1)
        q, k, v = split_heads((q, k, v), B, T, self.config.num_heads)
        decay_mask = self.get_parallel_decay_mask(T)
        retention = self.parallel_retention(q, k, v, decay_mask)
        retention = retention.transpose(1, 2).reshape(B * T, self.config.v_dim)
        retention = self.gn(retention).view(B, T, self.config.v_dim)
        return self.proj(self.silu(self.gated(x)) * retention)


class RetNetBlock(nn.Module):
    def __init__(self, config: RetNetConfig):
        super().__init__()
        self.msr = MultiScaleRetention(config)
        self.ffn = nn.Sequential(nn.Linear(config.hidden_size, config.hidden_size * 2), nn.GELU(),
                                 nn.Linear(config.hidden_size * 2, config.hidden_size))
        self.ln1 = nn.LayerNorm(config.hidden_size)
        self.ln2 = nn.LayerNorm(config.hidden_size)

    def forward(self, x):
        x = x + self.msr(self.ln1(x))
        return x + self.ffn(self.ln2(x))


class RetNetModelWithLMHead(nn.Module):
    def __init__(self, config: RetNetConfig):
        super().__init__()
        self.embedding = nn.Embedding(config.vocab_size, config.hidden_size)
        self.blocks = nn.ModuleList([RetNetBlock(config) for _ in range(config.num_layers)])
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    def forward(self, input_ids):
        h = self.embedding(input_ids)
        for block in self.blocks:
            h = block(h)
        return self.lm_head(h)


if __name__ == "__main__":
    config = RetNetConfig(num_layers=2, vocab_size=100, hidden_size=64, num_heads=4)
    model = RetNetModelWithLMHead(config).to("cuda")
    input_ids = torch.randint(0, 100, (2, 16), device="cuda")
    print(model(input_ids).shape)
