import argparse

import torch

from test_utils import random_tensor


def torch_self_attention(attn_val, query, key, value, scale):
    query = query.transpose(-2, -3)
    key = key.transpose(-2, -3)
    value = value.transpose(-2, -3)
    L, S = query.size(-2), key.size(-2)
    attn_bias = torch.zeros(L, S, dtype=query.dtype, device=query.device)

    temp_mask = torch.ones(L, S, dtype=torch.bool).tril(diagonal=S - L)
    attn_bias.masked_fill_(temp_mask.logical_not(), float("-inf"))

    key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)
    value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)
    attn_weight = query @ key.transpose(-2, -1) * scale
    attn_weight += attn_bias
    attn_weight = torch.softmax(attn_weight, dim=-1)
    attn_val.copy_((attn_weight @ value).transpose(-2, -3))


def test_op_self_attention(qlen, kvlen, nh, nkvh, hd, dtype_name="f32", device_name="cpu"):
    q = random_tensor((qlen, nh, hd), dtype_name, device_name)
    k = random_tensor((kvlen, nkvh, hd), dtype_name, device_name)
    v = random_tensor((kvlen, nkvh, hd), dtype_name, device_name)
    attn_val = random_tensor((qlen, nh, hd), dtype_name, device_name)
    torch_self_attention(attn_val, q, k, v, 1.0 / (hd ** 0.5))
    return attn_val


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu", choices=["cpu", "nvidia"], type=str)
    args = parser.parse_args()
    for qlen, kvlen, nh, nkvh, hd in [(2, 2, 1, 1, 4), (5, 11, 4, 2, 8)]:
        test_op_self_attention(qlen, kvlen, nh, nkvh, hd, "f32", args.device)
