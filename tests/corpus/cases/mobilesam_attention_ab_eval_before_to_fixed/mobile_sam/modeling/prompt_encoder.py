import torch
from torch import nn


class PromptEncoder(nn.Module):
    """Stand-in: embeds point prompts with a linear layer."""

    def __init__(self, embed_dim, image_embedding_size, input_image_size, mask_in_chans):
        super().__init__()
        self.embed_dim = embed_dim
        self.input_image_size = input_image_size
        self.point_embed = nn.Linear(2, embed_dim)

    def forward(self, points, boxes=None, masks=None):
        coords, labels = points
        coords = coords / self.input_image_size[0]
        sparse_embeddings = self.point_embed(coords)
        return sparse_embeddings, None
