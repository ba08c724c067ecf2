import argparse

import numpy as np
import torch
import torch.nn.functional as F

from model.IFNet import Model

if torch.cuda.is_available():
    device = torch.device("cuda")
elif torch.backends.mps.is_available():
    device = torch.device("mps")
else:
    device = torch.device("cpu")
torch.set_grad_enabled(False)

parser = argparse.ArgumentParser(description='Interpolation for a pair of images')
parser.add_argument('--exp', default=2, type=int)
args = parser.parse_args()

model = Model()
model.eval()
model.device(device)

# two frames (stand-ins for the cv2.imread'd images, HWC uint8), scaled to [0, 1]
frame0 = np.random.randint(0, 256, (256, 448, 3), dtype=np.uint8)
frame1 = np.random.randint(0, 256, (256, 448, 3), dtype=np.uint8)
img0 = (torch.tensor(frame0.transpose(2, 0, 1)).to(device) / 255.).unsqueeze(0)
img1 = (torch.tensor(frame1.transpose(2, 0, 1)).to(device) / 255.).unsqueeze(0)

n, c, h, w = img0.shape
ph = ((h - 1) // 64 + 1) * 64
pw = ((w - 1) // 64 + 1) * 64
padding = (0, pw - w, 0, ph - h)
img0 = F.pad(img0, padding)
img1 = F.pad(img1, padding)

img_list = [img0, img1]
for i in range(args.exp):
    tmp = []
    for j in range(len(img_list) - 1):
        mid = model.inference(img_list[j], img_list[j + 1])
        tmp.append(img_list[j])
        tmp.append(mid)
    tmp.append(img1)
    img_list = tmp

for i, img in enumerate(img_list):
    frame = (img[0] * 255).byte().cpu().numpy().transpose(1, 2, 0)[:h, :w]
    print(i, frame.shape)
