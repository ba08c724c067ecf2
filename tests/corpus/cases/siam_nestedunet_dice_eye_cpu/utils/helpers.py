import torch.nn as nn

from utils.losses import hybrid_loss
from utils.metrics import dice_loss


def get_criterion(opt):
    """get the user selected loss function"""
    if opt.loss_function == "hybrid":
        criterion = hybrid_loss
    if opt.loss_function == "bce":
        criterion = nn.CrossEntropyLoss()
    if opt.loss_function == "dice":
        criterion = dice_loss
    return criterion
