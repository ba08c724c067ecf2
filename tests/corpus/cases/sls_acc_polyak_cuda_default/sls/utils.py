import torch


def get_grad_list(params):
    return [p.grad for p in params]


def compute_grad_norm(grad_list):
    grad_norm = 0.
    for g in grad_list:
        if g is None:
            continue
        grad_norm += torch.sum(torch.mul(g, g))
    return torch.sqrt(grad_norm)


def try_sgd_update(params, step_size, params_current, grad_current):
    zipped = zip(params, params_current, grad_current)
    for p_next, p_current, g_current in zipped:
        if g_current is None:
            continue
        p_next.data = p_current - step_size * g_current
