import torch
from torchvision import datasets, transforms

from torchmps import MPS

bond_dim = 20
batch_size = 100
num_epochs = 20
learn_rate = 1e-4

device = "cuda:0"
mps = MPS(input_dim=28 ** 2, bond_dim=bond_dim).to(device)
loss_fun = torch.nn.MSELoss()
optimizer = torch.optim.Adam(mps.parameters(), lr=learn_rate)

train_set = datasets.MNIST("./mnist", download=True, transform=transforms.ToTensor())
loader = torch.utils.data.DataLoader(train_set, batch_size=batch_size, drop_last=True)

for epoch_num in range(1, num_epochs + 1):
    for inputs, labels in loader:
        inputs = inputs.view([batch_size, 28 ** 2]).to(device)
        labels = labels.to(device)
        scores = mps(inputs)
        loss = loss_fun(scores, labels.float())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
