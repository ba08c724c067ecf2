import os

import numpy as np
import torch
import torch.nn as nn
from PIL import Image

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def readImgsMT(img_dir, index=None):
    names = sorted(os.listdir(img_dir)) if index is None else [sorted(os.listdir(img_dir))[i] for i in index]
    imgs = np.stack([np.asarray(Image.open(os.path.join(img_dir, n))) for n in names]).astype(np.float32) / 255
    return torch.from_numpy(imgs).permute(0, 3, 1, 2)


class CompenNet(nn.Module):
    """Projector compensation: the surface image conditions the projector input."""

    def __init__(self):
        super().__init__()
        self.conv_s = nn.Conv2d(3, 32, 3, padding=1)
        self.conv_x = nn.Conv2d(3, 32, 3, padding=1)
        self.out = nn.Conv2d(32, 3, 3, padding=1)

    def forward(self, x, s):
        return torch.sigmoid(self.out(torch.relu(self.conv_x(x) - self.conv_s(s))))


def train_model(net, cam_train, prj_train, cam_surf_train, iters=1000):
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for _ in range(iters):
        idx = torch.randint(0, cam_train.shape[0], (16,))
        pred = net(cam_train[idx].to(device), cam_surf_train[idx].to(device))
        loss = nn.functional.l1_loss(pred, prj_train[idx].to(device))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return net


for data_name in ["light1/pos1/cloud_np", "light2/pos2/lavender_np"]:
    cam_surf = readImgsMT(f"data/{data_name}/cam/warp/ref", index=[125])
    cam_train = readImgsMT(f"data/{data_name}/cam/warp/train")
    prj_train = readImgsMT("data/train")
    cam_valid = readImgsMT(f"data/{data_name}/cam/warp/test")
    prj_valid = readImgsMT("data/test")

    # convert valid data to CUDA tensor
    cam_valid.to(device)
    prj_valid.to(device)

    cam_surf_train = cam_surf.expand_as(cam_train)
    cam_surf_valid = cam_surf.expand_as(cam_valid)

    compen_net = CompenNet()
    compen_net.to(device)
    compen_net = train_model(compen_net, cam_train, prj_train, cam_surf_train)

    torch.cuda.empty_cache()
    cam_surf_valid.to(device)
    with torch.no_grad():
        cam_cmp = compen_net(cam_valid, cam_surf_valid).detach()
        prj_cmp = compen_net(prj_valid, cam_surf_valid).detach()
