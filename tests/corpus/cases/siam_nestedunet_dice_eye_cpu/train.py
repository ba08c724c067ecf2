from types import SimpleNamespace

import torch
import torch.nn as nn

from utils.helpers import get_criterion

opt = SimpleNamespace(loss_function="hybrid", epochs=100, learning_rate=1e-3, batch_size=16)
dev = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class SNUNet_ECAM(nn.Module):
    """Siamese nested U-Net (reduced to a shared encoder and four deep-supervision heads)."""

    def __init__(self, in_ch=3, out_ch=2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(in_ch, 32, 3, padding=1), nn.ReLU())
        self.heads = nn.ModuleList([nn.Conv2d(64, out_ch, 1) for _ in range(4)])

    def forward(self, xA, xB):
        feats = torch.cat([self.encoder(xA), self.encoder(xB)], dim=1)
        return [head(feats) for head in self.heads]


def train(train_loader):
    model = SNUNet_ECAM(3, 2).to(dev)
    criterion = get_criterion(opt)
    optimizer = torch.optim.AdamW(model.parameters(), lr=opt.learning_rate)
    for epoch in range(opt.epochs):
        model.train()
        for batch_img1, batch_img2, labels in train_loader:
            batch_img1 = batch_img1.float().to(dev)
            batch_img2 = batch_img2.float().to(dev)
            labels = labels.long().to(dev)
            optimizer.zero_grad()
            cd_preds = model(batch_img1, batch_img2)
            cd_loss = criterion(cd_preds, labels)
            cd_loss.backward()
            optimizer.step()
