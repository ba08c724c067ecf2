"""TP104 numpy-on-device: `.numpy()` (or `np.asarray`) on an accelerator tensor."""
import ast
from functools import partial

from ..edits import make_fix, method_suffix
from ..model import Severity
from ..rule_base import Invalid, Rule, valid
from ..rule_support import code_text, dev_text, origin_related, placed_device
from ..flow.values import Number, SeqV, TensorV


class NumpyOnDevice(Rule):
    code = "TP104"
    name = "numpy-on-device"
    severity = Severity.ERROR
    summary = ("`.numpy()`, `np.asarray`, `np.array`, a scikit-learn metric or a pyplot plot of a tensor that lives "
               "on an accelerator")
    what_it_does = ("Finds conversions to NumPy of tensors known to be on an accelerator: `.numpy()`, NumPy functions, "
                    "`sklearn.metrics` functions and `matplotlib.pyplot` plotting functions (`plt.plot(losses)`, "
                    "`plt.scatter(x, y, c=labels)`), "
                    "which read their inputs with NumPy, and stores into a NumPy array where the slot is itself an array "
                    "(`history[step] = loss` into a 2-d array; a scalar slot reads a number, which works).")
    why_bad = """
        NumPy arrays live in host memory.  `.numpy()` on a CUDA tensor raises
        `TypeError: can't convert cuda:0 device type tensor to numpy. Use
        Tensor.cpu() to copy the tensor to host memory first.`; a tensor that
        requires grad raises "Can't call numpy() on Tensor that requires grad".
    """
    when_it_reports = """
        An error: the tensor is on an accelerator on every path that reaches the conversion.
    """
    example = """
        logits = model(x.to(device))
        preds = logits.argmax(1).numpy()   # TP104
    """
    fix_doc = "Copy to the host first: `.cpu().numpy()` (`.detach().cpu().numpy()` when it requires grad)."
    fix_safety = "Safe: the values are copied to host memory unchanged."
    VALID = [
        valid("""
            import torch
            x = torch.randn(3, device="cuda")
            a = x.cpu().numpy()
            b = torch.randn(3).numpy()
        """),
        valid("""
            import sklearn
            import torch
            from sklearn.metrics import accuracy_score
            sklearn.set_config(array_api_dispatch=True)
            pred = torch.randn(3, device="cuda").argmax(0, keepdim=True)
            acc = accuracy_score(torch.zeros(1, device="cuda"), pred)
        """),
        valid("""
            import matplotlib.pyplot as plt
            import torch
            loss = torch.ones((), device="cuda")
            plt.plot([loss.item()])
            plt.axhline(loss)
        """),
    ]
    INVALID = [
        Invalid(
            """
            import torch
            device = torch.device("cuda")
            x = torch.randn(3, device=device)
            a = x.numpy()
            """,
            line=4,
            fixed="""
            import torch
            device = torch.device("cuda")
            x = torch.randn(3, device=device)
            a = x.cpu().numpy()
            """,
        ),
        Invalid(
            """
            import numpy as np
            import torch
            model = torch.nn.Linear(4, 2).cuda()
            out = model(torch.randn(1, 4, device="cuda"))
            arr = np.asarray(out)
            """,
            line=5,
            fixed="""
            import numpy as np
            import torch
            model = torch.nn.Linear(4, 2).cuda()
            out = model(torch.randn(1, 4, device="cuda"))
            arr = np.asarray(out.detach().cpu())
            """,
        ),
        Invalid(
            """
            import torch
            from sklearn import metrics
            model = torch.nn.Linear(4, 2).cuda()
            prob = model(torch.randn(8, 4, device="cuda")).softmax(1)[:, 1]
            auc = metrics.roc_auc_score(torch.zeros(8).numpy(), prob)
            """,
            line=5,
            fixed="""
            import torch
            from sklearn import metrics
            model = torch.nn.Linear(4, 2).cuda()
            prob = model(torch.randn(8, 4, device="cuda")).softmax(1)[:, 1]
            auc = metrics.roc_auc_score(torch.zeros(8).numpy(), prob.detach().cpu())
            """,
        ),
        Invalid(
            """
            import matplotlib.pyplot as plt
            import torch
            model = torch.nn.Linear(4, 1).cuda()
            out = model(torch.randn(8, 4, device="cuda")).detach()
            plt.plot(out)
            """,
            line=5,
            fixed="""
            import matplotlib.pyplot as plt
            import torch
            model = torch.nn.Linear(4, 1).cuda()
            out = model(torch.randn(8, 4, device="cuda")).detach()
            plt.plot(out.cpu())
            """,
        ),
        Invalid(
            """
            import numpy as np
            import torch
            losses = np.zeros((100, 1))
            for step in range(100):
                loss = torch.randn((), device="cuda")
                losses[step] = loss
            """,
            line=6,
            fixed="""
            import numpy as np
            import torch
            losses = np.zeros((100, 1))
            for step in range(100):
                loss = torch.randn((), device="cuda")
                losses[step] = loss.cpu()
            """,
        ),
    ]

    def on_call(self, ev, node, qual, method, recv, args, kwargs) -> None:
        if method != "numpy" and (not qual or not (node.args or node.keywords) or not qual.startswith(_CONVERTING)):
            return  # cheap test first (what `_converted_argument` asks first): this runs on every call
        on_accel, converts_accel = _checks(ev)
        if method == "numpy" and on_accel(recv):
            target = node.func.value
            tensor = recv
        elif (at := _converted_argument(ev, node, qual, args, converts_accel)) is not None \
                or (at := _converted_keyword(node, qual, kwargs, converts_accel)) is not None:
            target, value = at
            tensor = converts_accel(value)
            if not isinstance(value, TensorV):  # a list of tensors: each one is converted
                message = (f"`{code_text(ev.src, target)}` holds tensors on {dev_text(placed_device(ev, tensor.dev))}: "
                           "NumPy converts each of them, which raises; copy them to the host with `.cpu()` first")
                ev.report(self, node, message, [], None)
                return
        else:
            return
        self._report_copy(ev, node, target, tensor, "converting it to NumPy raises", "conversion")


    def on_numpy_store(self, ev, target, array, key, value, value_node) -> None:
        """`a[key] = t` where the slot is an array (a slice, or one index into an array of rank >= 2):
        NumPy converts `t` with `__array__`, which raises off the CPU.  A scalar slot reads a number
        (`float(t)`, `.item()`), which an accelerator tensor answers: not reported."""
        on_accel, _ = _checks(ev)
        if value_node is None or not on_accel(value) or not _array_slot(target.slice, key, array):
            return
        self._report_copy(ev, value_node, value_node, value,
                          f"storing it in the NumPy array `{code_text(ev.src, target.value)}` converts it, which raises",
                          "store")

    def _report_copy(self, ev, node, target, tensor, what: str, before: str) -> None:
        """Report at `node` that `target` (the accelerator `tensor`) meets NumPy (`what` happens), with the
        fix that copies it to the host first."""
        suffix = ".detach().cpu()" if tensor.grad else ".cpu()"
        where = dev_text(placed_device(ev, tensor.dev))
        message = f"`{code_text(ev.src, target)}` is on {where}: {what}; copy it to the host with `{suffix}` first"
        fix = make_fix(f"Insert `{suffix}` before the {before}", True, *method_suffix(ev.src, target, suffix))
        related = origin_related(target, tensor, f"placed on {where} here")
        ev.report(self, node, message, [related] if related else [], fix)


def _array_slot(key_node, key, array) -> bool:
    """Is `a[key]` (of the NumPy array value `array`) an array rather than one element?"""
    if isinstance(key_node, ast.Slice):
        return True
    return not isinstance(key_node, ast.Tuple) and isinstance(key, Number) and array.rank is not None and array.rank >= 2


# NumPy functions that look at an argument without converting it to an array.  The first argument of
# `zeros`/`ones`/`empty`/`full` is a shape, read item by item with `__index__` (which a 0-dim CUDA tensor
# answers), and `random.shuffle` swaps a sequence's items in place: neither calls `__array__`.
NO_CONVERSION = {"shape", "ndim", "size", "isscalar", "iterable", "result_type", "dtype", "can_cast", "save", "savez",
                 "load", "random", "seed", "errstate", "set_printoptions", "printoptions", "zeros", "ones", "empty",
                 "full", "shuffle"}


# the libraries whose functions `_converted_argument` and `_converted_keyword` read (one test per call)
_CONVERTING = ("numpy.", "matplotlib.pyplot.", "sklearn.metrics.")


def _converted_argument(ev, node, qual, args, converts_accel):
    """(node, value) of an argument on an accelerator that a NumPy function converts to an array (its
    first), a scikit-learn metric (its array-likes, positional or `y_true=`-style: sklearn reads
    them with `np.asarray` unless the file turns on its array API dispatch) or a pyplot plotting
    function (its positional data) reads."""
    if not qual or not node.args or node.args[0].__class__ is ast.Starred or len(args) != len(node.args):
        return None
    if qual.startswith("numpy."):
        if qual.rsplit(".", 1)[1] not in NO_CONVERSION and converts_accel(args[0]) is not None:
            return node.args[0], args[0]
        return None
    if qual.startswith("matplotlib.pyplot."):
        if qual.rsplit(".", 1)[1] not in PYPLOT_DATA:
            return None
        for arg, value in zip(node.args, args):
            if converts_accel(value) is not None:
                return arg, value
        return None
    if not qual.startswith("sklearn.metrics.") or qual.rsplit(".", 1)[1][:1].isupper() \
            or qual.rsplit(".", 1)[1] in SKLEARN_NOT_METRICS or "array_api_dispatch" in ev.src.text:
        return None
    for arg, value in zip(node.args, args):
        if converts_accel(value) is not None:
            return arg, value
    return None


# `matplotlib.pyplot` functions that read their positional data with NumPy (`np.atleast_1d`, `np.asanyarray`):
# each raises for a tensor off the CPU (the truth test runs them all).  Not those that read a number
# (`axhline(y)` calls float(), which a 0-dim CUDA tensor answers).
PYPLOT_DATA = frozenset({"plot", "scatter", "hist", "imshow", "bar", "barh", "errorbar", "fill_between", "semilogx",
                         "semilogy", "loglog", "step", "stem", "boxplot", "matshow", "pcolormesh", "contour", "contourf",
                         "hist2d", "stackplot"})

# The data keywords of `matplotlib.pyplot` functions, read with NumPy as their positional data is
# (`scatter(x, y, c=labels)`: `np.asanyarray(c)`): each raises for a tensor off the CPU, of any shape
# (the truth test runs them all).
PYPLOT_DATA_KEYWORDS = {
    "scatter": frozenset({"x", "y", "s", "c"}),
    "hist": frozenset({"x", "weights"}),
    "bar": frozenset({"x", "height", "width", "bottom"}),
    "barh": frozenset({"y", "width", "height", "left"}),
    "errorbar": frozenset({"x", "y", "xerr", "yerr"}),
    "fill_between": frozenset({"x", "y1", "y2", "where"}),
    "imshow": frozenset({"X"}),
}


def _converted_keyword(node, qual, kwargs, converts_accel):
    """(node, value) of a data keyword on an accelerator that a pyplot plotting function reads with
    NumPy (`plt.scatter(x, y, c=labels)`)."""
    if not qual or not node.keywords or not qual.startswith("matplotlib.pyplot."):
        return None
    names = PYPLOT_DATA_KEYWORDS.get(qual.rsplit(".", 1)[1], ())
    for keyword in node.keywords:
        if keyword.arg in names and keyword.arg in kwargs and converts_accel(kwargs[keyword.arg]) is not None:
            return keyword.value, kwargs[keyword.arg]
    return None


# `sklearn.metrics` names that are not metrics of arrays (scorers, plotting, pairwise helpers' factories).
SKLEARN_NOT_METRICS = {"make_scorer", "get_scorer", "get_scorer_names", "check_scoring"}


def _checks(ev):
    """`on_accel` and `converts_accel` bound to `ev`.  Partials of module functions, not closures: a
    closure that calls itself is a reference cycle, which keeps `ev` (the file's trees and
    environments) alive until a cyclic collection, per call."""
    return partial(_on_accel, ev), partial(_converts_accel, ev)


def _on_accel(ev, value) -> bool:
    if not isinstance(value, TensorV) or value.dev is None:
        return False
    dev = placed_device(ev, value.dev)
    return dev is not None and dev.kind == "accel"


def _converts_accel(ev, value, depth: int = 0) -> TensorV | None:
    """The tensor on an accelerator NumPy meets converting `value`: the tensor itself, or one
    a tuple/list holds (`np.concatenate(preds)`).  NumPy converts every item of a sequence
    (nested ones too) with `Tensor.__array__`, whatever the other items are, so one item
    known to be on an accelerator is enough (`np.array([epoch, loss.item(), acc])`).  A part unpacked
    from the output of an object of unknown kind (`scores, boxes = net(x.cuda())`, `net` loaded whole)
    may be a NumPy array its forward made, which NumPy takes as it is: no proof (its `.numpy()` is)."""
    if _on_accel(ev, value):
        return None if value.part and value.opaque else value
    if not isinstance(value, SeqV) or depth > 3:
        return None
    if value.items is None:
        return _converts_accel(ev, value.element(), depth + 1)
    for item in value.items:
        found = _converts_accel(ev, item, depth + 1)
        if found is not None:
            return found
    return None
