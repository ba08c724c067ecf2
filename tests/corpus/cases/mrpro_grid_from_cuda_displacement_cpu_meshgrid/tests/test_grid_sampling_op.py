"""The CUDA test PR #824 added (tests/operators/test_grid_sampling_op.py): an operator built from displacements
that are on the GPU, applied to an image on the GPU."""

import torch
from mrpro.operators.GridSamplingOp import GridSamplingOp


def test_grid_sampling_op_from_displacement_cuda(dim: int) -> None:
    """Test operator grid on cuda if the input displacement on cuda."""
    batch = (2,)
    zyx = (3, 4, 5) if dim == 3 else (4, 5)
    image = torch.rand(*batch, 1, *zyx)
    if dim == 2:
        displacement_cuda = (None, *torch.zeros(dim, *batch, *zyx, device='cuda').unbind(0))
    else:
        displacement_cuda = torch.zeros(dim, *batch, *zyx, device='cuda').unbind(0)
    operator_cuda = GridSamplingOp.from_displacement(*displacement_cuda)
    (result,) = operator_cuda(image.cuda())
    assert result.is_cuda


if __name__ == '__main__':
    for dim in (2, 3):
        test_grid_sampling_op_from_displacement_cuda(dim)
