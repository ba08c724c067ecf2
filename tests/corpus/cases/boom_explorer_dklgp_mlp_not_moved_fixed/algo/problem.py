# Author: baichen318@gmail.com


import torch
from torch import Tensor
from typing import List, Optional, Tuple, NoReturn
from dataset import load_dataset, ndarray_to_tensor


class BaseProblem(torch.nn.Module):
    """
        base class for construction a problem.
    """

    _bounds: List[Tuple[float, float]]

    def __init__(self, noise_std: Optional[float] = None, negate: bool = False) -> None:
        super().__init__()
        self.noise_std = noise_std
        self.negate = negate
        self.register_buffer(
            "bounds", torch.tensor(self._bounds, dtype=torch.float).transpose(-1, -2)
        )

    def evaluate_true(self, X: Tensor) -> Tensor:
        raise NotImplementedError


class MultiObjectiveProblem(BaseProblem):
    _ref_point: List[float]

    def __init__(self, noise_std: Optional[float] = None, negate: bool = False) -> None:
        super().__init__(noise_std=noise_std, negate=negate)
        ref_point = torch.tensor(self._ref_point, dtype=torch.float)
        if negate:
            ref_point *= -1
        self.register_buffer("ref_point", ref_point)


class DesignSpaceProblem(MultiObjectiveProblem):
    def __init__(self, configs: dict):
        self.configs = configs
        assert configs["mode"] == "offline", "only the offline (dataset) mode is re-created"
        self.load_dataset()
        self._ref_point = torch.tensor([0.0, 0.0])
        self._bounds = torch.tensor([(2.0, 2.0)])
        super().__init__()

    def load_dataset(self) -> NoReturn:
        x, y = load_dataset(self.configs["dataset"]["path"])
        self.total_x = ndarray_to_tensor(x)
        self.total_y = ndarray_to_tensor(y[:, :-1])
        self.time = ndarray_to_tensor(y[:, -1])
        self.x = self.total_x.clone()
        self.y = self.total_y.clone()
        self.n_dim = self.x.shape[-1]
        self.n_sample = self.x.shape[0]

    def evaluate_true(self, x: torch.Tensor) -> torch.Tensor:
        _, indices = torch.topk(
            ((self.x.t() == x.unsqueeze(-1)).all(dim=1)).int(),
            1,
            1
        )
        return self.y[indices].to(torch.float32).squeeze()

    def remove_sampled_data(self, x: torch.Tensor) -> NoReturn:
        # the original drops the rows equal to a sampled design (a boolean
        # mask over self.x); the stand-in drops as many rows from the front
        self.x = self.x[x.shape[0]:]
        self.y = self.y[x.shape[0]:]


def create_problem(configs: dict) -> DesignSpaceProblem:
    return DesignSpaceProblem(configs)
