import torch
from torch import nn, optim

from network import network_utils
from network.base_model import Base


class UNet(Base):
    def __init__(self, n_class=2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.decoder = nn.Conv2d(16, n_class, 1)

    def forward(self, x):
        return self.decoder(self.encoder(x))


def train_model(args, device, loaders):
    model = UNet()
    train_params = model.set_train_params((args["lr_encoder"], args["lr_decoder"]))
    optm = optim.SGD(train_params, lr=args["lr_encoder"], momentum=0.9, weight_decay=5e-4)
    criterions = [nn.CrossEntropyLoss()]
    if args["resume_epoch"] > 0:
        network_utils.load_epoch(args["save_dir"], args["resume_epoch"], model, optm, device)

    model.to(device)
    for c in criterions:
        c.to(device)
    for epoch in range(args["resume_epoch"], args["epochs"]):
        for phase in ["train", "valid"]:
            model.train() if phase == "train" else model.eval()
            model.step(loaders[phase], device, optm, phase, criterions)


if __name__ == "__main__":
    train_model({"lr_encoder": 1e-3, "lr_decoder": 1e-2, "resume_epoch": 5, "epochs": 50, "save_dir": "runs"},
                torch.device("cuda"), {"train": [], "valid": []})
