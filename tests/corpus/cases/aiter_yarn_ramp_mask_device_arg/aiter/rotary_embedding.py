"""Rotary positional embeddings (the YaRN / DeepSeek scaling variant)."""
import math

import torch
from torch import nn

from aiter import dtypes


class RotaryEmbedding(nn.Module):
    """Original rotary positional embedding: cos/sin caches computed once, in __init__."""

    def __init__(self, head_size, rotary_dim, max_position_embeddings, base, is_neox_style, dtype):
        super().__init__()
        self.head_size = head_size
        self.rotary_dim = rotary_dim
        self.max_position_embeddings = max_position_embeddings
        self.base = base
        self.is_neox_style = is_neox_style
        cos, sin = self._compute_cos_sin_cache()
        self.register_buffer("cos_cache", cos.to(dtype), persistent=False)
        self.register_buffer("sin_cache", sin.to(dtype), persistent=False)

    def _compute_inv_freq(self, base):
        return 1.0 / (base ** (torch.arange(0, self.rotary_dim, 2, dtype=dtypes.fp32) / self.rotary_dim))

    def _compute_cos_sin_cache(self):
        inv_freq = self._compute_inv_freq(self.base)
        t = torch.arange(self.max_position_embeddings, dtype=dtypes.fp32)
        freqs = torch.einsum("i,j -> ij", t, inv_freq)
        return freqs.cos(), freqs.sin()


# Inverse dim formula to find dim based on number of rotations
def _yarn_find_correction_dim(num_rotations, dim, base=10000, max_position_embeddings=2048):
    return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))


def _yarn_find_correction_range(low_rot, high_rot, dim, base=10000, max_position_embeddings=2048):
    low = math.floor(_yarn_find_correction_dim(low_rot, dim, base, max_position_embeddings))
    high = math.ceil(_yarn_find_correction_dim(high_rot, dim, base, max_position_embeddings))
    return max(low, 0), min(high, dim - 1)


def _yarn_linear_ramp_mask(low: float, high: float, dim: int, dtype: torch.dtype, device="cuda") -> torch.Tensor:
    if low == high:
        high += 0.001  # Prevent singularity
    linear_func = (torch.arange(dim, dtype=dtype, device=device) - low) / (high - low)
    return torch.clamp(linear_func, 0, 1)


def yarn_get_mscale(scale: float = 1, mscale: float = 1) -> float:
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


class DeepseekScalingRotaryEmbedding(RotaryEmbedding):
    """RotaryEmbedding extended with the YaRN method, caches built on the GPU."""

    def __init__(self, head_size, rotary_dim, max_position_embeddings, base, is_neox_style, scaling_factor, dtype,
                 *, extrapolation_factor=1, attn_factor=1, beta_fast=32, beta_slow=1, mscale=1, mscale_all_dim=0):
        self.scaling_factor = scaling_factor
        self.extrapolation_factor = extrapolation_factor
        self.beta_fast = beta_fast
        self.beta_slow = beta_slow
        self.mscale = float(yarn_get_mscale(scaling_factor, float(mscale))
                            / yarn_get_mscale(scaling_factor, float(mscale_all_dim)) * attn_factor)
        super().__init__(head_size, rotary_dim, max_position_embeddings, base, is_neox_style, dtype)

    def _compute_inv_freq(self, scaling_factor):
        pos_freqs = self.base ** (torch.arange(0, self.rotary_dim, 2, dtype=dtypes.fp32, device="cuda") / self.rotary_dim)
        inv_freq_extrapolation = 1.0 / pos_freqs
        inv_freq_interpolation = 1.0 / (scaling_factor * pos_freqs)

        low, high = _yarn_find_correction_range(self.beta_fast, self.beta_slow, self.rotary_dim, self.base,
                                                self.max_position_embeddings)
        # Get n-d rotational scaling corrected for extrapolation
        inv_freq_mask = (1 - _yarn_linear_ramp_mask(low, high, self.rotary_dim // 2, dtype=dtypes.fp32, device="cuda")) * self.extrapolation_factor
        inv_freq = inv_freq_interpolation * (1 - inv_freq_mask) + inv_freq_extrapolation * inv_freq_mask
        return inv_freq

    def _compute_cos_sin_cache(self):
        inv_freq = self._compute_inv_freq(self.scaling_factor)
        t = torch.arange(self.max_position_embeddings * self.scaling_factor, device="cuda", dtype=dtypes.fp32)
        freqs = torch.einsum("i,j -> ij", t, inv_freq)
        return freqs.cos() * self.mscale, freqs.sin() * self.mscale


def get_rope(head_size, rotary_dim, max_position, base, is_neox_style=True, rope_scaling=None, dtype=dtypes.bf16):
    if rope_scaling is None:
        return RotaryEmbedding(head_size, rotary_dim, max_position, base, is_neox_style, dtype)
    scaling_type = rope_scaling["rope_type"]
    if scaling_type == "deepseek_yarn":
        original_max_position = rope_scaling["original_max_position_embeddings"]
        extra_kwargs = {k: v for k, v in rope_scaling.items()
                        if k in ("extrapolation_factor", "attn_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim")}
        return DeepseekScalingRotaryEmbedding(head_size, rotary_dim, original_max_position, base, is_neox_style,
                                              rope_scaling["factor"], dtype, **extra_kwargs)
    raise ValueError(f"Unknown RoPE scaling type {scaling_type}")
