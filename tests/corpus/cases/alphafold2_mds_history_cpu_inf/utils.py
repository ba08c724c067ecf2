# utils for working with 3d-protein structures (the distogram -> MDS -> coordinates path)
from functools import wraps

import numpy as np
import torch

DISTOGRAM_BUCKETS = 37  # constants.DISTOGRAM_BUCKETS

# constants: same as in alphafold2.py
DISTANCE_THRESHOLDS = torch.linspace(2, 20, steps=DISTOGRAM_BUCKETS)


# decorators

def set_backend_kwarg(fn):
    @wraps(fn)
    def inner(*args, backend='auto', **kwargs):
        if backend == 'auto':
            backend = 'torch' if isinstance(args[0], torch.Tensor) else 'numpy'
        kwargs.update(backend=backend)
        return fn(*args, **kwargs)
    return inner


def expand_dims_to(t, length=3):
    if length == 0:
        return t
    return t.reshape(*((1,) * length), *t.shape)  # will work with both torch and numpy


def invoke_torch_or_numpy(torch_fn, numpy_fn):
    def outer(fn):
        @wraps(fn)
        def inner(*args, **kwargs):
            backend = kwargs.pop('backend')
            passed_args = fn(*args, **kwargs)
            passed_args = list(passed_args)
            if isinstance(passed_args[-1], dict):
                passed_kwargs = passed_args.pop()
            else:
                passed_kwargs = {}
            backend_fn = torch_fn if backend == 'torch' else numpy_fn
            return backend_fn(*passed_args, **passed_kwargs)
        return inner
    return outer


# preprocess data

def center_distogram_torch(distogram, bins=DISTANCE_THRESHOLDS, min_t=1., center="mean", wide="std"):
    """Central estimate (batch, N, N) and weights (batch, N, N) of a distogram (batch, N, N, B)."""
    shape, device = distogram.shape, distogram.device
    # threshold to weights and find mean value of each bin
    n_bins = (bins - 0.5 * (bins[2] - bins[1])).to(device)
    n_bins[0] = 1.5
    n_bins[-1] = 1.33 * bins[-1]  # above last threshold is ignored
    max_bin_allowed = torch.tensor(n_bins.shape[0] - 1).to(device).long()
    # calculate measures of centrality and dispersion
    if center == "median":
        cum_dist = torch.cumsum(distogram, dim=-1)
        medium = 0.5 * torch.ones(*cum_dist.shape[:-1], 1, device=device)
        central = torch.searchsorted(cum_dist, medium).squeeze()
        central = n_bins[torch.min(central, max_bin_allowed)]
    elif center == "mean":
        central = (distogram * n_bins).sum(dim=-1)
    # create mask for last class - (IGNORE_INDEX)
    mask = (central <= bins[-2].item()).float()
    # mask diagonal to 0 dist - don't do masked filling to avoid inplace errors
    diag_idxs = np.arange(shape[-2])
    central = expand_dims_to(central, 3 - len(central.shape))
    central[:, diag_idxs, diag_idxs] *= 0.
    # provide weights
    if wide == "var":
        dispersion = (distogram * (n_bins - central.unsqueeze(-1)) ** 2).sum(dim=-1)
    elif wide == "std":
        dispersion = (distogram * (n_bins - central.unsqueeze(-1)) ** 2).sum(dim=-1).sqrt()
    else:
        dispersion = torch.zeros_like(central, device=device)
    # rescale to 0-1. lower std / var  --> weight=1. set potential nan's to 0
    weights = mask / (1 + dispersion)
    weights[weights != weights] *= 0.
    weights[:, diag_idxs, diag_idxs] *= 0.
    return central, weights


# distance matrix to 3d coords: https://github.com/scikit-learn/scikit-learn/blob/42aff4e2e/sklearn/manifold/_mds.py#L279

def mds_torch(pre_dist_mat, weights=None, iters=10, tol=1e-5, verbose=2):
    """Distance matrix to 3d: best_3d_coords (batch x 3 x N), historic_stresses (batch x steps)."""
    device, dtype = pre_dist_mat.device, pre_dist_mat.type()

    if weights is None:
        weights = torch.ones_like(pre_dist_mat)

    # ensure batched MDS
    pre_dist_mat = expand_dims_to(pre_dist_mat, length=(3 - len(pre_dist_mat.shape)))

    # start
    batch, N, _ = pre_dist_mat.shape
    diag_idxs = np.arange(N)
    his = [torch.tensor([np.inf] * batch)]
    # init random coords
    best_stress = float("Inf") * torch.ones(batch, device=device).type(dtype)
    best_3d_coords = 2 * torch.rand(batch, N, 3, device=device).type(dtype) - 1
    # iterative updates:
    for i in range(iters):
        # compute distance matrix of coords and stress
        dist_mat = torch.cdist(best_3d_coords, best_3d_coords, p=2).clone()
        stress = (weights * (dist_mat - pre_dist_mat) ** 2).sum(dim=(-1, -2)) * 0.5
        # perturb - update X using the Guttman transform - sklearn-like
        dist_mat[dist_mat <= 0] += 1e-7
        ratio = weights * (pre_dist_mat / dist_mat)
        B = -ratio
        B[:, diag_idxs, diag_idxs] += ratio.sum(dim=-1)

        # update
        coords = (1. / N * torch.matmul(B, best_3d_coords))
        dis = torch.norm(coords, dim=(-1, -2))
        if verbose >= 2:
            print('it: %d, stress %s' % (i, stress))
        # update metrics if relative improvement above tolerance
        if (best_stress - stress / dis).mean() <= tol:
            if verbose:
                print('breaking at iteration %d with stress %s' % (i, stress / dis))
            break

        best_3d_coords = coords
        his.append(stress / dis)

    return torch.transpose(best_3d_coords, -1, -2), torch.stack(his)


def mds_numpy(pre_dist_mat, weights=None, iters=10, tol=1e-5, verbose=2):
    """Distance matrix to 3d with numpy: best_3d_coords (3 x N), historic_stress."""
    if weights is None:
        weights = np.ones_like(pre_dist_mat)

    # ensure batched MDS
    pre_dist_mat = expand_dims_to(pre_dist_mat, length=(3 - len(pre_dist_mat.shape)))
    # start
    batch, N, _ = pre_dist_mat.shape
    his = [np.inf]
    # init random coords
    best_stress = np.inf * np.ones(batch)
    best_3d_coords = 2 * np.random.rand(batch, 3, N) - 1
    # iterative updates:
    for i in range(iters):
        # compute distance matrix of coords and stress
        dist_mat = np.linalg.norm(best_3d_coords[:, :, :, None] - best_3d_coords[:, :, None, :], axis=-3)
        stress = ((weights * (dist_mat - pre_dist_mat)) ** 2).sum(axis=(-1, -2)) * 0.5
        # perturb - update X using the Guttman transform - sklearn-like
        dist_mat[dist_mat == 0] = 1e-7
        ratio = weights * (pre_dist_mat / dist_mat)
        B = -ratio
        B[:, np.arange(N), np.arange(N)] += ratio.sum(axis=-1)
        # update - double transpose. TODO: consider fix
        coords = (1. / N * np.matmul(best_3d_coords, B))
        dis = np.linalg.norm(coords, axis=(-1, -2))
        if verbose >= 2:
            print('it: %d, stress %s' % (i, stress))
        # update metrics if relative improvement above tolerance
        if (best_stress - stress / dis).mean() <= tol:
            if verbose:
                print('breaking at iteration %d with stress %s' % (i, stress / dis))
            break

        best_3d_coords = coords
        best_stress = stress / dis
        his.append(best_stress)

    return best_3d_coords, np.array(his)


def get_dihedral_torch(c1, c2, c3, c4):
    """Dihedral angle in radians (atan2 formula); torch.dot does not broadcast."""
    u1 = c2 - c1
    u2 = c3 - c2
    u3 = c4 - c3

    return torch.atan2(((torch.norm(u2, dim=-1, keepdim=True) * u1) * torch.cross(u2, u3, dim=-1)).sum(dim=-1),
                       (torch.cross(u1, u2, dim=-1) * torch.cross(u2, u3, dim=-1)).sum(dim=-1))


def get_dihedral_numpy(c1, c2, c3, c4):
    """Dihedral angle in radians (atan2 formula)."""
    u1 = c2 - c1
    u2 = c3 - c2
    u3 = c4 - c3

    return np.arctan2(((np.linalg.norm(u2, axis=-1, keepdims=True) * u1) * np.cross(u2, u3, axis=-1)).sum(axis=-1),
                      (np.cross(u1, u2, axis=-1) * np.cross(u2, u3, axis=-1)).sum(axis=-1))


def calc_phis_torch(pred_coords, N_mask, CA_mask, C_mask=None, prop=True, verbose=0):
    """Proportion of negative phi angles per structure (mirror selection)."""
    # detach gradients for angle calculation - mirror selection
    pred_coords_ = torch.transpose(pred_coords.detach(), -1, -2).cpu()
    # ensure dims
    N_mask = expand_dims_to(N_mask, 2 - len(N_mask.shape))
    CA_mask = expand_dims_to(CA_mask, 2 - len(CA_mask.shape))
    if C_mask is not None:
        C_mask = expand_dims_to(C_mask, 2 - len(C_mask.shape))
    else:
        C_mask = torch.logical_not(torch.logical_or(N_mask, CA_mask))
    # select points
    n_terms = pred_coords_[:, N_mask[0].squeeze()]
    c_alphas = pred_coords_[:, CA_mask[0].squeeze()]
    c_terms = pred_coords_[:, C_mask[0].squeeze()]
    # compute phis for every protein in the batch
    phis = [get_dihedral_torch(c_terms[i, :-1],
                               n_terms[i, 1:],
                               c_alphas[i, 1:],
                               c_terms[i, 1:]) for i in range(pred_coords.shape[0])]

    # return percentage of lower than 0
    if prop:
        return torch.tensor([(x < 0).float().mean().item() for x in phis])
    return phis


def calc_phis_numpy(pred_coords, N_mask, CA_mask, C_mask=None, prop=True, verbose=0):
    """Proportion of negative phi angles per structure (mirror selection), numpy."""
    pred_coords_ = np.transpose(pred_coords, (0, 2, 1))
    n_terms = pred_coords_[:, N_mask.squeeze()]
    c_alphas = pred_coords_[:, CA_mask.squeeze()]
    # select c_term auto if not passed
    if C_mask is not None:
        c_terms = pred_coords_[:, C_mask]
    else:
        c_terms = pred_coords_[:, (np.ones_like(N_mask) - N_mask - CA_mask).squeeze().astype(bool)]
    # compute phis for every protein in the batch
    phis = [get_dihedral_numpy(c_terms[i, :-1],
                               n_terms[i, 1:],
                               c_alphas[i, 1:],
                               c_terms[i, 1:]) for i in range(pred_coords.shape[0])]

    # return percentage of lower than 0
    if prop:
        return np.array([(x < 0).mean() for x in phis])
    return phis


def mdscaling_torch(pre_dist_mat, weights=None, iters=10, tol=1e-5,
                    fix_mirror=True, N_mask=None, CA_mask=None, C_mask=None, verbose=2):
    """Handles the specifics of MDS for proteins (mirrors, ...)."""
    # batched mds for full parallel
    preds, stresses = mds_torch(pre_dist_mat, weights=weights, iters=iters, tol=tol, verbose=verbose)
    if not fix_mirror:
        return preds, stresses

    # no need to calculate multiple mirrors - just correct Z axis
    phi_ratios = calc_phis_torch(preds, N_mask, CA_mask, C_mask, prop=True)
    to_correct = torch.nonzero((phi_ratios < 0.5)).view(-1)
    # fix mirrors by (-1)*Z if more (+) than (-) phi angles
    preds[to_correct, -1] = (-1) * preds[to_correct, -1]
    if verbose == 2:
        print("Corrected mirror idxs:", to_correct)

    return preds, stresses


def mdscaling_numpy(pre_dist_mat, weights=None, iters=10, tol=1e-5,
                    fix_mirror=True, N_mask=None, CA_mask=None, C_mask=None, verbose=2):
    """Handles the specifics of MDS for proteins (mirrors, ...), numpy."""
    # batched mds for full parallel
    preds, stresses = mds_numpy(pre_dist_mat, weights=weights, iters=iters, tol=tol, verbose=verbose)
    if not fix_mirror:
        return preds, stresses

    # no need to calculate multiple mirrors - just correct Z axis
    phi_ratios = calc_phis_numpy(preds, N_mask, CA_mask, C_mask, prop=True)
    for i, pred in enumerate(preds):
        # fix mirrors by (-1)*Z if more (+) than (-) phi angles
        if phi_ratios < 0.5:
            preds[i, -1] = (-1) * preds[i, -1]
            if verbose == 2:
                print("Corrected mirror in struct no.", i)

    return preds, stresses


# WRAPPERS

@set_backend_kwarg
@invoke_torch_or_numpy(mdscaling_torch, mdscaling_numpy)
def MDScaling(pre_dist_mat, **kwargs):
    """Distance matrix (-ces) to 3d coordinates; `backend` one of "numpy", "torch", "auto"."""
    pre_dist_mat = expand_dims_to(pre_dist_mat, 3 - len(pre_dist_mat.shape))
    return pre_dist_mat, kwargs


if __name__ == "__main__":
    # tests/test_utils.py::test_mds_and_mirrors, with the distogram on the GPU as Alphafold2.forward has it
    device = torch.device("cuda")
    distogram = torch.randn(2, 32 * 3, 32 * 3, 37, device=device)

    distances, weights = center_distogram_torch(distogram)
    # set out some points (due to padding)
    paddings = [7, 0]
    for i, pad in enumerate(paddings):
        if pad > 0:
            weights[i, -pad:, -pad:] = 0.

    # masks
    masker = torch.arange(distogram.shape[1], device=device) % 3
    N_mask = (masker == 0).bool()
    CA_mask = (masker == 1).bool()
    coords_3d, _ = MDScaling(distances,
                             weights=weights,
                             iters=5,
                             fix_mirror=2,
                             N_mask=N_mask,
                             CA_mask=CA_mask,
                             C_mask=None)
    assert list(coords_3d.shape) == [2, 3, 32 * 3], 'coordinates must be of the right shape after MDS'
