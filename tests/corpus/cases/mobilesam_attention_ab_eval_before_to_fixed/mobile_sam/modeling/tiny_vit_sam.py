import itertools
import torch
import torch.nn as nn


class Attention(torch.nn.Module):
    def __init__(self, dim, key_dim, num_heads=8,
                 attn_ratio=4,
                 resolution=(14, 14),
                 ):
        super().__init__()
        assert isinstance(resolution, tuple) and len(resolution) == 2
        self.num_heads = num_heads
        self.scale = key_dim ** -0.5
        self.key_dim = key_dim
        self.nh_kd = nh_kd = key_dim * num_heads
        self.d = int(attn_ratio * key_dim)
        self.dh = int(attn_ratio * key_dim) * num_heads
        self.attn_ratio = attn_ratio
        h = self.dh + nh_kd * 2

        self.norm = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, h)
        self.proj = nn.Linear(self.dh, dim)

        points = list(itertools.product(range(resolution[0]), range(resolution[1])))
        N = len(points)
        attention_offsets = {}
        idxs = []
        for p1 in points:
            for p2 in points:
                offset = (abs(p1[0] - p2[0]), abs(p1[1] - p2[1]))
                if offset not in attention_offsets:
                    attention_offsets[offset] = len(attention_offsets)
                idxs.append(attention_offsets[offset])
        self.attention_biases = torch.nn.Parameter(torch.zeros(num_heads, len(attention_offsets)))
        self.register_buffer('attention_bias_idxs', torch.LongTensor(idxs).view(N, N), persistent=False)

    @torch.no_grad()
    def train(self, mode=True):
        super().train(mode)
        if mode and hasattr(self, 'ab'):
            del self.ab
        else:
            self.register_buffer('ab',
                                 self.attention_biases[:, self.attention_bias_idxs],
                                 persistent=False)

    def forward(self, x):  # x (B,N,C)
        B, N, _ = x.shape

        x = self.norm(x)

        qkv = self.qkv(x)
        q, k, v = qkv.view(B, N, self.num_heads, -1).split([self.key_dim, self.key_dim, self.d], dim=3)
        q = q.permute(0, 2, 1, 3)
        k = k.permute(0, 2, 1, 3)
        v = v.permute(0, 2, 1, 3)

        attn = (q @ k.transpose(-2, -1)) * self.scale + (self.attention_biases[:, self.attention_bias_idxs] if self.training else self.ab)
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, self.dh)
        x = self.proj(x)
        return x


class TinyViTBlock(nn.Module):
    """Stand-in: one window covers the whole (small) token grid, so the
    window partition of the real block is left out."""

    def __init__(self, dim, input_resolution, num_heads, window_size=7, mlp_ratio=4.):
        super().__init__()
        self.dim = dim
        self.input_resolution = input_resolution
        assert dim % num_heads == 0, 'dim must be divisible by num_heads'
        head_dim = dim // num_heads
        window_resolution = (window_size, window_size)
        self.attn = Attention(dim, head_dim, num_heads, attn_ratio=1, resolution=window_resolution)
        self.mlp = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, int(dim * mlp_ratio)), nn.GELU(),
                                 nn.Linear(int(dim * mlp_ratio), dim))

    def forward(self, x):
        x = x + self.attn(x)
        x = x + self.mlp(x)
        return x


class BasicLayer(nn.Module):
    def __init__(self, dim, input_resolution, depth, num_heads, window_size, mlp_ratio=4.):
        super().__init__()
        self.blocks = nn.ModuleList([
            TinyViTBlock(dim=dim, input_resolution=input_resolution, num_heads=num_heads,
                         window_size=window_size, mlp_ratio=mlp_ratio)
            for i in range(depth)])

    def forward(self, x):
        for blk in self.blocks:
            x = blk(x)
        return x


class TinyViT(nn.Module):
    def __init__(self, img_size=64, in_chans=3, embed_dims=[32, 64], depths=[1, 1],
                 num_heads=[2, 4], window_sizes=[4, 4], mlp_ratio=4., patch_size=16, out_chans=32):
        super().__init__()
        self.img_size = img_size
        self.patch_size = patch_size
        res = img_size // patch_size
        self.patch_embed = nn.Conv2d(in_chans, embed_dims[0], kernel_size=patch_size, stride=patch_size)

        self.layers = nn.ModuleList()
        for i_layer in range(len(depths)):
            if i_layer > 0:
                self.layers.append(nn.Linear(embed_dims[i_layer - 1], embed_dims[i_layer]))
            self.layers.append(BasicLayer(dim=embed_dims[i_layer], input_resolution=(res, res),
                                          depth=depths[i_layer], num_heads=num_heads[i_layer],
                                          window_size=window_sizes[i_layer], mlp_ratio=mlp_ratio))
        self.neck = nn.Sequential(nn.Conv2d(embed_dims[-1], out_chans, kernel_size=1, bias=False))

    def forward(self, x):
        x = self.patch_embed(x)
        B, C, H, W = x.shape
        x = x.flatten(2).transpose(1, 2)
        for layer in self.layers:
            x = layer(x)
        x = x.view(B, H, W, x.shape[-1]).permute(0, 3, 1, 2)
        return self.neck(x)
