from typing import Any, Callable, Dict, Union

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


def make_recursive_func(func: Callable) -> Callable:
    """Apply func to every tensor in nested lists, tuples and dicts."""

    def wrapper(vars):
        if isinstance(vars, list):
            return [wrapper(x) for x in vars]
        elif isinstance(vars, tuple):
            return tuple([wrapper(x) for x in vars])
        elif isinstance(vars, dict):
            return {k: wrapper(v) for k, v in vars.items()}
        else:
            return func(vars)

    return wrapper


@make_recursive_func
def tocuda(vars: Any) -> Union[str, torch.Tensor]:
    """Convert tensor to tensor on GPU"""
    if isinstance(vars, torch.Tensor):
        return vars.cuda()
    elif isinstance(vars, str):
        return vars
    else:
        raise NotImplementedError("invalid input type {} for tocuda".format(type(vars)))


class PatchmatchNet(nn.Module):
    """Stand-in network: per-stage depth maps from the reference view, as the real net returns them."""

    def __init__(self, patchmatch_iteration=(1, 2, 2)):
        super(PatchmatchNet, self).__init__()
        self.patchmatch_iteration = patchmatch_iteration
        self.feature = nn.Conv2d(3, 8, 3, padding=1)
        self.depth_head = nn.Conv2d(8, 1, 3, padding=1)
        self.refine = nn.Conv2d(1, 1, 3, padding=1)

    def forward(self, imgs, proj_matrices, depth_min, depth_max):
        ref = imgs[:, 0]
        feat = F.relu(self.feature(ref))
        depth_patchmatch = {}
        depth = None
        for stage in range(3, 0, -1):
            scale = 2 ** stage
            feat_l = F.avg_pool2d(feat, scale) if scale > 1 else feat
            depth = torch.sigmoid(self.depth_head(feat_l)).squeeze(1) * (depth_max - depth_min).view(-1, 1, 1) + depth_min.view(-1, 1, 1)
            depth_patchmatch[f"stage_{stage}"] = [depth for _ in range(self.patchmatch_iteration[stage - 1])]
        refined = self.refine(F.interpolate(depth.unsqueeze(1), scale_factor=2)).squeeze(1)
        return {"refined_depth": {"stage_0": refined}, "depth_patchmatch": depth_patchmatch}


def patchmatchnet_loss(
    depth_patchmatch: Dict[str, torch.Tensor],
    refined_depth: Dict[str, torch.Tensor],
    depth_gt: Dict[str, torch.Tensor],
    mask: Dict[str, torch.Tensor],
) -> torch.Tensor:
    """Patchmatch Net loss function"""
    stage = 4

    loss = 0
    for l in range(1, stage):
        depth_gt_l = depth_gt[f"stage_{l}"]
        mask_l = mask[f"stage_{l}"] > 0.5
        depth2 = depth_gt_l[mask_l]

        depth_patchmatch_l = depth_patchmatch[f"stage_{l}"]
        for i in range(len(depth_patchmatch_l)):
            depth1 = depth_patchmatch_l[i][mask_l]
            loss = loss + F.smooth_l1_loss(depth1, depth2, reduction="mean")

    l = 0
    depth_refined_l = refined_depth[f"stage_{l}"]
    depth_gt_l = depth_gt[f"stage_{l}"]
    mask_l = mask[f"stage_{l}"] > 0.5

    depth1 = depth_refined_l[mask_l]
    depth2 = depth_gt_l[mask_l]
    loss = loss + F.smooth_l1_loss(depth1, depth2, reduction="mean")

    return loss


model = PatchmatchNet()
model.cuda()
model_loss = patchmatchnet_loss
optimizer = optim.Adam(model.parameters(), lr=0.001, betas=(0.9, 0.999), weight_decay=0.0)


def train_sample(sample):
    model.train()
    optimizer.zero_grad()

    sample_cuda = tocuda(sample)
    depth_gt = sample_cuda["depth"]
    mask = sample_cuda["mask"]

    outputs = model(sample_cuda["imgs"], sample_cuda["proj_matrices"],
                    sample_cuda["depth_min"], sample_cuda["depth_max"])

    depth_est = outputs["refined_depth"]

    depth_patchmatch = outputs["depth_patchmatch"]

    loss = model_loss(depth_patchmatch, depth_est, depth_gt, mask)
    loss.backward()
    optimizer.step()

    return loss.item()


def make_sample(batch=2, height=32, width=32):
    sample = {"imgs": torch.rand(batch, 3, 3, height, width), "proj_matrices": torch.rand(batch, 3, 4, 4),
              "depth_min": torch.full((batch,), 425.0), "depth_max": torch.full((batch,), 935.0),
              "depth": {}, "mask": {}}
    for stage in range(4):
        scale = 2 ** stage
        sample["depth"][f"stage_{stage}"] = torch.rand(batch, height // scale, width // scale) * 500 + 425
        sample["mask"][f"stage_{stage}"] = torch.ones(batch, height // scale, width // scale)
    return sample


if __name__ == '__main__':
    for batch_idx in range(2):
        print("train loss = {:.3f}".format(train_sample(make_sample())))
