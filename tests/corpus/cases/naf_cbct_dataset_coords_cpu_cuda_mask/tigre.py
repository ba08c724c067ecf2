import pickle

import numpy as np
import torch
from torch.utils.data import Dataset


class ConeGeometry(object):
    """
    Cone beam CT geometry. Note that we convert to meter from millimeter.
    """
    def __init__(self, data):
        self.DSD = data["DSD"] / 1000  # Distance Source Detector      (m)
        self.DSO = data["DSO"] / 1000  # Distance Source Origin        (m)
        # Detector parameters
        self.nDetector = np.array(data["nDetector"])  # number of pixels              (px)
        self.dDetector = np.array(data["dDetector"]) / 1000  # size of each pixel            (m)
        self.sDetector = self.nDetector * self.dDetector  # total size of the detector    (m)
        # Image parameters
        self.nVoxel = np.array(data["nVoxel"])  # number of voxels              (vx)
        self.dVoxel = np.array(data["dVoxel"]) / 1000  # size of each voxel            (m)
        self.sVoxel = self.nVoxel * self.dVoxel  # total size of the image       (m)
        # Offsets
        self.offOrigin = np.array(data["offOrigin"]) / 1000  # Offset of image from origin   (m)
        self.offDetector = np.array(data["offDetector"]) / 1000  # Offset of Detector            (m)
        self.mode = data["mode"]  # parallel, cone


class TIGREDataset(Dataset):
    """
    TIGRE dataset.
    """
    def __init__(self, path, n_rays=1024, type="train", device="cuda"):
        super().__init__()

        with open(path, "rb") as handle:
            data = pickle.load(handle)

        self.geo = ConeGeometry(data)
        self.type = type
        self.n_rays = n_rays
        self.near, self.far = self.get_near_far(self.geo)

        if type == "train":
            self.projs = torch.tensor(data["train"]["projections"], dtype=torch.float32, device=device)
            angles = data["train"]["angles"]
            rays = self.get_rays(angles, self.geo, device)
            self.rays = torch.cat([rays, torch.ones_like(rays[..., :1]) * self.near, torch.ones_like(rays[..., :1]) * self.far], dim=-1)
            self.n_samples = data["numTrain"]
            coords = torch.stack(torch.meshgrid(torch.linspace(0, self.geo.nDetector[1] - 1, self.geo.nDetector[1]),
                                                torch.linspace(0, self.geo.nDetector[0] - 1, self.geo.nDetector[0]), indexing="ij"),
                                 -1)
            self.coords = torch.reshape(coords, [-1, 2])

    def __len__(self):
        return self.n_samples

    def __getitem__(self, index):
        projs_valid = (self.projs[index] > 0).flatten()
        coords_valid = self.coords[projs_valid]
        select_inds = np.random.choice(coords_valid.shape[0], size=[self.n_rays], replace=False)
        select_coords = coords_valid[select_inds].long()
        rays = self.rays[index, select_coords[:, 0], select_coords[:, 1]]
        projs = self.projs[index, select_coords[:, 0], select_coords[:, 1]]
        out = {
            "projs": projs,
            "rays": rays,
        }
        return out

    def get_rays(self, angles, geo: ConeGeometry, device):
        """
        Get rays given one angle and x-ray machine geometry.
        """
        W, H = geo.nDetector
        DSD = geo.DSD
        rays = []

        for angle in angles:
            pose = torch.Tensor(self.angle2pose(geo.DSO, angle)).to(device)
            i, j = torch.meshgrid(torch.linspace(0, W - 1, W, device=device),
                                  torch.linspace(0, H - 1, H, device=device), indexing="ij")
            uu = (i.t() + 0.5 - W / 2) * geo.dDetector[0] + geo.offDetector[0]
            vv = (j.t() + 0.5 - H / 2) * geo.dDetector[1] + geo.offDetector[1]
            dirs = torch.stack([uu / DSD, vv / DSD, torch.ones_like(uu)], -1)
            rays_d = torch.sum(torch.matmul(pose[:3, :3], dirs[..., None]).to(device), -1)
            rays_o = pose[:3, -1].expand(rays_d.shape)
            rays.append(torch.concat([rays_o, rays_d], dim=-1))

        return torch.stack(rays, dim=0)

    def angle2pose(self, DSO, angle):
        phi1 = -np.pi / 2
        R1 = np.array([[1.0, 0.0, 0.0],
                       [0.0, np.cos(phi1), -np.sin(phi1)],
                       [0.0, np.sin(phi1), np.cos(phi1)]])
        phi2 = np.pi / 2
        R2 = np.array([[np.cos(phi2), -np.sin(phi2), 0.0],
                       [np.sin(phi2), np.cos(phi2), 0.0],
                       [0.0, 0.0, 1.0]])
        R3 = np.array([[np.cos(angle), -np.sin(angle), 0.0],
                       [np.sin(angle), np.cos(angle), 0.0],
                       [0.0, 0.0, 1.0]])
        rot = np.dot(np.dot(R3, R2), R1)
        trans = np.array([DSO * np.cos(angle), DSO * np.sin(angle), 0])
        T = np.eye(4)
        T[:-1, :-1] = rot
        T[:-1, -1] = trans
        return T

    def get_near_far(self, geo: ConeGeometry, tolerance=0.005):
        """
        Compute the near and far threshold.
        """
        dist1 = np.linalg.norm([geo.offOrigin[0] - geo.sVoxel[0] / 2, geo.offOrigin[1] - geo.sVoxel[1] / 2])
        dist2 = np.linalg.norm([geo.offOrigin[0] - geo.sVoxel[0] / 2, geo.offOrigin[1] + geo.sVoxel[1] / 2])
        dist3 = np.linalg.norm([geo.offOrigin[0] + geo.sVoxel[0] / 2, geo.offOrigin[1] - geo.sVoxel[1] / 2])
        dist4 = np.linalg.norm([geo.offOrigin[0] + geo.sVoxel[0] / 2, geo.offOrigin[1] + geo.sVoxel[1] / 2])
        dist_max = np.max([dist1, dist2, dist3, dist4])
        near = np.max([0, geo.DSO - dist_max - tolerance])
        far = np.min([geo.DSO * 2, geo.DSO + dist_max + tolerance])
        return near, far
