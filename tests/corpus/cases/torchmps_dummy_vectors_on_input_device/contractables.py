import torch


class Contractable:
    """A tensor with labelled bonds and a batch size shared by every contractable."""

    global_bs = None

    def __init__(self, tensor, bond_str):
        shape = list(tensor.shape)
        if "b" != bond_str[0] or len(bond_str) == len(shape) + 1:
            # no batch mode yet: broadcast along the global batch size
            tensor = tensor.unsqueeze(0).expand([Contractable.global_bs] + shape)
            bond_str = bond_str if bond_str[0] == "b" else "b" + bond_str
        else:
            Contractable.global_bs = tensor.size(0)
        self.tensor = tensor
        self.bond_str = bond_str


class ContractableList(Contractable):
    def __init__(self, contractable_list):
        self.contractable_list = contractable_list

    def reduce(self):
        c_list = self.contractable_list
        while len(c_list) > 1:
            try:
                c_list[-2] = c_list[-2] * c_list[-1]
                del c_list[-1]
            except TypeError:
                c_list[1] = c_list[0] * c_list[1]
                del c_list[0]
        return c_list[0]


class MatRegion(Contractable):
    """Matrices [batch, num_mats, D, D] multiplied together in order."""

    def __init__(self, mats):
        super().__init__(mats, bond_str="bslr")

    def __mul__(self, edge_vec, rmul=False):
        if not isinstance(edge_vec, EdgeVec):
            return NotImplemented
        mats = self.tensor
        dummy_ind = 1 if rmul else 2
        vec = edge_vec.tensor.unsqueeze(dummy_ind)
        mat_list = [mat.squeeze(1) for mat in torch.chunk(mats, mats.size(1), 1)]
        for mat in mat_list[::(1 if rmul else -1)]:
            if rmul:
                vec = torch.bmm(vec, mat)
            else:
                vec = torch.bmm(mat, vec)
        return EdgeVec(vec.squeeze(dummy_ind), is_left_vec=rmul)

    def __rmul__(self, edge_vec):
        return self.__mul__(edge_vec, rmul=True)


class EdgeVec(Contractable):
    """A batch of vectors on the left or right edge of the chain."""

    def __init__(self, vec, is_left_vec):
        super().__init__(vec, bond_str="b" + ("r" if is_left_vec else "l"))

    def __mul__(self, right_vec):
        if not isinstance(right_vec, EdgeVec):
            return NotImplemented
        left = self.tensor.unsqueeze(1)
        right = right_vec.tensor.unsqueeze(2)
        return torch.bmm(left, right).view([left.size(0)])
