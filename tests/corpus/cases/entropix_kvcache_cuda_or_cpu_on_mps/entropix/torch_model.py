import math

import torch
import torch.nn.functional as F

from entropix.torch_kvcache import KVCache
from entropix.torch_weights import LayerWeights, XfmrWeights


def rms_norm(x, w, eps=1e-6):
    return w * (x * torch.rsqrt(torch.pow(x, 2).mean(-1, keepdim=True) + eps))


def attention(x, layer_weights: LayerWeights, model_params, cur_pos, layer_idx, kvcache: KVCache, attn_mask=None):
    bsz, _, _ = x.shape
    n_rep = model_params.n_local_heads // model_params.n_local_kv_heads
    xq = F.linear(x, layer_weights.wq).reshape(bsz, -1, model_params.n_local_heads, model_params.head_dim)
    xk = F.linear(x, layer_weights.wk).reshape(bsz, -1, model_params.n_local_kv_heads, model_params.head_dim)
    xv = F.linear(x, layer_weights.wv).reshape(bsz, -1, model_params.n_local_kv_heads, model_params.head_dim)
    keys, values, kvcache = kvcache.update(xk, xv, layer_idx, cur_pos, n_rep)
    xq = torch.permute(xq, (0, 2, 1, 3))
    keys = torch.permute(keys, (0, 2, 3, 1))
    values = torch.permute(values, (0, 2, 1, 3))
    scores = torch.matmul(xq, keys) / math.sqrt(model_params.head_dim)
    if cur_pos == 0:
        scores = scores + attn_mask
    scores = F.softmax(scores, dim=-1)
    output = torch.matmul(scores, values)
    output = output.transpose(1, 2).reshape(xq.shape[0], xq.shape[2], -1)
    return F.linear(output, layer_weights.wo), kvcache


def xfmr(xfmr_weights: XfmrWeights, model_params, tokens, cur_pos, kvcache: KVCache, attn_mask=None):
    h = xfmr_weights.tok_embeddings[tokens]
    for i in range(model_params.n_layers):
        norm_x = rms_norm(h, xfmr_weights.layer_weights[i].attention_norm)
        h_attn, kvcache = attention(norm_x, xfmr_weights.layer_weights[i], model_params, cur_pos, i, kvcache, attn_mask=attn_mask)
        h = h + h_attn
    logits = F.linear(rms_norm(h, xfmr_weights.norm), xfmr_weights.output)
    return logits, kvcache
