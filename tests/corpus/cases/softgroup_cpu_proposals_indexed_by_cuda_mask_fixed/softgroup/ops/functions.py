"""Stand-ins for the compiled CUDA/C++ ops (softgroup/ops/src): same inputs, outputs and devices."""
import torch


def ball_query(coords, batch_idxs, batch_offsets, radius, meanActive, with_octree=False):
    # CUDA kernel in the repository: neighbour indices and (start, len) per point, on the GPU
    n = coords.size(0)
    idx = torch.arange(n, dtype=torch.int32, device=coords.device)
    start_len = torch.stack([idx, torch.ones_like(idx)], 1)
    return idx, start_len


def bfs_cluster(cluster_numpoint_mean, ball_query_idxs, start_len, threshold, class_id):
    '''
    :param ball_query_idxs: (nActive), int
    :param start_len: (N, 2), int
    :return: cluster_idxs:  int (sumNPoint, 2), dim 0 for cluster_id, dim 1 for point idxs in N
    :return: cluster_offsets: int (nCluster + 1)
    '''
    # C++ (CPU) op in the repository: its outputs are made with ball_query_idxs.new()
    N = start_len.size(0)
    cluster_idxs = ball_query_idxs.new_zeros((N, 2))
    cluster_idxs[:, 1] = torch.arange(N, dtype=torch.int32)
    cluster_offsets = ball_query_idxs.new_tensor([0, N])
    return cluster_idxs, cluster_offsets


def voxelization(feats, map_rule):
    # mean of the point features of each voxel (one point per voxel in the stand-in)
    return feats[map_rule.long()]
