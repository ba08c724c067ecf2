import argparse

import numpy as np
import torch
from PIL import Image
from torchvision.transforms import ToTensor

parser = argparse.ArgumentParser(description="Super-resolution example")
parser.add_argument("--input_image", type=str, required=True)
parser.add_argument("--model", type=str, required=True)
parser.add_argument("--output_filename", type=str)
parser.add_argument("--cuda", action="store_true")
opt = parser.parse_args()

img = Image.open(opt.input_image).convert("YCbCr")
y, cb, cr = img.split()
model = torch.load(opt.model, weights_only=False)
input = ToTensor()(y).view(1, -1, y.size[1], y.size[0])
if opt.cuda:
    model = model.cuda()
    input = input.cuda()
out = model(input)
out_img_y = out[0].detach().cpu().numpy() * 255.0
out_img_y = Image.fromarray(np.uint8(out_img_y.clip(0, 255)[0]), mode="L")
