"""Conditional VAE on MNIST."""
import torch
import torch.nn as nn
import torch.optim as optim
import torch.nn.functional as F

from torch.utils.data import DataLoader
from torchvision import datasets, transforms

import matplotlib.pyplot as plt

device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

BATCH_SIZE = 64
N_EPOCHS = 10
INPUT_DIM = 28 * 28
HIDDEN_DIM = 256
LATENT_DIM = 75
N_CLASSES = 10
lr = 1e-3

transforms = transforms.Compose([transforms.ToTensor()])
train_dataset = datasets.MNIST('./data', train=True, download=True, transform=transforms)
test_dataset = datasets.MNIST('./data', train=False, download=True, transform=transforms)

train_iterator = DataLoader(train_dataset, batch_size=BATCH_SIZE, shuffle=True)
test_iterator = DataLoader(test_dataset, batch_size=BATCH_SIZE)


def idx2onehot(idx, n=N_CLASSES):
    assert idx.shape[1] == 1
    assert torch.max(idx).item() < n
    onehot = torch.zeros(idx.size(0), n)
    onehot.scatter_(1, idx.data, 1)
    return onehot


class Encoder(nn.Module):
    def __init__(self, input_dim, hidden_dim, latent_dim, n_classes):
        super().__init__()
        self.linear = nn.Linear(input_dim + n_classes, hidden_dim)
        self.mu = nn.Linear(hidden_dim, latent_dim)
        self.var = nn.Linear(hidden_dim, latent_dim)

    def forward(self, x):
        hidden = F.relu(self.linear(x))
        mean = self.mu(hidden)
        log_var = self.var(hidden)
        return mean, log_var


class Decoder(nn.Module):
    def __init__(self, latent_dim, hidden_dim, output_dim, n_classes):
        super().__init__()
        self.latent_to_hidden = nn.Linear(latent_dim + n_classes, hidden_dim)
        self.hidden_to_out = nn.Linear(hidden_dim, output_dim)

    def forward(self, x):
        x = F.relu(self.latent_to_hidden(x))
        generated_x = F.sigmoid(self.hidden_to_out(x))
        return generated_x


class CVAE(nn.Module):
    def __init__(self, input_dim, hidden_dim, latent_dim, n_classes):
        super().__init__()
        self.encoder = Encoder(input_dim, hidden_dim, latent_dim, n_classes)
        self.decoder = Decoder(latent_dim, hidden_dim, input_dim, n_classes)

    def forward(self, x, y):
        x = torch.cat((x, y), dim=1)
        z_mu, z_var = self.encoder(x)
        std = torch.exp(z_var / 2)
        eps = torch.randn_like(std)
        x_sample = eps.mul(std).add_(z_mu)
        z = torch.cat((x_sample, y), dim=1)
        generated_x = self.decoder(z)
        return generated_x, z_mu, z_var


def calculate_loss(x, reconstructed_x, mean, log_var):
    RCL = F.binary_cross_entropy(reconstructed_x, x, size_average=False)
    KLD = -0.5 * torch.sum(1 + log_var - mean.pow(2) - log_var.exp())
    return RCL + KLD


model = CVAE(INPUT_DIM, HIDDEN_DIM, LATENT_DIM, N_CLASSES)
model = model.to(device)
optimizer = optim.Adam(model.parameters(), lr=lr)


def train():
    model.train()
    train_loss = 0
    for i, (x, y) in enumerate(train_iterator):
        x = x.view(-1, 28 * 28)
        x = x.to(device)
        y = idx2onehot(y.view(-1, 1))
        y = y.to(device)
        optimizer.zero_grad()
        reconstructed_x, z_mu, z_var = model(x, y)
        loss = calculate_loss(x, reconstructed_x, z_mu, z_var)
        loss.backward()
        train_loss += loss.item()
        optimizer.step()
    return train_loss


def test():
    model.eval()
    test_loss = 0
    with torch.no_grad():
        for i, (x, y) in enumerate(test_iterator):
            x = x.view(-1, 28 * 28)
            x = x.to(device)
            y = idx2onehot(y.view(-1, 1))
            y = y.to(device)
            reconstructed_x, z_mu, z_var = model(x, y)
            loss = calculate_loss(x, reconstructed_x, z_mu, z_var)
            test_loss += loss.item()
    return test_loss


best_test_loss = float('inf')

for e in range(N_EPOCHS):
    train_loss = train()
    test_loss = test()
    train_loss /= len(train_dataset)
    test_loss /= len(test_dataset)
    print(f'Epoch {e}, Train Loss: {train_loss:.2f}, Test Loss: {test_loss:.2f}')
    if best_test_loss > test_loss:
        best_test_loss = test_loss
        patience_counter = 1
    else:
        patience_counter += 1
    if patience_counter > 3:
        break

z = torch.randn(1, LATENT_DIM).to(device)
y = torch.randint(0, N_CLASSES, (1, 1)).to(dtype=torch.long)
print(f'Generating a {y.item()}')
y = idx2onehot(y).to(device, dtype=z.dtype)
z = torch.cat((z, y), dim=1)

reconstructed_img = model.decoder(z)
img = reconstructed_img.view(28, 28).data

plt.figure()
plt.imshow(img, cmap='gray')
plt.show()
