# Author: baichen318@gmail.com


import torch
import torch.nn as nn
from utils import info, assert_error
from typing import Dict, Tuple, NoReturn
from gp import ExactGP, GaussianLikelihood, LinearMean, ScaleRBFKernel, IndexKernel


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Linear") != -1:
        nn.init.constant_(m.weight, 1)
        nn.init.constant_(m.bias, 0)


class MOGP(ExactGP):
    """
        Multi-objective GP model with ICM kernel, inferring observation noise.
    """

    def __init__(self, train_X: torch.Tensor, train_Y: torch.Tensor, task_feature: int, mean_type: str = "constant") -> None:
        d = train_X.shape[-1] - 1
        task_feature = task_feature % (d + 1)
        num_tasks = 2
        likelihood = GaussianLikelihood()
        self._task_feature = task_feature
        super().__init__(
            train_inputs=train_X,
            train_targets=train_Y.squeeze(-1),
            likelihood=likelihood
        )
        # construct indexer to be used in forward
        self._base_idxr = torch.arange(d)
        self.mean_module = LinearMean(input_size=d)
        self.covar_module = ScaleRBFKernel(ard_num_dims=d)
        self.task_covar_module = IndexKernel(num_tasks=num_tasks, rank=num_tasks)
        self.to(train_X)

    def _split_inputs(self, x: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
        x_basic = x[..., :self._task_feature]
        task_idcs = x[..., self._task_feature].view(-1, 1).to(dtype=torch.long)
        return x_basic, task_idcs

    def forward(self, x: torch.Tensor):
        x_basic, task_idcs = self._split_inputs(x)
        # Compute base mean and covariance
        mean_x = self.mean_module(x_basic)
        covar_x = self.covar_module(x_basic, x_basic)
        # Compute task covariances
        covar_i = self.task_covar_module(task_idcs, task_idcs)
        # Combine the two in an ICM fashion
        covar = covar_x.mul(covar_i)
        return mean_x, covar


class MLP(nn.Sequential):
    """
        MLP as preprocessor of DKLGP
    """
    def __init__(self, input_dim: int, output_dim: int):
        super(MLP, self).__init__()
        # NOTICE: we do not add spectral normalization
        self.add_module("linear-1", nn.Linear(input_dim, 1000))
        self.add_module("relu-1", nn.ReLU())
        self.add_module("linear-2", nn.Linear(1000, 500))
        self.add_module("relu-2", nn.ReLU())
        self.add_module("linear-3", nn.Linear(500, 50))
        self.add_module("relu-3", nn.ReLU())
        self.add_module("linear-4", nn.Linear(50, output_dim))


class DKLGP(object):
    def __init__(self, x: torch.Tensor, y: torch.Tensor, **kwargs: Dict):
        self.n_dim = x.shape[-1]
        self.n_target = y.shape[-1]
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.mlp = MLP(self.n_dim, kwargs["mlp_output_dim"])
        self.mlp.apply(weights_init)
        x = self.forward_mlp(x)
        x = self.transform_xlayout(x)
        y = self.transform_ylayout(y)
        self.gp = MOGP(x, y, task_feature=-1, mean_type="linear")

    def set_train(self) -> NoReturn:
        self.gp.train()
        self.gp.likelihood.train()
        self.mlp.train()
        self.gp = self.gp.to(self.device)
        self.likelihood = self.gp.likelihood.to(self.device)
        self.mlp = self.mlp.to(self.device)

    def set_eval(self) -> NoReturn:
        self.mlp.eval()
        self.gp.eval()
        self.gp.likelihood.eval()

    def transform_xlayout(self, x: torch.Tensor) -> torch.Tensor:
        """
            [x1; x2; x3]  <-->  [y11, y12; y21, y22; y31, y33]
                =>
            [x1, 0; x2, 0; x3, 0; x1, 1; x2, 1; x3, 1]  <-->  [y11; y21; y31; y12; y22; y32]
        """
        x = x.to(self.device)
        nsample = x.shape[0]
        x = torch.cat([x for i in range(self.n_target)], dim=0)
        task_index = torch.zeros(nsample, 1).to(x.device)
        for i in range(1, self.n_target):
            task_index = torch.cat([task_index, i * torch.ones(nsample, 1).to(x.device)], dim=0)
        x = torch.cat([x, task_index], dim=1)
        return x

    def transform_ylayout(self, y: torch.Tensor) -> torch.Tensor:
        y = y.to(self.device)
        y = y.chunk(self.n_target, dim=1)
        y = torch.cat([y[i] for i in range(len(y))], dim=0)
        return y

    def forward_mlp(self, x: torch.Tensor) -> torch.Tensor:
        x = x.to(self.device)
        x = self.mlp(x)
        # normalization
        x = x - x.min(0)[0]
        x = 2 * (x / x.max(0)[0]) - 1
        return x

    def train(self, x: torch.Tensor) -> torch.Tensor:
        x = x.to(self.device)
        x = self.forward_mlp(x)
        x = self.transform_xlayout(x)
        self.gp.set_train_data(x)
        y = self.gp(x)
        return y

    def save(self, path: str) -> NoReturn:
        state_dict = {
            "mlp": self.mlp.state_dict(),
            "gp": self.gp.state_dict()
        }
        torch.save(state_dict, path)
        info("saving model to {}.".format(path))


def initialize_dkl_gp(
    x: torch.Tensor, y: torch.Tensor, mlp_output_dim: int
) -> DKLGP:
    return DKLGP(x, y, mlp_output_dim=mlp_output_dim)
