import torch

from entropix.torch_device import get_device
import torch.nn as nn

device = get_device()


class KVCache(nn.Module):
    def __init__(self, layers, bsz, max_seq_len, kv_heads, head_dim):
        super().__init__()
        self.register_buffer("k", torch.zeros((layers, bsz, max_seq_len, kv_heads, head_dim), device=device))
        self.register_buffer("v", torch.zeros((layers, bsz, max_seq_len, kv_heads, head_dim), device=device))

    @classmethod
    def new(cls, layers, bsz, max_seq_len, kv_heads, head_dim):
        return cls(layers, bsz, max_seq_len, kv_heads, head_dim)

    def update(self, xk, xv, layer_idx, cur_pos, n_rep):
        insert_len = xk.size(1)
        self.k[layer_idx, :, cur_pos:cur_pos + insert_len, :, :] = xk
        self.v[layer_idx, :, cur_pos:cur_pos + insert_len, :, :] = xv
        if cur_pos == 0:
            keys = xk.repeat_interleave(n_rep, dim=2)
            values = xv.repeat_interleave(n_rep, dim=2)
        else:
            keys = self.k[layer_idx].repeat_interleave(n_rep, dim=2)
            values = self.v[layer_idx].repeat_interleave(n_rep, dim=2)
        return keys, values, self
