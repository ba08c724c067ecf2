"""TP204 follows what `torch.load` gives to the `load_state_dict` it reaches (issue 10, GaNDLF),
whatever the name it is bound to: the value bound, or an entry of it, handed to a later
`load_state_dict` in the same body before the name is bound again.  Lines count from the snippet.
"""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\n"

CASES = {
    "entry-of-the-loaded-value-reaches-load-state-dict": ("""\
        def infer(path):
            model = nn.Linear(4, 2)
            main_dict = torch.load(path)
            model.load_state_dict(main_dict["model_state_dict"])
            return model.to(device)
        """, {(3, "TP204")}),
    "loaded-value-itself-reaches-load-state-dict": ("""\
        def infer(path):
            model = nn.Linear(4, 2)
            loaded = torch.load(path)
            model.load_state_dict(loaded)
            return model.to(device)
        """, {(3, "TP204")}),
    # through helpers and returns (issue 10, detoxify): the loaded value handed to a helper of the
    # file whose parameter reaches load_state_dict, to `from_pretrained(state_dict=...)`, bound to
    # another name first, or returned to a caller that loads it
    "entry-handed-to-a-helper-that-loads-it": ("""\
        def build(state_dict):
            model = nn.Linear(4, 2)
            model.load_state_dict(state_dict)
            return model
        def infer(path):
            loaded = torch.load(path)
            return build(loaded["state_dict"]).to(device)
        """, {(6, "TP204")}),
    "entry-handed-to-from-pretrained-through-a-helper": ("""\
        def make(name, state_dict):
            cls = getattr(transformers, name)
            return cls.from_pretrained(None, state_dict=state_dict)
        def infer(path):
            loaded = torch.load(path)
            return make(loaded["config"]["arch"], state_dict=loaded["state_dict"]).to(device)
        """, {(5, "TP204")}),
    "bound-to-another-name-first": ("""\
        def infer(path):
            model = nn.Linear(4, 2)
            loaded = torch.load(path)
            sd = loaded.get("state_dict")
            model.load_state_dict(sd)
            return model.to(device)
        """, {(3, "TP204")}),
    "returned-to-a-caller-that-loads-it": ("""\
        def read(path):
            return torch.load(path)
        def infer(path):
            model = nn.Linear(4, 2)
            model.load_state_dict(read(path)["model"])
            return model.to(device)
        """, {(2, "TP204")}),
    "a-method-hands-it-to-another-method": ("""\
        class Predictor:
            def __init__(self, path):
                self.model = nn.Linear(4, 2)
                loaded = torch.load(path)
                self.restore(loaded)
                self.model.to(device)
            def restore(self, weights):
                self.model.load_state_dict(weights)
        """, {(4, "TP204")}),
    # a helper named for what it reads (`load_checkpoint`) is not a writer of the file its caller loads
    "a-loading-helper-is-no-writer": ("""\
        def load_checkpoint(checkpoint):
            loaded = torch.load(checkpoint)
            model = nn.Linear(4, 2)
            model.load_state_dict(loaded)
            return model
        class Runner:
            def __init__(self, checkpoint):
                super().__init__()
                self.model = load_checkpoint(checkpoint=checkpoint).to(device)
        """, {(2, "TP204")}),
    # twins: the helper reads the value as data, the state goes to a scheduler, the caller of the
    # returning helper never loads weights
    "helper-reads-the-value-as-data": ("""\
        def report(stats):
            print(stats["epoch"])
        def infer(path):
            loaded = torch.load(path)
            report(loaded)
        """, set()),
    "helper-hands-it-to-a-scheduler": ("""\
        def resume(scheduler, state):
            scheduler.load_state_dict(state)
        def infer(path, scheduler):
            loaded = torch.load(path)
            resume(scheduler, loaded["sched"])
        """, set()),
    "returned-to-a-caller-that-reads-data": ("""\
        def read(path):
            return torch.load(path)
        def infer(path):
            history = read(path)
            return history["losses"]
        """, set()),
    "from-pretrained-without-the-state": ("""\
        def infer(path):
            loaded = torch.load(path)
            return Model.from_pretrained(loaded["name"]).to(device)
        """, set()),
    # twins: the loaded value never reaches a load_state_dict, reaches that of a scheduler, or
    # the name holds something else by then
    "loaded-value-read-as-data": ("""\
        def infer(path):
            main_dict = torch.load(path)
            return main_dict["epoch"]
        """, set()),
    "loaded-value-reaches-a-schedulers-state": ("""\
        def resume(path, scheduler):
            main_dict = torch.load(path)
            scheduler.load_state_dict(main_dict["sched"])
        """, set()),
    "name-bound-again-before-load-state-dict": ("""\
        def infer(path, other):
            model = nn.Linear(4, 2)
            main_dict = torch.load(path)
            print(main_dict["epoch"])
            main_dict = other
            model.load_state_dict(main_dict)
            return model.to(device)
        """, set()),
    # a state dict rebuilt key by key from the loaded one (CRAFT-pytorch #16, batch b18): a helper that
    # renames the keys into a new dict, a dict comprehension over its items, dict()/OrderedDict() of it:
    # the copy holds the loaded tensors, on the devices they were saved from
    "rebuilt-by-a-renaming-helper-reaches-load-state-dict": ("""\
        from collections import OrderedDict
        def copy_state_dict(state_dict):
            new_state_dict = OrderedDict()
            for k, v in state_dict.items():
                new_state_dict[k[7:]] = v
            return new_state_dict
        def infer(path):
            net = nn.Linear(4, 2)
            net.load_state_dict(copy_state_dict(torch.load(path)))
            return net.to(device)
        """, {(9, "TP204")}),
    "rebuilt-by-a-loop-over-values-in-the-same-body": ("""\
        def infer(path):
            net = nn.Linear(4, 2)
            loaded = torch.load(path)
            kept = {}
            for name, tensor in loaded.items():
                kept[name.replace("module.", "")] = tensor
            net.load_state_dict(kept)
            return net.to(device)
        """, {(3, "TP204")}),
    "rebuilt-by-a-dict-comprehension": ("""\
        def infer(path):
            net = nn.Linear(4, 2)
            loaded = torch.load(path)
            net.load_state_dict({k.replace("module.", ""): v for k, v in loaded.items()})
            return net.to(device)
        """, {(3, "TP204")}),
    "wrapped-in-dict": ("""\
        def infer(path):
            net = nn.Linear(4, 2)
            net.load_state_dict(dict(torch.load(path)))
            return net.to(device)
        """, {(3, "TP204")}),
    # twins: the copy is not what load_state_dict takes, or the loop keeps the keys only
    "a-rebuilt-copy-that-is-not-loaded-is-silent": ("""\
        def infer(path):
            net = nn.Linear(4, 2)
            loaded = torch.load(path)
            kept = {}
            for k, v in loaded.items():
                kept[k] = v
            print(len(kept))
            return net.to(device)
        """, set()),
    "a-loop-keeping-the-keys-only-is-silent": ("""\
        def infer(path):
            net = nn.Linear(4, 2)
            loaded = torch.load(path)
            names = {}
            for k, v in loaded.items():
                names[k] = k.upper()
            net.load_state_dict(names)
            return net.to(device)
        """, set()),
    "map-location-given-to-the-rebuilt-load-is-silent": ("""\
        from collections import OrderedDict
        def copy_state_dict(state_dict):
            new_state_dict = OrderedDict()
            for k, v in state_dict.items():
                new_state_dict[k[7:]] = v
            return new_state_dict
        def infer(path):
            net = nn.Linear(4, 2)
            net.load_state_dict(copy_state_dict(torch.load(path, map_location=device)))
            return net.to(device)
        """, set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_load_flow(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
