"""False findings of the s14 precision review of 22 more repositories (benchmarks/review/
false_finding_causes.md, causes O, Q, R and S), each as a regression snippet with a true twin.  Lines
count from the snippet; warnings count (assert_findings keeps information and above).  Causes O and P
have truth-table rows (tests/engine/test_truth_table.py)."""
import pytest

from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\n"
CASES = {
    # O: a parameter made of a constructor argument is where the argument is (consistency_models)
    "parameter-cloned-from-a-device-weight": ("""\
        class Head(nn.Module):
            def __init__(self, weight):
                super().__init__()
                self.weight = nn.Parameter(weight.detach().clone())

            def forward(self, x):
                return torch.nn.functional.linear(x, self.weight)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        body = nn.Linear(8, 4).to(device)
        head = Head(body.weight)
        out = head(torch.randn(2, 8, device=device))
        """, set()),
    "parameter-cloned-from-a-cpu-weight": ("""\
        class Head(nn.Module):
            def __init__(self, weight):
                super().__init__()
                self.weight = nn.Parameter(weight.detach().clone())

            def forward(self, x):
                return torch.nn.functional.linear(x, self.weight)
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        body = nn.Linear(8, 4)
        head = Head(body.weight)
        out = head(torch.randn(2, 8, device=device))
        """, {(11, "TP102")}),
    # S: layers kept in a plain list and registered one by one with `__setattr__`/`setattr` (rlkit)
    "list-of-layers-registered-by-dunder-setattr": ("""\
        class Mlp(nn.Module):
            def __init__(self, sizes):
                super().__init__()
                self.fcs = []
                for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
                    fc = nn.Linear(a, b)
                    self.__setattr__("fc{}".format(i), fc)
                    self.fcs.append(fc)

            def forward(self, x):
                for fc in self.fcs:
                    x = fc(x)
                return x
        net = Mlp([4, 8, 2]).cuda()
        net(torch.randn(3, 4, device="cuda"))
        """, set()),
    "list-of-layers-registered-by-setattr": ("""\
        class Mlp(nn.Module):
            def __init__(self, sizes):
                super().__init__()
                self.fcs = []
                for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
                    fc = nn.Linear(a, b)
                    setattr(self, "fc{}".format(i), fc)
                    self.fcs.append(fc)

            def forward(self, x):
                for fc in self.fcs:
                    x = fc(x)
                return x
        net = Mlp([4, 8, 2]).cuda()
        net(torch.randn(3, 4, device="cuda"))
        """, set()),
    "list-of-layers-registered-nowhere": ("""\
        class Mlp(nn.Module):
            def __init__(self, sizes):
                super().__init__()
                self.fcs = []
                for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
                    fc = nn.Linear(a, b)
                    self.fcs.append(fc)

            def forward(self, x):
                for fc in self.fcs:
                    x = fc(x)
                return x
        net = Mlp([4, 8, 2]).cuda()
        net(torch.randn(3, 4, device="cuda"))
        """, {(4, "TP203")}),
    # S: a tensor attribute a method of the class moves itself (DGL's SkipGramModel.set_device)
    "attribute-a-method-moves-itself": ("""\
        class SkipGram(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.emb = nn.Embedding(n, 8)
                self.device = torch.device("cpu")
                self.table = torch.sigmoid(torch.arange(-6.0, 6.0, 0.01))

            def set_device(self, gpu_id):
                self.device = torch.device("cuda:%d" % gpu_id)
                self.table = self.table.to(self.device)

            def score(self, nodes):
                s = self.emb(nodes).sum(1)
                return self.table[torch.floor((s + 6.0) / 0.01).long()]
        m = SkipGram(10).cuda()
        m.set_device(0)
        m.score(torch.arange(4, device="cuda"))
        """, set()),
    "attribute-no-method-moves": ("""\
        class SkipGram(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.emb = nn.Embedding(n, 8)
                self.device = torch.device("cpu")
                self.table = torch.sigmoid(torch.arange(-6.0, 6.0, 0.01))

            def set_device(self, gpu_id):
                self.device = torch.device("cuda:%d" % gpu_id)

            def forward(self, nodes):
                s = self.emb(nodes).sum(1)
                return self.table[torch.floor((s + 6.0) / 0.01).long()]
        m = SkipGram(10).cuda()
        m.set_device(0)
        m(torch.arange(4, device="cuda"))
        """, {(6, "TP203")}),
    # Q: the checkpoint a helper class's method writes, called in the loop above the load (DGL's EarlyStopping)
    "checkpoint-written-by-a-method-called-before": ("""\
        class EarlyStopping:
            def __init__(self):
                self.best = None

            def step(self, score, model):
                if self.best is None or score > self.best:
                    self.best = score
                    self.save_checkpoint(model)

            def save_checkpoint(self, model):
                torch.save(model.state_dict(), "es_checkpoint.pt")
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        stopper = EarlyStopping()
        for epoch in range(3):
            stopper.step(float(epoch), model)
        model.load_state_dict(torch.load("es_checkpoint.pt"))
        """, set()),
    "checkpoint-written-by-a-method-never-called-before": ("""\
        class EarlyStopping:
            def __init__(self):
                self.best = None

            def step(self, score, model):
                if self.best is None or score > self.best:
                    self.best = score
                    self.save_checkpoint(model)

            def save_checkpoint(self, model):
                torch.save(model.state_dict(), "es_checkpoint.pt")
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        model = nn.Linear(4, 2).to(device)
        model.load_state_dict(torch.load("es_checkpoint.pt"))
        stopper = EarlyStopping()
        for epoch in range(3):
            stopper.step(float(epoch), model)
        """, {(14, "TP204")}),
    # R: a plain attribute only sampled from (`torch.multinomial`), whose CPU indices index a device tensor (GATNE-T)
    "attribute-only-sampled-from": ("""\
        import math
        import torch.nn.functional as F
        class NSLoss(nn.Module):
            def __init__(self, num_nodes, num_sampled):
                super().__init__()
                self.num_sampled = num_sampled
                self.weights = nn.Parameter(torch.FloatTensor(num_nodes, 8))
                self.sample_weights = F.normalize(torch.Tensor([math.log(k + 2) for k in range(num_nodes)]), dim=0)

            def forward(self, input, embs, label):
                n = input.shape[0]
                negs = torch.multinomial(self.sample_weights, self.num_sampled * n, replacement=True).view(n, -1)
                noise = torch.neg(self.weights[negs])
                return torch.bmm(noise, embs.unsqueeze(2)).sum()
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        nsloss = NSLoss(10, 5)
        nsloss.to(device)
        """, set()),
    "attribute-sampled-from-and-combined": ("""\
        import math
        import torch.nn.functional as F
        class NSLoss(nn.Module):
            def __init__(self, num_nodes, num_sampled):
                super().__init__()
                self.num_sampled = num_sampled
                self.weights = nn.Parameter(torch.FloatTensor(num_nodes, 8))
                self.sample_weights = F.normalize(torch.Tensor([math.log(k + 2) for k in range(num_nodes)]), dim=0)

            def forward(self, input, embs, label):
                n = input.shape[0]
                negs = torch.multinomial(self.sample_weights, self.num_sampled * n, replacement=True).view(n, -1)
                noise = torch.neg(self.weights[negs]) * self.sample_weights[negs].unsqueeze(2)
                return torch.bmm(noise, embs.unsqueeze(2)).sum()
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        nsloss = NSLoss(10, 5)
        nsloss.to(device)
        """, set()),  # (TP203 at 8 is a hint: `forward` is never called, so no op is seen to fail)
}


@pytest.mark.parametrize("name", list(CASES))
def test_review14_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
