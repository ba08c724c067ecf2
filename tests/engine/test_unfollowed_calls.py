"""A call of the project's code that the analysis does not follow (past the depth limit, recursive) may
set what the instances it gets hold: the attributes of its receiver and of the instances passed by name
are unknown afterwards, not what they were before.  A trainer whose `train_step` (four calls down from
the module's code) calls `batch.to(self.device)`, a method of the project's batch class, was reported
as feeding the CUDA model a CPU `batch.x` (a false TP102, found while reducing corpus case
sentiment_graphs); so was an object moved by a method of the object holding it.  Each snippet runs on
the fake GPU and raises exactly where a finding is expected."""
from .snippets import case_tests

H = "import torch\n"
BATCH = """\
class Chars:
    def __init__(self, vocab):
        self.vocab = vocab

    def to(self, device):
        self.vocab = self.vocab.to(device)


class Batch:
    def __init__(self, chars, x):
        self.chars = chars
        self.x = x

    def to(self, device):
        self.x = self.x.to(device)
        self.chars.to(device)


"""
TAIL = """\
emb = torch.nn.Embedding(10, 3).cuda()
b = Batch(Chars(torch.zeros(4, dtype=torch.long)), torch.zeros(4, dtype=torch.long))
f0(b)
ok = emb(b.chars.vocab)
ok2 = emb(b.x)
"""


def _chain(depth: int, last: str) -> str:
    """f0(b) -> f1(b) -> ... -> f<depth-1>(b), which runs `last`."""
    return "".join(f"def f{i}(b):\n    {f'f{i + 1}(b)' if i < depth - 1 else last}\n\n\n" for i in range(depth))


CASES = {
    "trainer-step-moves-its-batch": ("""\
    class Batch:
        def __init__(self, x):
            self.x = x

        def to(self, device):
            self.x = self.x.to(device)
            return self


    def collate(items):
        return Batch(torch.zeros(len(items), 3))


    class Trainer:
        def __init__(self, device):
            self.device = device
            self.model = torch.nn.Linear(3, 2).to(device)
            self.loader = [collate([0, 1, 2, 3]), collate([4, 5])]

        def fit(self):
            for epoch in range(2):
                self.train_epoch()

        def train_epoch(self):
            for batch in self.loader:
                self.train_step(batch)

        def train_step(self, batch):
            batch.to(self.device)
            return self.model(batch.x)


    def main():
        Trainer(torch.device("cuda")).fit()


    main()
    """, set()),
    "held-object-moved-by-the-method-at-the-limit": (BATCH + _chain(3, 'b.to("cuda")') + TAIL, set()),
    "moved-four-helpers-down": (BATCH + _chain(4, 'b.to("cuda")') + TAIL, set()),
    "moved-five-helpers-down": (BATCH + _chain(5, 'b.to("cuda")') + TAIL, set()),
    "left-on-the-cpu-one-helper-down": (BATCH + _chain(1, "b.x.sum()") + TAIL, {(26, "TP102"), (27, "TP102")}),
}

test_engine, test_pytorch_agrees = case_tests(H, CASES)
