from typing import NamedTuple

import torch

from entropix.torch_device import get_device
from entropix.torch_kvcache import KVCache
from entropix.torch_model import xfmr
from entropix.torch_weights import load_weights

device = get_device()

print(f"Using device: {device}")


class ModelParams(NamedTuple):
    n_layers: int = 16
    n_local_heads: int = 32
    n_local_kv_heads: int = 8
    head_dim: int = 64
    max_seq_len: int = 4096


def build_attn_mask(seqlen, start_pos):
    mask = None
    if seqlen > 1:
        mask = torch.full((seqlen, seqlen), float("-inf"))
        mask = torch.triu(mask, diagonal=1)
        mask = torch.hstack([torch.zeros((seqlen, start_pos)), mask]).to(torch.float32).to(device)
    return mask


def generate(xfmr_weights, model_params, tokens, max_new_tokens=64):
    cur_pos = 0
    tokens = torch.tensor([tokens], dtype=torch.long).to(device)
    bsz, seqlen = tokens.shape
    attn_mask = build_attn_mask(seqlen, cur_pos)
    kvcache = KVCache.new(model_params.n_layers, bsz, model_params.max_seq_len, model_params.n_local_kv_heads, model_params.head_dim).to(device)
    logits, kvcache = xfmr(xfmr_weights, model_params, tokens, cur_pos, kvcache, attn_mask=attn_mask)
    next_token = torch.argmax(logits[:, -1], dim=-1, keepdim=True)
    gen_tokens = next_token
    cur_pos = seqlen
    while cur_pos < seqlen + max_new_tokens:
        logits, kvcache = xfmr(xfmr_weights, model_params, next_token, cur_pos, kvcache)
        next_token = torch.argmax(logits[:, -1], dim=-1, keepdim=True)
        gen_tokens = torch.cat((gen_tokens, next_token), dim=1)
        cur_pos += 1
    return gen_tokens


def main():
    with torch.inference_mode():
        print(generate(load_weights(), ModelParams(), [128000, 791, 4320, 374]))


if __name__ == "__main__":
    main()
