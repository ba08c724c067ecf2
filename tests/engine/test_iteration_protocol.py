"""A project class's iteration protocol is run as Python runs it: `for b in obj`, `enumerate(obj)`,
`zip(...)`, comprehensions, `iter(obj)` and `next(obj)` call the class's `__iter__` and the `__next__` of
the iterator it returns.  torchkge's hand-written `DataLoader(use_cuda='all')` (corpus batch b25) returns
an iterator object whose `__next__` slices CUDA index tensors; each loop step was unknown, so the CPU
table indexed with those relations was missed.  Hand-written loaders and prefetchers (a generator
`__iter__` that moves each batch, `return iter(self.batches)`, `return self`) are common in training
scripts.  Each snippet runs on the fake GPU and raises exactly where a finding is expected."""
from .snippets import case_tests

H = "import os\nimport torch\n"
LOADER = """\
class Loader:
    def __init__(self, x, gpu):
        self.x = x.cuda() if gpu else x

    def __iter__(self):
        return _Iter(self)


class _Iter:
    def __init__(self, loader):
        self.x = loader.x
        self.i = 0

    def __next__(self):
        if self.i == 2:
            raise StopIteration
        self.i += 1
        return self.x[self.i - 1]

    def __iter__(self):
        return self


"""
CASES = {
    "iterator-object-from-iter": (LOADER + """\
probs = torch.rand(3)
for i, r in enumerate(Loader(torch.rand(2, 3), True)):
    bad = probs + r
    """, {(26, "TP101")}),
    "iterator-object-on-the-cpu-twin": (LOADER + """\
probs = torch.rand(3)
for i, r in enumerate(Loader(torch.rand(2, 3), False)):
    ok = probs + r
    """, set()),
    "iterator-object-on-an-unknown-flag": (LOADER + """\
probs = torch.rand(3)
for r in Loader(torch.rand(2, 3), os.environ.get("USE_GPU") == "1"):
    maybe = probs + r
    """, set()),
    "generator-iter-moves-each-batch": ("""\
    class Prefetcher:
        def __init__(self, batches):
            self.batches = batches

        def __iter__(self):
            for x, y in self.batches:
                yield x.cuda(non_blocking=True), y.cuda(non_blocking=True)

    model = torch.nn.Linear(3, 2)
    for x, y in Prefetcher([(torch.rand(4, 3), torch.rand(4))]):
        bad = model(x)
    """, {(11, "TP102")}),
    "iter-of-a-list-held": ("""\
    class Batches:
        def __init__(self, n):
            self.items = [torch.rand(3, device="cuda") for _ in range(n)]

        def __iter__(self):
            return iter(self.items)

    probs = torch.rand(3)
    rows = [r for r in Batches(2)]
    bad = probs + rows[0]
    """, {(10, "TP101")}),
    "iter-returns-self": ("""\
    class Stream:
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            self.i = 0
            return self

        def __next__(self):
            if self.i >= self.n:
                raise StopIteration
            self.i += 1
            return torch.rand(3, device="cuda")

    probs = torch.rand(3)
    for r in Stream(2):
        bad = probs + r
    """, {(17, "TP101")}),
    "next-and-iter-by-hand": ("""\
    class Stream:
        def __iter__(self):
            return self

        def __next__(self):
            return torch.rand(3, device="cuda")

    probs = torch.rand(3)
    first = next(Stream())
    again = next(iter(Stream()))
    bad = probs + first
    """, {(11, "TP101")}),
    "zip-of-a-loader-and-a-list": (LOADER + """\
probs = torch.rand(3)
for r, w in zip(Loader(torch.rand(2, 3), True), [1.0, 2.0]):
    bad = probs + r * w
    """, {(26, "TP101")}),
}

test_engine, test_pytorch_agrees = case_tests(H, CASES)
