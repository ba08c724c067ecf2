import numpy as np
import torch


def sparse_collate(coords, feats):
    """Stack per-sample point clouds, appending the batch index as a 4th coordinate."""
    batched_coords, batched_feats = [], []
    for batch_idx, (coord, feat) in enumerate(zip(coords, feats)):
        index = torch.ones((coord.shape[0], 1), dtype=coord.dtype) * batch_idx
        batched_coords.append(torch.cat((coord, index), 1))
        batched_feats.append(feat)
    return torch.cat(batched_coords, 0), torch.cat(batched_feats, 0)


if __name__ == "__main__":
    device = torch.device("cuda")
    clouds = [np.random.randint(0, 64, size=(1000, 3)) for _ in range(4)]
    coords = [torch.from_numpy(c).int().to(device) for c in clouds]
    feats = [torch.randn(1000, 4, device=device) for _ in clouds]
    coords_b, feats_b = sparse_collate(coords, feats)
