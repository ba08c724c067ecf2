import numpy as np
import torch
from torch import nn

from box_ops import box_cxcywh_to_xyxy


class MLP(nn.Module):
    def __init__(self, input_dim, hidden_dim, output_dim, num_layers):
        super().__init__()
        dims = [input_dim] + [hidden_dim] * (num_layers - 1) + [output_dim]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:]))

    def forward(self, x):
        for i, layer in enumerate(self.layers):
            x = layer(x) if i == len(self.layers) - 1 else torch.relu(layer(x))
        return x


class TransformerDecoder(nn.Module):
    """Box-conditioned decoder: a relative position bias (boxRPB) between the query boxes and the feature grid."""

    def __init__(self, d_model, num_queries, nheads=8, boxRPB="log", resolution=None, stride=None):
        super().__init__()
        self.d_model = d_model
        self.nheads = nheads
        self.reference_points = nn.Embedding(num_queries, 4)

        assert boxRPB in ["none", "log", "linear", "both"]
        self.boxRPB = boxRPB
        if boxRPB != "none":
            n_input = 4 if boxRPB == "both" else 2
            self.boxRPB_embed_x = MLP(n_input, d_model, nheads, 2)
            self.boxRPB_embed_y = MLP(n_input, d_model, nheads, 2)
            self.compilable_cord_cache = None
            self.compilable_stored_size = None
            self.coord_cache = {}

            if resolution is not None and stride is not None:
                # no fixed device: the coordinates are created on the first forward pass,
                # on the device of the reference boxes (see _get_rpb_matrix)
                feat_size = resolution // stride
                self.compilable_stored_size = (feat_size, feat_size)

    @staticmethod
    def _get_coords(H, W, device):
        coords_h = torch.arange(0, H, device=device, dtype=torch.float32) / H
        coords_w = torch.arange(0, W, device=device, dtype=torch.float32) / W
        return coords_h, coords_w

    def _get_rpb_matrix(self, reference_boxes, feat_size):
        H, W = feat_size
        boxes_xyxy = box_cxcywh_to_xyxy(reference_boxes).transpose(0, 1)
        bs, num_queries, _ = boxes_xyxy.shape
        if self.compilable_cord_cache is None:
            self.compilable_cord_cache = self._get_coords(H, W, reference_boxes.device)
            self.compilable_stored_size = (H, W)

        if self.compilable_stored_size == (H, W):
            # hitting the cache
            coords_h, coords_w = self.compilable_cord_cache
        else:
            if feat_size not in self.coord_cache:
                self.coord_cache[feat_size] = self._get_coords(H, W, reference_boxes.device)
            coords_h, coords_w = self.coord_cache[feat_size]

        deltas_y = coords_h.view(1, -1, 1) - boxes_xyxy.reshape(-1, 1, 4)[:, :, 1:4:2]
        deltas_y = deltas_y.view(bs, num_queries, -1, 2)
        deltas_x = coords_w.view(1, -1, 1) - boxes_xyxy.reshape(-1, 1, 4)[:, :, 0:3:2]
        deltas_x = deltas_x.view(bs, num_queries, -1, 2)

        if self.boxRPB in ["log", "both"]:
            deltas_x = torch.sign(deltas_x * 8) * torch.log2(torch.abs(deltas_x * 8) + 1.0) / np.log2(8)
            deltas_y = torch.sign(deltas_y * 8) * torch.log2(torch.abs(deltas_y * 8) + 1.0) / np.log2(8)

        deltas_x = self.boxRPB_embed_x(x=deltas_x)  # bs, num_queries, W, n_heads
        deltas_y = self.boxRPB_embed_y(x=deltas_y)  # bs, num_queries, H, n_heads
        B = deltas_y.unsqueeze(3) + deltas_x.unsqueeze(2)  # bs, num_queries, H, W, n_heads
        B = B.flatten(2, 3).permute(0, 3, 1, 2)  # bs, n_heads, num_queries, H*W
        return B

    def forward(self, memory, feat_size):
        # memory: (H*W, bs, d_model)
        bs = memory.shape[1]
        reference_boxes = self.reference_points.weight.sigmoid().unsqueeze(1).repeat(1, bs, 1)  # nq, bs, 4
        memory_mask = None
        if self.boxRPB != "none" and reference_boxes is not None:
            memory_mask = self._get_rpb_matrix(reference_boxes, feat_size)
            memory_mask = memory_mask.flatten(0, 1)  # (bs*n_heads, nq, H*W)
        return memory_mask
