"""A molecule as a graph with node features (stands in for a batched DGLGraph)."""
import torch
from torch.utils.data import Dataset


class Graph:
    def __init__(self, ndata):
        self.ndata = ndata

    def to(self, device):
        moved = Graph({k: v.to(device) for k, v in self.ndata.items()})
        moved.batch_num_nodes = getattr(self, 'batch_num_nodes', None)
        return moved


class GraphDataset(Dataset):
    def __init__(self, num_samples=32, num_nodes=6, node_dim=9):
        self.num_samples = num_samples
        self.num_nodes = num_nodes
        self.node_dim = node_dim

    def __len__(self):
        return self.num_samples

    def __getitem__(self, idx):
        x = torch.rand(self.num_nodes, self.node_dim)
        return dict(input=Graph({'x': x}), gt_label=torch.tensor(idx % 2))


def collate(batch):
    """Batch graphs into one graph (node features concatenated) and stack the labels."""
    graph = Graph({'x': torch.cat([b['input'].ndata['x'] for b in batch], dim=0)})
    graph.batch_num_nodes = [b['input'].ndata['x'].shape[0] for b in batch]
    return dict(input=graph, gt_label=torch.stack([b['gt_label'] for b in batch]))
