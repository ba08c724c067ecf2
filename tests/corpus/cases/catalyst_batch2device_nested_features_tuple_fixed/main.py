import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from catalyst.dl.experiments import SupervisedRunner


class ImageMetaDataset(Dataset):
    """Each sample: an image and a metadata vector as the features, and a class label."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        image = torch.rand(3, 32, 32)
        meta = torch.rand(4)
        return {"features": (image, meta), "targets": idx % 10}


class ImageMetaNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.meta = nn.Linear(4, 8)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, features):
        image, meta = features
        x = self.conv(image).flatten(1)
        m = self.meta(meta)
        return self.fc(torch.cat([x, m], dim=1))


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = ImageMetaNet().to(device)
loader = DataLoader(ImageMetaDataset(64), batch_size=16)

runner = SupervisedRunner(model=model, device=device)
with torch.no_grad():
    # the stage loop (_run_stage/_run_epoch) reduced to one loader
    outputs = runner._run_loader(loader)
print(len(outputs), outputs[0]["logits"].shape)
