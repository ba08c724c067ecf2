import torch as th
from torch import nn


class CPC(nn.Module):
    """Core model for contrastive predictive coding: conv encoder, GRU context, linear predictors."""

    def __init__(self, options):
        super(CPC, self).__init__()
        self.options = options
        self.dims = options["conv_dims"]
        self.ts, self.bs = options["time_steps"], options["batch_size"]
        self.hindex = int(self.options["sequence_length"] / self.options["downsampling_factor"]) - self.ts
        self.encoder = CPCEncoder(options)
        self.gru = nn.GRU(input_size=self.dims[-1], hidden_size=self.dims[-1], num_layers=2, batch_first=True)
        self.wk = nn.ModuleList([nn.Linear(self.dims[-1], self.dims[-1]) for i in range(options["time_steps"])])

    def forward(self, x, hidden):
        encoder_samples = th.empty((self.ts, self.bs, self.dims[-1])).float()
        predictions = th.empty((self.ts, self.bs, self.dims[-1])).float()
        time_sample = th.randint(low=0, high=self.hindex, size=(1,)).long()
        z = self.encoder(x).transpose(1, 2)
        for k in range(1, self.ts):
            encoder_samples[k - 1] = z[:, time_sample + k, :].view(-1, self.dims[-1])
        prior_sequence = z[:, :time_sample + 1, :]
        # Feed prior_sequence and hidden variable to generate output:o and hidden: h
        output, hidden = self.gru(prior_sequence, hidden)
        ct = output[:, time_sample, :].view(self.bs, -1)
        for k in range(self.ts):
            predictions[k] = self.wk[k](ct)
        return encoder_samples, predictions, hidden


class CPCEncoder(nn.Module):
    def __init__(self, options):
        super(CPCEncoder, self).__init__()
        self.layers = nn.ModuleList()
        for i, o, k, s, p, d in options["conv_dims"][:-1]:
            self.layers.append(nn.Conv1d(i, o, k, stride=s, padding=p, dilation=d))
            self.layers.append(nn.LeakyReLU(inplace=False))
        self.layers.append(nn.Conv1d(options["conv_dims"][-2][1], options["conv_dims"][-1], 1))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
