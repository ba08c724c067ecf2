import torch
import torch.nn as nn

from rnn_base import RNNBase


class RNN(RNNBase):
    """Custom RNN built from linear layers: h_t = tanh(W_in x_t + W_rec h_(t-1) + b_rec)."""

    sigma = nn.Tanh()

    def __init__(self, input_size=1, output_size=1, n_units=50, on_gpu=False):
        RNNBase.__init__(self, input_size=input_size, output_size=output_size, n_units=n_units, on_gpu=on_gpu)
        self.w_in = nn.Linear(input_size, n_units, bias=False)
        self.w_rec = nn.Linear(n_units, n_units, bias=True)
        self.w_out = nn.Linear(n_units, output_size, bias=False)
        self.build()

    def forward(self, x, h=None):
        if h is None:
            h = self._initialize_hidden(x)
        if self.on_gpu:
            h = h.cuda(0)
        nbatch, length, ninp = x.shape
        out = torch.zeros(length, nbatch, self.output_size)
        for t in range(length):
            h = self.sigma(self.w_rec(h) + self.w_in(x[:, t, :]))
            out[t, :, :] = self.w_out(h)
        return out.permute(1, 0, 2), h


class CTRNN(RNN):
    """Continuous time RNN: tau * dh/dt = -h + W_rec sigma(h) + W_in x."""

    def __init__(self, input_size=1, output_size=1, n_units=50, on_gpu=False, dt=5, tau=100):
        RNN.__init__(self, input_size=input_size, output_size=output_size, n_units=n_units, on_gpu=on_gpu)
        self.tau, self.dt = tau, dt

    def forward(self, x, h=None):
        if h is None:
            h = self._initialize_hidden(x)
        if self.on_gpu:
            h = h.cuda(0)
        nbatch, length, ninp = x.shape
        out = torch.zeros(length, nbatch, self.output_size)
        for t in range(length):
            hdot = (-h + self.w_rec(self.sigma(h)) + self.w_in(x[:, t, :])) / self.tau
            h = h + self.dt * hdot
            out[t, :, :] = self.w_out(h)
        return out.permute(1, 0, 2), h
