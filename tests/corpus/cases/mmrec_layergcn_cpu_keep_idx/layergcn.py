import random

import numpy as np
import torch
import torch.nn as nn


class LayerGCN(nn.Module):
    """Light graph convolution with edge dropout that alternates random and degree-based pruning."""

    def __init__(self, config, interaction_matrix):
        super().__init__()
        self.device = config["device"]
        self.interaction_matrix = interaction_matrix.astype(np.float32)
        self.n_users, self.n_items = interaction_matrix.shape
        self.latent_dim = config["embedding_size"]
        self.dropout = config["dropout"]
        self.user_embeddings = nn.Parameter(nn.init.xavier_uniform_(torch.empty(self.n_users, self.latent_dim)))
        self.item_embeddings = nn.Parameter(nn.init.xavier_uniform_(torch.empty(self.n_items, self.latent_dim)))
        self.masked_adj = None
        self.pruning_random = False
        # edge prune
        self.edge_indices, self.edge_values = self.get_edge_info()

    def pre_epoch_processing(self):
        keep_len = int(self.edge_values.size(0) * (1. - self.dropout))
        if self.pruning_random:
            # pruning randomly
            keep_idx = torch.tensor(random.sample(range(self.edge_values.size(0)), keep_len))
        else:
            # pruning edges by pro
            keep_idx = torch.multinomial(self.edge_values, keep_len)
        self.pruning_random = True ^ self.pruning_random
        keep_indices = self.edge_indices[:, keep_idx]
        keep_values = self._normalize_adj_m(keep_indices, torch.Size((self.n_users, self.n_items)))
        all_values = torch.cat((keep_values, keep_values))
        keep_indices[1] += self.n_users
        all_indices = torch.cat((keep_indices, torch.flip(keep_indices, [0])), 1)
        n_nodes = self.n_users + self.n_items
        self.masked_adj = torch.sparse_coo_tensor(all_indices, all_values, (n_nodes, n_nodes)).to(self.device)

    def _normalize_adj_m(self, indices, adj_size):
        adj = torch.sparse_coo_tensor(indices, torch.ones_like(indices[0]), adj_size)
        row_sum = 1e-7 + torch.sparse.sum(adj, -1).to_dense()
        col_sum = 1e-7 + torch.sparse.sum(adj.t(), -1).to_dense()
        rows_inv_sqrt = torch.pow(row_sum, -0.5)[indices[0]]
        cols_inv_sqrt = torch.pow(col_sum, -0.5)[indices[1]]
        return rows_inv_sqrt * cols_inv_sqrt

    def get_edge_info(self):
        rows = torch.from_numpy(self.interaction_matrix.row)
        cols = torch.from_numpy(self.interaction_matrix.col)
        edges = torch.stack([rows, cols]).type(torch.LongTensor)
        values = self._normalize_adj_m(edges, torch.Size((self.n_users, self.n_items)))
        return edges, values

    def forward(self):
        ego = torch.cat([self.user_embeddings, self.item_embeddings], 0)
        return torch.sparse.mm(self.masked_adj, ego)


if __name__ == "__main__":
    import scipy.sparse as sp
    inter = sp.random(100, 200, density=0.05, format="coo")
    model = LayerGCN({"device": torch.device("cuda"), "embedding_size": 64, "dropout": 0.1}, inter).to("cuda")
    for epoch in range(4):
        model.pre_epoch_processing()
        print(model().shape)
