"""The device-flow analysis: an abstract interpreter over `ast` that knows where
tensors and modules live.  `driver.py` describes the stages; `LAYERS` lists the
modules from the top of the import graph down: each imports only modules after
it (`tests/engine/test_flow_layers.py` checks this).
"""
from __future__ import annotations

LAYERS = (
    "driver",         # runs a file: groups of functions, what the memo keeps, reporting
    "statements",     # one method per statement kind
    "decorators",     # a `def` under decorators of the project: bound to what they return
    "expressions",    # one method per expression kind; where tensors meet
    "calls",          # how a call is analysed: routes each call to one of the modules below
    "iteration_protocol",  # `for b in obj`, `next(obj)`: the `__iter__`/`__next__` of a class of the project
    "project_calls",  # the project's functions, methods, classes, forward, __call__, properties, partial
    "contexts",       # the contexts a body is analysed for; running a body for a call (through `ev`)
    "command_line",   # the numbers a parsed command line holds (`parser.parse_args()`)
    "class_model",    # what a class of the project is and registers
    "autograd_functions",  # custom torch.autograd.Function classes: forward/backward get the inputs' tensors
    "filled_containers",  # module containers a class builds empty and fills in `__init__`
    "placeholders",   # attributes `__init__` leaves None and other methods fill with CPU factories
    "instance_branches",  # an attribute one instance keeps plain where its class registers it on another branch
    "torch_methods",  # Tensor.* and nn.Module methods
    "torch_calls",    # torch.*, torch.nn.functional.*, nn layers, DataLoader, NumPy, by qualified name
    "autograd_results",  # where torch.autograd.grad's gradients and autograd.functional.hessian's result live
    "default_device",  # an accelerator made the default device; torch's draws with a CPU generator there
    "torchvision_transforms",  # torchvision's transforms: ToTensor makes CPU tensors, tensor transforms keep the device
    "distributions",  # torch.distributions: a distribution of numbers samples on the CPU
    "optimizers",     # torch.optim optimizers: where a loaded state is, and the modules whose parameters they hold
    "ranks",          # how many dimensions a tensor has (a CPU tensor that cannot be 0-dim)
    "torch_api",      # the tables of PyTorch's API both read
    "operators",      # PyTorch's operators and nn classes from the table generated from torch
    "torch_placement",  # where a module is placed by its constructor or a parameter assignment
    "cross_file",     # values of the project's other modules (summaries made by `module_summaries`)
    "class_tests",    # `cls.__bases__[0] is T`, `issubclass(cls, T)` of a class of the project handed in
    "container_values",  # sum() over a list of tensors, list + list, list.pop()
    "events",         # what rules receive
    "star_arguments",  # sequences of unknown length spread with `*` into a display or a call
    "state",          # frames, loops, joins of environments
    "values",         # abstract values
    "pretrained_classes",  # library classes with a modelled `from_pretrained`; a choice of two of one kind
    "devices",        # devices
    "frozen",         # a faster constructor for the frozen dataclasses of values and devices
)

from .driver import Analyzer, analyze  # noqa: E402

__all__ = ["Analyzer", "LAYERS", "analyze"]
