import torch


def scatter_mean(src, index, dim=0):
    """Stand-in for torch_scatter.scatter_mean (same device rules: src and index together)."""
    n = int(index.max()) + 1
    out = torch.zeros((n,) + tuple(src.shape[1:]), device=src.device, dtype=src.dtype)
    out = out.index_add(dim, index, src)
    count = torch.zeros(n, device=src.device, dtype=src.dtype).index_add(0, index, torch.ones_like(src[:, 0]))
    return out / count.clamp(min=1).unsqueeze(-1)


def batch_to_list(data, batch_mask):
    # make sure batch_mask is increasing
    idx = torch.argsort(batch_mask)
    batch_mask = batch_mask[idx]
    data = data[idx]

    chunk_sizes = torch.unique(batch_mask, return_counts=True)[1].tolist()
    return torch.split(data, chunk_sizes)


def num_nodes_to_batch_mask(n_samples, num_nodes, device):
    assert isinstance(num_nodes, int) or len(num_nodes) == n_samples

    if isinstance(num_nodes, torch.Tensor):
        num_nodes = num_nodes.to(device)

    sample_inds = torch.arange(n_samples, device=device)

    return torch.repeat_interleave(sample_inds, num_nodes)


def write_xyz_file(molecules, filename):
    with open(filename, "w") as f:
        for coords, types in molecules:
            f.write(f"{len(coords)}\n\n")
            for c, t in zip(coords.tolist(), types.tolist()):
                f.write(f"{t} {c[0]:.3f} {c[1]:.3f} {c[2]:.3f}\n")
