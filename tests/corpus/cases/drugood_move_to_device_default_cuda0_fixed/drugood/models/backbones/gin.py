import torch
import torch.nn as nn

from ...core import move_to_device


def MLP(input_dim, hidden_dim, output_dim):
    return nn.Sequential(nn.Linear(input_dim, hidden_dim), nn.ReLU(), nn.Linear(hidden_dim, output_dim))


class GIN(nn.Module):
    """Graph Isomorphism Network, node embedding and readout parts."""

    def __init__(self, num_node_emb_list, num_layers=2, emb_dim=32, dropout=0.):
        super(GIN, self).__init__()
        self.num_layers = num_layers
        self.dropout = nn.Dropout(dropout)

        self.node_embeddings = nn.ModuleList()
        for num_emb in num_node_emb_list:
            self.node_embeddings.append(MLP(num_emb, emb_dim, emb_dim))

        self.gnn_layers = nn.ModuleList([nn.Linear(emb_dim, emb_dim) for _ in range(num_layers)])

    def forward(self, input):
        input = move_to_device(input, device=next(self.parameters()).device)
        categorical_node_feats = [input.ndata["x"]]

        node_embeds = []
        for i, feats in enumerate(categorical_node_feats):
            node_embeds.append(self.node_embeddings[i](feats))
        node_feats = torch.stack(node_embeds, dim=0).sum(0)

        for layer in range(self.num_layers):
            node_feats = self.dropout(torch.relu(self.gnn_layers[layer](node_feats)))

        # mean readout per graph
        graph_feats = [chunk.mean(0) for chunk in torch.split(node_feats, input.batch_num_nodes)]
        return torch.stack(graph_feats, dim=0)
