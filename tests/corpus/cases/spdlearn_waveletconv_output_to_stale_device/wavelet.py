from typing import Optional, Sequence, Union

import torch
import torch.nn.functional as F
from torch import Tensor, nn


def compute_gabor_wavelet(tt: Tensor, foi: Tensor, fwhm: Tensor, sfreq: float = 250.0, dtype=torch.complex64) -> Tensor:
    """Complex Gabor (Morlet) filterbank with learnable centre frequencies (log2 Hz) and widths."""
    foi_hz = 2 ** foi.clamp(-2.0, 6.0)
    fwhm_s = 2 ** fwhm.clamp(-6.0, 1.0)
    tt = tt.unsqueeze(0)
    envelope = torch.exp(-4 * torch.log(torch.tensor(2.0)) * tt ** 2 / fwhm_s.unsqueeze(1) ** 2)
    wavelets = envelope * torch.exp(2j * torch.pi * foi_hz.unsqueeze(1) * tt)
    return (wavelets / torch.linalg.norm(wavelets, dim=1, keepdim=True)).to(dtype)


class WaveletConv(nn.Module):
    tt: Tensor  # registered buffer

    def __init__(self, kernel_width_s: float, foi_init: Union[Sequence[float], Tensor], sfreq: int = 100,
                 fwhm_init: Optional[Union[Sequence[float], Tensor]] = None, padding: Union[int, str] = 0,
                 stride: int = 1, dtype: torch.dtype = torch.complex64, device: Optional[torch.device] = None):
        super().__init__()
        self.n_wavelets = len(foi_init)
        self.sfreq = sfreq
        self.padding = padding
        self.stride = stride
        self.dtype = dtype
        self.device = device if device is not None else torch.device("cpu")
        kernel_length = int(kernel_width_s * sfreq)
        self.register_buffer("tt", torch.linspace(-kernel_width_s / 2.0, kernel_width_s / 2.0, kernel_length))
        foi_tensor = torch.tensor(foi_init)
        fwhm_tensor = -foi_tensor if fwhm_init is None else torch.tensor(fwhm_init)
        self.foi = nn.Parameter(foi_tensor, requires_grad=True)
        self.fwhm = nn.Parameter(fwhm_tensor, requires_grad=True)

    def forward(self, X: Tensor) -> Tensor:
        wavelets = compute_gabor_wavelet(tt=self.tt, foi=self.foi, fwhm=self.fwhm, sfreq=self.sfreq, dtype=self.dtype)
        n_freqs = wavelets.shape[0]
        batch_size, in_channels, times = X.shape
        X_conv = F.conv1d(X.to(self.dtype).view(-1, 1, times), wavelets.unsqueeze(1), padding=self.padding, stride=self.stride)
        X_conv = X_conv.view(batch_size, in_channels, n_freqs, -1).swapaxes(1, 2)
        return X_conv.to(device=self.device, dtype=self.dtype)


class WaveletPowerNet(nn.Module):
    """Wavelet band power per channel, then a linear classifier."""

    def __init__(self, n_chans, n_outputs, foi_init=(1.0, 2.0, 3.0, 4.0), sfreq=100):
        super().__init__()
        self.wavelet = WaveletConv(kernel_width_s=0.5, foi_init=list(foi_init), sfreq=sfreq)
        self.head = nn.Linear(len(foi_init) * n_chans, n_outputs)

    def forward(self, x):
        power = self.wavelet(x).abs().pow(2).mean(-1)
        return self.head(power.flatten(1))


if __name__ == "__main__":
    device = torch.device("cuda")
    model = WaveletPowerNet(n_chans=22, n_outputs=4).to(device)
    x = torch.randn(8, 22, 1000, device=device)
    print(model(x).shape)
