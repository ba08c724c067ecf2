import torch.nn as nn


class Stage(nn.Module):
    def __init__(self, n_feat=16):
        super(Stage, self).__init__()
        self.body = nn.Sequential(nn.Conv2d(3, n_feat, 3, padding=1), nn.PReLU(), nn.Conv2d(n_feat, 3, 3, padding=1))

    def forward(self, x):
        return x + self.body(x)


class MPRNet(nn.Module):
    """Multi-stage progressive restoration: one output image a stage, last stage first."""

    def __init__(self, n_feat=16):
        super(MPRNet, self).__init__()
        self.stage1 = Stage(n_feat)
        self.stage2 = Stage(n_feat)
        self.stage3 = Stage(n_feat)

    def forward(self, x3_img):
        stage1_img = self.stage1(x3_img)
        stage2_img = self.stage2(stage1_img)
        stage3_img = self.stage3(stage2_img)
        return [stage3_img, stage2_img, stage1_img]
