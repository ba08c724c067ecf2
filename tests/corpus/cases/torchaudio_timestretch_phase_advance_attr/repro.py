import torch

from torchaudio.transforms import TimeStretch

m = TimeStretch().cuda()
m(torch.randn(1, 2, 201, 400, 2).cuda(), 1.3)
