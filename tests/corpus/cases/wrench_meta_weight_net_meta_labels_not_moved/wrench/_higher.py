"""Stand-in for `higher.innerloop_ctx`: a differentiable copy of the model and an
optimizer whose step(loss) updates that copy (here: a plain SGD step on a deep copy)."""
import contextlib
import copy

import torch


class _DiffOpt:
    def __init__(self, fmodel, lr):
        self.fmodel, self.lr = fmodel, lr

    def step(self, loss):
        params = [p for p in self.fmodel.parameters() if p.requires_grad]
        grads = torch.autograd.grad(loss, params, allow_unused=True)
        with torch.no_grad():
            for p, g in zip(params, grads):
                if g is not None:
                    p.sub_(self.lr * g)


@contextlib.contextmanager
def innerloop_ctx(model, opt, device=None):
    fmodel = copy.deepcopy(model)
    if device is not None:
        fmodel = fmodel.to(device)
    yield fmodel, _DiffOpt(fmodel, opt.param_groups[0]['lr'])
