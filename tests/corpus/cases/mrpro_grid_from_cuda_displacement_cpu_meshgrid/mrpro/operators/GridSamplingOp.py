"""Class for Grid Sampling Operator (mrpro/operators/GridSamplingOp.py before PR #824; the adjoint's autograd
function and the shape bookkeeping of SpatialDimension are left out)."""

import warnings
from collections.abc import Callable
from typing import Literal

import torch

from mrpro.operators.LinearOperator import LinearOperator


class GridSamplingOp(LinearOperator):
    """Grid Sampling Operator: samples the input at the locations the grid gives, with interpolation."""

    grid: torch.Tensor

    def __init__(
        self,
        grid_z: torch.Tensor | None,
        grid_y: torch.Tensor,
        grid_x: torch.Tensor,
        input_shape: tuple[int, ...] | None = None,
        interpolation_mode: Literal['bilinear', 'nearest', 'bicubic'] = 'bilinear',
        padding_mode: Literal['zeros', 'border', 'reflection'] = 'zeros',
        align_corners: bool = False,
    ):
        super().__init__()

        if grid_y.shape != grid_x.shape:
            raise ValueError('grid_y and grid_x differ in shape')
        if grid_z is not None:
            if grid_z.shape != grid_y.shape:
                raise ValueError('grid_z, grid_y and grid_x differ in shape')
            if grid_x.ndim < 4:
                raise ValueError(
                    f'a 3D grid needs (batch, z, y, x) components, got {tuple(grid_x.shape)}'
                )
            grid = torch.stack((grid_x, grid_y, grid_z), dim=-1)  # grid_sample reads the last axis as (x, y, z)
        else:
            if grid_x.ndim < 3:
                raise ValueError(
                    f'a 2D grid needs (batch, y, x) components, got {tuple(grid_x.shape)}'
                )
            grid = torch.stack((grid_x, grid_y), dim=-1)  # grid_sample reads the last axis as (x, y)

        if not grid.is_floating_point():
            raise ValueError(f'the grid must be real floating point, not {grid.dtype}')

        self.interpolation_mode = interpolation_mode
        self.padding_mode = padding_mode
        self.grid = grid
        self.input_shape = tuple(grid.shape[-4:-1]) if input_shape is None else input_shape
        self.align_corners = align_corners

    @classmethod
    def from_displacement(
        cls,
        displacement_z: torch.Tensor | None,
        displacement_y: torch.Tensor,
        displacement_x: torch.Tensor,
        interpolation_mode: Literal['bilinear', 'nearest', 'bicubic'] = 'bilinear',
        padding_mode: Literal['zeros', 'border', 'reflection'] = 'zeros',
    ) -> 'GridSamplingOp':
        """Build the operator from a pull displacement given in voxels: identity grid plus displacement."""
        if displacement_z is not None:  # 3D
            if displacement_x.ndim < 4 or displacement_y.ndim < 4 or displacement_z.ndim < 4:
                raise ValueError(
                    'a 3D displacement needs (batch, z, y, x) components; ',
                    f'got {tuple(displacement_x.shape)}',
                )
            try:
                *_, n_z, n_y, n_x = torch.broadcast_shapes(
                    displacement_z.shape, displacement_y.shape, displacement_x.shape
                )
            except RuntimeError:
                raise ValueError('the displacement components do not broadcast') from None
            grid_z, grid_y, grid_x = torch.meshgrid(
                torch.linspace(-1, 1, n_z), torch.linspace(-1, 1, n_y), torch.linspace(-1, 1, n_x), indexing='ij'
            )
            grid_z = grid_z + displacement_z * 2 / (n_z - 1)
            grid_y = grid_y + displacement_y * 2 / (n_y - 1)
            grid_x = grid_x + displacement_x * 2 / (n_x - 1)
        else:  # 2D
            if displacement_x.ndim < 3 or displacement_y.ndim < 3:
                raise ValueError(
                    'a 2D displacement needs (batch, y, x) components; ',
                    f'got {tuple(displacement_x.shape)} and {tuple(displacement_y.shape)}',
                )
            try:
                *_, n_y, n_x = torch.broadcast_shapes(displacement_y.shape, displacement_x.shape)
            except RuntimeError:
                raise ValueError('the displacement components do not broadcast') from None
            grid_y, grid_x = torch.meshgrid(torch.linspace(-1, 1, n_y), torch.linspace(-1, 1, n_x), indexing='ij')
            grid_y = grid_y + displacement_y * 2 / (n_y - 1)
            grid_x = grid_x + displacement_x * 2 / (n_x - 1)
            grid_z = None
        return cls(grid_z, grid_y, grid_x, None, interpolation_mode, padding_mode, align_corners=True)

    def __reshape_wrapper(
        self, x: torch.Tensor, inner: Callable[[torch.Tensor, torch.Tensor], torch.Tensor]
    ) -> tuple[torch.Tensor]:
        """Flatten batch and channel axes around `inner`, then restore them."""
        dim = self.grid.shape[-1]
        shape_grid_batch = self.grid.shape[: -dim - 1]  # the batch dimensions of grid
        n_batchdim = len(shape_grid_batch)
        shape_batch = torch.broadcast_shapes(x.shape[:n_batchdim], shape_grid_batch)
        shape_channels = x.shape[n_batchdim:-dim]
        grid_flatbatch = self.grid.broadcast_to(*shape_batch, *self.grid.shape[n_batchdim:]).flatten(
            end_dim=n_batchdim - 1
        )
        x_flatbatch = x.broadcast_to(*shape_batch, *x.shape[n_batchdim:]).flatten(end_dim=n_batchdim - 1)
        x_flatbatch_flatchannel = x_flatbatch.flatten(start_dim=1, end_dim=-dim - 1)
        sampled = inner(x_flatbatch_flatchannel, grid_flatbatch)
        result = sampled.reshape(*shape_batch, *shape_channels, *sampled.shape[-dim:])
        return (result,)

    def _forward_implementation(
        self, x_flatbatch_flatchannel: torch.Tensor, grid_flatbatch: torch.Tensor
    ) -> torch.Tensor:
        """grid_sample on the flattened input."""
        sampled = torch.nn.functional.grid_sample(
            x_flatbatch_flatchannel,
            grid_flatbatch,
            mode=self.interpolation_mode,
            padding_mode=self.padding_mode,
            align_corners=self.align_corners,
        )
        return sampled

    def __call__(self, x: torch.Tensor) -> tuple[torch.Tensor]:
        """Apply the GridSampling operator."""
        return super().__call__(x)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor]:
        """Apply forward of GridSamplingOp."""
        if x.shape[-1] != self.input_shape[-1] or x.shape[-2] != self.input_shape[-2]:
            warnings.warn('x does not have the operator input shape', stacklevel=1)
        return self.__reshape_wrapper(x, self._forward_implementation)

    def adjoint(self, x: torch.Tensor) -> tuple[torch.Tensor]:
        """Apply the adjoint of the GridSampling operator (left out here)."""
        raise NotImplementedError
