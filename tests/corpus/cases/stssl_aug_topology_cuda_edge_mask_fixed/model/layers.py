import torch
import torch.nn as nn

from model.aug import sim_global


class STEncoder(nn.Module):
    """Stand-in for the ST-SSL spatio-temporal encoder: a graph convolution over the nodes and a temporal
    projection; like the real one it keeps the spatial and temporal similarity of its last input."""

    def __init__(self, input_length, num_nodes, d_model):
        super(STEncoder, self).__init__()
        self.inp = nn.Linear(2, d_model)
        self.gc = nn.Linear(d_model, d_model)
        self.temporal = nn.Linear(input_length, 1)
        self.s_sim_mx = None
        self.t_sim_mx = None

    def forward(self, x, graph):
        h = self.inp(x)                                    # n, l, v, d
        self.t_sim_mx = torch.softmax(h.mean(-1).permute(1, 0, 2), dim=-1).detach()  # l, n, v
        h = torch.relu(self.gc(torch.einsum('vw,nlwd->nlvd', graph, h)))
        self.s_sim_mx = sim_global(h, sim_type='cos').detach()   # v, v
        return self.temporal(h.permute(0, 2, 3, 1)).squeeze(-1)  # n, v, d


class MLP(nn.Module):
    def __init__(self, c_in, c_out):
        super(MLP, self).__init__()
        self.fc1 = nn.Linear(c_in, c_out)

    def forward(self, x):
        return self.fc1(x).unsqueeze(1)   # n, 1, v, c
