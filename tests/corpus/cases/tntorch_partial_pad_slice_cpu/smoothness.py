import torch

import tntorch as tn

device = torch.device("cuda")
cores = [torch.randn(1, 32, 4), torch.randn(4, 32, 4), torch.randn(4, 32, 1)]
t = tn.Tensor(cores, device=device)
dx = tn.partial(t, dim=0)
print(torch.norm(dx.full()))
