"""Levenberg-Marquardt optimizer.

A reimplementation of the Levenberg-Marquardt optimizer from ForceBalance
(src/optimizer.py).
"""
import logging
import math
import typing

import pydantic
import torch

_LOGGER = logging.getLogger(__name__)


LossFunction = typing.Callable[
    [torch.Tensor], tuple[torch.Tensor, torch.Tensor, torch.Tensor]
]


class LevenbergMarquardtConfig(pydantic.BaseModel):
    """Configuration for the Levenberg-Marquardt optimizer."""

    type: typing.Literal["levenberg-marquardt"] = "levenberg-marquardt"

    trust_radius: float = pydantic.Field(0.2, description="Target trust radius.", gt=0.0)
    min_trust_radius: float = pydantic.Field(0.05, description="Minimum trust radius.")

    adaptive_factor: float = pydantic.Field(
        0.25, description="Adaptive trust radius adjustment factor.", gt=0.0
    )
    adaptive_damping: float = pydantic.Field(
        1.0, description="Adaptive trust radius adjustment damping.", gt=0.0
    )

    max_iterations: int = pydantic.Field(
        ..., description="The maximum number of iterations to perform.", ge=0
    )

    error_tolerance: float = pydantic.Field(
        1.0, description="Steps where the loss increases more than this amount are rejected."
    )

    quality_threshold_low: float = pydantic.Field(
        0.25, description="The threshold below which the step is considered low quality."
    )
    quality_threshold_high: float = pydantic.Field(
        0.75, description="The threshold above which the step is considered high quality."
    )


def _invert_svd(matrix: torch.Tensor, threshold: float = 1e-12) -> torch.Tensor:
    """Invert a matrix using SVD."""
    u, s, vh = torch.linalg.svd(matrix)

    non_zero_idxs = s > threshold

    s_inverse = torch.zeros_like(s)
    s_inverse[non_zero_idxs] = 1.0 / s[non_zero_idxs]

    return vh.T @ torch.diag(s_inverse) @ u.T


def _solver(
    damping_factor: torch.Tensor, gradient: torch.Tensor, hessian: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Solve the Levenberg-Marquardt step: the step ``shape=(n,)`` and the expected improvement."""

    hessian_regular = hessian + (damping_factor - 1) ** 2 * torch.eye(len(hessian))
    hessian_inverse = _invert_svd(hessian_regular)

    dx = -(hessian_inverse @ gradient)
    solution = 0.5 * dx @ hessian @ dx + (dx * gradient).sum()

    return dx, solution


def _damping_factor_loss_fn(
    damping_factor: torch.Tensor,
    gradient: torch.Tensor,
    hessian: torch.Tensor,
    trust_radius: float,
) -> torch.Tensor:
    """Squared difference between the target trust radius and the step size the solver
    proposes; minimised when finding the optimal damping factor."""
    dx, _ = _solver(damping_factor, gradient, hessian)
    dx_norm = torch.linalg.norm(dx)

    _LOGGER.info(f"finding trust radius: length {dx_norm:.4e} (target {trust_radius:.4e})")

    return (dx_norm - trust_radius) ** 2


def _step(
    gradient: torch.Tensor,
    hessian: torch.Tensor,
    trust_radius: float,
    initial_damping_factor: float = 1.0,
    min_eigenvalue: float = 1.0e-4,
) -> tuple[torch.Tensor, torch.Tensor, bool]:
    """Compute the Levenberg-Marquardt step: the step, the expected improvement, and whether
    the damping factor was adjusted."""
    from scipy import optimize

    eigenvalues, _ = torch.linalg.eigh(hessian)
    eigenvalue_smallest = eigenvalues.min()

    if eigenvalue_smallest < min_eigenvalue:
        # Mix in SD step if Hessian minimum eigenvalue is negative - experimental.
        adjacency = max(min_eigenvalue, 0.01 * abs(eigenvalue_smallest)) - eigenvalue_smallest

        _LOGGER.info(
            f"hessian has a small or negative eigenvalue ({eigenvalue_smallest:.1e}), "
            f"mixing in some steepest descent ({adjacency:.1e}) to correct this."
        )
        hessian += adjacency * torch.eye(hessian.shape[0])

    damping_factor = torch.tensor(1.0)

    dx, improvement = _solver(damping_factor, gradient, hessian)
    dx_norm = torch.linalg.norm(dx)

    adjust_damping = (dx_norm > trust_radius).item()

    if adjust_damping:
        # Brent works well here, but its tolerance is fractional
        damping_factor = optimize.brent(
            _damping_factor_loss_fn,
            (gradient, hessian, trust_radius),
            brack=(initial_damping_factor, initial_damping_factor * 4),
            tol=1e-6,
        )

        dx, improvement = _solver(damping_factor, gradient, hessian)
        dx_norm = torch.linalg.norm(dx)

    _LOGGER.info(f"trust-radius step found (length {dx_norm:.4e})")

    return dx, improvement, adjust_damping


def _reduce_trust_radius(dx_norm: torch.Tensor, config: LevenbergMarquardtConfig) -> float:
    """Reduce the trust radius."""
    trust_radius = max(dx_norm * (1.0 / (1.0 + config.adaptive_factor)), config.min_trust_radius)
    _LOGGER.info(f"reducing trust radius to {trust_radius:.4e}")

    return trust_radius


def _update_trust_radius(
    dx_norm: torch.Tensor,
    step_quality: float,
    trust_radius: float,
    damping_adjusted: bool,
    config: LevenbergMarquardtConfig,
) -> float:
    """Adjust the trust radius based on the quality of the previous step."""

    if step_quality <= config.quality_threshold_low:
        trust_radius = max(dx_norm * (1.0 / (1.0 + config.adaptive_factor)), config.min_trust_radius)
        _LOGGER.info(f"low quality step detected - reducing trust radius to {trust_radius:.4e}")

    elif step_quality >= config.quality_threshold_high and damping_adjusted:
        trust_radius += (
            config.adaptive_factor
            * trust_radius
            * math.exp(-config.adaptive_damping * (trust_radius / config.trust_radius - 1.0))
        )
        _LOGGER.info(f"updating trust radius to {trust_radius: .4e}")

    return trust_radius


@torch.no_grad()
def levenberg_marquardt(
    x: torch.Tensor, loss_fn: LossFunction, config: LevenbergMarquardtConfig
) -> torch.Tensor:
    """Optimize a function using the Levenberg-Marquardt algorithm; `loss_fn` returns the loss,
    gradient (``shape=(n,)``) and hessian (``shape=(n, n)``)."""
    x = torch.tensor(x, requires_grad=x.requires_grad)

    history = [loss_fn(x)]
    iteration = 0

    trust_radius = config.trust_radius

    while iteration < config.max_iterations:
        loss_prev, gradient_prev, hessian_prev = history[-1]

        dx, expected_improvement, damping_adjusted = _step(gradient_prev, hessian_prev, trust_radius)
        dx_norm = torch.linalg.norm(dx)

        x_prev = torch.tensor(x, requires_grad=x.requires_grad)
        x += dx

        loss, gradient, hessian = loss_fn(x)
        loss_delta = loss - loss_prev

        step_quality = loss_delta / expected_improvement

        if loss > (loss_prev + config.error_tolerance):
            trust_radius = _reduce_trust_radius(dx_norm, config)

            # reject the 'bad' step and try again from where we were
            x = x_prev
            loss, gradient, hessian = (loss_prev, gradient_prev, hessian_prev)

        else:
            trust_radius = _update_trust_radius(dx_norm, step_quality, trust_radius, damping_adjusted, config)

        history.append((loss, gradient, hessian))
        iteration += 1

        _LOGGER.info(f"step={iteration} loss={loss:.4e}")

    return x


if __name__ == "__main__":
    # smee/tests/optimizers/test_lm.py::test_levenberg_marquardt, with the fit on the GPU
    device = torch.device("cuda")
    expected = torch.tensor([5.0, 3.0, 2.0], device=device)

    x_ref = torch.linspace(-2.0, 2.0, 100, device=device)
    y_ref = expected[0] * x_ref**2 + expected[1] * x_ref + expected[2]

    theta_0 = torch.tensor([0.0, 0.0, 0.0], requires_grad=True, device=device)

    def loss_fn(theta: torch.Tensor) -> torch.Tensor:
        y = theta[0] * x_ref**2 + theta[1] * x_ref + theta[2]
        return torch.sum((y - y_ref) ** 2)

    def target_fn(theta: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        with torch.enable_grad():
            loss = loss_fn(theta)
            (grad,) = torch.autograd.grad(loss, theta, torch.tensor(1.0, device=device))
            hess = torch.autograd.functional.hessian(loss_fn, theta)

        return loss.detach(), grad.detach(), hess.detach()

    config = LevenbergMarquardtConfig(max_iterations=15)
    x_final = levenberg_marquardt(theta_0, target_fn, config)

    assert x_final.shape == expected.shape
    assert torch.allclose(x_final, expected)
