"""
    Stand-ins for the gpytorch / botorch pieces BOOM-Explorer uses: an exact
    GP whose kernel and mean are nn.Modules, its marginal log likelihood, and
    an expected-hypervolume-improvement acquisition (reduced to an
    optimistic bound of the posterior mean).
"""
import torch
import torch.nn as nn


class GaussianLikelihood(nn.Module):
    def __init__(self):
        super().__init__()
        self.raw_noise = nn.Parameter(torch.zeros(1))

    @property
    def noise(self):
        return torch.nn.functional.softplus(self.raw_noise) + 1e-4


class LinearMean(nn.Module):
    def __init__(self, input_size):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(input_size, 1))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return x.matmul(self.weights).squeeze(-1) + self.bias


class ScaleRBFKernel(nn.Module):
    def __init__(self, ard_num_dims):
        super().__init__()
        self.raw_lengthscale = nn.Parameter(torch.zeros(1, ard_num_dims))
        self.raw_outputscale = nn.Parameter(torch.zeros(1))

    def forward(self, x1, x2):
        ls = torch.nn.functional.softplus(self.raw_lengthscale) + 1e-4
        d = torch.cdist(x1 / ls, x2 / ls)
        return torch.nn.functional.softplus(self.raw_outputscale) * torch.exp(-0.5 * d ** 2)


class IndexKernel(nn.Module):
    def __init__(self, num_tasks, rank):
        super().__init__()
        self.covar_factor = nn.Parameter(torch.randn(num_tasks, rank))

    def forward(self, i1, i2):
        covar = self.covar_factor.matmul(self.covar_factor.t())
        return covar[i1.view(-1)][:, i2.view(-1)]


class ExactGP(nn.Module):
    def __init__(self, train_inputs, train_targets, likelihood):
        super().__init__()
        self.train_inputs = train_inputs
        self.train_targets = train_targets
        self.likelihood = likelihood

    def set_train_data(self, inputs):
        self.train_inputs = inputs


class ExactMarginalLogLikelihood(object):
    def __init__(self, likelihood, model):
        self.likelihood = likelihood
        self.model = model

    def __call__(self, output, target):
        mean, covar = output
        covar = covar + self.likelihood.noise * torch.eye(covar.size(0), device=covar.device)
        dist = torch.distributions.MultivariateNormal(mean, covariance_matrix=covar, validate_args=False)
        return dist.log_prob(target) / target.size(0)


class ExpectedHypervolumeImprovement(nn.Module):
    def __init__(self, model, ref_point, partitioning=None):
        super().__init__()
        self.model = model
        self.register_buffer("ref_point", torch.as_tensor(ref_point, dtype=torch.float))

    def forward(self, X):
        mean, covar = self.model(X.squeeze(1))
        std = covar.diagonal().clamp_min(1e-9).sqrt()
        return mean + std
