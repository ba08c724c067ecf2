"""Saliency attribution: the gradient of the selected output with respect to the inputs.

The target selection, the forward runner and the gradient helper of the library's common and
gradient utilities, with the Saliency method that uses them (one module here).
"""
import warnings
from typing import Any, Callable, List, Tuple, Union, cast

import torch
from torch import Tensor


def _is_tuple(inputs) -> bool:
    return isinstance(inputs, tuple)


def _format_input(inputs):
    if not isinstance(inputs, tuple):
        assert isinstance(inputs, torch.Tensor), "`inputs` must have type torch.Tensor"
        inputs = (inputs,)
    return inputs


def _format_additional_forward_args(additional_forward_args: Any):
    if additional_forward_args is not None and not isinstance(additional_forward_args, tuple):
        additional_forward_args = (additional_forward_args,)
    return additional_forward_args


def _format_attributions(is_inputs_tuple: bool, attributions: Tuple[Tensor, ...]):
    return attributions if is_inputs_tuple else attributions[0]


def _verify_select_column(output: Tensor, target: Union[int, Tuple[int, ...]]) -> Tensor:
    target = cast(Tuple[int, ...], (target,) if isinstance(target, int) else target)
    assert len(target) <= len(output.shape) - 1, "Cannot choose target column with output shape %r." % (output.shape,)
    return output[(slice(None), *target)]


def _select_targets(output: Tensor, target) -> Tensor:
    if target is None:
        return output

    num_examples = output.shape[0]
    dims = len(output.shape)
    device = output.device
    if isinstance(target, (int, tuple)):
        return _verify_select_column(output, target)
    elif isinstance(target, torch.Tensor):
        if torch.numel(target) == 1 and isinstance(target.item(), int):
            return _verify_select_column(output, cast(int, target.item()))
        elif len(target.shape) == 1 and torch.numel(target) == num_examples:
            assert dims == 2, "Output must be 2D to select tensor of targets."
            return torch.gather(output, 1, target.reshape(len(output), 1))
        else:
            raise AssertionError("Tensor target dimension %r is not valid. %r" % (target.shape, output.shape))
    elif isinstance(target, list):
        assert len(target) == num_examples, "Target list length does not match output!"
        if isinstance(target[0], int):
            assert dims == 2, "Output must be 2D to select tensor of targets."
            return torch.gather(output, 1, torch.tensor(target, device=device).reshape(len(output), 1))
        elif isinstance(target[0], tuple):
            return torch.stack([output[(i,) + cast(Tuple, targ_elem)] for i, targ_elem in enumerate(target)])
        else:
            raise AssertionError("Target element type in list is not valid.")
    else:
        raise AssertionError("Target type %r is not valid." % target)


def _run_forward(forward_func: Callable, inputs, target=None, additional_forward_args: Any = None) -> Tensor:
    # make everything a tuple so that it is easy to unpack without
    # using if-statements
    inputs = _format_input(inputs)
    additional_forward_args = _format_additional_forward_args(additional_forward_args)

    output = forward_func(
        *(*inputs, *additional_forward_args)
        if additional_forward_args is not None
        else inputs
    )
    return _select_targets(output, target)


def apply_gradient_requirements(inputs: Tuple[Tensor, ...]) -> List[bool]:
    assert isinstance(inputs, tuple), "Inputs should be wrapped in a tuple prior to preparing for gradients"
    grad_required = []
    for index, input in enumerate(inputs):
        assert isinstance(input, torch.Tensor), "Given input is not a torch.Tensor"
        grad_required.append(input.requires_grad)
        if not input.requires_grad:
            warnings.warn("Input Tensor %d did not already require gradients, "
                          "required_grads has been set automatically." % index)
            input.requires_grad_()
    return grad_required


def undo_gradient_requirements(inputs: Tuple[Tensor, ...], grad_required: List[bool]) -> None:
    for index, input in enumerate(inputs):
        if input.grad is not None:
            input.grad.detach_()
            input.grad.zero_()
        if not grad_required[index]:
            input.requires_grad_(False)


def compute_gradients(forward_fn: Callable, inputs, target_ind=None, additional_forward_args: Any = None):
    """Gradients of the selected outputs with respect to the inputs."""
    with torch.autograd.set_grad_enabled(True):
        # runs forward pass
        outputs = _run_forward(forward_fn, inputs, target_ind, additional_forward_args)
        assert outputs[0].numel() == 1, (
            "Target not provided when necessary, cannot"
            " take gradient with respect to multiple outputs."
        )
        grads = torch.autograd.grad(torch.unbind(outputs), inputs)
    return grads


class Attribution:
    def __init__(self, forward_func: Callable) -> None:
        self.forward_func = forward_func


class GradientAttribution(Attribution):
    def __init__(self, forward_func: Callable) -> None:
        Attribution.__init__(self, forward_func)
        self.gradient_func = compute_gradients


class Saliency(GradientAttribution):
    def __init__(self, forward_func: Callable) -> None:
        GradientAttribution.__init__(self, forward_func)

    def attribute(self, inputs, target=None, abs: bool = True, additional_forward_args: Any = None):
        is_inputs_tuple = _is_tuple(inputs)
        inputs = _format_input(inputs)
        gradient_mask = apply_gradient_requirements(inputs)

        gradients = self.gradient_func(self.forward_func, inputs, target, additional_forward_args)
        if abs:
            attributions = tuple(torch.abs(gradient) for gradient in gradients)
        else:
            attributions = gradients
        undo_gradient_requirements(inputs, gradient_mask)
        return _format_attributions(is_inputs_tuple, attributions)


class ImageClassifier(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3)
        self.fc = torch.nn.Linear(4 * 30 * 30, 10)

    def forward(self, x: Tensor) -> Tensor:
        return torch.softmax(self.fc(torch.relu(self.conv(x)).flatten(1)), dim=1)


if __name__ == "__main__":
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = ImageClassifier().to(device)
    input = torch.randn(2, 3, 32, 32, device=device)
    saliency = Saliency(net)
    # one class per example, given as a plain list
    attribution = saliency.attribute(input, target=[3, 5])
    print(attribution.shape)
