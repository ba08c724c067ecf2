import torch
from iterator import Iterator


class Vocab(object):
  def __init__(self, itos):
    self.itos = itos
    self.stoi = {w: i for i, w in enumerate(itos)}

  def __len__(self):
    return len(self.itos)


class Field(object):
  def __init__(self, itos):
    self.vocab = Vocab(itos)
    self.itos = itos


class Example(object):
  pass


class dataset:
  """The AGENDA data reduced to a few synthetic examples with the same layout:
  entity phrases, a relation graph (adjacency and relation ids) and the target text."""

  def __init__(self, args):
    self.args = args
    words = ['<unk>', '<pad>', '<start>', '<eos>', '.'] + ['w%d' % i for i in range(20)]
    self.OUTP = Field(words)
    self.TGT = Field(words)
    self.ENT = Field(words)
    self.REL = Field(['<pad>', '<unk>', 'ROOT', 'USED-FOR', 'PART-OF', 'USED-FOR_inv', 'PART-OF_inv'])
    self.mkiters(self.examples(8))

  def examples(self, n):
    exs = []
    for k in range(n):
      x = Example()
      x.out = [2] + [5 + (k + j) % 20 for j in range(6)] + [3]
      x.tgt = list(x.out)
      x.ent = self.vec_ents(3)
      x.rel = self.mkGraphs(3, 2)
      exs.append(x)
    return exs

  def vec_ents(self, n):
    ents = torch.LongTensor([[5 + i, 6 + i] for i in range(n)])
    phlens = torch.LongTensor([2] * n)
    return ents, phlens

  def mkGraphs(self, nents, nrels):
    N = nents + nrels
    adj = torch.ones(N, N).long()
    rel = torch.LongTensor([3 + (i % 4) for i in range(nrels)])
    return adj, rel

  def pad(self, tensor, length):
    return torch.cat([tensor, tensor.new(length - tensor.size(0), *tensor.size()[1:]).fill_(0)])

  def listTo(self, l):
    return [x.to(self.args.device) for x in l]

  def fixBatch(self, b):
    ent, phlens = zip(*b.ent)
    ent, elens = self.adjToBatch(ent)
    ent = ent.to(self.args.device)
    adj, rel = zip(*b.rel)
    b.rel = [self.listTo(adj), self.listTo(rel)]
    phlens = torch.cat(phlens, 0).to(self.args.device)
    elens = elens.to(self.args.device)
    b.ent = (ent, phlens, elens)
    return b

  def adjToBatch(self, adj):
    lens = [x.size(0) for x in adj]
    m = max([x.size(1) for x in adj])
    data = [self.pad(x.transpose(0, 1), m).transpose(0, 1) for x in adj]
    data = torch.cat(data, 0)
    return data, torch.LongTensor(lens)

  def mkiters(self, train):
    args = self.args
    self.t1_iter = Iterator(train, args.t1size, device=args.device)
