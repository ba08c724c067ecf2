"""Stand-in for torchtext's data.Iterator: the declared fields of a batch
(out, with its lengths, and tgt) are padded and created on the iterator's
device; raw fields (ent, rel) are passed through as the examples hold them."""
import torch


class Batch(object):
  pass


class Iterator(object):
  def __init__(self, examples, batch_size, device=None):
    self.examples = examples
    self.batch_size = batch_size
    self.device = device

  def __iter__(self):
    for i in range(0, len(self.examples), self.batch_size):
      exs = self.examples[i:i + self.batch_size]
      b = Batch()
      lens = [len(x.out) for x in exs]
      m = max(lens)
      b.out = (torch.tensor([x.out + [1] * (m - len(x.out)) for x in exs]).to(self.device),
               torch.tensor(lens).to(self.device))
      b.tgt = torch.tensor([x.tgt + [1] * (m - len(x.tgt)) for x in exs]).to(self.device)
      b.ent = [x.ent for x in exs]
      b.rel = [x.rel for x in exs]
      yield b
