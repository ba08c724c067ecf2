import torch
import torch.nn as nn

from core_train import train_epoch


def resume_checkpoint(model, checkpoint_path):
    """Loads model weights; returns the optimizer state and the epoch to resume from."""
    checkpoint = torch.load(checkpoint_path, map_location="cpu")
    model.load_state_dict(checkpoint["state_dict"])
    return {"optimizer": checkpoint["optimizer"]}, checkpoint["epoch"]


class SuperNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.head = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.head(self.stem(x).mean((2, 3)))


def main(cfg, loader_train):
    model = SuperNet()
    optimizer_state = None
    resume_epoch = None
    if cfg.AUTO_RESUME:
        optimizer_state, resume_epoch = resume_checkpoint(model, cfg.RESUME_PATH)

    # create optimizer and resume from checkpoint
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg.LR, momentum=0.9, weight_decay=1e-4)
    if optimizer_state is not None:
        optimizer.load_state_dict(optimizer_state["optimizer"])
    model = model.cuda()

    train_loss_fn = nn.CrossEntropyLoss().cuda()
    start_epoch = resume_epoch if resume_epoch is not None else 0
    for epoch in range(start_epoch, cfg.EPOCHS):
        train_epoch(epoch, model, loader_train, optimizer, train_loss_fn)
