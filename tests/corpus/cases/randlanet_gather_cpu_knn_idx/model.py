import torch
import torch.nn as nn


def knn(support, query, k):
    """k nearest neighbours (indices, distances), computed where the inputs are (the CPU here)."""
    dist = torch.cdist(query, support)
    dist, idx = dist.topk(k, dim=-1, largest=False)
    return idx, dist


class LocalSpatialEncoding(nn.Module):
    def __init__(self, d, num_neighbors, device):
        super().__init__()
        self.num_neighbors = num_neighbors
        self.mlp = nn.Sequential(nn.Conv2d(10, d, 1), nn.BatchNorm2d(d), nn.ReLU())
        self.device = device

    def forward(self, coords, features, knn_output):
        idx, dist = knn_output
        B, N, K = idx.size()
        expanded_idx = idx.unsqueeze(1).expand(B, 3, N, K)
        expanded_coords = coords.transpose(-2, -1).unsqueeze(-1).expand(B, 3, N, K)
        neighbor_coords = torch.gather(expanded_coords, 2, expanded_idx)

        expanded_idx = idx.unsqueeze(1).expand(B, features.size(1), N, K)
        expanded_features = features.expand(B, -1, N, K)
        neighbor_features = torch.gather(expanded_features, 2, expanded_idx)

        concat = torch.cat((expanded_coords, neighbor_coords, expanded_coords - neighbor_coords,
                            dist.unsqueeze(-3)), dim=-3).to(self.device)
        return torch.cat((self.mlp(concat), neighbor_features), dim=-3)


class LocalFeatureAggregation(nn.Module):
    def __init__(self, d_in, d_out, num_neighbors, device):
        super().__init__()
        self.num_neighbors = num_neighbors
        self.mlp1 = nn.Conv2d(d_in, d_out // 2, 1)
        self.lse1 = LocalSpatialEncoding(d_out // 2, num_neighbors, device)
        self.mlp2 = nn.Conv2d(d_out, 2 * d_out, 1)

    def forward(self, coords, features):
        knn_output = knn(coords.cpu().contiguous(), coords.cpu().contiguous(), self.num_neighbors)
        x = self.mlp1(features)
        x = self.lse1(coords, x, knn_output)
        return self.mlp2(x)


class RandLANet(nn.Module):
    def __init__(self, d_in, num_classes, num_neighbors=16, device=torch.device("cpu")):
        super().__init__()
        self.fc_start = nn.Linear(d_in, 8)
        self.encoder = nn.ModuleList([LocalFeatureAggregation(8, 16, num_neighbors, device),
                                      LocalFeatureAggregation(32, 64, num_neighbors, device)])
        self.head = nn.Conv2d(128, num_classes, 1)
        self.device = device
        self = self.to(device)

    def forward(self, input):
        N = input.size(1)
        coords = input[..., :3].clone().cpu()
        x = self.fc_start(input).transpose(-2, -1).unsqueeze(-1)  # (B, d, N, 1)
        permutation = torch.randperm(N)
        coords = coords[:, permutation]
        x = x[:, :, permutation]
        for lfa in self.encoder:
            x = lfa(coords, x)
        return self.head(x).squeeze(-1)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = RandLANet(d_in=6, num_classes=14, device=device)
    points = torch.randn(2, 1024, 6, device=device)
    print(model(points).shape)
