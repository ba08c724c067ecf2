import os
import pickle
import tempfile

import numpy as np
import torch
import torch.nn as nn

from tigre import TIGREDataset as Dataset


class DensityNetwork(nn.Module):
    def __init__(self, hidden_dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, 1))

    def forward(self, pts):
        return self.net(pts)


class Trainer:
    def __init__(self, cfg, device="cuda"):
        self.epochs = cfg["epoch"]
        self.n_samples = cfg["n_samples"]

        # Dataset
        train_dset = Dataset(cfg["datadir"], cfg["n_rays"], "train", device)
        self.train_dloader = torch.utils.data.DataLoader(train_dset, batch_size=cfg["n_batch"])

        # Network
        self.net = DensityNetwork().to(device)
        self.optimizer = torch.optim.Adam(params=self.net.parameters(), lr=cfg["lrate"], betas=(0.9, 0.999))

    def start(self):
        for idx_epoch in range(self.epochs):
            for data in self.train_dloader:
                self.net.train()
                loss_train = self.train_step(data)
            print(f"epoch={idx_epoch}/{self.epochs}, loss={loss_train:.3g}")

    def train_step(self, data):
        self.optimizer.zero_grad()
        loss = self.compute_loss(data)
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def compute_loss(self, data):
        rays = data["rays"].reshape(-1, 8)
        projs = data["projs"].reshape(-1)
        rays_o, rays_d, near, far = rays[..., :3], rays[..., 3:6], rays[..., 6:7], rays[..., 7:]
        t_vals = torch.linspace(0.0, 1.0, steps=self.n_samples, device=rays.device)
        z_vals = near * (1.0 - t_vals) + far * t_vals
        pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
        raw = self.net(pts).squeeze(-1)
        acc = torch.sum(raw * (z_vals[..., 1:2] - z_vals[..., 0:1]), -1)
        return torch.mean((acc - projs) ** 2)


def make_data(path, n_train=4, det=16):
    rng = np.random.default_rng(0)
    data = {
        "DSD": 1500.0, "DSO": 1000.0, "nDetector": [det, det], "dDetector": [2.0, 2.0],
        "nVoxel": [8, 8, 8], "dVoxel": [2.0, 2.0, 2.0], "offOrigin": [0, 0, 0], "offDetector": [0, 0],
        "mode": "cone", "numTrain": n_train,
        "train": {"projections": rng.random((n_train, det, det)).astype(np.float32),
                  "angles": np.linspace(0, np.pi, n_train, endpoint=False)},
    }
    with open(path, "wb") as handle:
        pickle.dump(data, handle)


if __name__ == "__main__":
    datadir = os.path.join(tempfile.mkdtemp(), "jaw_50.pickle")
    make_data(datadir)
    cfg = {"datadir": datadir, "n_rays": 32, "n_batch": 1, "epoch": 2, "n_samples": 16, "lrate": 1e-3}
    trainer = Trainer(cfg, device="cuda")
    trainer.start()
