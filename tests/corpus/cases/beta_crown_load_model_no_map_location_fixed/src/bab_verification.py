import argparse
import random

import numpy as np
import torch

from utils import load_model, load_sampled_dataset

parser = argparse.ArgumentParser()
parser.add_argument("--load", type=str, default="models/cifar_base_kw.pth", help='Load pretrained model')
parser.add_argument("--device", type=str, default="cuda", choices=["cpu", "cuda"], help='use cpu or cuda')
parser.add_argument("--model", type=str, default="cifar_model", help='model name (a function in utils.py)')
parser.add_argument("--seed", type=int, default=100, help='random seed')
parser.add_argument("--eps", type=float, default=2. / 255, help='l_inf radius')
parser.add_argument("--start", type=int, default=0, help='start from i-th property')
parser.add_argument("--end", type=int, default=10, help='end with (i-1)-th property')
args = parser.parse_args()


def interval_bounds(net, lb, ub):
    """Interval bound propagation: a crude stand-in for the beta-CROWN bounds."""
    for layer in net:
        if isinstance(layer, (torch.nn.Linear, torch.nn.Conv2d)):
            mid, rad = (ub + lb) / 2, (ub - lb) / 2
            mid = layer(mid)
            weight = layer.weight.abs()
            rad = torch.nn.functional.linear(rad, weight) if isinstance(layer, torch.nn.Linear) else \
                torch.nn.functional.conv2d(rad, weight, stride=layer.stride, padding=layer.padding)
            lb, ub = mid - rad, mid + rad
        else:
            lb, ub = layer(lb), layer(ub)
    return lb, ub


def main(args):
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)

    model_ori = load_model(args, weights_loaded=True)
    X, labels = load_sampled_dataset()

    verified = 0
    for idx in range(args.start, args.end):
        x, y = X[idx].unsqueeze(0), labels[idx].item()
        model_ori.to('cpu')
        y_pred = torch.max(model_ori(x)[0], 0)[1].item()
        print('predicted label', y_pred, 'correct label', y)
        if y_pred != y:
            continue
        net = model_ori.to(args.device)
        x = x.to(args.device)
        lb, ub = interval_bounds(net, x - args.eps, x + args.eps)
        others = torch.cat([ub[0, :y], ub[0, y + 1:]])
        verified += int(lb[0, y] > others.max())
    print('verified', verified, 'of', args.end - args.start)


if __name__ == "__main__":
    main(args)
