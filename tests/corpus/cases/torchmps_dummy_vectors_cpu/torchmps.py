import torch
from torch import nn

from contractables import ContractableList, EdgeVec, MatRegion


class InputRegion(nn.Module):
    """A run of MPS cores, each contracted with one embedded input site."""

    def __init__(self, tensor):
        super().__init__()
        self.register_parameter("tensor", nn.Parameter(tensor))

    def forward(self, input_data):
        mats = torch.einsum("slri,bsi->bslr", [self.tensor, input_data])
        return MatRegion(mats)

    def __len__(self):
        return self.tensor.size(0)


class LinearRegion(nn.Module):
    def __init__(self, module_list):
        super().__init__()
        self.module_list = nn.ModuleList(module_list)

    def forward(self, input_data):
        ind = 0
        contractable_list = []
        for module in self.module_list:
            mod_len = len(module)
            contractable_list.append(module(input_data[:, ind:(ind + mod_len)]))
            ind += mod_len

        # dummy end vectors close the open boundary conditions
        bond_dims = [item.tensor.size(-1) for item in (contractable_list[0], contractable_list[-1])]
        end_vecs = [torch.zeros(dim) for dim in bond_dims]
        for vec in end_vecs:
            vec[0] = 1
        contractable_list.insert(0, EdgeVec(end_vecs[0], is_left_vec=True))
        contractable_list.append(EdgeVec(end_vecs[1], is_left_vec=False))
        return ContractableList(contractable_list).reduce()


class MPS(nn.Module):
    """Matrix product state over `input_dim` pixels, each embedded as a 2-vector."""

    def __init__(self, input_dim, bond_dim, feature_dim=2, init_std=1e-9):
        super().__init__()
        half = input_dim // 2
        eye = torch.eye(bond_dim).unsqueeze(-1).expand(bond_dim, bond_dim, feature_dim)
        left = eye.expand(half, -1, -1, -1) + init_std * torch.randn(half, bond_dim, bond_dim, feature_dim)
        right = eye.expand(input_dim - half, -1, -1, -1) + init_std * torch.randn(input_dim - half, bond_dim, bond_dim, feature_dim)
        self.linear_region = LinearRegion([InputRegion(left), InputRegion(right)])
        self.input_dim = input_dim
        self.feature_dim = feature_dim

    def forward(self, input_data):
        input_data = self.embed_input(input_data)
        return self.linear_region(input_data)

    def embed_input(self, input_data):
        """Default linear feature map: x -> (x, 1 - x)."""
        embedded_shape = list(input_data.shape) + [self.feature_dim]
        embedded_data = torch.empty(embedded_shape)
        embedded_data[:, :, 0] = input_data
        embedded_data[:, :, 1] = 1 - input_data
        return embedded_data
