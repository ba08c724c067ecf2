"""The generated list of `torch.Tensor`'s public names (torchplace_rules/tensor_attribute_names.py, read by
foreign_attributes: a parameter whose body reads a name outside it is another object) matches the installed
torch; regenerate with `python shared_rules/tools/generate_tensor_attributes.py` and review the diff."""
from __future__ import annotations

import os
import sys

import torch

from torchplace_rules.tensor_attribute_names import TENSOR_ATTRIBUTES

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "shared_rules", "tools"))
from generate_tensor_attributes import TARGET, render  # noqa: E402


def test_checked_in_module_matches_installed_torch():
    with open(TARGET) as f:
        assert f.read() == render()


def test_the_names_are_what_a_tensor_has():
    t = torch.zeros(2, 3)
    for name in ("shape", "device", "to", "cuda", "is_cuda", "unsqueeze", "T", "grad"):
        assert name in TENSOR_ATTRIBUTES and hasattr(t, name)
    for name in ("x", "edge_index", "num_nodes", "is_inductive", "batch"):  # what other objects are read by
        assert name not in TENSOR_ATTRIBUTES and not hasattr(t, name)
