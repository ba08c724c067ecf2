import torch
import torch.nn as nn


def log_optimal_transport(scores, alpha, iters):
    b, m, n = scores.shape
    bins0 = alpha.expand(b, m, 1)
    bins1 = alpha.expand(b, 1, n)
    alpha = alpha.expand(b, 1, 1)
    couplings = torch.cat([torch.cat([scores, bins0], -1), torch.cat([bins1, alpha], -1)], 1)
    return couplings.log_softmax(2)


class BasicPBC(nn.Module):
    def __init__(self, descriptor_dim=32, sinkhorn_iterations=3):
        super().__init__()
        self.kenc = nn.Linear(4, descriptor_dim)
        self.final_proj = nn.Linear(descriptor_dim, descriptor_dim)
        self.bin_score = nn.Parameter(torch.tensor(1.0))
        self.sinkhorn_iterations = sinkhorn_iterations

    def forward(self, data):
        desc0 = self.final_proj(self.kenc(data["keypoints0"]))
        desc1 = self.final_proj(self.kenc(data["keypoints1"]))
        all_matches = data["all_matches"]
        weights = data["weights"]
        scores = torch.einsum("bnd,bmd->bnm", desc0, desc1)
        scores = log_optimal_transport(scores, self.bin_score, iters=self.sinkhorn_iterations)
        all_matches_origin = all_matches.clone()
        loss = -scores[:, :-1, :-1].mean()
        n, m = desc0.shape[1], desc1.shape[1]
        max0, max1 = scores[:, :-1, :].max(2), scores[:, :, :-1].max(1)
        indices0, indices1 = max0.indices, max1.indices
        mscores0 = max0.values
        valid0 = indices0 < n
        indices0 = torch.where(valid0, indices0, indices0.new_tensor(-1))
        return {
            "match_scores": scores[:, :-1, :][0],
            "matches0": indices0[0],
            "matching_scores0": mscores0[0],
            "loss": loss,
            "accuracy": ((all_matches_origin[0] == indices0[0]).sum() / len(all_matches_origin[0])).item(),
            "area_accuracy": (
                torch.tensor(
                    [(data["segment"] == ii + 1).sum() for ii in torch.arange(0, all_matches_origin[0].shape[0])[all_matches_origin[0] == indices0[0]]]
                ).sum()
                / (weights.sum() * 1.0)
            ).item(),
        }


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = BasicPBC().to(device)
    data = {
        "keypoints0": torch.rand(1, 5, 4),
        "keypoints1": torch.rand(1, 6, 4),
        "all_matches": torch.randint(-1, 6, (1, 5)),
        "weights": torch.ones(1, 5),
        "segment": torch.randint(0, 6, (1, 8, 8)),
    }
    for key in data:
        data[key] = data[key].to(device)
    out = model(data)
    print(out["accuracy"], out["area_accuracy"])
