"""Keyword arguments a torch layer's constructor gets through `**` (`nn.BCEWithLogitsLoss(**kw)`) count as
given when the dict's keys are known: a CPU `weight`/`pos_weight` handed that way is the loss's buffer, as
when written `pos_weight=w`.  biotrainer builds its loss from a table of `lambda **kwargs: nn.CrossEntropyLoss(
**kwargs, ignore_index=...)` called with `weight=class_weights` (corpus batch b25).  A dict of other keys
gives a loss without a buffer; a dict whose keys are not known says nothing.  Each snippet runs on the fake
GPU and raises exactly where a finding is expected."""
from .snippets import case_tests

H = """\
import torch
import torch.nn as nn
w = torch.rand(1)
x = torch.rand(4, device="cuda")
"""
CASES = {
    "literal-dict-spread": ("""\
    loss = nn.BCEWithLogitsLoss(**{"pos_weight": w})
    out = loss(x, x)
    """, {(2, "TP102")}),
    "named-dict-spread": ("""\
    kw = {"pos_weight": w}
    loss = nn.BCEWithLogitsLoss(**kw)
    out = loss(x, x)
    """, {(3, "TP102")}),
    "spread-beside-a-keyword": ("""\
    loss = nn.BCEWithLogitsLoss(**{"weight": w}, reduction="sum")
    out = loss(x, x)
    """, {(2, "TP102")}),
    "helper-forwards-its-kwargs": ("""\
    def make(**kwargs):
        return nn.BCEWithLogitsLoss(**kwargs)

    loss = make(pos_weight=w)
    out = loss(x, x)
    """, {(5, "TP102")}),
    "table-of-lambdas": ("""\
    LOSSES = {"bce": lambda **kwargs: nn.BCEWithLogitsLoss(**kwargs, reduction="mean")}

    def get_loss(choice, weight):
        loss = LOSSES[choice]
        return loss(pos_weight=weight)

    loss = get_loss("bce", w)
    out = loss(x, x)
    """, {(8, "TP102")}),
    "spread-of-other-keys": ("""\
    loss = nn.BCEWithLogitsLoss(**{"reduction": "sum"})
    out = loss(x, x)
    """, set()),
    "spread-weight-none": ("""\
    loss = nn.BCEWithLogitsLoss(**{"pos_weight": None})
    out = loss(x, x)
    """, set()),
    "spread-moved-weight": ("""\
    loss = nn.BCEWithLogitsLoss(**{"pos_weight": w.cuda()})
    out = loss(x, x)
    """, set()),
    "spread-of-unknown-keys": ("""\
    def build(options):
        return nn.BCEWithLogitsLoss(**options)

    loss = build({"reduction": "sum"})
    out = loss(x, x)
    """, set()),
}

test_engine, test_pytorch_agrees = case_tests(H, CASES)
