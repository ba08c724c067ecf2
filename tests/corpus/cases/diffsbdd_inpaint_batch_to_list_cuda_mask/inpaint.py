import argparse
from pathlib import Path

import torch

import utils
from lightning_modules import LigandPocketDDPM


def prepare_substructure(n_fixed, model):
    coord = torch.randn(n_fixed, model.x_dims)
    types = torch.randint(0, model.atom_nf, (n_fixed,))
    one_hot = torch.nn.functional.one_hot(types, num_classes=model.atom_nf).float()
    return coord, one_hot


def inpaint_ligand(model, n_residues, n_samples, n_fixed, add_n_nodes=4, center='ligand',
                   timesteps=None, resamplings=1):
    pocket = model.prepare_pocket(n_residues, repeats=n_samples)

    # Get fixed ligand substructure
    x_fixed, one_hot_fixed = prepare_substructure(n_fixed, model)

    num_nodes_lig = torch.ones(n_samples, dtype=int) * n_fixed + add_n_nodes

    ligand_mask = utils.num_nodes_to_batch_mask(
        len(num_nodes_lig), num_nodes_lig, model.device)

    ligand = {
        'x': torch.zeros((len(ligand_mask), model.x_dims), device=model.device),
        'one_hot': torch.zeros((len(ligand_mask), model.atom_nf), device=model.device),
        'size': num_nodes_lig,
        'mask': ligand_mask
    }

    # fill in fixed atoms
    lig_fixed = torch.zeros_like(ligand_mask)
    start = 0
    for i in range(n_samples):
        n_i = int(num_nodes_lig[i])
        ligand['x'][start:start + n_fixed] = x_fixed
        ligand['one_hot'][start:start + n_fixed] = one_hot_fixed
        lig_fixed[start:start + n_fixed] = 1
        start += n_i

    # Pocket's center of mass
    pocket_com_before = utils.scatter_mean(pocket['x'], pocket['mask'], dim=0)

    # Run sampling
    xh_lig, xh_pocket, lig_mask, pocket_mask = model.ddpm.inpaint(
        ligand, pocket, lig_fixed, center=center,
        resamplings=resamplings, timesteps=timesteps)

    # Move generated molecule back to the original pocket position
    pocket_com_after = utils.scatter_mean(xh_pocket[:, :model.x_dims], pocket_mask, dim=0)

    xh_pocket[:, :model.x_dims] += \
        (pocket_com_before - pocket_com_after)[pocket_mask]
    xh_lig[:, :model.x_dims] += \
        (pocket_com_before - pocket_com_after)[lig_mask]

    # Build mol objects
    x = xh_lig[:, :model.x_dims].detach().cpu()
    atom_type = xh_lig[:, model.x_dims:].argmax(1).detach().cpu()

    molecules = []
    for mol_pc in zip(utils.batch_to_list(x, lig_mask),
                      utils.batch_to_list(atom_type, lig_mask)):
        molecules.append(mol_pc)

    return molecules


if __name__ == "__main__":

    parser = argparse.ArgumentParser()
    parser.add_argument('--outfile', type=Path, default=Path('inpainted.xyz'))
    parser.add_argument('--n_samples', type=int, default=4)
    parser.add_argument('--n_fixed', type=int, default=3)
    parser.add_argument('--resamplings', type=int, default=2)
    parser.add_argument('--timesteps', type=int, default=50)
    args = parser.parse_args()

    device = 'cuda' if torch.cuda.is_available() else 'cpu'

    # Load model
    model = LigandPocketDDPM()
    model = model.to(device)

    molecules = inpaint_ligand(model, 12, args.n_samples, args.n_fixed,
                               timesteps=args.timesteps,
                               resamplings=args.resamplings)

    utils.write_xyz_file(molecules, args.outfile)
