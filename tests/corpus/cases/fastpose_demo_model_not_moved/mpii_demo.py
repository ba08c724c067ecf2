import argparse

import cv2
import torch

from pose import models
from pose.utils.transforms import im_to_torch

parser = argparse.ArgumentParser()
parser.add_argument("-a", "--arch", default="hg")
parser.add_argument("--checkpoint", required=True)
parser.add_argument("--in_res", type=int, default=256)
parser.add_argument("--device", default="cuda")
args = parser.parse_args()

device = torch.device(args.device)
model = models.__dict__[args.arch](num_stacks=2, num_blocks=1, num_classes=16, mobile=True)
checkpoint = torch.load(args.checkpoint, map_location="cpu")
model.load_state_dict(checkpoint["state_dict"])
model.eval()

image = cv2.resize(cv2.imread("sample.jpg")[:, :, ::-1], (args.in_res, args.in_res))
inp = im_to_torch(image).unsqueeze(0).to(device)
with torch.no_grad():
    heatmaps = model(inp)
print(heatmaps[-1].shape)
