# Author: baichen318@gmail.com


import torch
from typing import NoReturn
from initialize import micro_al
from model import initialize_dkl_gp
from problem import DesignSpaceProblem
from utils import info
from gp import ExactMarginalLogLikelihood, ExpectedHypervolumeImprovement


class BOOMExplorerSolver(object):
    def __init__(self, problem: object):
        super(BOOMExplorerSolver, self).__init__()
        self.problem = problem

    def initialize(self) -> NoReturn:
        # Microarctecture-aware active learning
        self.visited_x, self.visited_y = micro_al(self.problem)

    def set_optimizer(self) -> torch.optim.Adam:
        parameters = [
            {"params": self.model.mlp.parameters()},
            {"params": self.model.gp.covar_module.parameters()},
            {"params": self.model.gp.mean_module.parameters()},
            {"params": self.model.gp.likelihood.parameters()}
        ]
        return torch.optim.Adam(
            parameters, lr=self.problem.configs["dkl-gp"]["learning-rate"]
        )

    def fit_dkl_gp(self) -> NoReturn:
        self.model = initialize_dkl_gp(
            self.visited_x,
            self.visited_y,
            self.problem.configs["dkl-gp"]["mlp-output-dim"]
        )
        self.model.set_train()
        optimizer = self.set_optimizer()

        mll = ExactMarginalLogLikelihood(
            self.model.gp.likelihood,
            self.model.gp
        )
        y = self.model.transform_ylayout(self.visited_y).squeeze(1)
        for i in range(self.problem.configs["dkl-gp"]["max-traininig-epoch"]):
            optimizer.zero_grad()
            _y = self.model.train(self.visited_x)
            loss = -mll(_y, y)
            loss.backward()
            optimizer.step()
        self.model.set_eval()

    def eipv_suggest(self, batch: int = 1) -> NoReturn:
        acq_func = ExpectedHypervolumeImprovement(
            model=self.model.gp,
            ref_point=self.problem._ref_point.tolist(),
        ).to(self.model.device)

        acq_val = acq_func(
            self.model.transform_xlayout(
                self.model.forward_mlp(
                    self.problem.x.to(torch.float).to(self.model.device)
                )
            ).unsqueeze(1).to(self.model.device)
        ).to(self.model.device)
        top_acq_val, indices = torch.topk(acq_val[:self.problem.x.shape[0]], k=batch)
        new_x = self.problem.x[indices].to(torch.float32).reshape(-1, self.problem.n_dim)
        self.visited_x = torch.cat((self.visited_x, new_x), 0)
        self.visited_y = torch.cat((
                self.visited_y,
                self.problem.evaluate_true(new_x).unsqueeze(0)
            ),
            0
        )

    def report(self):
        info("visited designs: {}".format(self.visited_x.shape[0]))
        self.model.save("dkl-gp.mdl")


def create_solver(problem: DesignSpaceProblem) -> BOOMExplorerSolver:
    return BOOMExplorerSolver(problem)
