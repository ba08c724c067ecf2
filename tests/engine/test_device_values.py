"""Device values, loaders, objects and module state (issue 10 items 2-4), construct by construct.

The first table is checked against PyTorch under a fake GPU (tests/engine/fake_gpu.py) as well as
against the engine; the second covers what the analysis derives from the program (no new claim
about PyTorch).  Lines count from the first line of the snippet.
"""

import pytest

from .snippets import assert_findings, assert_truth_row

H = "import torch\nimport torch.nn as nn\nimport numpy as np\nfrom torch.utils.data import DataLoader, Dataset\n"

# (name, code, raises on a GPU, the code the engine must report there or None)
TRUTH = [
    ("legacy-floattensor-is-cpu", "y = torch.ones(2, device='cuda') + torch.FloatTensor([1.0, 2.0])\n", True, "TP101"),
    ("cuda-is-cuda-0", "y = torch.ones(2, device='cuda:0') + torch.ones(2, device='cuda')\n", False, None),
    ("cuda-vs-cuda-1", "y = torch.ones(2, device='cuda') + torch.ones(2, device='cuda:1')\n", True, "TP101"),
    ("type-to-cpu-tensor-type", "x = torch.ones(2, device='cuda')\ny = x + x.type(torch.FloatTensor)\n", True, "TP101"),
    ("variable-keeps-the-device", "x = torch.ones(2, device='cuda')\ny = x + torch.autograd.Variable(x)\n", False, None),
    # dict.update writes entries as `d[k] = v` does
    ("dict-update-replaces-an-entry", "d = {'x': torch.zeros(2)}\nd.update({'x': torch.zeros(2, device='cuda')})\n"
     "y = d['x'] + torch.ones(2, device='cuda')\n", False, None),
    ("dict-update-keyword-replaces-an-entry", "d = {'x': torch.zeros(2)}\nd.update(x=torch.zeros(2, device='cuda'))\n"
     "y = d['x'] + torch.ones(2, device='cuda')\n", False, None),
    ("dict-update-adds-a-cpu-entry", "d = {}\nd.update(x=torch.zeros(2))\ny = d['x'] + torch.ones(2, device='cuda')\n",
     True, "TP101"),
    ("dict-update-of-a-comprehension-adds-an-entry", "d = {k: 1 for k in 'ab'}\nd.update({'x': torch.zeros(2)})\n"
     "y = d['x'] + torch.ones(2, device='cuda')\n", True, "TP101"),
]


@pytest.mark.parametrize("name,code,raises,expected", TRUTH, ids=[t[0] for t in TRUTH])
def test_device_value_semantics(name, code, raises, expected):
    assert_truth_row(name, code, raises, expected)


CASES = {
    # -- device values ----------------------------------------------------------------------
    "type-string-of-a-cuda-tensor-is-the-current-device": ("""\
        x = torch.ones(2, device="cuda:1")
        label = torch.tensor([1.0, 2.0]).type(x.type())
        y = label + x
        """, {(3, "TP101")}),  # Tensor.type('torch.cuda.FloatTensor') builds on the current device (python_variable_methods.cpp)
    "set-device-makes-the-current-index-unknown": ("""\
        torch.cuda.set_device(1)
        y = torch.ones(2, device="cuda") + torch.ones(2, device="cuda:1")
        """, set()),
    "cuda-device-context-makes-the-current-index-unknown": ("""\
        with torch.cuda.device(1):
            y = torch.ones(2, device="cuda") + torch.ones(2, device="cuda:1")
        """, set()),
    "runtime-device-string": ("""\
        def run(rank):
            device = f"cuda:{rank}"
            return torch.ones(2, device=device) + torch.ones(2)
        """, {(3, "TP101")}),
    "device-of-the-tested-tensor": ("""\
        def place(x):
            device = "cuda" if x.is_cuda else "cpu"
            return x + torch.ones(2).to(device)
        y = place(torch.ones(2))
        """, set()),
    # -- loaders and batches ------------------------------------------------------------------
    "dataset-builds-batches-on-the-gpu": ("""\
        class Clouds(Dataset):
            def __len__(self):
                return 10
            def __getitem__(self, i):
                return torch.ones(3, device="cuda"), 0
        model = nn.Linear(3, 1)
        for x, y in DataLoader(Clouds()):
            out = model(x)
        """, {(8, "TP102")}),
    "custom-collate-function": ("""\
        def collate(samples):
            return torch.stack([s for s in samples]).cuda()
        model = nn.Linear(3, 1)
        for x in DataLoader([torch.ones(3)], collate_fn=collate):
            out = model(x)
        """, {(5, "TP102")}),
    "custom-collate-object": ("""\
        class Collate:
            def __call__(self, samples):
                return torch.zeros(len(samples), 3), torch.tensor([len(s) for s in samples])
        model = nn.Linear(3, 1).cuda()
        for x, lengths in DataLoader([torch.ones(3)], collate_fn=Collate()):
            out = model(x)
        """, {(6, "TP103")}),
    "custom-collate-object-batch-moved": ("""\
        class Collate:
            def __call__(self, samples):
                return torch.stack([s for s in samples]), torch.tensor([len(s) for s in samples])
        model = nn.Linear(3, 1).cuda()
        for x, lengths in DataLoader([torch.ones(3)], collate_fn=Collate()):
            out = model(x.cuda())
            packed = nn.utils.rnn.pack_padded_sequence(out[None], lengths, batch_first=True)
        """, set()),
    "custom-collate-object-lengths-moved": ("""\
        class Collate:
            def __call__(self, samples):
                return torch.stack([s for s in samples]), torch.tensor([len(s) for s in samples])
        model = nn.Linear(3, 1).cuda()
        for x, lengths in DataLoader([torch.ones(3)], collate_fn=Collate()):
            x, lengths = x.cuda(), lengths.cuda()
            packed = nn.utils.rnn.pack_padded_sequence(model(x)[None], lengths, batch_first=True)
        """, {(7, "TP101")}),
    "next-iter-loader-is-a-cpu-batch": ("""\
        model = nn.Linear(3, 1).cuda()
        loader = DataLoader(torch.utils.data.TensorDataset(torch.ones(4, 3)))
        batch, = next(iter(loader))
        out = model(batch)
        """, {(4, "TP103")}),
    "kwargs-dict-of-a-loader": ("""\
        kwargs = {"num_workers": 1} if torch.cuda.is_available() else {}
        model = nn.Linear(3, 1).cuda()
        for x, y in DataLoader(torch.utils.data.TensorDataset(torch.ones(4, 3), torch.ones(4)), **kwargs):
            out = model(x)
        """, {(4, "TP103")}),
    "setitem-into-a-structured-batch-is-no-finding": ("""\
        def to_device(batch, device):
            features = batch["features"]
            for i in range(len(features)):
                features[i] = features[i].to(device)
            return features
        """, set()),
    # -- objects, lists, containers -----------------------------------------------------------
    "list-of-gpu-tensors-to-numpy": ("""\
        preds = []
        for _ in range(3):
            preds.append(torch.ones(2, device="cuda"))
        arr = np.concatenate(preds)
        """, {(4, "TP104")}),
    "one-gpu-item-among-unknowns-to-numpy": ("""\
        def log_row(epoch, acc):
            loss = torch.ones((), device="cuda")
            row = np.array([epoch, loss.item(), acc, loss * 100])
            means = np.mean((acc, [epoch, loss]))
            shape = np.zeros((loss.long(), epoch))
            return np.array([epoch, loss.item(), acc])
        """, {(3, "TP104"), (4, "TP104")}),
    "accumulator-of-gpu-tensors": ("""\
        total = 0
        for _ in range(3):
            total += torch.ones(2, device="cuda").sum()
        r = np.sqrt(total)
        """, {(4, "TP104")}),
    "plain-tensor-attribute-from-a-helper": ("""\
        class PE(nn.Module):
            def __init__(self):
                super().__init__()
                self.table = self.make_table()
            def make_table(self):
                return torch.from_numpy(np.zeros((4, 4))).float()
            def forward(self, x):
                return x + self.table
        """, {(4, "TP203")}),
    "module-list-members-are-modules": ("""\
        class Block(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 3)
            def forward(self, x):
                return self.fc(x) + torch.ones(3)
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.blocks = nn.ModuleList([Block(), Block()])
            def forward(self, x):
                for block in self.blocks:
                    x = block(x)
                return x
        """, {(6, "TP202")}),
    "data-parallel-runs-the-wrapped-forward": ("""\
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 3)
            def forward(self, x, h):
                return torch.cat([self.fc(x), h])
        net = nn.DataParallel(Net().to("cuda"))
        y = net(torch.ones(1, 3), torch.zeros(1, 3).numpy())
        z = net(torch.ones(1, 3), h=torch.zeros(1, 3).to("cuda"))
        """, {(9, "TP301")}),
    # -- dict.update ------------------------------------------------------------------------
    "dict-update-of-an-unknown-mapping-forgets-the-entries": ("""\
        def f(other):
            d = {"x": torch.zeros(3)}
            d["y"] = torch.zeros(3)
            d.update(other)
            return d["x"] * torch.ones(3, device="cuda") + d["y"] * torch.ones(3, device="cuda")
        """, set()),
    "dict-update-reaches-what-a-function-returns": ("""\
        def make():
            d = {"x": torch.zeros(3)}
            d.update({"x": torch.zeros(3, device="cuda")})
            return d
        def use():
            d = {"x": torch.zeros(3, device="cuda")}
            d.update(make())
            return d["x"] * torch.ones(3, device="cuda")
        y = make()["x"] * torch.ones(3, device="cuda")
        """, set()),
    "dict-update-with-a-cpu-tensor-is-read-back": ("""\
        def make():
            d = {"x": torch.zeros(3, device="cuda")}
            d.update(y=torch.zeros(3))
            return d
        y = make()["y"] * torch.ones(3, device="cuda")
        """, {(5, "TP101")}),
    "forward-reading-lengths-on-the-host": ("""\
        class Enc(nn.Module):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(10, 4)
            def forward(self, x, lengths):
                return nn.utils.rnn.pack_padded_sequence(self.emb(x), lengths.cpu())
        enc = Enc().cuda()
        out = enc(torch.ones(2, 3, dtype=torch.long, device="cuda"), torch.tensor([3, 2]))
        """, set()),
    # -- a forward that moves an item of its input itself (`batch["x"].to(...)`) ---------------------
    "forward-moving-a-field-of-a-dict-batch-gives-a-device-output": ("""\
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 2)
            def forward(self, batch):
                return self.fc(batch["x"].to(self.fc.weight.device))
        net = Net().to("cuda")
        for b in DataLoader([{"x": torch.zeros(3)}], batch_size=1):
            y = net(b) + torch.zeros(2)
        """, {(9, "TP101")}),
    "forward-reading-a-field-on-the-host-is-still-checked-at-the-call": ("""\
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 2)
            def forward(self, batch):
                n = batch["n"].cpu()
                return self.fc(batch["x"])
        net = Net().to("cuda")
        for b in DataLoader([{"x": torch.zeros(3), "n": torch.zeros(1)}], batch_size=1):
            y = net(b)
        """, {(10, "TP103")}),
    "forward-moving-one-field-and-not-another-is-reported-inside": ("""\
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(3, 2)
            def forward(self, batch):
                x = batch["x"].to(self.fc.weight.device)
                return self.fc(x) + batch["y"]
        net = Net().to("cuda")
        for b in DataLoader([{"x": torch.zeros(3), "y": torch.zeros(2)}], batch_size=1):
            y = net(b)
        """, {(7, "TP103")}),
    # -- an object of unknown kind moved with `.to()` and indexed as only a tensor can be -----------
    "moved-unknown-indexed-by-its-own-mask": ("""\
        def pick(targets, n):
            targets = targets.to("cuda")
            this = targets[targets[:, 0] == n]
            return torch.zeros(3) + this
        """, {(4, "TP101")}),
    "moved-unknown-column-slice": ("""\
        def col(x):
            y = x.to("cuda")
            return torch.zeros(3) + y[:, 0]
        """, {(3, "TP101")}),
    "moved-unknown-string-key-stays-unknown": ("""\
        def ids(batch):
            batch = batch.to("cuda")
            return torch.zeros(3) + batch["num_nodes"]
        """, set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_device_values(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)