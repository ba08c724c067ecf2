"""A batch of atomistic systems stored as flat per-atom tensors."""
import torch

from constraints import FixAtoms


class SimState:
    def __init__(self, positions: torch.Tensor, n_atoms_per_system: torch.Tensor, constraints=()):
        self.positions = positions
        self.n_atoms_per_system = n_atoms_per_system
        self.constraints = list(constraints)

    @property
    def device(self) -> torch.device:
        return self.positions.device

    def split(self) -> list:
        return _split_state(self)


def _split_state(state: SimState) -> list:
    system_sizes = state.n_atoms_per_system.tolist()
    positions = torch.split(state.positions, system_sizes, dim=0)
    zero_tensor = torch.tensor([0], device=state.device, dtype=torch.int64)
    cumsum_atoms = torch.cat((zero_tensor, torch.cumsum(state.n_atoms_per_system, dim=0)))
    states = []
    for sys_idx in range(len(system_sizes)):
        atom_idx = torch.arange(
            cumsum_atoms[sys_idx].item(), cumsum_atoms[sys_idx + 1].item(), device=state.device
        )
        new_constraints = [
            new_constraint
            for constraint in state.constraints
            if (new_constraint := constraint.select_sub_constraint(atom_idx, sys_idx))
        ]
        states.append(SimState(positions[sys_idx], state.n_atoms_per_system[sys_idx:sys_idx + 1], new_constraints))
    return states


if __name__ == "__main__":
    device = torch.device("cuda")
    state = SimState(torch.randn(7, 3, device=device), torch.tensor([3, 4], device=device),
                     constraints=[FixAtoms(torch.tensor([0, 4], device=device))])
    print([len(s.constraints) for s in state.split()])
