"""Constraints that pin some atoms of a batched simulation state."""
import torch


class FixAtoms:
    def __init__(self, atom_idx: torch.Tensor):
        self.atom_idx = atom_idx

    def select_sub_constraint(self, atom_idx: torch.Tensor, sys_idx: int):
        """The part of this constraint that falls inside one system's atoms (global indices)."""
        mask = torch.isin(self.atom_idx, atom_idx)
        masked_indices = self.atom_idx[mask]
        new_atom_idx = masked_indices - atom_idx.min()
        if len(new_atom_idx) == 0:
            return None
        return type(self)(new_atom_idx)
