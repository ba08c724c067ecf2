import copy

import torch

from . import utils as ut


class SlsAcc(torch.optim.Optimizer):
    """Stochastic line search with Polyak or Nesterov acceleration (line search reduced to one Armijo check)."""

    def __init__(self, params, init_step_size=1, c=0.1, beta_b=0.9, momentum=0.6, acceleration_method="polyak"):
        params = list(params)
        super().__init__(params, {})
        self.params = params
        self.momentum = momentum
        self.c = c
        self.beta_b = beta_b
        self.acceleration_method = acceleration_method
        self.state["step"] = 0
        self.state["step_size"] = init_step_size
        if acceleration_method == "polyak":
            self.state["params_current"] = copy.deepcopy(self.params)
        elif acceleration_method == "nesterov":
            self.state["y_params_old"] = copy.deepcopy(self.params)
            self.state["tau"] = 1
        else:
            raise ValueError("%s is not supported" % acceleration_method)

    def step(self, closure):
        step_size = self.state["step_size"]
        loss = closure()
        loss.backward()
        params_current = copy.deepcopy(self.params)
        grad_current = ut.get_grad_list(self.params)
        grad_norm = ut.compute_grad_norm(grad_current)
        if self.acceleration_method == "polyak":
            params_old = copy.deepcopy(self.state["params_current"])
            self.state["params_current"] = params_current
        with torch.no_grad():
            for e in range(100):
                ut.try_sgd_update(self.params, step_size, params_current, grad_current)
                loss_next = closure()
                if loss_next <= loss - self.c * step_size * grad_norm ** 2:
                    break
                step_size = step_size * self.beta_b
        if self.acceleration_method == "polyak":
            polyak_update(self.params, self.state["params_current"], grad_current, params_old, self.momentum)
        else:
            y_params = copy.deepcopy(self.params)
            nesterov_update(self.params, grad_current, y_params_old=self.state["y_params_old"], gamma=self.state["tau"])
            self.state["y_params_old"] = copy.deepcopy(y_params)
        self.state["step_size"] = step_size
        self.state["step"] += 1
        return loss


def polyak_update(params_model, params_current, grad_current, params_old, momentum):
    zipped = zip(params_model, params_current, grad_current, params_old)
    for p_model, p_current, g_current, p_old in zipped:
        if g_current is None:
            continue
        p_model.data = p_model.data + momentum * (p_current - p_old.cuda())


def nesterov_update(params_model, grad_current, y_params_old, gamma):
    zipped = zip(params_model, grad_current, y_params_old)
    for p_model, g_current, y_old in zipped:
        if g_current is None:
            continue
        p_model.data = (1 - gamma) * p_model.data + gamma * y_old.cuda()
