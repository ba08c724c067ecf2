"""Differentiable audio processors (flamo.processor.dsp, reduced to the Biquad path)."""
from typing import Optional

import torch
import torch.nn as nn


def lowpass_filter(fc, gain, fs=48000, device=None, dtype=torch.float32):
    """RBJ-cookbook lowpass: (b, a) coefficients of shape (3, n_sections, out, in)."""
    omegaC = 2 * torch.pi * fc / fs
    alpha = torch.sin(omegaC) / 2
    cos_oC = torch.cos(omegaC)
    g = 10 ** (gain / 20)
    b = torch.stack([g * (1 - cos_oC) / 2, g * (1 - cos_oC), g * (1 - cos_oC) / 2])
    a = torch.stack([1 + alpha, -2 * cos_oC, 1 - alpha])
    return b, a


class DSP(nn.Module):
    def __init__(self, size: tuple, nfft: int = 2**11, map=lambda x: x, requires_grad: bool = False,
                 alias_decay_db: float = 0.0, device: Optional[str] = None, dtype: torch.dtype = torch.float32):
        super().__init__()
        self.size = size
        self.nfft = nfft
        self.map = map
        self.requires_grad = requires_grad
        self.device = device
        self.dtype = dtype
        self.param = nn.Parameter(torch.empty(self.size, device=self.device, dtype=self.dtype), requires_grad=self.requires_grad)
        self.alias_decay_db = torch.tensor(alias_decay_db, device=self.device, dtype=self.dtype)
        torch.nn.init.normal_(self.param)


class Filter(DSP):
    def forward(self, x):
        return torch.einsum("mpn,bmn->bmp", self.freq_response(self.param), x)


class Biquad(Filter):
    def __init__(self, size: tuple = (1, 1), n_sections: int = 1, filter_type: str = "lowpass", nfft: int = 2**11,
                 fs: int = 48000, requires_grad: bool = False, alias_decay_db: float = 0.0,
                 device: Optional[str] = None, dtype: torch.dtype = torch.float32):
        self.n_sections = n_sections
        self.filter_type = filter_type
        self.fs = fs
        self.device = device
        self.dtype = dtype
        self.get_map()
        gamma = 10 ** (-torch.abs(torch.tensor(alias_decay_db, device=self.device, dtype=self.dtype)) / nfft / 20)
        self.alias_envelope_dcy = gamma ** torch.arange(0, 3, 1, device=self.device, dtype=self.dtype)
        super().__init__(size=(n_sections, 2, *size), nfft=nfft, map=self.map, requires_grad=requires_grad,
                         alias_decay_db=alias_decay_db, device=device, dtype=dtype)
        self.freq_response = lambda param: self.get_poly_coeff(self.map(param))[0]

    def get_poly_coeff(self, param):
        b, a = lowpass_filter(fc=param[:, 0, :, :] * self.fs / 2, gain=param[:, 1, :, :], fs=self.fs,
                              device=self.device, dtype=self.dtype)
        b_aa = torch.einsum("p, pomn -> pomn", self.alias_envelope_dcy, b)
        a_aa = torch.einsum("p, pomn -> pomn", self.alias_envelope_dcy, a)
        B = torch.fft.rfft(b_aa, self.nfft, dim=0)
        A = torch.fft.rfft(a_aa, self.nfft, dim=0)
        return torch.prod(B, dim=1) / torch.prod(A, dim=1), B, A

    def get_map(self):
        """Map the raw parameters to a stable range: cut-off in [0, 1], gain in [-60, 60] dB."""
        self.map = lambda x: torch.clamp(
            torch.stack((x[:, 0, :, :], 20 * torch.log10(torch.abs(x[:, 1, :, :]))), dim=1),
            min=torch.tensor([0, -60], device=self.device, dtype=self.dtype).view(-1, 1, 1).expand_as(x),
            max=torch.tensor([1, 60], device=self.device, dtype=self.dtype).view(-1, 1, 1).expand_as(x),
        )


if __name__ == "__main__":
    core = Biquad(size=(1, 1), n_sections=4, filter_type="lowpass", nfft=4096, fs=48000)
    model = core.to("cuda")
    x = torch.randn(8, 2049, 1)
    y = model(x.cuda())
    print(y.shape)
