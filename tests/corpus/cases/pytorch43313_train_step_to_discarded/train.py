import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ConvEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, x):
        return self.conv(x)


class ConvDecoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.deconv = nn.Sequential(nn.ConvTranspose2d(16, 3, 2, stride=2), nn.Sigmoid())

    def forward(self, x):
        return self.deconv(x)


def train_step(encoder, decoder, train_loader, loss_fn, optimizer, device):
    encoder.train()
    decoder.train()
    for batch_idx, (train_img, target_img) in enumerate(train_loader):
        train_img.to(device)
        target_img.to(device)

        optimizer.zero_grad()
        enc_output = encoder(train_img)
        dec_output = decoder(enc_output)
        loss = loss_fn(dec_output, target_img)
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    if torch.cuda.is_available():
        device = "cuda"
    else:
        device = "cpu"
    encoder = ConvEncoder()
    decoder = ConvDecoder()
    encoder.to(device)
    decoder.to(device)
    images = torch.rand(64, 3, 64, 64)
    train_loader = DataLoader(TensorDataset(images, images), batch_size=8, shuffle=True)
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=1e-3)
    print(train_step(encoder, decoder, train_loader, nn.MSELoss(), optimizer, device))
