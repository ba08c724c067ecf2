import torch
import torch.nn as nn
import torch.nn.functional as F


class HAN(nn.Module):
    """Hierarchical attention network; the word and sentence GRU encoders are reduced to
    embeddings with attention pooling."""

    def __init__(self, ntoken, num_class, emb_size=200, hid_size=50):
        super(HAN, self).__init__()
        self.embed = nn.Embedding(ntoken, emb_size, padding_idx=0)
        self.word = nn.Linear(emb_size, hid_size)
        self.word_att = nn.Linear(hid_size, 1)
        self.sent = nn.Linear(hid_size, hid_size)
        self.sent_att = nn.Linear(hid_size, 1)
        self.lin_out = nn.Linear(hid_size, num_class)

    def set_emb_tensor(self, emb_tensor):
        self.embed.weight.data = emb_tensor

    def forward(self, batch_reviews, sent_order, ls, lr):
        emb_w = torch.tanh(self.word(self.embed(batch_reviews)))           # (sents, words, hid)
        att_w = F.softmax(self.word_att(emb_w), dim=1)
        sent_embs = (att_w * emb_w).sum(1)                                 # (sents, hid)
        sent_embs = torch.cat([sent_embs.new_zeros(1, sent_embs.size(1)), sent_embs], 0)
        rev = torch.tanh(self.sent(sent_embs[sent_order]))                 # (reviews, max_sents, hid)
        att_s = F.softmax(self.sent_att(rev), dim=1)
        rev_embs = (att_s * rev).sum(1)
        return self.lin_out(rev_embs)
