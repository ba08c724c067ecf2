"""TP202's fix names only what is in scope where the CPU tensor is made (lead, session s20).

A module method may combine a tensor that another function made: a helper method (`self._mask(n)`)
or a caller feeding the module (`sample` running `self.forward(torch.zeros(...))`, whose CPU tensor
reaches a submodule's `forward`).  The finding names the function that made it; a fix that inserted
`device=<operand>.device` there would name a variable of the combining method (NameError) or a
parameter that is no tensor (`n.device` of an int): none is offered.  Where the factory and the
combination share a function, the fix stays.  nflows' `MixtureOfGaussiansMADE.sample` had both
flaws (message `forward`, a "safe" fix `device=x.device` in a method without `x`)."""
import textwrap

from torchplace_rules import Config, check_source

TP202 = Config(select=frozenset({"TP202"}))


def tp202(source: str):
    return [(f.span.start_line + 1, f.message, f.fix) for f in check_source(textwrap.dedent(source), "m.py", TP202)]


HELPER = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def _mask(self, n):
            return torch.ones(n, 4)

        def forward(self, x):
            return self.fc(x) * self._mask(x.shape[0])


    model = Net().cuda()
"""

CALLER_FEEDS_SUBMODULE = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class Masked(nn.Linear):
        def __init__(self, features, mask):
            super().__init__(features, features)
            self.register_buffer("mask", mask)

        def forward(self, x):
            return F.linear(x, self.weight * self.mask, self.bias)


    class Made(nn.Module):
        def __init__(self, features, mask):
            super().__init__()
            self.layer = Masked(features, mask)

        def forward(self, inputs, context=None):
            return self.layer(inputs)


    class SampledMade(Made):
        def __init__(self, features, mask):
            super().__init__(features, mask)
            self.features = features

        def sample(self, num_samples, context=None):
            with torch.no_grad():
                samples = torch.zeros(context.shape[0], self.features)
                for feature in range(self.features):
                    samples = self.forward(samples, context)
            return samples
"""

SAME_FUNCTION = """
    import torch
    import torch.nn as nn


    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x):
            mask = torch.ones(x.shape[0], 4)
            return self.fc(x) * mask


    model = Net().cuda()
"""


def test_a_helper_methods_factory_is_named_and_gets_no_fix():
    [(line, message, fix)] = tp202(HELPER)
    assert line == 12 and "inside `_mask`" in message and fix is None


def test_a_callers_factory_that_reaches_a_submodule_is_named_and_gets_no_fix():
    [(line, message, fix)] = tp202(CALLER_FEEDS_SUBMODULE)
    assert line == 32 and "inside `sample`" in message and fix is None


def test_the_fix_stays_where_the_factory_and_the_combination_share_a_function():
    [(line, message, fix)] = tp202(SAME_FUNCTION)
    assert line == 12 and "inside `forward`" in message
    assert fix is not None and fix.edits[0].new_text == ", device=x.device"
