import random

import torch
from torch.utils.data import Dataset


class lmdbDataset(Dataset):
  """Stand-in for the LMDB word-image dataset: random grey images with random words."""

  def __init__(self, alphabets, root=None, num_samples=8):
    self.alphabets = alphabets
    self.samples = [''.join(random.choice(alphabets) for _ in range(5)) for _ in range(num_samples)]

  def __len__(self):
    return len(self.samples)

  def __getitem__(self, index):
    return torch.rand(1, 32, 100), self.samples[index]


class alignCollate(object):
  def __init__(self, imgH=32, imgW=100):
    self.imgH = imgH
    self.imgW = imgW

  def __call__(self, batch):
    images, labels = zip(*batch)
    images = torch.stack(images, 0)
    return images, list(labels)
