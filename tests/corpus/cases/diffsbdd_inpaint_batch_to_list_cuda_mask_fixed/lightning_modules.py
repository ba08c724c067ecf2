import torch
from torch import nn

import utils


class EnVariationalDiffusion(nn.Module):
    """Stand-in for the conditional equivariant diffusion model (denoising reduced to one network call)."""

    def __init__(self, x_dims, atom_nf, hidden=32):
        super().__init__()
        self.x_dims = x_dims
        self.net = nn.Sequential(nn.Linear(x_dims + atom_nf, hidden), nn.SiLU(), nn.Linear(hidden, x_dims + atom_nf))

    def inpaint(self, ligand, pocket, lig_fixed, center='ligand', resamplings=1, timesteps=None, return_frames=1):
        xh_lig = torch.cat([ligand['x'], ligand['one_hot']], dim=1)
        xh_pocket = torch.cat([pocket['x'], pocket['one_hot']], dim=1)
        for _ in range(resamplings):
            z = self.net(xh_lig)
            fixed = lig_fixed.unsqueeze(-1).float()
            xh_lig = fixed * xh_lig + (1 - fixed) * z
        return xh_lig, xh_pocket, ligand['mask'], pocket['mask']


class LigandPocketDDPM(nn.Module):
    def __init__(self, x_dims=3, atom_nf=10, residue_nf=20):
        super().__init__()
        self.x_dims = x_dims
        self.atom_nf = atom_nf
        self.residue_nf = residue_nf
        self.ddpm = EnVariationalDiffusion(x_dims, atom_nf)

    @property
    def device(self):
        return next(self.parameters()).device

    def prepare_pocket(self, n_residues, repeats=1):
        pocket_coord = torch.randn(n_residues, self.x_dims).repeat(repeats, 1)
        pocket_types = torch.zeros(n_residues, self.atom_nf).repeat(repeats, 1)
        pocket_mask = torch.repeat_interleave(torch.arange(repeats, device=self.device), n_residues)
        return {
            'x': pocket_coord.to(self.device),
            'one_hot': pocket_types.to(self.device),
            'size': torch.tensor([n_residues] * repeats, device=self.device),
            'mask': pocket_mask,
        }
