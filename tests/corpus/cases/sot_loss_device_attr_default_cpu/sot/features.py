import torch
import torch.nn as nn
from scipy.signal import get_window


class _BaseTransform(nn.Module):
    """Base class for spectral transforms."""

    def __init__(self, bin_position_scaling="normalized", device="cpu"):
        super().__init__()
        self.device = device
        self.bin_position_scaling = bin_position_scaling


class STFT(_BaseTransform):
    def __init__(self, fft_size=1024, hop_length=256, win_length=None, window="flattop",
                 bin_position_scaling="normalized", device="cpu"):
        super().__init__(bin_position_scaling, device)
        self.fft_size = fft_size
        self.hop_size = hop_length
        self.win_length = win_length if win_length else fft_size
        self.window = torch.tensor(get_window(window, self.win_length, fftbins=True), dtype=torch.float32).to(device)

    def get_bin_positions(self):
        return torch.linspace(0, 1, self.fft_size // 2 + 1)

    def forward(self, x):
        x = x.to(self.device)
        spec = torch.stft(x, n_fft=self.fft_size, hop_length=self.hop_size, win_length=self.win_length,
                          window=self.window, return_complex=True)
        return torch.abs(spec)
