#! /usr/bin/env python
import argparse
from types import SimpleNamespace

import torch

import model
import train


class BucketIterator:
    """Stand-in for torchtext's iterator over the MR dataset: batches of (seq_len, batch) word ids
    in `.text` and 1-based labels in `.label`."""

    def __init__(self, n, batch_size, vocab, seq_len=20):
        self.dataset = list(range(n))
        self.batches = []
        for start in range(0, n, batch_size):
            bs = min(batch_size, n - start)
            self.batches.append(SimpleNamespace(text=torch.randint(0, vocab, (seq_len, bs)),
                                                label=torch.randint(1, 3, (bs,)), batch_size=bs))

    def __iter__(self):
        return iter(self.batches)


parser = argparse.ArgumentParser(description='CNN text classificer')
parser.add_argument('-lr', type=float, default=0.001, help='initial learning rate [default: 0.001]')
parser.add_argument('-epochs', type=int, default=2, help='number of epochs for train [default: 2]')
parser.add_argument('-batch-size', type=int, default=16, help='batch size for training [default: 16]')
parser.add_argument('-log-interval', type=int, default=1)
parser.add_argument('-test-interval', type=int, default=4)
parser.add_argument('-dropout', type=float, default=0.5, help='the probability for dropout [default: 0.5]')
parser.add_argument('-embed-dim', type=int, default=32, help='number of embedding dimension [default: 32]')
parser.add_argument('-kernel-num', type=int, default=16, help='number of each kind of kernel')
parser.add_argument('-kernel-sizes', type=str, default='3,4,5', help='comma-separated kernel size to use for convolution')
parser.add_argument('-no-cuda', action='store_true', default=False, help='disable the gpu')
args = parser.parse_args()

# load data
train_iter = BucketIterator(64, args.batch_size, vocab=500)
dev_iter = BucketIterator(32, args.batch_size, vocab=500)

# update args and print
args.embed_num = 500
args.class_num = 2
args.cuda = (not args.no_cuda) and torch.cuda.is_available(); del args.no_cuda
args.kernel_sizes = [int(k) for k in args.kernel_sizes.split(',')]

# model
cnn = model.CNN_Text(args)

# train
train.train(train_iter, dev_iter, cnn, args)
