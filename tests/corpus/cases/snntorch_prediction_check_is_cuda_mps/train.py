import torch
import torch.nn as nn

from snntorch.functional.loss import mse_membrane_loss

device = torch.device("mps") if torch.backends.mps.is_available() else torch.device("cpu")


class Net(nn.Module):
    """Two-layer leaky integrate-and-fire network unrolled over time."""

    def __init__(self, num_inputs=784, num_hidden=1000, num_outputs=10, beta=0.95, num_steps=25):
        super().__init__()
        self.fc1 = nn.Linear(num_inputs, num_hidden)
        self.fc2 = nn.Linear(num_hidden, num_outputs)
        self.beta = beta
        self.num_steps = num_steps

    def forward(self, x):
        mem1 = torch.zeros(x.size(0), self.fc1.out_features, device=x.device)
        mem2 = torch.zeros(x.size(0), self.fc2.out_features, device=x.device)
        mem2_rec = []
        for step in range(self.num_steps):
            mem1 = self.beta * mem1 + self.fc1(x)
            spk1 = (mem1 > 1.0).float()
            mem1 = mem1 - spk1
            mem2 = self.beta * mem2 + self.fc2(spk1)
            mem2_rec.append(mem2)
        return torch.stack(mem2_rec)


net = Net().to(device)
loss_fn = mse_membrane_loss(on_target=1.0, off_target=0.0)
optimizer = torch.optim.Adam(net.parameters(), lr=5e-4)

data = torch.rand(128, 784, device=device)
targets = torch.randint(0, 10, (128,), device=device)
mem_rec = net(data)
loss = loss_fn(mem_rec, targets)
optimizer.zero_grad()
loss.backward()
optimizer.step()
