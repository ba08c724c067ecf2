import torch
import torch.nn.functional as F
from torch import nn


def homogenize(v, dim=2):
    """Append a column of ones: (B, N, 3) -> (B, N, 4)."""
    if dim == 2:
        return torch.cat([v, torch.ones_like(v[:, :, :1])], -1)
    return torch.cat([v, torch.ones_like(v[:, :1, :])], 1)


class SkinNet(nn.Module):
    """Predicts skinning weights for points (stand-in for the repo's LBS networks)."""

    def __init__(self, n_joints=24):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv1d(3, 128, 1), nn.ReLU(), nn.Conv1d(128, n_joints, 1))

    def forward(self, points):
        return F.softmax(self.mlp(points), dim=1)


def pretrain_skinning_net(opt, fwd_skin_net, inv_skin_net, train_data_loader, cuda):
    optimizer = torch.optim.Adam(list(fwd_skin_net.parameters()) + list(inv_skin_net.parameters()), lr=opt["lr_pt1"])
    for epoch in range(opt["num_epoch_pt1"]):
        for train_data in train_data_loader:
            scan_posed = train_data["scan_cano_uni"].to(device=cuda)
            smpl_data = train_data["smpl_data"]
            smpl_posed = smpl_data["smpl_posed"].cuda()
            inv_rootT = smpl_data["inv_rootT"].cuda()

            # Get rid of global rotation from posed scans
            scan_posed = torch.einsum("bst,bvt->bvs", inv_rootT, homogenize(scan_posed))[:, :, :3]
            pred_lbs = inv_skin_net(scan_posed.permute(0, 2, 1))
            ref_lbs = fwd_skin_net(smpl_posed.permute(0, 2, 1))
            loss = F.mse_loss(pred_lbs.mean(-1), ref_lbs.mean(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()


def train(opt, train_data_loader):
    # the reporter trains on the second GPU
    cuda = torch.device("cuda:1")
    fwd_skin_net = SkinNet().to(cuda)
    inv_skin_net = SkinNet().to(cuda)
    pretrain_skinning_net(opt, fwd_skin_net, inv_skin_net, train_data_loader, cuda)
