from types import SimpleNamespace

import torch
from torch import nn

PAD, START, STOP, UNK = "<pad>", "<bos>", "<eos>", "<unk>"


class Model(nn.Module):
    """Word-level QE model base: vocabularies per side and a padding mask helper."""

    def __init__(self, vocabs, hidden_size=64):
        super().__init__()
        self.vocabs = vocabs
        self.embedding = nn.Embedding(len(vocabs["target"]), hidden_size)
        self.output = nn.Linear(hidden_size, 2)

    def get_mask(self, batch, output):
        side = output
        input_tensor = getattr(batch, side)
        if isinstance(input_tensor, tuple) and len(input_tensor) == 2:
            input_tensor, lengths = input_tensor
        mask = torch.ones_like(input_tensor, dtype=torch.uint8)
        possible_padding = [PAD, START, STOP]
        unk_id = self.vocabs[side].get(UNK)
        for pad in possible_padding:
            pad_id = self.vocabs[side].get(pad)
            if pad_id is not None and pad_id != unk_id:
                mask &= torch.as_tensor(input_tensor != pad_id, dtype=torch.uint8)
        return mask

    def forward(self, batch):
        tokens = batch.target
        logits = self.output(self.embedding(tokens))
        mask = self.get_mask(batch, "target")
        return logits * mask.unsqueeze(-1)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    vocab = {PAD: 0, UNK: 1, START: 2, STOP: 3, "the": 4, "house": 5}
    model = Model({"target": vocab}).to(device)
    batch = SimpleNamespace(target=torch.tensor([[2, 4, 5, 3, 0]], device=device))
    print(model(batch).shape)
