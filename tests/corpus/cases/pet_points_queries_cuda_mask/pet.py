import torch
from torch import nn

from window import window_partition


class PET(nn.Module):
    """Point-query crowd counter: queries on a regular grid, kept where the split map says so."""

    def __init__(self, hidden_dim=256, stride=8, dec_win_size=(8, 4)):
        super().__init__()
        self.stride = stride
        self.dec_win_size = dec_win_size
        self.backbone = nn.Conv2d(3, hidden_dim, 3, stride=stride, padding=1)
        self.pos_embed = nn.Conv2d(3, hidden_dim, 1)
        self.split_head = nn.Sequential(nn.Conv2d(hidden_dim, 1, 1), nn.Sigmoid())

    def points_queris_embed_inference(self, images, src, dense_input_embed, div):
        stride = self.stride
        bs, c = dense_input_embed.shape[:2]
        image_shape = torch.tensor(images.shape[2:])
        shape = (image_shape + stride // 2 - 1) // stride

        # generate points queries (a CPU grid: CPU indices may index the CUDA maps)
        shift_x = ((torch.arange(0, shape[1]) + 0.5) * stride).long()
        shift_y = ((torch.arange(0, shape[0]) + 0.5) * stride).long()
        shift_y, shift_x = torch.meshgrid(shift_y, shift_x)
        points_queries = torch.vstack([shift_y.flatten(), shift_x.flatten()]).permute(1, 0)
        h, w = shift_x.shape
        query_embed = dense_input_embed[:, :, points_queries[:, 0], points_queries[:, 1]]
        query_feats = src[:, :, points_queries[:, 0] // stride, points_queries[:, 1] // stride]

        query_embed = query_embed.reshape(bs, c, h, w)
        points_queries = points_queries.reshape(h, w, 2).permute(2, 0, 1).unsqueeze(0)
        query_feats = query_feats.reshape(bs, c, h, w)

        dec_win_w, dec_win_h = self.dec_win_size
        query_embed_win = window_partition(query_embed, window_size_h=dec_win_h, window_size_w=dec_win_w)
        points_queries_win = window_partition(points_queries, window_size_h=dec_win_h, window_size_w=dec_win_w)
        query_feats_win = window_partition(query_feats, window_size_h=dec_win_h, window_size_w=dec_win_w)

        # dynamic point query generation
        div_win = window_partition(div.unsqueeze(1), window_size_h=dec_win_h, window_size_w=dec_win_w)
        valid_div = (div_win > 0.5).sum(dim=0)[:, 0]
        v_idx = valid_div > 0
        query_embed_win = query_embed_win[:, v_idx]
        query_feats_win = query_feats_win[:, v_idx]
        points_queries_win = points_queries_win[:, v_idx].reshape(-1, 2)
        return query_embed_win, points_queries_win, query_feats_win, v_idx

    def forward(self, images):
        src = self.backbone(images)
        dense_input_embed = self.pos_embed(images)
        div = self.split_head(src)[:, 0]
        return self.points_queris_embed_inference(images, src, dense_input_embed, div)
