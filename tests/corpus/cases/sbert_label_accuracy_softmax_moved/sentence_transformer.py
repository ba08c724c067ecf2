import torch
from torch import nn


class SentenceTransformer(nn.Sequential):
    """Token embedding + mean pooling; moves itself to the GPU when one is available."""

    def __init__(self, vocab_size=30522, dim=768, device: str = None):
        super().__init__(nn.EmbeddingBag(vocab_size, dim, mode="mean"))
        if device is None:
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = torch.device(device)
        self.to(device)

    def forward(self, features):
        return {"sentence_embedding": self[0](features["input_ids"])}
