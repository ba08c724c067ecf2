import torch
from torch import nn

from nanofold.backbone_update import BackboneUpdate
from nanofold.frame import Frame


class StructureModuleLayer(nn.Module):
    """One structure-module iteration (invariant point attention reduced to a transition MLP)."""

    def __init__(self, single_embedding_size, dropout=0.1):
        super().__init__()
        self.backbone_update = BackboneUpdate(single_embedding_size)
        self.dropout = nn.Dropout(dropout)
        self.layer_norm = nn.LayerNorm(single_embedding_size)
        self.linear1 = nn.Linear(single_embedding_size, single_embedding_size)
        self.linear2 = nn.Linear(single_embedding_size, single_embedding_size)

    def forward(self, single, pair, frames):
        single = single + self.linear2(torch.relu(self.linear1(single)))
        single = self.layer_norm(self.dropout(single))
        frames = Frame.compose(frames, self.backbone_update(single))
        return single, frames


class StructureModule(nn.Module):
    def __init__(self, num_layers, single_embedding_size, pair_embedding_size):
        super().__init__()
        self.layers = nn.ModuleList([StructureModuleLayer(single_embedding_size) for _ in range(num_layers)])
        self.single_layer_norm = nn.LayerNorm(single_embedding_size)
        self.pair_layer_norm = nn.LayerNorm(pair_embedding_size)
        self.single_linear = nn.Linear(single_embedding_size, single_embedding_size)

    def forward(self, single, pair, local_coords):
        batch_dims = single.shape[:-1]
        single = self.single_layer_norm(single)
        pair = self.pair_layer_norm(pair)
        single = self.single_linear(single)
        frames = Frame(
            rotations=torch.eye(3).unsqueeze(0).repeat(*batch_dims, 1, 1),
            translations=torch.zeros(*batch_dims, 3),
        )
        for i, layer in enumerate(self.layers):
            single, frames = layer(single, pair, frames)
            if i < len(self.layers) - 1:
                frames.rotations = frames.rotations.detach()
        batched_frames = Frame(frames.rotations.unsqueeze(-3), frames.translations.unsqueeze(-2))
        return Frame.apply(batched_frames, local_coords)
