"""Vietoris--Rips complex calculation module(s)."""
from typing import NamedTuple

import torch
from gph import ripser_parallel
from torch import nn


class PersistenceInformation(NamedTuple):
    """Persistence pairing, diagram and dimension of one set of topological features."""

    pairing: object
    diagram: torch.Tensor
    dimension: int


class VietorisRipsComplex(nn.Module):
    """Calculate 'differentiable' persistence diagrams of point clouds."""

    def __init__(self, dim=1, p=2, **kwargs):
        super().__init__()
        self.dim = dim
        self.p = p
        self.ripser_params = {"return_generators": True, "maxdim": self.dim}
        self.ripser_params.update(kwargs)

    def forward(self, x):
        if isinstance(x, list) or len(x.shape) == 3:
            return [self._forward(torch.as_tensor(x_)) for x_ in x]
        return self._forward(torch.as_tensor(x))

    def _forward(self, x):
        generators = ripser_parallel(x.cpu().detach(), **self.ripser_params)["gens"]
        distances = torch.cdist(x, x, p=self.p)
        persistence_information = self._extract_generators_and_diagrams(distances, generators, dim0=True)
        if self.dim >= 1:
            persistence_information.extend(self._extract_generators_and_diagrams(distances, generators, dim0=False))
        return persistence_information

    def _extract_generators_and_diagrams(self, dist, gens, finite=True, dim0=False):
        index = 1 if not dim0 else 0
        gens = gens[index]
        if dim0:
            # In a Vietoris--Rips complex, all vertices are created at time zero.
            creators = torch.zeros_like(torch.as_tensor(gens)[:, 0])
            destroyers = dist[gens[:, 1], gens[:, 2]]
            persistence_diagram = torch.stack((creators, destroyers), 1)
            return [PersistenceInformation(gens, persistence_diagram, 0)]
        result = []
        for index, gens_ in enumerate(gens):
            creators = dist[gens_[:, 0], gens_[:, 1]]
            destroyers = dist[gens_[:, 2], gens_[:, 3]]
            persistence_diagram = torch.stack((creators, destroyers), 1)
            result.append(PersistenceInformation(gens_, persistence_diagram, index + 1))
        return result


if __name__ == "__main__":
    device = torch.device("cuda")
    vr = VietorisRipsComplex(dim=1)
    x = torch.rand(64, 2, device=device, requires_grad=True)
    diagrams = vr(x)
    loss = sum(info.diagram[:, 1].sum() for info in diagrams)
    loss.backward()
