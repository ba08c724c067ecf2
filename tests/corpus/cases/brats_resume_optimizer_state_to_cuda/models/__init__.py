import os

import torch
from torch.optim import SGD

import config
from utils import Checkpoint

from .unet import UNet


def load_model(args, class_num, mode):

    # Device Init
    device = config.device

    # Model Init
    if args.model == 'unet':
        net = UNet(args.in_channel, class_num, drop_rate=args.drop_rate)
    else:
        raise ValueError('args.model ERROR')

    # Optimizer Init
    if mode == 'train':
        resume = args.resume
        optimizer = SGD(net.parameters(), lr=args.lr, momentum=0.9, weight_decay=1e-4)
    elif mode == 'test':
        resume = True
        optimizer = None
    else:
        raise ValueError('load_model mode ERROR')

    # Model Load
    if resume:
        checkpoint = Checkpoint(net, optimizer)
        checkpoint.load(os.path.join(args.ckpt_root, args.model + '.tar'))
        best_score = checkpoint.best_score
        start_epoch = checkpoint.epoch + 1
    else:
        best_score = 0
        start_epoch = 1

    if device == 'cuda':
        net.cuda()
        net = torch.nn.DataParallel(net)
        torch.backends.cudnn.benchmark = True

    return net, optimizer, best_score, start_epoch
