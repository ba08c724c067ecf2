import torch
import torch.nn as nn
import torch.nn.functional as F


def norm(x):
    return F.rms_norm(x, (x.size(-1),))


class LabelAttentionClassifier(nn.Module):
    """Labels are queries that attend over the token embeddings (cross-attention head)."""

    def __init__(self, embedding_dim: int, num_classes: int, n_head: int = 4):
        super().__init__()
        self.embedding_dim = embedding_dim
        self.num_classes = num_classes
        self.n_head = n_head
        self.head_dim = embedding_dim // n_head
        self.label_embeds = nn.Embedding(num_classes, embedding_dim)
        self.c_q = nn.Linear(embedding_dim, embedding_dim, bias=False)
        self.c_k = nn.Linear(embedding_dim, embedding_dim, bias=False)
        self.c_v = nn.Linear(embedding_dim, embedding_dim, bias=False)
        self.c_proj = nn.Linear(embedding_dim, embedding_dim, bias=False)

    def forward(self, token_embeddings):
        B, T, C = token_embeddings.size()
        # 1. Create label indices [0, 1, ..., C-1] for the whole batch
        label_indices = torch.arange(self.num_classes).expand(B, -1)
        all_label_embeddings = self.label_embeds(label_indices)  # [batch, num_classes, d_model]
        all_label_embeddings = norm(all_label_embeddings)

        q = self.c_q(all_label_embeddings).view(B, self.num_classes, self.n_head, self.head_dim).transpose(1, 2)
        k = self.c_k(token_embeddings).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        v = self.c_v(token_embeddings).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        y = F.scaled_dot_product_attention(norm(q), norm(k), v, is_causal=False)
        y = y.transpose(1, 2).contiguous().view(B, self.num_classes, -1)
        return {"sentence_embedding": self.c_proj(y)}


if __name__ == "__main__":
    head = LabelAttentionClassifier(embedding_dim=64, num_classes=10).to("cuda")
    print(head(torch.randn(2, 12, 64, device="cuda"))["sentence_embedding"].shape)
