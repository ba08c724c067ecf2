import torch
import torch.nn as nn


class CMR_SG(nn.Module):
    """Stand-in for the stacked-hourglass + spiral-mesh network: image -> mesh vertices and uv heatmaps."""

    def __init__(self, args, num_vert=778):
        super(CMR_SG, self).__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(inplace=True),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(inplace=True),
        )
        self.uv_head = nn.Conv2d(32, 21, 1)
        self.mesh_head = nn.Linear(32, num_vert * 3)
        self.num_vert = num_vert

    def forward(self, x):
        feat = self.backbone(x)
        uv_pred = torch.sigmoid(self.uv_head(feat))
        mesh_pred = self.mesh_head(feat.mean(dim=(2, 3))).view(x.size(0), self.num_vert, 3)
        return {'mesh_pred': [mesh_pred], 'uv_pred': uv_pred}
