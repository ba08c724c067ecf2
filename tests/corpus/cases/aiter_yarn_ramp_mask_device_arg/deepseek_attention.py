"""An attention layer of a DeepSeek-style model (Kimi-K2.5 config) asking aiter for its rotary embedding."""
import torch
from torch import nn

from aiter.rotary_embedding import get_rope


class DeepseekV2Attention(nn.Module):
    def __init__(self, hidden_size=256, num_heads=4, qk_rope_head_dim=64, rope_theta=50000.0, rope_scaling=None,
                 max_position_embeddings=4096):
        super().__init__()
        self.num_heads = num_heads
        self.qk_rope_head_dim = qk_rope_head_dim
        self.q_proj = nn.Linear(hidden_size, num_heads * qk_rope_head_dim, bias=False)
        self.rotary_emb = get_rope(qk_rope_head_dim, rotary_dim=qk_rope_head_dim, max_position=max_position_embeddings,
                                   base=rope_theta, rope_scaling=rope_scaling, is_neox_style=False)


def build_layer(local_rank=0):
    torch.cuda.set_device(local_rank)
    rope_scaling = {"rope_type": "deepseek_yarn", "factor": 4.0, "original_max_position_embeddings": 1024,
                    "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0}
    return DeepseekV2Attention(rope_scaling=rope_scaling).to(f"cuda:{local_rank}", dtype=torch.bfloat16)


if __name__ == "__main__":
    print(build_layer())
