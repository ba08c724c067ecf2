import argparse
import os

import torch

import config
from dataset import data_loader
from models import load_model
from utils import Checkpoint, dice_coef


def train(args):

    device = config.device

    trainloader = data_loader(args, mode='train')

    net, optimizer, best_score, start_epoch = \
        load_model(args, class_num=config.class_num, mode='train')

    for epoch in range(start_epoch, start_epoch + args.epochs):
        net.train(True)
        loss = 0
        lr = args.lr * (0.5 ** (epoch // 4))
        for param_group in optimizer.param_groups:
            param_group["lr"] = lr
        for idx, (inputs, targets, paths) in enumerate(trainloader):
            inputs, targets = inputs.to(device), targets.to(device)
            outputs = net(inputs)
            batch_loss = dice_coef(outputs, targets)
            optimizer.zero_grad()
            batch_loss.backward()
            optimizer.step()
            loss += float(batch_loss)
        print('Epoch: %d  Loss: %.5f' % (epoch, loss / (idx + 1)))

        score = 1 - loss / (idx + 1)
        if score > best_score:
            checkpoint = Checkpoint(net, optimizer, epoch, score)
            checkpoint.save(os.path.join(args.ckpt_root, args.model + '.tar'))
            best_score = score


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--resume", type=bool, default=False, help="Model Training resume.")
    parser.add_argument("--model", type=str, default='unet')
    parser.add_argument("--in_channel", type=int, default=1)
    parser.add_argument("--batch_size", type=int, default=8)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--drop_rate", type=float, default=0.1)
    parser.add_argument("--lr", type=float, default=0.001)
    parser.add_argument("--ckpt_root", type=str, default="./checkpoint")
    args = parser.parse_args()

    train(args)
