import torch
from torch import nn


def sim_matrix(a, b, eps=1e-8):
    a_norm = a / torch.clamp(a.norm(dim=1)[:, None], min=eps)
    b_norm = b / torch.clamp(b.norm(dim=1)[:, None], min=eps)
    return torch.mm(a_norm, b_norm.transpose(0, 1))


class FrozenInTime(nn.Module):
    """Dual encoder: a text model and a video model projected into one embedding space."""

    def __init__(self, text_model, projection_dim=256):
        super().__init__()
        self.text_model = text_model
        self.video_model = nn.Sequential(nn.Conv3d(3, 64, (1, 16, 16), stride=(1, 16, 16)),
                                         nn.AdaptiveAvgPool3d(1), nn.Flatten())
        self.txt_proj = nn.Linear(768, projection_dim)
        self.vid_proj = nn.Linear(64, projection_dim)

    def forward(self, data, return_embeds=True):
        text_embeddings = self.compute_text(data["text"])
        video_embeddings = self.compute_video(data["video"])
        if return_embeds:
            return text_embeddings, video_embeddings
        return sim_matrix(text_embeddings, video_embeddings)

    def compute_text(self, text_data):
        text_embeddings = self.text_model(**text_data).last_hidden_state[:, 0, :]
        return self.txt_proj(text_embeddings)

    def compute_video(self, video_data):
        video_embeddings = self.video_model(video_data.transpose(1, 2))
        return self.vid_proj(video_embeddings)
