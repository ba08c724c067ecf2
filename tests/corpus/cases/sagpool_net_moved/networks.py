import torch
import torch.nn.functional as F
from torch import nn
from torch_geometric.nn import GCNConv, global_mean_pool


class Net(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.conv1 = GCNConv(args.num_features, args.nhid)
        self.conv2 = GCNConv(args.nhid, args.nhid)
        self.lin = nn.Linear(args.nhid, args.num_classes)

    def forward(self, data):
        x, edge_index, batch = data.x, data.edge_index, data.batch
        x = F.relu(self.conv1(x, edge_index))
        x = F.relu(self.conv2(x, edge_index))
        x = global_mean_pool(x, batch)
        return F.log_softmax(self.lin(x), dim=-1)
