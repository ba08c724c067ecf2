"""A `def` under a decorator of the project is bound to what the decorator returns, as Python binds it
(`f = deco(f)`), not to its own body.  PatchmatchNet's `@make_recursive_func def tocuda(vars)` walks the
nested dicts of a sample and moves each tensor (corpus batch b25): read as its body, `tocuda(sample)` gave
the CPU dict back and the model call was a false TP102.  A wrapper that moves or copies the result puts it
where the wrapper does; a decorator that registers and returns the function, and library decorators
(`torch.no_grad()`), leave the function as it is.  Each snippet runs on the fake GPU and raises exactly
where a finding is expected."""
from .snippets import case_tests

H = "import torch\n"
CASES = {
    "recursive-walker-moves-each-leaf": ("""\
    def make_recursive_func(func):
        def wrapper(vars):
            if isinstance(vars, list):
                return [wrapper(x) for x in vars]
            elif isinstance(vars, dict):
                return {k: wrapper(v) for k, v in vars.items()}
            else:
                return func(vars)
        return wrapper

    @make_recursive_func
    def tocuda(vars):
        if isinstance(vars, torch.Tensor):
            return vars.cuda()
        return vars

    model = torch.nn.Linear(4, 4).cuda()
    sample_cuda = tocuda({"imgs": torch.rand(2, 4)})
    out = model(sample_cuda["imgs"])
    """, set()),
    "wrapper-moves-the-result": ("""\
    def on_gpu(func):
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs).cuda()
        return wrapper

    @on_gpu
    def make(n):
        return torch.zeros(n)

    bad = torch.rand(3) + make(3)
    """, {(10, "TP101")}),
    "decorator-factory-with-a-device": ("""\
    def to(device):
        def deco(func):
            def wrapper(*args):
                return func(*args).to(device)
            return wrapper
        return deco

    @to("cuda")
    def make(n):
        return torch.zeros(n)

    bad = torch.rand(3) + make(3)
    """, {(12, "TP101")}),
    "nested-def-under-a-nested-decorator": ("""\
    def main():
        def on_cpu(func):
            def wrapper(x):
                return func(x).cpu()
            return wrapper

        @on_cpu
        def move(x):
            return x.cuda()

        y = torch.rand(3, device="cuda")
        ok = move(torch.rand(3)) + torch.rand(3)
        bad = move(torch.rand(3)) + y

    main()
    """, {(13, "TP101")}),
    "registering-decorator-returns-the-function": ("""\
    REGISTRY = {}

    def register(func):
        REGISTRY[func.__name__] = func
        return func

    @register
    def make(n):
        return torch.zeros(n, device="cuda")

    bad = torch.rand(3) + make(3)
    """, {(11, "TP101")}),
    "library-decorator-left-as-it-is": ("""\
    @torch.no_grad()
    def make(n):
        return torch.zeros(n, device="cuda")

    bad = torch.rand(3) + make(3)
    """, {(5, "TP101")}),
}

test_engine, test_pytorch_agrees = case_tests(H, CASES)
