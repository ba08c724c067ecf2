import torch
import numpy as np

from annoy import AnnoyIndex


def build_ann(X: torch.Tensor):
    """Builds the approximate-nearest-neighbors index of the dataset and saves it."""
    X = X.view(X.size(0), -1)
    t = AnnoyIndex(X[0].shape[0], "euclidean")
    for i, x_i in enumerate(X):
        t.add_item(i, x_i)

    t.build(50)
    t.save("ann_index.ann")


def make_batch_for_sparse_grapsh(batch_x: torch.Tensor) -> torch.Tensor:
    """
    Computes a new batch from the given one when the graph-laplacian of a batch is
    sparse: a fifth of the batch plus the nearest neighbors of each of its points.
    """
    batch_size = batch_x.shape[0]
    batch_size //= 5
    new_batch_x = batch_x[:batch_size]
    batch_x = new_batch_x
    n_neighbors = 5

    u = AnnoyIndex(batch_x[0].shape[0], "euclidean")
    u.load("ann_index.ann")
    for x in batch_x:
        x = x.detach().cpu().numpy()
        nn_indices = u.get_nns_by_vector(x, n_neighbors)
        nn_tensors = [u.get_item_vector(i) for i in nn_indices[1:]]
        nn_tensors = torch.tensor(nn_tensors)
        new_batch_x = torch.cat((new_batch_x, nn_tensors))

    return new_batch_x


def get_affinity(X: torch.Tensor, scale: float) -> torch.Tensor:
    """Gaussian-kernel affinity of the points of a batch."""
    Dx = torch.cdist(X, X)
    return torch.exp(-(Dx ** 2) / (scale ** 2))
