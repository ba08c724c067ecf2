import torch
import torch.nn as nn
from torch.nn import Softmax


def INF(B, H, W):
    # -inf on the diagonal, one (H, H) block per column of the batch
    return -torch.diag(torch.tensor(float("inf")).cuda().repeat(H), 0).unsqueeze(0).repeat(B * W, 1, 1)


class CC_module(nn.Module):
    """Criss-cross attention (pure PyTorch)."""

    def __init__(self, in_dim):
        super(CC_module, self).__init__()
        self.query_conv = nn.Conv2d(in_channels=in_dim, out_channels=in_dim // 8, kernel_size=1)
        self.key_conv = nn.Conv2d(in_channels=in_dim, out_channels=in_dim // 8, kernel_size=1)
        self.value_conv = nn.Conv2d(in_channels=in_dim, out_channels=in_dim, kernel_size=1)
        self.softmax = Softmax(dim=3)
        self.INF = INF
        self.gamma = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        b, _, h, w = x.size()
        q = self.query_conv(x)
        q_H = q.permute(0, 3, 1, 2).contiguous().view(b * w, -1, h).permute(0, 2, 1)
        q_W = q.permute(0, 2, 1, 3).contiguous().view(b * h, -1, w).permute(0, 2, 1)
        k = self.key_conv(x)
        k_H = k.permute(0, 3, 1, 2).contiguous().view(b * w, -1, h)
        k_W = k.permute(0, 2, 1, 3).contiguous().view(b * h, -1, w)
        v = self.value_conv(x)
        v_H = v.permute(0, 3, 1, 2).contiguous().view(b * w, -1, h)
        v_W = v.permute(0, 2, 1, 3).contiguous().view(b * h, -1, w)
        energy_H = (torch.bmm(q_H, k_H) + self.INF(b, h, w)).view(b, w, h, h).permute(0, 2, 1, 3)
        energy_W = torch.bmm(q_W, k_W).view(b, h, w, w)
        concate = self.softmax(torch.cat([energy_H, energy_W], 3))
        att_H = concate[:, :, :, 0:h].permute(0, 2, 1, 3).contiguous().view(b * w, h, h)
        att_W = concate[:, :, :, h:h + w].contiguous().view(b * h, w, w)
        out_H = torch.bmm(v_H, att_H.permute(0, 2, 1)).view(b, w, -1, h).permute(0, 2, 3, 1)
        out_W = torch.bmm(v_W, att_W.permute(0, 2, 1)).view(b, h, -1, w).permute(0, 2, 1, 3)
        return self.gamma * (out_H + out_W) + x


if __name__ == '__main__':
    model = CC_module(64)
    x = torch.randn(2, 64, 5, 6)
    out = model(x)
    print(out.shape)
