import torch

from model import Model

device = torch.device("cuda")
model = Model(in_channels=1, out_channels=16, layer_size=3).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(8, 1, 32, 32, device=device)
y = model(x)
print(y.shape)
