import argparse

import torch

from models.get_model import get_arch

parser = argparse.ArgumentParser()
parser.add_argument("--model_path", default="experiments/wnet_drive/model_checkpoint.pth")
parser.add_argument("--device", default="cpu")
args = parser.parse_args()

device = torch.device(args.device)
model = get_arch("wnet", n_classes=3)
checkpoint = torch.load(args.model_path)
model.load_state_dict(checkpoint["model_state_dict"])
model = model.to(device).eval()
