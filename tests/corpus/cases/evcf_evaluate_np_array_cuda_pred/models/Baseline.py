import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    """Mult-VAE style collaborative-filtering VAE (stand-in for the repository's Baseline model)."""

    def __init__(self, args):
        super(VAE, self).__init__()
        self.args = args
        self.q_z_layers = nn.Sequential(nn.Dropout(0.5), nn.Linear(args.input_size, args.hidden_size), nn.Tanh())
        self.q_z_mean = nn.Linear(args.hidden_size, args.z1_size)
        self.q_z_logvar = nn.Linear(args.hidden_size, args.z1_size)
        self.p_x_layers = nn.Sequential(nn.Linear(args.z1_size, args.hidden_size), nn.Tanh())
        self.p_x_mean = nn.Linear(args.hidden_size, args.input_size)

    def q_z(self, x):
        h = self.q_z_layers(F.normalize(x, dim=1))
        return self.q_z_mean(h), self.q_z_logvar(h)

    def p_x(self, z):
        return self.p_x_mean(self.p_x_layers(z))

    def forward(self, x):
        z_q_mean, z_q_logvar = self.q_z(x)
        z_q = z_q_mean + torch.randn_like(z_q_mean) * torch.exp(0.5 * z_q_logvar) if self.training else z_q_mean
        return self.p_x(z_q), z_q_mean, z_q_logvar

    def calculate_loss(self, x, beta=1.0, average=False):
        x_mean, z_q_mean, z_q_logvar = self.forward(x)
        RE = -(F.log_softmax(x_mean, dim=1) * x).sum(dim=1)
        KL = -0.5 * torch.sum(1 + z_q_logvar - z_q_mean.pow(2) - z_q_logvar.exp(), dim=1)
        loss = RE + beta * KL
        if average:
            return loss.mean(), RE.mean(), KL.mean()
        return loss, RE, KL

    def reconstruct_x(self, x):
        x_mean, _, _ = self.forward(x)
        return x_mean
