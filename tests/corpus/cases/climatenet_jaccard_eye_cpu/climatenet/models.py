import torch
import torch.nn as nn
from torch.optim import Adam
from torch.utils.data import DataLoader

from climatenet.utils.losses import jaccard_loss


class CGNet():
    """High-level wrapper: trains and runs CGNetModule without touching PyTorch code."""

    def __init__(self, config):
        self.config = config
        self.network = CGNetModule(classes=len(self.config.labels), channels=len(list(self.config.fields))).cuda()
        self.optimizer = Adam(self.network.parameters(), lr=self.config.lr)

    def train(self, dataset):
        self.network.train()
        loader = DataLoader(dataset, batch_size=self.config.train_batch_size, collate_fn=dataset.collate, shuffle=True)
        for epoch in range(1, self.config.epochs + 1):
            for features, labels in loader:
                # Push data on GPU and pass forward
                features = torch.tensor(features.values).cuda()
                labels = torch.tensor(labels.values).cuda()
                outputs = torch.softmax(self.network(features), 1)
                loss = jaccard_loss(outputs, labels)
                loss.backward()
                self.optimizer.step()
                self.optimizer.zero_grad()


class CGNetModule(nn.Module):
    """Context-guided segmentation network (its blocks are reduced to a conv stack here)."""

    def __init__(self, classes=19, channels=4):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, 32, 3, padding=1), nn.BatchNorm2d(32), nn.PReLU(32),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.PReLU(64),
        )
        self.classifier = nn.Conv2d(64, classes, 1)

    def forward(self, input):
        return self.classifier(self.body(input))
