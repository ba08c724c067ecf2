"""Pretrained CROMA model (optical branch), as in torchgeo.models.croma."""
import itertools
import math
from collections.abc import Sequence

import torch
from einops import rearrange
from torch import Tensor, einsum, nn


class CROMA(nn.Module):
    valid_modalities = ("sar", "optical")

    def __init__(self, modalities: Sequence[str] = ("optical",), encoder_dim: int = 768, encoder_depth: int = 12,
                 num_heads: int = 16, patch_size: int = 8, image_size: int = 120) -> None:
        super().__init__()
        self.modalities = modalities
        self.num_heads = num_heads
        self.num_patches = int((image_size / 8) ** 2)
        self.s2_channels = 12  # fixed at 12 multispectral optical channels
        self.attn_bias = get_2dalibi(num_heads=self.num_heads, num_patches=self.num_patches)

        def initialize_encoder(encoder_dim: int, encoder_depth: int, in_channels: int):
            encoder = ViT(dim=encoder_dim, depth=encoder_depth, in_channels=in_channels)
            gap_ffn = nn.Sequential(nn.LayerNorm(encoder_dim), nn.Linear(encoder_dim, 4 * encoder_dim), nn.GELU(),
                                    nn.Linear(4 * encoder_dim, encoder_dim))
            return encoder, gap_ffn

        if "optical" in modalities:
            self.s2_encoder, self.s2_GAP_FFN = initialize_encoder(encoder_dim, encoder_depth, self.s2_channels)

    def forward(self, x_optical: Tensor) -> dict[str, Tensor]:
        return_dict: dict[str, Tensor] = {}
        optical_encodings = self.s2_encoder(imgs=x_optical, attn_bias=self.attn_bias)
        return_dict["optical_encodings"] = optical_encodings
        return_dict["optical_GAP"] = self.s2_GAP_FFN(optical_encodings.mean(dim=1))
        return return_dict


def get_2dalibi(num_heads: int, num_patches: int) -> Tensor:
    """Get 2D relative position bias for the attention layer."""
    points = list(itertools.product(range(int(math.sqrt(num_patches))), range(int(math.sqrt(num_patches)))))

    def get_slopes(n: int) -> list[float]:
        start = 2 ** (-(2 ** -(math.log2(n) - 3)))
        ratio = start
        return [start * ratio**i for i in range(n)]

    slopes = torch.Tensor(get_slopes(num_heads)).unsqueeze(1)
    idxs = []
    for p1 in points:
        for p2 in points:
            dist = math.sqrt((p1[0] - p2[0]) ** 2 + (p1[1] - p2[1]) ** 2)
            idxs.append(dist * slopes * -1)
    all_bias = torch.cat(idxs, dim=1)
    return all_bias.view(1, num_heads, num_patches, num_patches)


class Attention(nn.Module):
    def __init__(self, dim: int, num_heads: int = 8) -> None:
        super().__init__()
        self.num_heads = num_heads
        self.scale = int(dim / num_heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.input_norm = nn.LayerNorm(dim)

    def forward(self, x: Tensor, relative_position_bias: Tensor) -> Tensor:
        x = self.input_norm(x)
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.num_heads), (q, k, v))
        attention_scores = einsum("b h i d, b h j d -> b h i j", q, k) * self.scale
        attention_scores = attention_scores + relative_position_bias
        attn = attention_scores.softmax(dim=-1)
        x = einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.to_out(rearrange(x, "b h n d -> b n (h d)"))


class BaseTransformer(nn.Module):
    def __init__(self, dim: int, depth: int, num_heads: int = 8) -> None:
        super().__init__()
        self.layers = nn.ModuleList([])
        for _ in range(depth):
            self.layers.append(nn.ModuleList([Attention(dim=dim, num_heads=num_heads),
                                              nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 4 * dim), nn.GELU(),
                                                            nn.Linear(4 * dim, dim))]))
        self.norm_out = nn.LayerNorm(dim)

    def forward(self, x: Tensor, relative_position_bias: Tensor) -> Tensor:
        for self_attn, ffn in self.layers:
            x = self_attn(x, relative_position_bias) + x
            x = ffn(x) + x
        return self.norm_out(x)


class ViT(nn.Module):
    def __init__(self, dim: int, depth: int, in_channels: int) -> None:
        super().__init__()
        self.num_heads = 16  # always 16, for base and large models
        self.patch_size = 8  # always 8, for base and large models
        self.linear_input = nn.Linear(self.patch_size * self.patch_size * in_channels, dim)
        self.transformer = BaseTransformer(dim=dim, depth=depth, num_heads=self.num_heads)

    def forward(self, imgs: Tensor, attn_bias: Tensor) -> Tensor:
        imgs = rearrange(imgs, "b c (h i) (w j) -> b (h w) (c i j)", i=self.patch_size, j=self.patch_size)
        imgs = self.linear_input(imgs)
        return self.transformer(imgs, relative_position_bias=attn_bias)


if __name__ == "__main__":
    model = CROMA(modalities=["optical"]).to("cuda")
    x = torch.randn(2, 12, 120, 120, device="cuda")
    print(model(x)["optical_GAP"].shape)
