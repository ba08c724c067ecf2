import torch
from torch import nn
from torch_geometric.nn import ChebConv


class GConvGRU(nn.Module):
    def __init__(self, in_channels, out_channels, K=2):
        super().__init__()
        self.out_channels = out_channels
        self.conv_x_z = ChebConv(in_channels, out_channels, K)
        self.conv_h_z = ChebConv(out_channels, out_channels, K)
        self.conv_x_h = ChebConv(in_channels, out_channels, K)
        self.conv_h_h = ChebConv(out_channels, out_channels, K)

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels, device=X.device)
        return H

    def forward(self, X, edge_index, edge_weight=None, H=None):
        H = self._set_hidden_state(X, H)
        Z = torch.sigmoid(self.conv_x_z(X, edge_index, edge_weight) + self.conv_h_z(H, edge_index, edge_weight))
        H_tilde = torch.tanh(self.conv_x_h(X, edge_index, edge_weight) + self.conv_h_h(H, edge_index, edge_weight))
        return Z * H + (1 - Z) * H_tilde
