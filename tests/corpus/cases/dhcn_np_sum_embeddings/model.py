import numpy as np
import torch
from torch import nn


class HyperConv(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layers = layers

    def forward(self, adjacency, embedding):
        item_embeddings = embedding
        final = [item_embeddings]
        for _ in range(self.layers):
            item_embeddings = torch.sparse.mm(adjacency, item_embeddings)
            final.append(item_embeddings)
        item_embeddings = np.sum(final, 0) / (self.layers + 1)
        return item_embeddings


class DHCN(nn.Module):
    def __init__(self, adjacency, n_node, emb_size=100, layers=3):
        super().__init__()
        self.embedding = nn.Embedding(n_node, emb_size)
        self.adjacency = adjacency
        self.hyper_conv = HyperConv(layers)

    def forward(self, session_items):
        item_embeddings = self.hyper_conv(self.adjacency, self.embedding.weight)
        return item_embeddings[session_items].mean(1)
