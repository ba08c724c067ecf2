"""`parser.parse_args()`: the numbers a parsed command line holds.

An option declared with `type=int` or `type=float` and a number for its default (or `required=True`)
is a number in the namespace `parse_args()` returns, whatever the user types (`--gpu 1`): so
`torch.device(args.gpu)` and `model.cuda(args.gpu)` are CUDA devices whose index the program chooses
at run time.  `nargs="+"`/`"*"` options with such a type are lists of numbers (`args.gpu_ids[0]`).
Other options are left to what any config object's attribute is read as (`args.device`).  The
declarations are read from the function (or module body) that calls `parse_args()`, all parsers,
groups and subparsers alike (they fill one namespace).
"""
from __future__ import annotations

import ast

from .class_model import NAMESPACE_INFO
from .values import NUMBER, ObjectV, SeqV, Value
from ..syntax_nodes import own_nodes

_NUMBER_TYPES = frozenset({"int", "float"})


def parsed_namespace(scope: ast.AST, node: ast.Call) -> Value:
    """The namespace `node` (a `parse_args()` call in `scope`) returns: its numeric options (kept on
    the scope's node)."""
    attrs = scope.__dict__.get("_tp_numeric_options")
    if attrs is None:
        found, flags = {}, {}
        for call in own_nodes(scope):
            if call.__class__ is ast.Call and call.func.__class__ is ast.Attribute and call.func.attr == "add_argument":
                option = _numeric_option(call)
                if option is not None:
                    found[option[0]] = option[1]
                flag = _flag_default(call)
                if flag is not None:  # (an option declared twice with different defaults: not known)
                    flags[flag[0]] = flag[1] if flags.get(flag[0], flag[1]) == flag[1] else None
        attrs = scope._tp_numeric_options = tuple(sorted(found.items()))
        scope._tp_flag_defaults = flags
    node._tp_flag_defaults = scope._tp_flag_defaults
    return ObjectV(NAMESPACE_INFO, id(NAMESPACE_INFO.node), attrs, node)


def flag_default(namespace: Value, name: str):
    """What the boolean option `name` of a parsed command line holds when the command line does not
    give it (`--no-cuda` with `action="store_true"`: False); None when not known.  Kept apart from the
    namespace's attributes: a test of the option itself stays undecided (the user may give it)."""
    if namespace.__class__ is not ObjectV or namespace.info is not NAMESPACE_INFO or namespace.at is None:
        return None
    return namespace.at.__dict__.get("_tp_flag_defaults", {}).get(name)


def _flag_default(call: ast.Call):
    """(dest, default) of a boolean option: `action="store_true"` (False unless `default=` says),
    `action="store_false"` (True), or any option whose `default=` is True or False (`type=bool`,
    `type=str2bool`): argparse leaves the default as it is when the option is not given."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    action, default = keywords.get("action"), keywords.get("default")
    if default is not None:
        if not (isinstance(default, ast.Constant) and default.value.__class__ is bool):
            return None
        value = default.value
    elif isinstance(action, ast.Constant) and action.value in ("store_true", "store_false"):
        value = action.value == "store_false"
    else:
        return None
    if action is not None and not (isinstance(action, ast.Constant) and action.value in ("store_true", "store_false", "store")):
        return None  # (a custom action may store anything)
    dest = _dest(call, keywords)
    return None if dest is None else (dest, value)


def _numeric_option(call: ast.Call):
    """(dest, value) of `add_argument("--gpu", type=int, default=0)`; None for any other option."""
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    kind = keywords.get("type")
    if not (isinstance(kind, ast.Name) and kind.id in _NUMBER_TYPES) or "action" in keywords:
        return None
    nargs = keywords.get("nargs")
    many = isinstance(nargs, ast.Constant) and nargs.value in ("+", "*")
    if nargs is not None and not many:
        return None
    default, required = keywords.get("default"), keywords.get("required")
    defaults = default.elts if many and isinstance(default, (ast.List, ast.Tuple)) else [default]
    numeric_default = default is not None and all(
        isinstance(d, ast.Constant) and type(d.value) in (int, float) for d in defaults)
    if not numeric_default and not (isinstance(required, ast.Constant) and required.value is True):
        return None
    dest = _dest(call, keywords)
    if dest is None:
        return None
    return dest, SeqV(None, NUMBER) if many else NUMBER


def _dest(call: ast.Call, keywords: dict):
    """The attribute argparse stores the option under: `dest=`, the first long option, else the first
    short one (`-gpu` -> `gpu`), dashes made underscores; a positional's name."""
    dest = keywords.get("dest")
    if dest is not None:
        return dest.value if isinstance(dest, ast.Constant) and isinstance(dest.value, str) else None
    flags = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if not flags or len(flags) != len(call.args):
        return None
    long = next((f for f in flags if f.startswith("--")), None)
    chosen = long if long is not None else flags[0]
    name = chosen.lstrip("-").replace("-", "_")
    return name if name.isidentifier() else None
