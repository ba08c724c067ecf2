"""
Visual Expert from https://arxiv.org/pdf/2311.03079.pdf (CogVLM): a visual expert module in each layer
(a QKV matrix and an MLP) for deep visual-language feature alignment.

Shape = B, SEQ_LEN, DIM or regular text shape
"""
import torch
from torch import nn

from zeta.nn.attention.multihead_attention import MultiheadAttention
from zeta.nn.modules.simple_feedforward import SimpleFeedForward


class VisualExpert:
    """
    Visual Expert from https://arxiv.org/pdf/2311.03079.pdf

    Example:
        >>> visual_expert = VisualExpert(1024, 2048, 0.1, 16)
        >>> x = torch.randn(1, 10, 1024)
        >>> out = visual_expert(x)
        >>> out.shape
        torch.Size([1, 10, 1024])
    """

    def __init__(
        self,
        dim: int,
        hidden_dim: int,
        dropout: float,
        heads: int,
    ):
        self.dim = dim
        self.hidden_dim = hidden_dim
        self.dropout = dropout
        self.heads = heads

        # Normalization
        self.norm = nn.LayerNorm(dim)

        # Projections
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)

        # Attention
        self.attention = MultiheadAttention(dim, heads, dropout)

        # Feedforward
        self.feedforward = SimpleFeedForward(dim, hidden_dim, dropout)

    def __call__(self, x: torch.Tensor):
        """Forward pass as shown in the diagram"""

        # Apply Layernorm first
        normalized = self.norm(x)

        # Split into text and image features
        x_text = normalized
        x_image = normalized

        # Apply QKV projections for text
        q_text, k_text, v_text = (
            self.q_proj(x_text),
            self.k_proj(x_text),
            self.v_proj(x_text),
        )

        # Apply QKV projections for image
        q_img, k_img, v_img = (
            self.q_proj(x_image),
            self.k_proj(x_image),
            self.v_proj(x_image),
        )

        # Apply attention where the image features are appended infront of the text features,
        # Concat the q, k, v of text and images together
        q = torch.cat((q_text, q_img))  # , dim=-1)
        k = torch.cat((k_text, k_img))  # , dim=-1)
        v = torch.cat((v_text, v_img))  # , dim=-1)

        # Apply attention
        out = self.attention(q, k, v)

        # Add the output of the attention with the normed x
        out = out + torch.cat((x, x))

        # Another Norm
        normalized = self.norm(out)

        # Apply feedforward
        out = self.feedforward(normalized) + out

        return out
