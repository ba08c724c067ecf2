import torch
import torch.nn as nn
import torch.nn.functional as F

from model.warplayer import warp


def conv(in_planes, out_planes, kernel_size=3, stride=1, padding=1):
    return nn.Sequential(
        nn.Conv2d(in_planes, out_planes, kernel_size=kernel_size, stride=stride, padding=padding, bias=True),
        nn.LeakyReLU(0.2, True),
    )


class IFBlock(nn.Module):
    def __init__(self, in_planes, c=32):
        super(IFBlock, self).__init__()
        self.conv0 = nn.Sequential(conv(in_planes, c, 3, 2, 1), conv(c, c, 3, 1, 1))
        self.lastconv = nn.ConvTranspose2d(c, 5, 4, 2, 1)

    def forward(self, x, flow=None):
        if flow is not None:
            x = torch.cat((x, flow), 1)
        feat = self.conv0(x)
        tmp = self.lastconv(feat)
        return tmp[:, :4], tmp[:, 4:5]


class IFNet(nn.Module):
    def __init__(self):
        super(IFNet, self).__init__()
        self.block0 = IFBlock(6, c=32)
        self.block1 = IFBlock(6 + 6 + 4, c=32)

    def forward(self, img0, img1, timestep=0.5):
        flow, mask = self.block0(torch.cat((img0, img1), 1))
        warped_img0 = warp(img0, flow[:, :2])
        warped_img1 = warp(img1, flow[:, 2:4])
        f1, m1 = self.block1(torch.cat((img0, img1, warped_img0, warped_img1), 1), flow)
        flow = flow + f1
        mask = torch.sigmoid(mask + m1)
        warped_img0 = warp(img0, flow[:, :2])
        warped_img1 = warp(img1, flow[:, 2:4])
        return warped_img0 * mask + warped_img1 * (1 - mask)


class Model:
    def __init__(self):
        self.flownet = IFNet()

    def eval(self):
        self.flownet.eval()

    def device(self, device):
        self.flownet.to(device)

    def inference(self, img0, img1, timestep=0.5):
        return self.flownet(img0, img1, timestep)
