import torch
from torch import nn


class LabelEmbedder(nn.Module):
    """Looks up class embeddings; class ids come from Python lists on the host."""

    def __init__(self, num_classes, dim):
        super().__init__()
        self.table = nn.Parameter(torch.randn(num_classes, dim))

    def forward(self, class_ids):
        index = torch.tensor(class_ids, dtype=torch.long)
        return self.table[index]


if __name__ == "__main__":
    embedder = LabelEmbedder(10, 16).to("cuda")
    print(embedder([0, 2, 5]).shape)
