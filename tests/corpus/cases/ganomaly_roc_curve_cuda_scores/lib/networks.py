""" Network architectures (reduced: the DCGAN encoder/decoder are small stand-ins).
"""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, isize, nz, nc, ngf):
        super(Encoder, self).__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ngf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Flatten(),
            nn.Linear(ngf * (isize // 2) ** 2, nz),
        )

    def forward(self, input):
        return self.main(input)


class Decoder(nn.Module):
    def __init__(self, isize, nz, nc):
        super(Decoder, self).__init__()
        self.isize, self.nc = isize, nc
        self.main = nn.Linear(nz, nc * isize * isize)

    def forward(self, input):
        return torch.tanh(self.main(input)).view(-1, self.nc, self.isize, self.isize)


class NetG(nn.Module):
    """ GENERATOR NETWORK """

    def __init__(self, opt):
        super(NetG, self).__init__()
        self.encoder1 = Encoder(opt.isize, opt.nz, opt.nc, opt.ngf)
        self.decoder = Decoder(opt.isize, opt.nz, opt.nc)
        self.encoder2 = Encoder(opt.isize, opt.nz, opt.nc, opt.ngf)

    def forward(self, x):
        latent_i = self.encoder1(x)
        gen_imag = self.decoder(latent_i)
        latent_o = self.encoder2(gen_imag)
        return gen_imag, latent_i, latent_o
