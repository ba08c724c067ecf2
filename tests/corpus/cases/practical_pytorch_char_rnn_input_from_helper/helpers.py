# char-rnn-generation helpers: reading the text and turning a string into a tensor
import string
import time
import math
import torch

all_characters = string.printable
n_characters = len(all_characters)


def read_file(filename):
    file = open(filename).read()
    return file, len(file)


def char_tensor(string):
    tensor = torch.zeros(len(string)).long()
    for c in range(len(string)):
        tensor[c] = all_characters.index(string[c])
    return tensor


def time_since(since):
    s = time.time() - since
    m = math.floor(s / 60)
    s -= m * 60
    return '%dm %ds' % (m, s)
