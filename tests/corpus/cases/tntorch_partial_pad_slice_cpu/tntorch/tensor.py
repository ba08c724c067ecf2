import torch


class Tensor(object):
    """A tensor in tensor-train format: a list of 3D cores (and optional Tucker factors Us)."""

    def __init__(self, cores, Us=None, device=None):
        self.cores = [c if device is None else c.to(device) for c in cores]
        self.Us = Us if Us is not None else [None] * len(cores)

    @property
    def shape(self):
        return torch.Size([c.shape[-2] for c in self.cores])

    def dim(self):
        return len(self.cores)

    def clone(self):
        return Tensor([c.clone() for c in self.cores], Us=[u if u is None else u.clone() for u in self.Us])

    def full(self):
        result = self.cores[0]
        for core in self.cores[1:]:
            result = torch.einsum("...i,ijk->...jk", result, core)
        return result[0, ..., 0]
