"""
TRAIN GANOMALY

. Example: Run the following command from the terminal.
    run train.py                             \
        --dataset mnist                      \
        --niter 15
"""

##
# LIBRARIES
from __future__ import print_function

import torch
from torch.utils.data import DataLoader, TensorDataset

from options import Options
from lib.model import Ganomaly


def load_data(opt):
    """Stand-in for lib/data.py: random images, normal class 0 in train, both classes in test."""
    x_train = torch.randn(64, opt.nc, opt.isize, opt.isize)
    y_train = torch.zeros(64, dtype=torch.long)
    x_test = torch.randn(48, opt.nc, opt.isize, opt.isize)
    y_test = torch.cat([torch.zeros(24, dtype=torch.long), torch.ones(24, dtype=torch.long)])
    return {
        'train': DataLoader(TensorDataset(x_train, y_train), batch_size=opt.batchsize, shuffle=True, drop_last=True),
        'test': DataLoader(TensorDataset(x_test, y_test), batch_size=opt.batchsize, shuffle=False, drop_last=False),
    }


##
def train():
    """ Training
    """

    ##
    # ARGUMENTS
    opt = Options().parse()
    ##
    # LOAD DATA
    dataloader = load_data(opt)
    ##
    # LOAD MODEL
    model = Ganomaly(opt, dataloader)
    ##
    # TRAIN MODEL
    model.train()

if __name__ == '__main__':
    train()
