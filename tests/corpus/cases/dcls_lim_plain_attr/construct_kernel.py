import torch
from torch import nn


class ConstructKernel1d(nn.Module):
    """Builds a dilated kernel from learnable positions with Gaussian interpolation."""

    def __init__(self, out_channels, in_channels, kernel_count, dilated_kernel_size):
        super().__init__()
        self.out_channels = out_channels
        self.in_channels = in_channels
        self.kernel_count = kernel_count
        self.dilated_kernel_size = dilated_kernel_size
        self.__init_tmp_variables__()

    def __init_tmp_variables__(self):
        self.IDX = torch.arange(self.dilated_kernel_size).view(1, 1, 1, -1)
        self.lim = torch.full((1, 1, 1), self.dilated_kernel_size)

    def forward_vgauss(self, W, P, SIG):
        P = P + self.lim // 2
        X = self.IDX - P.unsqueeze(-1)
        return (W.unsqueeze(-1) * torch.exp(-0.5 * (X / SIG.unsqueeze(-1)) ** 2)).sum(2)
