import torch
import torch.nn as nn


class HierMPNEncoder(nn.Module):
    """Stand-in for the hierarchical message-passing encoder: embeds the motif
    labels of each tree and sums them per molecule."""

    def __init__(self, vocab, avocab, rnn_type, embed_size, hidden_size, depthT, depthG, dropout):
        super(HierMPNEncoder, self).__init__()
        self.E_c = nn.Embedding(vocab.size()[0], embed_size)
        self.W_root = nn.Linear(embed_size, hidden_size)

    def tie_embedding(self, other):
        other.E_c = self.E_c

    def forward(self, tree_tensors, graph_tensors):
        fnode = tree_tensors[0]
        scope = tree_tensors[-1]
        hnode = self.E_c(fnode)
        root_vecs = torch.stack([hnode[st:st + le].sum(dim=0) for st, le in scope], dim=0)
        root_vecs = torch.relu(self.W_root(root_vecs))
        return root_vecs, hnode, None, hnode
