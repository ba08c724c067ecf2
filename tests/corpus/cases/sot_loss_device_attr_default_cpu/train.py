import torch

from sot.losses import Wasserstein1DLoss

device = torch.device("cuda")
generator = torch.nn.Sequential(torch.nn.Linear(128, 22050), torch.nn.Tanh()).to(device)
loss_fn = Wasserstein1DLoss(transform="stft", p=2)
loss_fn.to(device)
optimizer = torch.optim.Adam(generator.parameters(), lr=1e-4)

target = torch.randn(4, 22050, device=device)
for step in range(100):
    audio = generator(torch.randn(4, 128, device=device))
    loss = loss_fn(audio, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
