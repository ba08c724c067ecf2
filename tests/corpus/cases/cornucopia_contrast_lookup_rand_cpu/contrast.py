import torch


class FinalTransform:
    def __init__(self, **kwargs):
        self.prm = kwargs

    def __call__(self, x):
        return self.xform(x)


class ContrastLookupTransform:
    """Segment intensities into equidistant bins and change their mean value."""

    class LookupFinalTransform(FinalTransform):
        def __init__(self, edges, mu, **kwargs):
            super().__init__(**kwargs)
            self.edges = edges
            self.mu = mu

        def xform(self, x):
            edges, mu = self.edges.to(x), self.mu.to(x)
            mu0 = (edges[:-1] + edges[1:]) / 2
            new_x = x.clone()
            for k in range(len(mu)):
                mask = (edges[k] <= x) & (x < edges[k + 1])
                new_x[mask] += mu[k] - mu0[k]
            return new_x

    def __init__(self, nk=16, keep_background=True):
        self.keep_background = keep_background
        self.nk = nk

    def make_final(self, x):
        vmin, vmax = x.min(), x.max()
        edges = torch.linspace(vmin, vmax, self.nk + 1)
        new_mu = torch.rand(self.nk) * (vmax - vmin) + vmin
        return self.LookupFinalTransform(edges, new_mu)

    def __call__(self, x):
        return self.make_final(x)(x)


if __name__ == "__main__":
    volume = torch.rand(1, 64, 64, 64, device="cuda")
    print(ContrastLookupTransform(nk=8)(volume).shape)
