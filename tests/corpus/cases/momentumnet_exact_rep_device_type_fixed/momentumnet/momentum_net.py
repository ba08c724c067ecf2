import torch
import torch.nn as nn

from .exact_rep_pytorch import TorchExactRep


class MomentumNetWithBackprop(nn.Module):
    def __init__(self, functions, gamma):
        super().__init__()
        self.functions = nn.ModuleList(functions)
        self.gamma = gamma

    def forward(self, x):
        v = torch.zeros_like(x)
        for function in self.functions:
            v = self.gamma * v + (1 - self.gamma) * function(x)
            x = x + v
        return x


class MomentumTransformMemory(torch.autograd.Function):
    """Runs the momentum iterations without storing activations; the backward
    pass rebuilds them by reversing the (exact) velocity updates."""

    @staticmethod
    def forward(ctx, x, v, gamma, functions, *params):
        ctx.functions = functions
        ctx.gamma = gamma
        v = TorchExactRep(v)
        with torch.no_grad():
            for function in functions:
                v *= gamma
                v += (1 - gamma) * function(x)
                x = x + v.val
        ctx.save_for_backward(x, v.intrep, v.aux.store)
        return x

    @staticmethod
    def backward(ctx, grad_x):
        functions, gamma = ctx.functions, ctx.gamma
        x, v_intrep, v_store = ctx.saved_tensors
        v = TorchExactRep(None, from_representation=(v_intrep, v_store))
        grad_v = torch.zeros_like(grad_x)
        grad_params = []
        for function in reversed(functions):
            x = x - v.val
            combined = grad_x + grad_v
            with torch.enable_grad():
                x_leaf = x.detach().requires_grad_(True)
                f_eval = function(x_leaf)
                grads = torch.autograd.grad(
                    f_eval, (x_leaf,) + tuple(function.parameters()), (1 - gamma) * combined
                )
            v -= (1 - gamma) * f_eval.detach()
            v /= gamma
            grad_v = gamma * combined
            grad_x = grad_x + grads[0]
            grad_params = list(grads[1:]) + grad_params
        return (grad_x, grad_v, None, None, *grad_params)


class MomentumNetNoBackprop(nn.Module):
    def __init__(self, functions, gamma):
        super().__init__()
        self.functions = nn.ModuleList(functions)
        self.gamma = gamma

    def forward(self, x):
        v = torch.zeros_like(x)
        params = [p for function in self.functions for p in function.parameters()]
        return MomentumTransformMemory.apply(x, v, self.gamma, list(self.functions), *params)


class MomentumNet(nn.Module):
    """Momentum ResNet: v <- gamma * v + (1 - gamma) * f_t(x); x <- x + v.

    With use_backprop=False the activations are not kept: the backward pass
    reverses the forward iterations, trading memory for compute."""

    def __init__(self, functions, gamma, use_backprop=True):
        super().__init__()
        if not 0 <= gamma <= 1:
            raise ValueError("gamma has to be between 0 and 1")
        if use_backprop:
            self.network = MomentumNetWithBackprop(functions, gamma)
        else:
            self.network = MomentumNetNoBackprop(functions, gamma)

    def forward(self, x):
        return self.network(x)
