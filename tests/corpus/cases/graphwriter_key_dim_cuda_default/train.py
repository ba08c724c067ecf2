import torch
from torch import nn
from torch.nn import functional as F
from lastDataset import dataset
from pargs import pargs, dynArgs
from models.newmodel import model


def train(m, o, ds, args):
  print("Training", end="\t")
  loss = 0
  ex = 0
  for count, b in enumerate(ds.t1_iter):
    b = ds.fixBatch(b)
    p, z, planlogits = m(b)
    p = p[:, :-1, :].contiguous()

    tgt = b.tgt[:, 1:].contiguous().view(-1).to(args.device)
    l = F.nll_loss(p.contiguous().view(-1, p.size(2)), tgt, ignore_index=1)
    l.backward()
    nn.utils.clip_grad_norm_(m.parameters(), args.clip)
    loss += l.item() * len(b.tgt)
    o.step()
    o.zero_grad()
    ex += len(b.tgt)
  loss = loss / ex
  print("AVG TRAIN LOSS: ", loss)


def main(args):
  ds = dataset(args)
  args = dynArgs(args, ds)
  m = model(args)
  print(args.device)
  m = m.to(args.device)
  o = torch.optim.SGD(m.parameters(), lr=args.lr, momentum=0.9)
  for e in range(args.epochs):
    print("epoch ", e, "lr", o.param_groups[0]['lr'])
    train(m, o, ds, args)


if __name__ == "__main__":
  args = pargs()
  main(args)
