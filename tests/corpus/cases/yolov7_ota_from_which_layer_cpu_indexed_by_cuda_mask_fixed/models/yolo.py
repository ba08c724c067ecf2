import torch
import torch.nn as nn


class Detect(nn.Module):
    stride = None  # strides computed during build

    def __init__(self, nc=80, anchors=(), ch=()):  # detection layer
        super(Detect, self).__init__()
        self.nc = nc  # number of classes
        self.no = nc + 5  # number of outputs per anchor
        self.nl = len(anchors)  # number of detection layers
        self.na = len(anchors[0]) // 2  # number of anchors
        a = torch.tensor(anchors).float().view(self.nl, -1, 2)
        self.register_buffer('anchors', a)  # shape(nl,na,2)
        self.m = nn.ModuleList(nn.Conv2d(x, self.no * self.na, 1) for x in ch)  # output conv

    def forward(self, x):
        for i in range(self.nl):
            x[i] = self.m[i](x[i])  # conv
            bs, _, ny, nx = x[i].shape
            x[i] = x[i].view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        return x


class Model(nn.Module):
    """Small stand-in for the yolov7 backbone + head: three feature maps at strides 8, 16, 32."""

    def __init__(self, ch=3, nc=None, anchors=None):
        super(Model, self).__init__()
        self.stem = nn.Sequential(nn.Conv2d(ch, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.SiLU(),
                                  nn.Conv2d(32, 32, 3, 2, 1), nn.SiLU())
        self.down1 = nn.Sequential(nn.Conv2d(32, 64, 3, 2, 1), nn.SiLU())
        self.down2 = nn.Sequential(nn.Conv2d(64, 128, 3, 2, 1), nn.SiLU())
        self.model = nn.ModuleList([Detect(nc, anchors, (32, 64, 128))])

        m = self.model[-1]  # Detect()
        m.stride = torch.tensor([8., 16., 32.])
        m.anchors /= m.stride.view(-1, 1, 1)
        self.stride = m.stride

    def forward(self, x):
        p3 = self.stem(x)
        p4 = self.down1(p3)
        p5 = self.down2(p4)
        return self.model[-1]([p3, p4, p5])
