# based on github.com/cattaneod/CMRNet/blob/master/main_visibility_CALIB.py
# (sacred's Experiment/config capture, the KITTI odometry dataset and the LiDAR projection are reduced:
#  random RGB / depth images and random pose errors stand in for the preprocessed batches; the network,
#  the loss and quaternion_distance, separate modules in LCCNet, are small stand-ins inlined below)

import math

import torch
import torch.nn.functional as F
import torch.nn as nn
import torch.optim as optim



# ---- quaternion_distances.py ----
def quatmultiply(q, r, device='cpu'):
    t = torch.zeros(q.shape[0], 4, device=device)
    t[:, 0] = r[:, 0] * q[:, 0] - r[:, 1] * q[:, 1] - r[:, 2] * q[:, 2] - r[:, 3] * q[:, 3]
    t[:, 1] = r[:, 0] * q[:, 1] + r[:, 1] * q[:, 0] - r[:, 2] * q[:, 3] + r[:, 3] * q[:, 2]
    t[:, 2] = r[:, 0] * q[:, 2] + r[:, 1] * q[:, 3] + r[:, 2] * q[:, 0] - r[:, 3] * q[:, 1]
    t[:, 3] = r[:, 0] * q[:, 3] - r[:, 1] * q[:, 2] + r[:, 2] * q[:, 1] + r[:, 3] * q[:, 0]
    return t


def quaternion_distance(q, r, device):
    r_quat = r.clone()
    r_quat[:, 1:] = -r_quat[:, 1:]
    t = quatmultiply(q, r_quat, device)
    t = t / torch.norm(t, dim=1, keepdim=True)
    return 2 * torch.atan2(torch.norm(t[:, 1:], dim=1), torch.abs(t[:, 0]))


# ---- losses.py ----
class ProposedLoss(nn.Module):
    def __init__(self, rescale_trans, rescale_rot):
        super(ProposedLoss, self).__init__()
        self.rescale_trans = rescale_trans
        self.rescale_rot = rescale_rot
        self.transl_loss = nn.SmoothL1Loss(reduction='none')
        self.losses = {}

    def forward(self, target_transl, target_rot, transl_err, rot_err):
        loss_transl = self.transl_loss(transl_err, target_transl).sum(1).mean() * 100
        loss_rot = quaternion_distance(rot_err, target_rot, rot_err.device).mean()
        total_loss = self.rescale_trans * loss_transl + self.rescale_rot * loss_rot
        self.losses['total_loss'] = total_loss
        self.losses['transl_loss'] = loss_transl
        self.losses['rot_loss'] = loss_rot
        return self.losses


# ---- models/LCCNet.py ----
class LCCNet(nn.Module):
    """Stand-in for LCCNet (ResNet-18 features for the RGB and depth images, cost volume, regression
    heads): two small conv branches and the translation / rotation heads."""

    def __init__(self, image_size, use_feat_from=1, md=4, use_reflectance=False, dropout=0.0):
        super(LCCNet, self).__init__()
        self.rgb = nn.Sequential(nn.Conv2d(3, 8, 3, stride=4, padding=1), nn.LeakyReLU(0.1), nn.AdaptiveAvgPool2d(4))
        self.lidar = nn.Sequential(nn.Conv2d(1, 8, 3, stride=4, padding=1), nn.LeakyReLU(0.1), nn.AdaptiveAvgPool2d(4))
        self.fc1 = nn.Linear(2 * 8 * 16, 64)
        self.fc1_trasl = nn.Linear(64, 3)
        self.fc1_rot = nn.Linear(64, 4)
        self.dropout = nn.Dropout(dropout)

    def forward(self, rgb, lidar):
        x = torch.cat((self.rgb(rgb).flatten(1), self.lidar(lidar).flatten(1)), dim=1)
        x = self.dropout(F.leaky_relu(self.fc1(x), 0.1))
        transl = self.fc1_trasl(x)
        rot = F.normalize(self.fc1_rot(x), dim=1)
        return transl, rot


# CCN training
def train(model, optimizer, rgb_img, refl_img, target_transl, target_rot, loss_fn):
    model.train()

    optimizer.zero_grad()

    # Run model
    transl_err, rot_err = model(rgb_img, refl_img)

    losses = loss_fn(target_transl, target_rot, transl_err, rot_err)

    losses['total_loss'].backward()
    optimizer.step()

    return losses, rot_err, transl_err


# CNN test
def val(model, rgb_img, refl_img, target_transl, target_rot, loss_fn):
    model.eval()

    # Run model
    with torch.no_grad():
        transl_err, rot_err = model(rgb_img, refl_img)

    losses = loss_fn(target_transl, target_rot, transl_err, rot_err)

    total_trasl_error = torch.tensor(0.0).to(target_rot.device)
    total_rot_error = quaternion_distance(target_rot, rot_err, target_rot.device)
    total_rot_error = total_rot_error * 180. / math.pi
    for j in range(rgb_img.shape[0]):
        total_trasl_error += torch.norm(target_transl[j] - transl_err[j]) * 100.

    return losses, total_trasl_error.item(), total_rot_error.sum().item(), rot_err, transl_err


def random_batch(batch_size):
    rgb = torch.rand(batch_size, 3, 256, 512)
    depth = torch.rand(batch_size, 1, 256, 512)
    tr_error = (torch.rand(batch_size, 3) - 0.5) * 0.2
    rot_error = F.normalize(torch.tensor([[1., 0., 0., 0.]]) + 0.01 * torch.randn(batch_size, 4), dim=1)
    return rgb, depth, tr_error, rot_error


def main():
    model = LCCNet((256, 512), use_feat_from=1, md=4)
    model = nn.DataParallel(model)
    model = model.cuda()

    loss_fn = ProposedLoss(2.0, 1.0)
    parameters = list(filter(lambda p: p.requires_grad, model.parameters()))
    optimizer = optim.Adam(parameters, lr=3e-4, weight_decay=5e-6)

    for epoch in range(2):
        ## Training ##
        for batch_idx in range(4):
            rgb_input, lidar_input, tr_error, rot_error = random_batch(4)
            # gt pose
            tr_error, rot_error = tr_error.cuda(), rot_error.cuda()
            rgb_input, lidar_input = rgb_input.cuda(), lidar_input.cuda()
            loss, R_predicted, T_predicted = train(model, optimizer, rgb_input, lidar_input, tr_error, rot_error, loss_fn)

        ## Validation ##
        total_val_t = 0.
        total_val_r = 0.
        for batch_idx in range(2):
            rgb_input, lidar_input, tr_error, rot_error = random_batch(4)
            tr_error, rot_error = tr_error.cuda(), rot_error.cuda()
            rgb_input, lidar_input = rgb_input.cuda(), lidar_input.cuda()
            loss, trasl_e, rot_e, R_predicted, T_predicted = val(model, rgb_input, lidar_input, tr_error, rot_error, loss_fn)
            total_val_t += trasl_e
            total_val_r += rot_e
        print('epoch', epoch, 'val transl error (cm)', total_val_t / 8, 'val rot error (deg)', total_val_r / 8)


if __name__ == '__main__':
    main()
