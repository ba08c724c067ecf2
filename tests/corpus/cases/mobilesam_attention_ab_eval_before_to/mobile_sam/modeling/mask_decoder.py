import torch
from torch import nn


class MaskDecoder(nn.Module):
    """Stand-in: one low-resolution mask and an IoU score per point prompt."""

    def __init__(self, transformer_dim, num_multimask_outputs=3):
        super().__init__()
        self.token_proj = nn.Linear(transformer_dim, transformer_dim)
        self.iou_head = nn.Linear(transformer_dim, num_multimask_outputs)

    def forward(self, image_embeddings, sparse_prompt_embeddings, multimask_output=True):
        tokens = self.token_proj(sparse_prompt_embeddings).mean(dim=1)  # (P, C)
        masks = torch.einsum("pc,bchw->pbhw", tokens, image_embeddings)
        iou_pred = self.iou_head(tokens)
        if not multimask_output:
            iou_pred = iou_pred[:, :1]
        return masks, iou_pred
