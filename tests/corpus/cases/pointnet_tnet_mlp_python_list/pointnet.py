import torch
import torch.nn as nn


class TNet(nn.Module):
    def __init__(self, k: int):
        super(TNet, self).__init__()
        self.k = k
        self.shared_mlp = [
            nn.Conv1d(k, 64, 1),
            nn.BatchNorm1d(64),
            nn.ReLU(),
            nn.Conv1d(64, 128, 1),
            nn.BatchNorm1d(128),
            nn.ReLU(),
            nn.Conv1d(128, 1024, 1),
            nn.BatchNorm1d(1024),
            nn.ReLU(),
        ]
        self.fc = nn.Sequential(
            nn.Linear(1024, 512),
            nn.BatchNorm1d(512),
            nn.ReLU(),
            nn.Linear(512, 256),
            nn.BatchNorm1d(256),
            nn.ReLU(),
            nn.Linear(256, k * k),
        )

    def forward(self, x):
        for layer in self.shared_mlp:
            x = layer(x)
        x = torch.max(x, 2)[0]
        x = self.fc(x)
        identity = torch.eye(self.k, device=x.device).flatten().unsqueeze(0)
        return (x + identity).view(-1, self.k, self.k)


class PointNet(nn.Module):
    def __init__(self, num_classes: int = 10):
        super(PointNet, self).__init__()
        self.input_transform = TNet(k=3)
        self.feature_transform = TNet(k=64)
        self.conv1 = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU())
        self.conv2 = nn.Sequential(nn.Conv1d(64, 1024, 1), nn.BatchNorm1d(1024), nn.ReLU())
        self.classifier = nn.Linear(1024, num_classes)

    def forward(self, x):
        x = torch.bmm(self.input_transform(x), x)
        x = self.conv1(x)
        x = torch.bmm(self.feature_transform(x), x)
        x = self.conv2(x)
        x = torch.max(x, 2)[0]
        return self.classifier(x)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = PointNet(num_classes=10).to(device)
    points = torch.randn(8, 3, 1024).to(device)
    logits = model(points)
    print(logits.shape)
