import numpy as np
from torch import nn


class Generator(nn.Module):
    def __init__(self, latent_dim, img_shape):
        super().__init__()
        self.img_shape = img_shape
        self.model = nn.Sequential(nn.Linear(latent_dim, 256), nn.LeakyReLU(0.2, inplace=True),
                                   nn.Linear(256, int(np.prod(img_shape))), nn.Tanh())

    def forward(self, z):
        return self.model(z).view(z.size(0), *self.img_shape)


class Discriminator(nn.Module):
    def __init__(self, img_shape):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(int(np.prod(img_shape)), 256), nn.LeakyReLU(0.2, inplace=True),
                                   nn.Linear(256, 1), nn.Sigmoid())

    def forward(self, img):
        return self.model(img.view(img.size(0), -1))
