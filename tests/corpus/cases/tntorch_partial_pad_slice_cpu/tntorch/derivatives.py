import torch


def partial(t, dim, order=1, bounds=None, periodic=False, pad="top"):
    """Compute a single partial derivative of a tensor-train `t` along `dim` by finite differences."""
    if not hasattr(dim, "__len__"):
        dim = [dim]
    if bounds is None:
        bounds = [[0, t.shape[n] - 1] for n in range(t.dim())]
    if not hasattr(periodic, "__len__"):
        periodic = [periodic] * len(dim)
    if not isinstance(pad, list):
        pad = [pad] * len(dim)

    t2 = t.clone()
    for i, d in enumerate(dim):
        for o in range(1, order + 1):
            if periodic[i]:
                t2.cores[d] = t2.cores[d][:, list(range(1, t2.cores[d].shape[1])) + [0], :] - t2.cores[d]
            else:
                step = (bounds[i][1] - bounds[i][0]) / (t.shape[d] - 1)
                t2.cores[d] = (t2.cores[d][..., 1:, :] - t2.cores[d][..., :-1, :]) / step
                if t2.cores[d].dim() == 3:
                    pad_slice = torch.zeros(t2.cores[d].shape[0], 1, t2.cores[d].shape[2])
                else:
                    pad_slice = torch.zeros(1, t2.cores[d].shape[1])
                if pad[i] == "top":
                    t2.cores[d] = torch.cat((t2.cores[d], pad_slice), dim=-2)
                if pad[i] == "bottom":
                    t2.cores[d] = torch.cat((pad_slice, t2.cores[d]), dim=-2)
    return t2
