import torch
from torch import nn


class lseq_encode(nn.Module):
  """Phrase encoder; the bidirectional LSTM over each entity phrase is reduced
  to the mean of the phrase's token embeddings."""

  def __init__(self, args, toks=None):
    super().__init__()
    self.lemb = nn.Embedding(toks, args.esz)
    nn.init.xavier_normal_(self.lemb.weight)
    self.input_drop = nn.Dropout(args.embdrop)

  def forward(self, inp):
    l, ilens = inp
    learned_emb = self.lemb(l)
    e = self.input_drop(learned_emb)
    return e, e.mean(1)


class list_encode(nn.Module):
  def __init__(self, args):
    super().__init__()
    self.seqenc = lseq_encode(args, toks=args.vtoks)

  def forward(self, batch, pad=True):
    batch, phlens, batch_lens = batch
    _, enc = self.seqenc((batch, phlens))
    # every example of the stand-in data has the same number of entities
    return enc.view(batch_lens.size(0), -1, enc.size(1))
