"""PET (point query transformer) for crowd counting, reduced to the point-query path."""
import torch
import torch.nn.functional as F
from torch import nn


def window_partition(x, window_size_h, window_size_w):
    B, C, H, W = x.shape
    x = x.permute(0, 2, 3, 1)
    x = x.reshape(B, H // window_size_h, window_size_h, W // window_size_w, window_size_w, C)
    windows = x.permute(0, 1, 3, 2, 4, 5).reshape(-1, window_size_h, window_size_w, C)
    return windows.reshape(-1, window_size_h * window_size_w, C).permute(1, 0, 2)


class BasePETCount(nn.Module):
    def __init__(self, hidden_dim, num_classes, pq_stride):
        super().__init__()
        self.class_embed = nn.Linear(hidden_dim, num_classes + 1)
        self.pq_stride = pq_stride

    def points_queris_embed_inference(self, samples, stride=8, src=None, **kwargs):
        dense_input_embed = kwargs["dense_input_embed"]
        image_shape = torch.tensor(samples.shape[2:])
        shape = (image_shape + stride // 2 - 1) // stride

        # generate points queries
        shift_x = ((torch.arange(0, shape[1]) + 0.5) * stride).long()
        shift_y = ((torch.arange(0, shape[0]) + 0.5) * stride).long()
        shift_y, shift_x = torch.meshgrid(shift_y, shift_x, indexing="ij")
        points_queries = torch.vstack([shift_y.flatten(), shift_x.flatten()]).permute(1, 0)
        h, w = shift_x.shape

        query_embed = dense_input_embed[:, :, points_queries[:, 0], points_queries[:, 1]]
        bs, c = query_embed.shape[:2]
        query_feats = src[:, :, points_queries[:, 0] // stride, points_queries[:, 1] // stride]

        # window-rize
        query_embed = query_embed.reshape(bs, c, h, w)
        points_queries = points_queries.reshape(h, w, 2).permute(2, 0, 1).unsqueeze(0)
        query_feats = query_feats.reshape(bs, c, h, w)
        dec_win_w, dec_win_h = kwargs["dec_win_size"]
        query_embed_win = window_partition(query_embed, dec_win_h, dec_win_w)
        points_queries_win = window_partition(points_queries, dec_win_h, dec_win_w)
        query_feats_win = window_partition(query_feats, dec_win_h, dec_win_w)

        # dynamic point query generation
        div = kwargs["div"]
        div_win = window_partition(div.unsqueeze(1), dec_win_h, dec_win_w)
        valid_div = (div_win > 0.5).sum(dim=0)[:, 0]
        v_idx = valid_div > 0
        query_embed_win = query_embed_win[:, v_idx]
        query_feats_win = query_feats_win[:, v_idx]
        points_queries_win = points_queries_win[:, v_idx].reshape(-1, 2)
        return query_embed_win, points_queries_win, query_feats_win, v_idx

    def get_point_query(self, samples, src, **kwargs):
        return self.points_queris_embed_inference(samples, self.pq_stride, src, **kwargs)

    def forward(self, samples, src, **kwargs):
        query_embed, points_queries, query_feats, v_idx = self.get_point_query(samples, src, **kwargs)
        return {"pred_logits": self.class_embed((query_embed + query_feats).transpose(0, 1)), "points_queries": points_queries}


class PET(nn.Module):
    def __init__(self, hidden_dim=256, num_classes=1):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, hidden_dim, 8, stride=8), nn.ReLU())
        self.pos_embed = nn.Conv2d(3, hidden_dim, 1)
        self.quadtree_splitter = nn.Sequential(nn.AvgPool2d((4, 2), stride=(4, 2)), nn.Conv2d(hidden_dim, 1, 1), nn.Sigmoid())
        self.quadtree_sparse = BasePETCount(hidden_dim, num_classes, pq_stride=8)

    def forward(self, samples, **kwargs):
        src = self.backbone(samples)
        kwargs["dense_input_embed"] = self.pos_embed(samples)
        return self.pet_forward(samples, src, **kwargs)

    def pet_forward(self, samples, src, **kwargs):
        bs, _, src_h, src_w = src.shape
        split_map = self.quadtree_splitter(src)
        split_map_sparse = 1 - F.interpolate(split_map, (src_h, src_w)).reshape(bs, -1)
        kwargs["div"] = split_map_sparse.reshape(bs, src_h, src_w)
        kwargs["dec_win_size"] = [16, 8]
        return self.quadtree_sparse(samples, src, **kwargs)


@torch.no_grad()
def evaluate(model, data_loader, device):
    model.eval()
    for samples, targets in data_loader:
        samples = samples.to(device)
        outputs = model(samples, test=True)
        print(outputs["pred_logits"].softmax(-1)[..., 1].sum().item(), len(targets[0]["points"]))


if __name__ == "__main__":
    device = torch.device("cuda")
    model = PET().to(device)
    evaluate(model, [(torch.randn(1, 3, 256, 256), [{"points": torch.zeros(5, 2)}])], device)
