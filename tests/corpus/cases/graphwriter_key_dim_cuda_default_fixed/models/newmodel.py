import torch
from torch import nn
from models.attention import MultiHeadAttention, MatrixAttn
from models.list_encoder import list_encode
from models.last_graph import graph_encode


class model(nn.Module):
  def __init__(self, args):
    super().__init__()
    self.args = args
    cattimes = 2
    self.emb = nn.Embedding(args.ntoks, args.hsz)
    self.lstm = nn.LSTMCell(args.hsz * cattimes, args.hsz)
    self.out = nn.Linear(args.hsz * cattimes, args.tgttoks)
    self.le = list_encode(args)
    self.entout = nn.Linear(args.hsz, 1)
    self.switch = nn.Linear(args.hsz * cattimes, 1)
    self.attn = MultiHeadAttention(args.hsz, args.hsz, args.hsz, h=4, dropout_p=args.drop)
    self.mattn = MatrixAttn(args.hsz * cattimes, args.hsz)
    self.graph = (args.model in ['graph', 'gat', 'gtrans'])
    if self.graph:
      self.ge = graph_encode(args)

  def forward(self, b):
    outp, _ = b.out
    ents = b.ent
    entlens = ents[2]
    ents = self.le(ents)
    if self.graph:
      gents, glob, grels = self.ge(b.rel[0], b.rel[1], (ents, entlens))
      hx = glob
      keys, mask = grels
      mask = mask == 0
    else:
      hx = ents.mean(dim=1)
      keys = ents
    mask = mask.unsqueeze(1)
    planlogits = None

    cx = hx.clone().detach()
    a = torch.zeros_like(hx)
    e = self.emb(outp).transpose(0, 1)
    outputs = []
    for i, k in enumerate(e):
      prev = torch.cat((a, k), 1)
      hx, cx = self.lstm(prev, (hx, cx))
      a = self.attn(hx.unsqueeze(1), keys, mask=mask).squeeze(1)
      out = torch.cat((hx, a), 1)
      outputs.append(out)
    l = torch.stack(outputs, 1)
    s = torch.sigmoid(self.switch(l))
    o = self.out(l)
    o = torch.softmax(o, 2)
    o = s * o
    # compute copy attn
    _, z = self.mattn(l, (ents, entlens))
    z = (1 - s) * z
    o = torch.cat((o, z), 2)
    o = o + (1e-6 * torch.ones_like(o))
    return o.log(), z, planlogits
