"""A module moved in place through another name than the one it is used by.

`Module.to()` / `.cuda()` move the module object, whatever name reaches it: a plain alias (`m = model`),
an attribute of an object reached through an alias (`a = h1; a.model.cuda()`), the items of a list, tuple
or dict a loop walks (`for m in [enc, dec]: m.to(device)`, `for h in [h1, h2]: h.model.cuda()`) or an
item at a subscript (`ms[0].cuda()`).  Afterwards the original names must not keep the CPU placement they
were bound with: where the analysis cannot tell which object moved they are on an unknown device (each of
these was a false TP102 error on correct code).  A deep copy is another module: moving the original leaves
the copy where it was (still reported).  A method that moves what its object holds by reflection
(`getattr(self, name).to(device)`, `for v in vars(self).values(): v.to(device)`) leaves every module the
object holds on an unknown device.  A nested function that moves its enclosing function's module
(`def setup(): model.cuda()`, then `setup()`) leaves it, and the names sharing it, on an unknown device;
so does a function of the file moving a module-level module, or a module a module-level object holds
(`def to_gpu(): h1.model.cuda()`), for its callers and for the module code after the call."""
import pytest

from .test_finding_context import loud

HEAD = """\
import copy
import torch
import torch.nn as nn


class Holder:
    def __init__(self):
        self.model = nn.Linear(4, 4)


def main():
    x = torch.ones(4).cuda()
    enc, dec = nn.Linear(4, 4), nn.Linear(4, 4)
    h1, h2 = Holder(), Holder()
{body}
"""

QUIET = {
    "module-alias": "    m = enc\n    m.cuda()\n    enc(x)",
    "object-alias": "    a = h1\n    a.model.cuda()\n    h1.model(x)",
    "objects-in-a-list": "    hs = [h1, h2]\n    for item in hs:\n        item.model.cuda()\n    h1.model(x)\n    h2.model(x)",
    "modules-in-a-list-display": "    for m in [enc, dec]:\n        m.to('cuda')\n    dec(enc(x))",
    "modules-in-a-tuple-display": "    for m in (enc, dec):\n        m.cuda()\n    dec(enc(x))",
    "dict-items": "    ms = {'enc': enc, 'dec': dec}\n    for name, m in ms.items():\n        m.cuda()\n    dec(enc(x))",
    "enumerate": "    ms = [enc, dec]\n    for i, m in enumerate(ms):\n        m.cuda()\n    dec(enc(x))",
    "list-subscript": "    ms = [enc, dec]\n    ms[0].cuda()\n    ms[1].cuda()\n    dec(enc(x))",
    # a module made of named modules moves them (they are its submodules: `seq[0] is enc`)
    "sequential-of-named-modules": "    seq = nn.Sequential(enc, dec)\n    seq.cuda()\n    dec(enc(x))",
    "module-list-of-named-modules": "    ml = nn.ModuleList([enc, dec])\n    ml.cuda()\n    dec(enc(x))",
    # (`nn.DataParallel(enc).module is enc`; the fake GPU cannot build a DataParallel)
    "data-parallel-of-a-named-module": "    dp = nn.DataParallel(enc)\n    dp.to('cuda')\n    enc(x)",
    # `eval()` / `half()` / `train()` return the module itself: the move that follows moves `enc`
    "move-chained-after-eval": "    enc.eval().requires_grad_(False).cuda()\n    enc(x)",
    "an-item-a-list-method-gave": "    todo = [enc, dec]\n    while todo:\n        todo.pop().cuda()\n    dec(enc(x))",
    "a-function-mapped-over-the-modules": "    list(map(lambda m: m.cuda(), [enc, dec]))\n    dec(enc(x))",
    "comprehension-moving-the-items": "    moved = [m.cuda() for m in (enc, dec)]\n    dec(enc(x))",
    "getattr-with-the-module-as-default": "    getattr(enc, 'module', enc).cuda()\n    enc(x)",
    "loop-over-named-children": "    seq = nn.Sequential(nn.Linear(4, 4), nn.ReLU())\n    for name, child in seq.named_children():\n"
                                "        child.cuda()\n    seq(x)",
    # a nested function moves its enclosing function's module (a closure: no parameter hands it back)
    "closure-moving-the-enclosing-module": "    def setup():\n        enc.cuda()\n    setup()\n    enc(x)",
    "closure-moving-an-alias-of-the-module": "    m = enc\n\n    def setup():\n        m.to('cuda')\n    setup()\n    enc(x)",
    "submodule-read-before-the-parent-moved": "    seq = nn.Sequential(nn.Linear(4, 4))\n    first = seq[0]\n"
                                                "    seq.cuda()\n    first(x)",
}


@pytest.mark.parametrize("name", sorted(QUIET))
def test_a_move_through_another_name_reaches_the_original(name):
    assert loud(HEAD.format(body=QUIET[name])) == set()


REPORTED = {
    "another-module-moved": ("    m = dec\n    m.cuda()\n    enc(x)", 17),
    "deep-copy-of-the-moved-module": ("    teacher = copy.deepcopy(enc)\n    enc.cuda()\n    teacher(x)", 17),
    "list-walked-without-a-move": ("    hs = [h1, h2]\n    for item in hs:\n        item.model.eval()\n    h1.model(x)", 18),
    "a-module-not-in-the-list": ("    for m in [enc]:\n        m.cuda()\n    dec(x)", 17),
    "another-module-chained": ("    dec.eval().cuda()\n    enc(x)", 16),
    "a-mapped-function-that-moves-nothing": ("    list(map(lambda m: m.eval(), [enc, dec]))\n    enc(x)", 16),
    "comprehension-that-moves-nothing": ("    names = [type(m).__name__ for m in (enc, dec)]\n    enc(x)", 16),
    "a-module-not-in-the-sequential": ("    seq = nn.Sequential(enc)\n    seq.cuda()\n    dec(x)", 17),
    "a-closure-moving-another-module": ("    def setup():\n        dec.cuda()\n    setup()\n    enc(x)", 18),
    "a-closure-defined-but-never-called": ("    def setup():\n        enc.cuda()\n    enc(x)", 17),
    "a-closure-binding-its-own-module": ("    def setup():\n        enc = nn.Linear(4, 4)\n        enc.cuda()\n"
                                         "    setup()\n    enc(x)", 19),
}


@pytest.mark.parametrize("name", sorted(REPORTED))
def test_a_module_no_move_reached_is_still_reported(name):
    body, line = REPORTED[name]
    assert loud(HEAD.format(body=body)) == {(line, "TP102")}


def test_a_project_module_made_of_a_named_module():
    # `Head(enc).to(device)` moves `head.encoder`, which is `enc`
    assert loud("""\
import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(self.encoder(x))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(4, 4)

    def forward(self, x):
        return self.backbone(x)


def main():
    enc = nn.Linear(4, 4)
    head = Head(enc)
    head.to("cuda")
    net = Net()
    backbone = net.backbone
    net.cuda()
    x = torch.ones(4).cuda()
    return enc(x) + head(x) + backbone(x)
""") == set()


def test_a_property_returning_the_held_module():
    # `r.model.cuda()` moves what the property returns: the module `r._model` holds
    assert loud("""\
import torch
import torch.nn as nn


class Runner:
    def __init__(self):
        self._model = nn.Linear(4, 4)

    @property
    def model(self):
        return self._model


def main():
    r = Runner()
    r.model.cuda()
    x = torch.ones(4).cuda()
    r._model(x)
""") == set()


TRAINER = """\
import torch
import torch.nn as nn


class Trainer:
    def __init__(self):
        self.model = nn.Linear(4, 4)
        self.ema = nn.Linear(4, 4)

    def to(self, device):
{move}
        return self


def main():
    t = Trainer()
    t.to("cuda")
    x = torch.ones(4).cuda()
    return t.model(x) + t.ema(x)
"""

REFLECTED = {
    "getattr-by-name": "        for name in ('model', 'ema'):\n            getattr(self, name).to(device)",
    "setattr-of-getattr": "        for name in ('model', 'ema'):\n            setattr(self, name, getattr(self, name).to(device))",
    "vars-values": "        for v in vars(self).values():\n            if isinstance(v, nn.Module):\n                v.to(device)",
    "dict-values": "        for v in self.__dict__.values():\n            if isinstance(v, nn.Module):\n                v.to(device)",
}


@pytest.mark.parametrize("name", sorted(REFLECTED))
def test_a_method_moving_what_the_object_holds_by_reflection(name):
    # which attribute moved is not known: every module the object holds is on an unknown device
    assert loud(TRAINER.format(move=REFLECTED[name])) == set()


def test_reflection_that_moves_nothing_is_still_reported():
    assert loud(TRAINER.format(move="        for name in ('model', 'ema'):\n            getattr(self, name).eval()")) \
        == {(20, "TP102")}


def test_a_method_returning_self_after_moving_a_nested_holders_module():
    # `self.inner.net.cuda()` in the plain class's own cuda(): `Outer().cuda()` hands back the moved net
    assert loud("""\
import torch
import torch.nn as nn


class Inner:
    def __init__(self):
        self.net = nn.Linear(4, 4)


class Outer:
    def __init__(self):
        self.inner = Inner()

    def cuda(self):
        self.inner.net.cuda()
        return self


def main():
    o = Outer().cuda()
    return o.inner.net(torch.ones(4).cuda())
""") == set()


HELPER = """\
import torch
import torch.nn as nn


def to_device(modules, device):
    for m in modules:
        m.to(device)


def to_device_star(device, *modules):
    for m in modules:
        m.to(device)


def setup():
    model.cuda()


model = nn.Linear(4, 4)
alias = model
enc, dec = nn.Linear(4, 4), nn.Linear(4, 4)
x = torch.ones(4).cuda()
{body}
"""

HELPER_QUIET = {
    "a-list-display-handed-to-a-helper": "to_device([enc, dec], 'cuda')\ny = dec(enc(x))",
    "a-named-list-handed-to-a-helper": "ms = [enc, dec]\nto_device(ms, 'cuda')\ny = dec(enc(x))",
    "star-arguments-of-a-helper": "to_device_star('cuda', enc, dec)\ny = dec(enc(x))",
    # a function of the file moves the module-level model: after a call, where it is (and `alias`) is unknown
    "a-global-moved-by-a-function": "setup()\ny = model(x)",
    "an-alias-of-a-global-moved-by-a-function": "setup()\ny = alias(x)",
}


@pytest.mark.parametrize("name", sorted(HELPER_QUIET))
def test_a_helper_that_moves_what_it_is_handed(name):
    assert loud(HELPER.format(body=HELPER_QUIET[name])) == set()


def test_a_module_the_helper_was_not_handed_is_still_reported():
    assert loud(HELPER.format(body="to_device([enc], 'cuda')\ny = dec(x)")) == {(24, "TP102")}


def test_a_global_no_call_moved_is_still_reported():
    # (the function that moves it is never called before the use)
    assert loud(HELPER.format(body="y = model(x)\nsetup()")) == {(23, "TP102")}


TRAINER_HOLDS = """\
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, device):
        self.model = model
        self.device = device

    def setup(self):
        self.model.{call}


def main():
    model = nn.Linear(4, 4)
    t = Trainer(model, torch.device("cuda"))
    t.setup()
    return model(torch.ones(4).cuda())
"""


def test_a_method_moving_the_module_it_was_handed_reaches_the_callers_name():
    # `t.setup()` moves `t.model`, which is the caller's `model`
    assert loud(TRAINER_HOLDS.format(call="to(self.device)")) == set()


def test_a_method_that_moves_nothing_leaves_the_callers_module_reported():
    assert loud(TRAINER_HOLDS.format(call="eval()")) == {(18, "TP102")}


METHOD_THROUGH_AN_ITEM = """\
import torch
import torch.nn as nn


class Holder:
    def __init__(self):
        self.model = nn.Linear(4, 4)

    def to_gpu(self):
        self.model.cuda()


def main():
    x = torch.ones(4).cuda()
    holders = {"a": Holder(), "b": Holder()}
    h = holders["a"]
    holders["a"].to_gpu()
    {use}(x)
"""


def test_a_method_called_through_a_dict_item_moves_the_object_other_names_hold():
    # `holders["a"].to_gpu()` moves `h.model`: `h` is that object (a false TP102 error, probe11 shape 3)
    assert loud(METHOD_THROUGH_AN_ITEM.replace("{use}", "h.model")) == set()


def test_a_method_called_through_a_dict_item_leaves_the_other_items():
    assert loud(METHOD_THROUGH_AN_ITEM.replace("{use}", 'holders["b"].model')) == {(18, "TP102")}


POOL = """\
import torch
import torch.nn as nn


class Pool:
    def __init__(self, models):
        self.models = models

    def cuda(self):
        for m in self.models:
            m.{method}()
        return self


def main():
    x = torch.ones(4).cuda()
    a, b = nn.Linear(4, 4), nn.Linear(4, 4)
    Pool([a, b]).cuda()
    b(a(x))
"""


def test_a_plain_objects_method_moving_the_list_it_was_handed():
    # `Pool([a, b]).cuda()` moves `a` and `b` in place (a false TP102 error, probe11 shape 2)
    assert loud(POOL.format(method="cuda")) == set()


def test_a_plain_objects_method_walking_the_list_without_a_move():
    assert loud(POOL.format(method="eval")) == {(19, "TP102")}


GLOBALS_MOVED_BY_A_FUNCTION = """\
import torch
import torch.nn as nn

enc = nn.Linear(4, 4)
dec = nn.Linear(4, 4)
MODELS = {models}


def to_gpu():
{move}


def main():
    to_gpu()
{use}


if __name__ == "__main__":
    main()
"""

_MOVE_ALL = "    for m in MODELS:\n        m.cuda()"
_ON_GPU = "    x = torch.ones(4).cuda()\n    return dec(enc(x))"

GLOBAL_MOVES_QUIET = {
    # probe11 shape 4: a function moves the items of a module-level list; `main()` calls it, then uses them
    "a-list-whose-items-a-function-moves": ("[enc, dec]", _MOVE_ALL, _ON_GPU),
    "a-dict-whose-values-a-function-moves": ('{"e": enc, "d": dec}', "    for m in MODELS.values():\n        m.cuda()", _ON_GPU),
    "a-comprehension-over-the-list": ("(enc, dec)", "    [m.cuda() for m in MODELS]", _ON_GPU),
    # a function moves a module-level dict's items by key (`nets[k] = nets[k].to(device)`), then its items are used
    "a-dict-whose-items-a-function-replaces-moved": (
        '{"e": nn.Linear(4, 4), "d": nn.Linear(4, 4)}', "    for k in MODELS:\n        MODELS[k] = MODELS[k].cuda()",
        "    x = torch.ones(4).cuda()\n    return MODELS['d'](MODELS['e'](x))"),
    "a-dict-whose-items-a-function-moves-by-key": (
        '{"e": nn.Linear(4, 4), "d": nn.Linear(4, 4)}', "    MODELS['e'].cuda()\n    MODELS['d'].cuda()",
        "    x = torch.ones(4).cuda()\n    return MODELS['d'](MODELS['e'](x))"),
    "a-dict-item-a-function-replaces-moved": (
        '{"e": nn.Linear(4, 4)}', "    MODELS['e'] = MODELS['e'].to('cuda')", "    return MODELS['e'](torch.ones(4).to('cuda'))"),
    # a function moves the module-level module itself; another function calls it, then uses the module
    "a-global-a-called-function-moves": ("[]", "    enc.cuda()\n    dec.cuda()", _ON_GPU),
}

GLOBAL_MOVES_REPORTED = {
    "a-module-not-in-the-list": ("[enc]", _MOVE_ALL, "    x = torch.ones(4).cuda()\n    return enc(x), dec(x)", 17),
    # the move reaches the caller: the module is on cuda, its input is not (true: `.cuda()` always ran)
    "a-cpu-input-after-the-called-move": ("[]", "    enc.cuda()", "    x = torch.ones(4)\n    return enc(x)", 16),
}


@pytest.mark.parametrize("name", sorted(GLOBAL_MOVES_QUIET))
def test_a_function_moving_module_level_modules_reaches_its_callers(name):
    models, move, use = GLOBAL_MOVES_QUIET[name]
    assert loud(GLOBALS_MOVED_BY_A_FUNCTION.format(models=models, move=move, use=use)) == set()


@pytest.mark.parametrize("name", sorted(GLOBAL_MOVES_REPORTED))
def test_a_function_moving_module_level_modules_leaves_the_others(name):
    models, move, use, line = GLOBAL_MOVES_REPORTED[name]
    assert loud(GLOBALS_MOVED_BY_A_FUNCTION.format(models=models, move=move, use=use)) == {(line, "TP102")}


@pytest.mark.parametrize("models, move", [("[enc, dec]", _MOVE_ALL), ("{'e': enc, 'd': dec}", "    for k in MODELS:\n        MODELS[k].cuda()")])
def test_a_module_level_call_of_a_function_moving_a_containers_items(models, move):
    source = GLOBALS_MOVED_BY_A_FUNCTION.format(models=models, move=move, use=_ON_GPU)
    source = source.replace('if __name__ == "__main__":\n    main()', "to_gpu()\ny = dec(enc(torch.ones(4).cuda()))")
    assert loud(source) == set()


HOLDERS_MOVED_BY_A_FUNCTION = """\
import torch
import torch.nn as nn


class Holder:
    def __init__(self):
        self.model = nn.Linear(4, 4)


h1, h2 = Holder(), Holder()
HOLDERS = [h1, h2]


def to_gpu():
{move}


{use}
"""

_USE_IN_MAIN = "def main():\n    to_gpu()\n    return h1.model({x})\n\n\nmain()"
_USE_AT_MODULE_LEVEL = "to_gpu()\ny = h1.model({x})"


@pytest.mark.parametrize("use", [_USE_IN_MAIN, _USE_AT_MODULE_LEVEL])
@pytest.mark.parametrize("move", ["    h1.model.cuda()", "    for h in HOLDERS:\n        h.model.cuda()"])
def test_a_function_moving_the_modules_module_level_objects_hold(move, use):
    """Lead s13's probe (a false TP102 error on correct code): a function moves the model a
    module-level object holds, directly or through a module-level list of such objects."""
    assert loud(HOLDERS_MOVED_BY_A_FUNCTION.format(move=move, use=use.format(x="torch.ones(4).cuda()"))) == set()


def test_a_cpu_input_after_a_called_function_moved_the_objects_model():
    source = HOLDERS_MOVED_BY_A_FUNCTION.format(move="    h1.model.cuda()", use=_USE_IN_MAIN.format(x="torch.ones(4)"))
    assert loud(source) == {(20, "TP102")}


def test_an_object_the_function_does_not_move_is_still_reported():
    source = HOLDERS_MOVED_BY_A_FUNCTION.format(move="    h1.model.cuda()", use=_USE_IN_MAIN.format(x="torch.ones(4).cuda()"))
    assert loud(source.replace("return h1.model(", "return h2.model(")) == {(20, "TP102")}
