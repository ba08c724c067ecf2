import torch
from torch.autograd import Variable

from constants import device


def numpy_to_tvar(x):
    return Variable(torch.from_numpy(x).type(torch.FloatTensor).to(device))
