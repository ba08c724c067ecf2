import torch
from torch import nn

import config

model = nn.Linear(4, 2).to(config.DEVICE)
x = torch.randn(3, 4).to(config.DEVICE)
print(model(x))
