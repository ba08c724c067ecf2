import torch
import torch.nn.functional as F
from torch import nn

from construct_kernel import ConstructKernel1d


class Dcls1d(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_count=3, dilated_kernel_size=7):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_channels, in_channels, kernel_count))
        self.P = nn.Parameter(torch.zeros(out_channels, in_channels, kernel_count))
        self.SIG = nn.Parameter(torch.ones(out_channels, in_channels, kernel_count))
        self.kernel = ConstructKernel1d(out_channels, in_channels, kernel_count, dilated_kernel_size)

    def forward(self, x):
        k = self.kernel.forward_vgauss(self.weight, self.P, self.SIG)
        return F.conv1d(x, k, padding="same")


if __name__ == "__main__":
    conv = Dcls1d(8, 16).cuda()
    print(conv(torch.randn(2, 8, 50, device="cuda")).shape)
