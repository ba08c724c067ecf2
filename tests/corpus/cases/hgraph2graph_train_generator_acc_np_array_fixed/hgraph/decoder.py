import torch
import torch.nn as nn
from hgraph.nnutils import get_accuracy, get_accuracy_bin, get_accuracy_sym, zip_tensors


class HierMPNDecoder(nn.Module):
    """Stand-in for the hierarchical decoder: the per-step topology, motif and
    attachment predictions are made from the root vector."""

    def __init__(self, vocab, avocab, rnn_type, embed_size, hidden_size, latent_size, depthT, depthG, dropout, attention=False):
        super(HierMPNDecoder, self).__init__()
        self.vocab = vocab
        self.hidden_size = hidden_size
        self.latent_size = latent_size
        self.W_root = nn.Sequential(nn.Linear(latent_size, hidden_size), nn.ReLU())
        self.topoNN = nn.Linear(hidden_size, 1)
        self.clsNN = nn.Linear(hidden_size, vocab.size()[0])
        self.iclsNN = nn.Linear(hidden_size, vocab.size()[1])
        self.W_assm = nn.Linear(hidden_size, 4)
        self.hmpn = nn.Module()
        self.topo_loss = nn.BCEWithLogitsLoss(reduction='sum')
        self.cls_loss = nn.CrossEntropyLoss(reduction='sum')
        self.icls_loss = nn.CrossEntropyLoss(reduction='sum')
        self.assm_loss = nn.CrossEntropyLoss(reduction='sum')

    def forward(self, src_mol_vecs, graphs, tensors, orders):
        batch_size = len(orders)
        src_root_vecs, src_tree_vecs, src_graph_vecs = src_mol_vecs
        init_vecs = self.W_root(src_root_vecs)

        all_topo_preds, all_cls_preds, all_assm_preds = [], [], []
        for i in range(batch_size):
            for xid, yid, tlab in orders[i]:
                all_topo_preds.append((init_vecs[i], i, tlab))
                if tlab == 0:
                    continue
                clab, ilab = self.vocab[graphs[i][yid]]
                all_cls_preds.append((init_vecs[i], i, clab, ilab))
                all_assm_preds.append((init_vecs[i], i, 0))

        topo_vecs, batch_idx, topo_labels = zip_tensors(all_topo_preds)
        topo_scores = self.topoNN(topo_vecs).squeeze(-1)
        topo_loss = self.topo_loss(topo_scores, topo_labels.float())
        topo_acc = get_accuracy_bin(topo_scores, topo_labels)

        cls_vecs, batch_idx, cls_labs, icls_labs = zip_tensors(all_cls_preds)
        cls_scores, icls_scores = self.clsNN(cls_vecs), self.iclsNN(cls_vecs)
        cls_loss = self.cls_loss(cls_scores, cls_labs) + self.icls_loss(icls_scores, icls_labs)
        cls_acc = get_accuracy(cls_scores, cls_labs)
        icls_acc = get_accuracy(icls_scores, icls_labs)

        assm_vecs, batch_idx, assm_labels = zip_tensors(all_assm_preds)
        assm_scores = self.W_assm(assm_vecs)
        assm_loss = self.assm_loss(assm_scores, assm_labels)
        assm_acc = get_accuracy_sym(assm_scores, assm_labels)

        loss = (topo_loss + cls_loss + assm_loss) / batch_size
        return loss, cls_acc, icls_acc, topo_acc, assm_acc
