"""Exact fixed-point storage of the velocity, so that the momentum update can
be undone bit for bit in the backward pass (after Maclaurin et al., 2015)."""
import torch

RADIX_SCALE = 2 ** 52


class TorchExactRep(object):
    def __init__(self, val, shape=None, device=None, from_representation=None):
        if from_representation is not None:
            self.intrep, store = from_representation
            self.aux = BitStore(0, 0, store=store)
            return
        if device is None:
            device = val.device.type
        if shape is not None:
            self.intrep = torch.zeros(*shape, dtype=torch.long, device=device)
        else:
            shape = val.shape
            self.intrep = self.float_to_intrep(val)
        self.aux = BitStore(shape, device)

    def __imul__(self, a):
        n, d = self.float_to_rational(a)
        self.rational_mul(n, d)
        return self

    def __itruediv__(self, a):
        n, d = self.float_to_rational(a)
        self.rational_mul(d, n)
        return self

    def __iadd__(self, a):
        self.intrep += self.float_to_intrep(a)
        return self

    def __isub__(self, a):
        self.intrep -= self.float_to_intrep(a)
        return self

    def rational_mul(self, n, d):
        # keep the remainder of the division in the bit store
        self.aux.push(self.intrep % d, d)
        self.intrep = torch.div(self.intrep, d, rounding_mode="trunc")
        self.intrep *= n
        self.intrep += self.aux.pop(n)

    @staticmethod
    def float_to_rational(a):
        d = 2 ** 16 // int(a + 1)
        n = int(a * d + 1)
        return n, d

    @staticmethod
    def float_to_intrep(x):
        if isinstance(x, torch.Tensor):
            return (x * RADIX_SCALE).long()
        return int(x * RADIX_SCALE)

    @property
    def val(self):
        return self.intrep.float() / RADIX_SCALE


class BitStore(object):
    """Stores integers with a non-integer number of bits in one long tensor."""

    def __init__(self, shape, device, store=None):
        if store is not None:
            self.store = store
        else:
            self.store = torch.zeros(shape, dtype=torch.long).to(device)

    def push(self, N, M):
        self.store *= M
        self.store += N

    def pop(self, M):
        N = self.store % M
        self.store = torch.div(self.store, M, rounding_mode="trunc")
        return N
