import argparse

import numpy as np
import torch

from model import generator


def parse_args():
    parser = argparse.ArgumentParser(description="Colorize images")
    parser.add_argument("-m", "--model", type=str, required=True, help="location for model (Generator)")
    parser.add_argument("--gpu", type=int, default=-1, help="which GPU to use? [-1 for cpu]")
    return parser.parse_args()


args = parse_args()

G = generator()

if args.gpu >= 0:
    G = G.cuda(args.gpu)
    G.load_state_dict(torch.load(args.model))
else:
    G.load_state_dict(torch.load(args.model, map_location={'cuda:0': 'cpu'}))
G.eval()


def inference(G, y_plane):
    infimg = np.expand_dims(np.expand_dims(y_plane, axis=0), axis=0)
    img_variable = torch.Tensor(infimg - 0.5)
    if args.gpu >= 0:
        img_variable = img_variable.cuda(args.gpu)
    res = G(img_variable)
    uv = res.cpu().detach().numpy()
    uv[:, 0, :, :] *= 0.436
    uv[:, 1, :, :] *= 0.615
    return np.concatenate([infimg, uv], axis=1)[0]


# stand-in for the Y plane of an input photo (rgb2yuv(Image.open(...))[..., 0])
yuv = inference(G, np.random.rand(64, 64).astype(np.float32))
print(yuv.shape)
