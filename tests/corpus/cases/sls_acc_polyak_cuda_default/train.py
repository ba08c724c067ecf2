import torch
import torch.nn.functional as F

from sls import SlsAcc

# one job per GPU on a multi-GPU node; this one got the second GPU
device = torch.device("cuda:1")
model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10)).to(device)
opt = SlsAcc(model.parameters(), acceleration_method="polyak")

images = torch.randn(128, 784, device=device)
labels = torch.randint(0, 10, (128,), device=device)
for epoch in range(10):
    opt.zero_grad()
    closure = lambda: F.cross_entropy(model(images), labels)
    loss = opt.step(closure=closure)
    print(epoch, float(loss))
