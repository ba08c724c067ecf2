import torch


class CTCLabelConverter(object):
  def __init__(self, alphabets, max_len):
    self.alphabets = alphabets
    self.max_len = max_len
    self.dict = {char: i + 1 for i, char in enumerate(alphabets)}  # 0 is <BLANK>

  def encode(self, texts):
    lengths = [min(len(t), self.max_len) for t in texts]
    labels = torch.zeros(len(texts), self.max_len, dtype=torch.long)
    for i, t in enumerate(texts):
      for j, char in enumerate(t[:self.max_len]):
        labels[i, j] = self.dict.get(char, 0)
    return labels, torch.IntTensor(lengths)

  def decode(self, preds):
    return [''.join(self.alphabets[i - 1] for i in p if i > 0) for p in preds.tolist()]
