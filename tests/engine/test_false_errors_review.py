"""The false errors of the public-repository review that came from the model of PyTorch
(`benchmarks/review/false_finding_causes.md`): each real construct, re-expressed in our own code,
stays quiet at warning level and above, and a true twin of it is still reported.  Where PyTorch's
semantics were in question, a truth test runs them on a simulated GPU (FakeTensor)."""
import pytest
import torch

from .fake_gpu import run_on_fake_gpu
from .test_finding_context import loud


# -- truth: what PyTorch does --------------------------------------------------------------------

def test_basic_index_assignment_is_a_copy_across_devices():
    # `x[i, a:b] = v` with ints/slices/`...` only is `at::indexing::set_item` -> `copy_to`: a
    # `copy_` (or, for a 0-dim CPU value, `fill_`) into a view of x (ATen/TensorIndexing.h), and
    # `copy_` copies between devices.  The CPU build cannot run `__setitem__` on a fake CUDA
    # destination (it takes a CUDA device guard), so a meta destination stands in for it there.
    on_meta = torch.zeros(4, 3, device="meta")
    on_meta[1, 0:2] = torch.tensor([1.0, 2.0])
    on_meta[..., :1] = torch.ones(4, 1)
    on_meta[0] = torch.ones(3)
    assert on_meta.device.type == "meta"
    code = "import torch\nc = torch.zeros(4, 3)\nrow = torch.ones(3, device='cuda')\nc[0] = row\nc[1:3] = row\n"
    assert run_on_fake_gpu(code) is None


def test_a_0_dim_integer_index_is_read_as_a_number():
    # TensorIndexing.h: a 0-dim integral tensor index is `select(tensor.item())`, whatever its device (the
    # meta device cannot give an item: that error shows the path taken); a 1-dim one is an advanced index
    cpu = torch.zeros(2, 4)
    with pytest.raises(RuntimeError, match="item"):
        cpu[0][torch.tensor(5, device="meta") // 4]
    assert cpu[0][torch.tensor(1)].dim() == 0 and cpu[0][torch.tensor([1])].dim() == 1


def test_advanced_index_assignment_checks_the_values():
    # `x[idx] = v` with a tensor (or list) of indices is `index_put_`: values on x's device
    # (a 0-dim value excepted); CPU indices are fine.
    raised = run_on_fake_gpu("import torch\nc = torch.zeros(4, 3)\n"
                             "c[torch.tensor([0])] = torch.ones(1, 3, device='cuda')\n")
    assert raised is not None and "device" in str(raised)


def test_layers_built_with_device_hold_their_parameters_there():
    layer = torch.nn.Linear(4, 4, device="meta")
    assert {p.device.type for p in layer.parameters()} == {"meta"}


def test_tensor_subclass_to_returns_a_new_tensor():
    # the engine side: tests/engine/test_finding_context.py (cause 10)
    class Packed(torch.Tensor):
        pass

    packed = Packed(torch.zeros(3, dtype=torch.uint8))
    moved = packed.to("meta")
    assert packed.device.type == "cpu" and moved.device.type == "meta"


def test_parameter_free_modules_run_where_their_input_is():
    code = ("import torch\nimport torch.nn as nn\n"
            "pool = nn.ModuleList(nn.AvgPool1d(3) for _ in range(2))\n"
            "y = pool[0](torch.ones(1, 2, 9, device='cuda'))\n")
    assert run_on_fake_gpu(code) is None


def test_parameter_data_setter_swaps_in_the_tensor():
    # `p.data = t` is `set_data`: p takes t's TensorImpl storage (and so its device).  Module._apply
    # itself moves parameters to CUDA this way (`param.data = param_applied`, CPU and CUDA dense
    # tensors having a compatible shallow-copy type; FakeTensors are excluded there, so FakeTensorMode
    # cannot show it): the mechanism is checked on the CPU, the CUDA path by torch's own code.
    import inspect
    layer = torch.nn.Linear(2, 2)
    other = torch.randn(2, 2)
    layer.weight.data = other
    assert layer.weight.data_ptr() == other.data_ptr() and isinstance(layer.weight, torch.nn.Parameter)
    assert not torch.__future__.get_overwrite_module_params_on_conversion()
    assert "param.data = param_applied" in inspect.getsource(torch.nn.Module._apply)


def test_an_instance_forward_is_what_calling_the_module_runs():
    code = ("import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 3)\nold = model.forward\n"
            "model.forward = lambda x: old(x.cpu())\ny = model(torch.randn(2, 3).to('cuda'))\n")
    assert run_on_fake_gpu(code) is None
    assert run_on_fake_gpu(code.replace("model.forward = ", "model.old = ")) is not None


def test_a_plain_list_of_registered_attributes_moves_with_them():
    class Aliased(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.rnns = []
            self.rnn = torch.nn.GRU(2, 2)
            self.rnns.append(self.rnn)
            for _ in range(2):  # re-bound on each pass: the first GRU is held by the list only
                self.last = torch.nn.GRU(2, 2)
                self.rnns.append(self.last)

    module = Aliased().to("meta")
    assert [m.weight_hh_l0.device.type for m in module.rnns] == ["meta", "cpu", "meta"]


# -- the engine: quiet on the review's constructs, loud on their twins ---------------------------

# A collection (torchrec's embedding collections) whose `__init__` computes where its tables go:
# the analysis does not follow `device` to its layers.
# A layer wrapped by a project class (SpeechBrain's `Linear`).
WRAPPED_LINEAR = """\
        class Linear(nn.Module):
            def __init__(self, n_neurons, input_size, bias=True):
                super().__init__()
                self.w = nn.Linear(input_size, n_neurons, bias=bias)

            def forward(self, x):
                return self.w(x)

"""
# A module whose only buffer is registered when an optional argument is given (PyTorch3D).
SUBDIVIDE = """\
        class Subdivide(nn.Module):
            def __init__(self, offset=None):
                super().__init__()
                self.precomputed = False
                if offset is not None:
                    self.register_buffer("_offset", offset)
                    self.precomputed = True

            def forward(self, verts):
                return verts + self._offset if self.precomputed else verts * 2

"""
COLLECTION = """\
        class Collection(nn.Module):
            def __init__(self, tables, device=None):
                super().__init__()
                self._device = device if device is not None else torch.device("cpu")
                self.bags = nn.ModuleDict({t: nn.EmbeddingBag(10, 4, device=self._device) for t in tables})

            def forward(self, ids):
                return [bag(ids) for bag in self.bags.values()]
"""

# s13 review cause G (Coqui TTS): one-hot targets written through indices on the GPU; `{line}` is the
# indexing statement
TOKENIZER_STEP = """
        import torch
        from torch import nn


        class Tokenizer(nn.Module):
            def train_step(self, x_train, y_train):
                y_train_hot = torch.zeros(len(y_train), 10)
                {line}
                return y_train_hot.to("cuda")

            @staticmethod
            def load(path):
                return Tokenizer()


        def auto_train(path, x, y):
            model = Tokenizer.load(path)
            model.train_step(torch.tensor(x).to("cuda"), torch.tensor(y).to("cuda"))
    """


STAMP = """
    import torch
    import torch.nn as nn


    class Stamp(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Linear(3, 3)
            self.pattern = torch.ones(3)

        def forward(self, x, idx):
            out = self.w(x)
            {store}
            return out


    y = Stamp().cuda()(torch.ones(2, 3).cuda(), torch.tensor([0]).cuda())
"""

BEAM = """
        import torch


        def beam(scores, done):
            _, order = scores.topk(dim=-1, k=3)
            flags = []
            for i in range(scores.size(0)):
                for j in range(3):
                    {pick}
                    flags.append(done[i][src])
            return flags


        beam(torch.randn(2, 9, device="cuda"), torch.zeros(2, 3))
    """

ADD_BOUNDARY = """
        import torch
        import torch.nn as nn


        def add_boundary(tensor, lengths):
            out = tensor.new_zeros(tensor.size(0), tensor.size(1) + 2)
            for i, j in enumerate(lengths.cpu().numpy()):
                out[i, 1:j + 1] = {row}
            return out


        class Chars(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(5, 5)

            def forward(self, x, lengths):
                return self.lin(add_boundary(x, lengths))


        m = Chars().cuda()
        y = m(torch.ones(2, 3, device="cuda"), torch.tensor([3, 2]))
    """

QUIET = {
    # prediction-flow (corpus b11): a helper moves the items of the batch dict in place
    "batch-dict-items-moved-in-place-by-a-helper": """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader


        def to_gpu(device, batch):
            for key, tensor in batch.items():
                batch[key] = tensor.to(device)


        def fit(model, loader):
            device = torch.device("cuda:0")
            model = model.to(device)
            for index, batch in enumerate(loader):
                to_gpu(device, batch)
                out = model(batch["x"])


        if __name__ == "__main__":
            fit(nn.Linear(4, 2), DataLoader([{"x": torch.ones(4)}] * 8, batch_size=4))
    """,
    # nlp-tutorial BERT / Captum test helpers: a layer made inside `forward` of a module nothing moves
    "layer-made-in-forward-of-an-unmoved-module": """
        import torch.nn as nn


        class Net(nn.Module):
            def forward(self, x):
                return nn.LayerNorm(4)(x)
    """,
    # TabNet EmbeddingGenerator: `enumerate` over a bool attribute, each item only tested on the host
    "attribute-enumerated-and-tested-on-the-host": """
        import torch
        import torch.nn as nn


        class Embed(nn.Module):
            def __init__(self, n, cat_idxs):
                super().__init__()
                self.lin = nn.Linear(1, 2)
                self.continuous_idx = torch.ones(n, dtype=torch.bool)
                self.continuous_idx[cat_idxs] = 0

            def forward(self, x):
                cols = []
                for i, is_continuous in enumerate(self.continuous_idx):
                    if is_continuous:
                        cols.append(x[:, i].view(-1, 1))
                    else:
                        cols.append(self.lin(x[:, i:i + 1]))
                return torch.cat(cols, dim=1)


        model = Embed(4, [1]).cuda()
        y = model(torch.ones(2, 4, device="cuda"))
    """,
    # fairseq PositionalEncoding: `forward` first calls a method that re-binds the attribute on the input's device
    "attribute-re-bound-by-a-method-forward-calls-first": """
        import torch
        import torch.nn as nn


        class PositionalEncoding(nn.Module):
            def __init__(self, d_model, max_len=64):
                super().__init__()
                self.d_model = d_model
                self.pe = None
                self.extend_pe(torch.zeros(1, max_len))

            def extend_pe(self, x):
                if self.pe is not None and self.pe.size(1) >= x.size(1):
                    if self.pe.device != x.device:
                        self.pe = self.pe.to(device=x.device)
                    return
                pe = torch.zeros(x.size(1), self.d_model)
                self.pe = pe.unsqueeze(0).to(device=x.device)

            def forward(self, x):
                self.extend_pe(x)
                return x + self.pe[:, : x.size(1)]


        model = PositionalEncoding(8).cuda()
        y = model(torch.ones(2, 4, 8, device="cuda"))
    """,
    "basic-index-assignment": """
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        expected = torch.full((2, 2, 2, 3), -1, dtype=torch.int64, device=device)
        expected[0, 1, 1, 0] = torch.tensor([1])
        expected[0, 0, 1, 0:2] = torch.tensor([1, 2])
        expected[..., :1] = torch.zeros(2, 2, 2, 1, dtype=torch.int64)
    """,
    "basic-index-assignment-into-a-cpu-tensor": """
        import torch

        device = torch.device("cuda:0")
        rows = torch.rand(3, 3, device=device)
        temp = torch.zeros(3, 3)
        for f in range(3):
            t0 = rows[f]
            temp[f, 0] = t0
    """,
    "cpu-batch-indices-into-a-cuda-tensor": """
        import torch
        from torch.utils.data import DataLoader

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        mask = torch.ones(100, dtype=torch.bool, device=device)
        for perm in DataLoader(range(100), batch_size=10, shuffle=True):
            mask[perm] = 0
            mask[perm] = 1
    """,
    "device-argument-the-summary-cannot-follow": """
        import torch
        import torch.nn as nn


""" + COLLECTION + """

        def test_pooled(device):
            ebc = Collection(["t1", "t2"], device=device)
            ids = torch.tensor([[0, 1], [2, 3]]).to(device)
            pooled = ebc(ids)
    """,
    "wrapper-of-modules-built-on-the-device": """
        import torch
        import torch.nn as nn


        class Collection(nn.Module):
            def __init__(self, n, device=None):
                super().__init__()
                self._device = device or torch.device("cpu")
                self.table = nn.Embedding(n, 4, device=self._device)

            def forward(self, ids):
                return self.table(ids)


        class Remapped(nn.Module):
            def __init__(self, inner, remapper):
                super().__init__()
                self.inner, self.remapper = inner, remapper

            def forward(self, ids):
                return self.inner(self.remapper(ids))


        cuda = torch.device("cuda")
        model = Remapped(Collection(10, device=cuda), nn.Identity())
        out = model(torch.tensor([1, 2], device=cuda))
    """,
    "parameter-replaced-by-one-made-on-the-device": """
        import torch
        import torch.nn as nn


""" + WRAPPED_LINEAR + """
        def test_linear(device):
            inputs = torch.rand(1, 2, 4, device=device)
            lin_t = Linear(n_neurons=4, input_size=inputs.shape[-1], bias=False)
            lin_t.w.weight = nn.Parameter(torch.eye(inputs.shape[-1], device=device))
            outputs = lin_t(inputs)
    """,
    "container-of-parameter-free-project-modules": """
        import torch
        import torch.nn as nn


        class ROIAlign(nn.Module):
            def __init__(self, size, scale):
                super().__init__()
                self.size, self.scale = size, scale

            def forward(self, features, boxes):
                return nn.functional.adaptive_avg_pool2d(features, self.size)


        class Pooler(nn.Module):
            def __init__(self, size, scales):
                super().__init__()
                self.level_poolers = nn.ModuleList(ROIAlign(size, s) for s in scales)

            def forward(self, features, boxes):
                return self.level_poolers[0](features, boxes)


        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        features = torch.rand(2, 4, 10, 8).to(device)
        pooler = Pooler(7, [0.25, 0.125])
        out = pooler(features, [torch.rand(5, 4).to(device)])
    """,
    "container-of-classes-the-analysis-cannot-see": """
        import torch
        import torch.nn as nn
        from vision_ops import RoIPool


        class Pooler(nn.Module):
            def __init__(self, size, scales):
                super().__init__()
                self.level_poolers = nn.ModuleList(RoIPool(size, s) for s in scales)

            def forward(self, features, boxes):
                return self.level_poolers[0](features, boxes)


        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        pooler = Pooler(7, [0.25, 0.125])
        out = pooler(torch.rand(2, 4, 10, 8).to(device), [torch.rand(5, 4).to(device)])
    """,
    "buffer-registered-only-for-an-argument-not-given": """
        import torch
        import torch.nn as nn


""" + SUBDIVIDE + """
        device = torch.device("cuda:0")
        verts = torch.rand(10, 3, device=device)
        subdivide = Subdivide()
        new_verts = subdivide(verts)
    """,
    "batch-typed-with-a-conditional-cuda-type": """
        import torch
        from torch.utils.data import DataLoader

        cuda = torch.cuda.is_available()
        Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor
        for imgs, _ in DataLoader(dataset, batch_size=8):
            real = imgs.type(Tensor)
            alpha = torch.rand(real.size(0), 1, 1, 1).cuda()
            mixed = alpha * real
    """,
    "pipeline-object-called-without-tensors": """
        import numpy as np
        import torch

        device = torch.device("cuda")
        pipeline = load_pipeline("tiny-sd").to(device)
        out0 = pipeline(prompt="a squirrel", output_type="np", return_dict=False)[0]
        out1 = pipeline(prompt="a burger", output_type="np", return_dict=False)[0]
        assert not np.allclose(out0, out1)
    """,
    "module-with-weights-on-one-branch-only": """
        import torch
        import torch.nn as nn


        class Mixer(nn.Module):
            def __init__(self, method):
                super().__init__()
                self.method = method

            def forward(self, x):
                if self.method == "avg":
                    down_pool = nn.AvgPool1d(2)
                else:
                    down_pool = nn.Conv1d(4, 4, 3, padding=1)
                return down_pool(x)


        device = torch.device("cuda")
        out = Mixer("avg").to(device)(torch.rand(2, 4, 8, device=device))
    """,
    "list-of-registered-submodules": """
        import torch
        import torch.nn as nn


        class Dense(nn.Module):
            def __init__(self, filters):
                super().__init__()
                self.b1 = nn.Conv2d(filters, filters, 3, 1, 1)
                self.b2 = nn.Conv2d(2 * filters, filters, 3, 1, 1)
                self.blocks = [self.b1, self.b2]

            def forward(self, x):
                for block in self.blocks:
                    x = torch.cat([x, block(x)], 1)
                return x
    """,
    "plain-list-of-parameter-free-modules": """
        import torch.nn as nn


        class MovingAvg(nn.Module):
            def __init__(self, kernel):
                super().__init__()
                self.avg = nn.AvgPool1d(kernel, stride=1)

            def forward(self, x):
                return self.avg(x)


        class Decomp(nn.Module):
            def __init__(self, kernel):
                super().__init__()
                self.moving_avg = MovingAvg(kernel)

            def forward(self, x):
                return x - self.moving_avg(x)


        class MultiDecomp(nn.Module):
            def __init__(self, kernels):
                super().__init__()
                self.decomps = [Decomp(k) for k in kernels]

            def forward(self, x):
                return sum(d(x) for d in self.decomps) / len(self.decomps)
    """,
    # review9: Real-Time-Voice-Cloning's CBHG keeps `self._to_flatten = []` and appends `self.rnn`
    # to it, to call `flatten_parameters()` on each: the GRU is registered as `self.rnn`.
    "plain-list-filled-with-registered-attributes": """
        import torch.nn as nn


        class CBHG(nn.Module):
            def __init__(self):
                super().__init__()
                self._to_flatten = []
                self.rnn = nn.GRU(8, 4, batch_first=True, bidirectional=True)
                self._to_flatten.append(self.rnn)

            def forward(self, x):
                [m.flatten_parameters() for m in self._to_flatten]
                return self.rnn(x)[0]
    """,
    # review9: Real-Time-Voice-Cloning's WaveRNN builds a GRUCell and gives it the GRU's weights
    # through `.data =` (set_data: the parameter takes the tensor's storage and device).
    "parameter-data-swapped-in": """
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnn = nn.GRU(8, 8, batch_first=True)

            def cell(self, gru):
                c = nn.GRUCell(gru.input_size, gru.hidden_size)
                c.weight_hh.data = gru.weight_hh_l0.data
                c.weight_ih.data = gru.weight_ih_l0.data
                c.bias_hh.data = gru.bias_hh_l0.data
                c.bias_ih.data = gru.bias_ih_l0.data
                return c

            def generate(self, x):
                rnn = self.cell(self.rnn)
                return rnn(x, torch.zeros(x.size(0), 8, device=x.device))


        model = Net().cuda()
        out = model.generate(torch.randn(2, 8).cuda())
    """,
    # review9: accelerate's `add_hook_to_module` replaces `module.forward` with a wrapper whose hook
    # moves the inputs (and the weights) to the execution device.
    "instance-forward-replaced": """
        import torch
        import torch.nn as nn

        model = nn.Linear(3, 3)
        old_forward = model.forward
        model.forward = lambda x: old_forward(x.cpu())
        out = model(torch.randn(2, 3).to("cuda"))
    """,
    "forward-replaced-by-a-helper": """
        import functools
        import torch
        import torch.nn as nn


        def add_hook(module, device):
            old_forward = module.forward

            def new_forward(*args):
                return old_forward(*[a.to("cpu") for a in args]).to(device)

            module.forward = functools.update_wrapper(functools.partial(new_forward), old_forward)
            return module


        model = nn.Linear(3, 3)
        add_hook(model, "cuda")
        out = model(torch.randn(2, 3).to("cuda"))
    """,
    # review9: a helper hands the caller's module to code it cannot read (`accelerator.prepare`,
    # a hook's `init_hook`) and re-binds the name to the result.
    "module-handed-on-then-name-rebound": """
        import torch
        import torch.nn as nn


        def setup(model, accelerator):
            model = accelerator.prepare(model)
            return model


        def main(accelerator):
            model = nn.Linear(3, 3)
            setup(model, accelerator)
            return model(torch.randn(2, 3).to("cuda"))
    """,
    # a helper that re-binds its parameter to a module made without it: not the caller's module
    "parameter-rebound-to-another-module": """
        import torch
        import torch.nn as nn


        def setup(model):
            model = nn.Linear(3, 3).cuda()
            return model


        def main():
            model = nn.Linear(3, 3)
            setup(model)
            return model(torch.randn(2, 3))
    """,
    "constructor-moves-a-part-to-where-an-argument-is": """
        import torch
        import torch.nn as nn


        class Noisy(nn.Module):
            def __init__(self, link, scale):
                super().__init__()
                self.mu = nn.Linear(6, 5)
                self.mu.to(link.weight.device)

            def forward(self, x):
                return self.mu(x)


        def run(link):
            noisy = Noisy(link, 0.5)
            return noisy(torch.ones(2, 6, device="cuda"))
    """,
    "constructor-moves-a-part-to-an-argument-device": """
        import torch
        import torch.nn as nn


        class Holder(nn.Module):
            def __init__(self, where):
                super().__init__()
                self.lin = nn.Linear(6, 5)
                self.lin = self.lin.cuda(where)

            def forward(self, x):
                return self.lin(x)


        def run(dev, where):
            first = Holder(dev)
            first(torch.ones(2, 6, device="cuda"))
            second = Holder(where)
            return second(torch.ones(2, 6, device="cuda"))
    """,
    # s13 review cause G (Coqui TTS): `x[idx] = v` runs index_put_, whose make_info moves the indices to
    # x's device: CUDA indices may write into a CPU tensor (only a read checks where they are)
    "cuda-indices-written-into-a-cpu-tensor": TOKENIZER_STEP.replace(
        "{line}", "y_train_hot[range(len(y_train)), y_train] = 1"),
    # s13 review cause H (faster-rcnn gridgen): a plain attribute only written into an item of a tensor
    # `forward` makes (`copy_`, across devices) never meets the weights
    "plain-attribute-copied-into-a-batch-item": STAMP.format(store="for i in range(out.size(0)):\n                out[i] = self.pattern"),
    # lead s14 (found while testing review13's cause I): a module-call argument that `forward` hands to a
    # function of the file, which reads it only on the host (`lengths.cpu().numpy()`), never meets the weights
    "module-argument-a-file-function-reads-on-the-host": ADD_BOUNDARY.replace("{row}", "tensor[i, :j]"),
    # review14's DGL graphwriter (found at the s14 merge): a CUDA item picked by plain indices from a tensor of
    # unknown rank may be 0-dim, and a 0-dim integer index is read as a number (`.item()`): no mismatch proven
    "cuda-item-picked-by-indices-indexes-a-cpu-tensor": BEAM.replace("{pick}", "src = order[i][j] // 3"),
    # items of host numbers (`.numpy()`, `.tolist()`) index like ints: `copy_` into the item, from any device
    "plain-attribute-copied-at-host-number-indices": STAMP.format(
        store="for j in idx.cpu().numpy():\n                out[j % 2] = self.pattern"),
}

REPORTED = {
    "batch-dict-only-read-by-a-helper": ("""
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader


        def to_gpu(device, batch):
            for key, tensor in batch.items():
                print(key, tensor.to(device).shape)


        def fit(model, loader):
            device = torch.device("cuda:0")
            model = model.to(device)
            for index, batch in enumerate(loader):
                to_gpu(device, batch)
                out = model(batch["x"])


        if __name__ == "__main__":
            fit(nn.Linear(4, 2), DataLoader([{"x": torch.ones(4)}] * 8, batch_size=4))
    """, {(17, "TP103")}),
    "layer-made-in-forward-of-a-moved-module": ("""
        import torch
        import torch.nn as nn


        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(4, 4)

            def forward(self, x):
                return nn.LayerNorm(4)(self.lin(x))


        net = Net().cuda()
        y = net(torch.ones(2, 4, device="cuda"))
    """, {(12, "TP102")}),
    "attribute-rows-enumerated-meet-the-input": ("""
        import torch
        import torch.nn as nn


        class Rows(nn.Module):
            def __init__(self):
                super().__init__()
                self.lin = nn.Linear(2, 2)
                self.table = torch.ones(3, 2)

            def forward(self, x):
                out = self.lin(x)
                for i, row in enumerate(self.table):
                    out = out + row
                return out


        model = Rows().cuda()
        y = model(torch.ones(5, 2, device="cuda"))
    """, {(15, "TP101")}),  # (the failure, where it fails; TP203 at 10 is a hint: a row is no longer the attribute)
    "attribute-used-after-a-method-that-binds-another": ("""
        import torch
        import torch.nn as nn


        class PositionalEncoding(nn.Module):
            def __init__(self, d_model, max_len=64):
                super().__init__()
                self.pe = torch.zeros(1, max_len, d_model)
                self.calls = 0

            def count(self, x):
                self.calls = self.calls + x.size(0)

            def forward(self, x):
                self.count(x)
                return x + self.pe[:, : x.size(1)]


        model = PositionalEncoding(8).cuda()
        y = model(torch.ones(2, 4, 8, device="cuda"))
    """, {(9, "TP203")}),  # (a slice of the attribute is the attribute: reported once, where it is set)
    "advanced-index-assignment-of-cpu-rows": ("""
        import torch

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        expected = torch.zeros(4, 3, device=device)
        expected[torch.tensor([0, 1])] = torch.ones(2, 3)
        expected[expected > 0] = torch.ones(12)
    """, {(6, "TP101"), (7, "TP101")}),
    "cpu-batch-values-into-a-cuda-tensor": ("""
        import torch
        from torch.utils.data import DataLoader

        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        table = torch.zeros(100, 4, device=device)
        for perm, rows in DataLoader(dataset, batch_size=10):
            table[perm] = rows
    """, {(8, "TP103")}),
    "no-device-argument-passed": ("""
        import torch
        import torch.nn as nn


""" + COLLECTION + """

        device = torch.device("cuda")
        ebc = Collection(["t1", "t2"])
        pooled = ebc(torch.tensor([[0, 1], [2, 3]]).to(device))
    """, {(18, "TP102")}),
    "torch-layer-built-on-the-cpu": ("""
        import torch
        import torch.nn as nn

        device = torch.device("cuda")
        lin = nn.Linear(8, 8, device="cpu")
        out = lin(torch.randn(2, 8, device=device))
    """, {(7, "TP102")}),
    "parameters-left-on-the-cpu": ("""
        import torch
        import torch.nn as nn


""" + WRAPPED_LINEAR + """
        device = torch.device("cuda")
        inputs = torch.rand(1, 2, 4, device=device)
        lin_t = Linear(n_neurons=4, input_size=4, bias=False)
        outputs = lin_t(inputs)
    """, {(18, "TP102")}),
    "buffer-registered-for-an-argument-given": ("""
        import torch
        import torch.nn as nn


""" + SUBDIVIDE + """
        device = torch.device("cuda:0")
        verts = torch.rand(10, 3, device=device)
        subdivide = Subdivide(torch.ones(10, 3))
        new_verts = subdivide(verts)
    """, {(21, "TP102")}),
    "batch-typed-with-a-cpu-type": ("""
        import torch
        from torch.utils.data import DataLoader

        model = torch.nn.Linear(8, 2).cuda()
        for imgs, _ in DataLoader(dataset, batch_size=8):
            real = imgs.type(torch.FloatTensor)
            out = model(real)
    """, {(8, "TP102")}),
    "model-object-called-with-a-cpu-tensor": ("""
        import torch

        device = torch.device("cuda")
        model = load_model("resnet").to(device)
        out = model(torch.rand(1, 3, 8, 8))
    """, {(6, "TP102")}),
    "module-with-weights-on-every-branch": ("""
        import torch
        import torch.nn as nn


        class Mixer(nn.Module):
            def __init__(self, method):
                super().__init__()
                self.method = method

            def forward(self, x):
                if self.method == "wide":
                    down_pool = nn.Conv1d(4, 4, 5, padding=2)
                else:
                    down_pool = nn.Conv1d(4, 4, 3, padding=1)
                return down_pool(x)


        device = torch.device("cuda")
        out = Mixer("wide").to(device)(torch.rand(2, 4, 8, device=device))
    """, {(16, "TP102")}),
    "container-of-layers-with-weights": ("""
        import torch
        import torch.nn as nn


        class Heads(nn.Module):
            def __init__(self, scales):
                super().__init__()
                self.heads = nn.ModuleList(nn.Linear(8, 8) for s in scales)

            def forward(self, x):
                return self.heads[0](x)


        device = torch.device("cuda")
        heads = Heads([0.25, 0.125])
        out = heads(torch.rand(2, 8).to(device))
    """, {(17, "TP102")}),
    "plain-list-of-layers-with-weights": ("""
        import torch.nn as nn


        class Heads(nn.Module):
            def __init__(self, n):
                super().__init__()
                self.heads = [nn.Linear(4, 4) for _ in range(n)]

            def forward(self, x):
                return [h(x) for h in self.heads]
    """, {(8, "TP203")}),
    "plain-list-filled-in-a-loop-or-with-new-layers": ("""
        import torch.nn as nn


        class Stack(nn.Module):
            def __init__(self):
                super().__init__()
                self.rnns = []
                for _ in range(3):
                    self.rnn = nn.GRU(8, 8, batch_first=True)
                    self.rnns.append(self.rnn)

            def forward(self, x):
                for m in self.rnns:
                    x = m(x)[0]
                return x


        class Layers(nn.Module):
            def __init__(self):
                super().__init__()
                self.layers = []
                self.layers.append(nn.Linear(8, 8))

            def forward(self, x):
                return self.layers[0](x)
    """, {(8, "TP203"), (22, "TP203")}),
    "parameter-data-swapped-on-the-cpu": ("""
        import torch
        import torch.nn as nn

        c = nn.Linear(8, 8)
        c.weight.data = torch.randn(8, 8)
        out = c(torch.randn(2, 8, device="cuda"))
    """, {(7, "TP102")}),
    "other-attribute-set-or-other-forward-replaced": ("""
        import torch
        import torch.nn as nn

        model = nn.Linear(3, 3)
        helper = nn.Linear(3, 3)
        model.old_forward = model.forward
        helper.forward = lambda x: x
        out = model(torch.randn(2, 3).to("cuda"))
    """, {(9, "TP102")}),
    "module-read-then-name-rebound": ("""
        import torch
        import torch.nn as nn


        def setup(model, log):
            log("setup")
            model = log(model.weight.shape)
            return model


        def main(log):
            model = nn.Linear(3, 3)
            setup(model, log)
            return model(torch.randn(2, 3).to("cuda"))
    """, {(15, "TP102")}),
    "parameter-default-under-a-none-test-then-moved": ("""
        import torch
        import torch.nn as nn


        def setup(model, device):
            if model is None:
                model = nn.Linear(3, 3)
            model = model.to(device)
            return model


        def main():
            model = nn.Linear(3, 3)
            setup(model, torch.device("cuda"))
            return model(torch.randn(2, 3))
    """, {(16, "TP102")}),
    "constructor-moves-no-part-or-to-a-literal": ("""
        import torch
        import torch.nn as nn


        class Holder(nn.Module):
            def __init__(self, where):
                super().__init__()
                self.lin = nn.Linear(6, 5)
                self.lin.to("cpu")
                self.lin.to(where.dtype)

            def forward(self, x):
                return self.lin(x)


        class Plain(nn.Module):
            def __init__(self, where):
                super().__init__()
                self.lin = nn.Linear(6, 5)

            def forward(self, x):
                return self.lin(x)


        def run(where):
            Holder(where)(torch.ones(2, 6, device="cuda"))
            return Plain(where)(torch.ones(2, 6, device="cuda"))
    """, {(27, "TP102"), (28, "TP102")}),
    "cuda-indices-read-from-a-cpu-tensor": (TOKENIZER_STEP.replace(
        "{line}", "picked = y_train_hot[range(len(y_train)), y_train]"), {(9, "TP101")}),
    # a tensor index is `index_put_`: the values must be on the tensor's device
    "plain-attribute-written-at-a-tensor-index": (STAMP.format(store="out[idx] = self.pattern"), {(10, "TP203")}),
    # a row of a 2-D CUDA index tensor is 1-D: indexing a CPU tensor with it raises
    "cuda-row-picked-from-a-2d-index-indexes-a-cpu-tensor": (BEAM.replace("{pick}", "src = order[:, 1:][i]"),
                                                              {(11, "TP101")}),
    "module-argument-a-file-function-puts-on-the-device": (
        ADD_BOUNDARY.replace("{row}", "tensor[i, :j]").replace("lengths.cpu().numpy()", "lengths * tensor[:, 0]"),
        {(23, "TP102")}),
}


@pytest.mark.parametrize("name", sorted(QUIET) + sorted(REPORTED))
def test_review_construct_is_quiet_and_its_twin_reported(name):
    source, expected = REPORTED[name] if name in REPORTED else (QUIET[name], set())
    assert loud(source, "test_snippet.py" if "def test_" in source else "snippet.py") == expected


# -- `.to(name)` where the name comes from a module the analysis did not read -----------------------

UNREAD_DEVICE = """\
import torch
from torch import nn
from constants import DEVICE

model = nn.Linear(2, 2){move}
x = torch.zeros(2, device="cuda")
out = model(x)
y = torch.ones(2){move_y}
z = y + x
"""


def test_to_takes_a_device_a_dtype_or_a_tensor_first_and_no_torch_or_numpy_name_is_a_device():
    # The model behind `_opaque_name`: aten::to's first argument after self is a Device, a
    # ScalarType or a Tensor (the keyword-only overload aside), and no module-level name of torch
    # or NumPy is a torch.device, so such a name given to `.to()` is a dtype (or an error).
    import numpy

    firsts = set()
    for schema in torch._C._jit_get_schemas_for_operator("aten::to"):
        positional = [a for a in schema.arguments[1:] if not a.kwarg_only]
        if positional:
            firsts.add(positional[0].name)
    assert firsts == {"device", "dtype", "other", "non_blocking"}  # (`x.to(True)`: prim_other's flag)
    for module in (torch, numpy):
        assert not [n for n in dir(module) if isinstance(getattr(module, n, None), torch.device)]
    assert torch.zeros(2).to(torch.float16).device.type == "cpu"


def test_to_a_name_from_an_unread_module_moves_to_an_unknown_device():
    """`from constants import DEVICE` (a project module outside the checked file, or read only as far
    as summaries go): DEVICE may well be "cuda", so `.to(DEVICE)` is no proof that the module or the
    tensor stayed on the CPU (corpus: sa_convlstm_valid_next_iter_moved/trainer.py checked alone)."""
    assert loud(UNREAD_DEVICE.format(move=".to(DEVICE)", move_y=".to(DEVICE)")) == set()


def test_without_the_move_the_mismatches_are_still_reported():
    assert loud(UNREAD_DEVICE.format(move="", move_y="")) >= {(7, "TP102"), (9, "TP101")}


def test_a_torch_dtype_name_is_not_a_move():
    code = UNREAD_DEVICE.replace("from constants import DEVICE", "from torch import float16 as DEVICE")
    assert (7, "TP102") in loud(code.format(move=".to(DEVICE)", move_y=""))


# -- a device test narrows the device it tests (DINOv2 dinov2/eval/log_regression.py:142) ---------

def test_device_tests_say_where_the_device_is():
    # `device == "cpu"` is true for the string alone (a torch.device never equals a str) and
    # `device == "cuda"` is false for "cuda:1": only their true sides say where the device is;
    # `.type` and `torch.device(...)` compare exactly.  On a (fake) GPU, `is_cuda`, `is_cpu` and
    # `.device` say where a tensor is (the `.numpy()` rule itself: TP104's own tests).
    assert torch.device("cpu") != "cpu" and torch.device("cuda:1") != "cuda" and "cpu" == "cpu"
    assert torch.device("cpu") == torch.device("cpu") and torch.device("cpu").type == "cpu"
    assert str(torch.device("cpu")) == "cpu" and str(torch.device("cuda:1")) != "cuda"
    assert run_on_fake_gpu("import torch\nt = torch.zeros(3, device='cuda')\n"
                           "assert t.is_cuda and not t.is_cpu and t.device.type == 'cuda'\n"
                           "assert t.device == torch.device('cuda', 0) and t.device != torch.device('cpu')\n"
                           "c = torch.zeros(3)\nassert c.is_cpu and not c.is_cuda and c.device == torch.device('cpu')\n") is None


DEVICE_TEST = """
    import torch
    CPU = torch.device("cpu")


    def fit(feats, device):
        feats = feats.to(device)
        {test}
            feats = feats.numpy()
        return feats
"""

# each test, then whether the `.numpy()` under it runs on the CPU (quiet) or on the accelerator
DEVICE_TESTS = {
    'if device == "cpu":': "quiet",
    'if "cpu" == device:': "quiet",
    'if device.type == "cpu":': "quiet",
    'if device == torch.device("cpu"):': "quiet",
    'if str(device) == "cpu":': "quiet",
    'if device == CPU:': "quiet",
    'if not feats.is_cuda:': "quiet",
    'if feats.is_cpu:': "quiet",
    'if feats.device.type == "cpu":': "quiet",
    'if feats.device == torch.device("cpu"):': "quiet",
    'if not device.type == "cuda":': "quiet",
    'if device != "cpu":\n            pass\n        else:': "quiet",
    'if device != CPU:\n            pass\n        else:': "quiet",
    'if device.type != "cpu":\n            pass\n        else:': "quiet",
    'if feats.is_cuda:\n            pass\n        else:': "quiet",
    # the other side of each test: on the accelerator (or unknown, which stays as it was)
    'if device != "cpu":': "reported",
    'if device.type != "cpu":': "reported",
    'if device != CPU:': "reported",
    'if device == "cuda":': "reported",
    'if feats.is_cuda:': "reported",
    'if not feats.is_cpu:': "reported",
    'if device == "cpu":\n            pass\n        else:': "reported",
}


@pytest.mark.parametrize("test", sorted(DEVICE_TESTS))
def test_a_device_test_narrows_the_device_in_its_branch(test):
    expected = set() if DEVICE_TESTS[test] == "quiet" else {(9 + test.count("\n"), "TP104")}
    assert loud(DEVICE_TEST.format(test=test)) == expected


def test_after_a_device_test_the_device_is_what_it_was():
    # both branches go on: after the `if`, `feats` is on the accelerator again
    source = DEVICE_TEST.format(test='if device == "cpu":').replace("return feats", "return feats.numpy()")
    assert loud(source) == {(10, "TP104")}


def test_where_only_the_cpu_branch_goes_on_the_rest_is_on_the_cpu():
    source = """
        import torch


        def fit(feats, device):
            feats = feats.to(device)
            if device != "cpu":
                return feats
            return feats.numpy()
    """
    assert loud(source) == set()
    assert loud(source.replace("return feats\n", "pass\n")) == {(9, "TP104")}


def test_a_cuda_test_puts_a_tensor_of_unknown_device_on_the_accelerator():
    source = """
        import torch


        def fit(flag):
            x = torch.zeros(3) if flag else torch.zeros(3).cuda()
            if x.is_cuda:
                return x.numpy()
            return x.numpy()
    """
    assert loud(source) == {(8, "TP104")}
    assert loud(source.replace("if x.is_cuda:", 'if x.device.type == "cuda":')) == {(8, "TP104")}


def test_a_device_test_in_a_module_method_on_an_attribute():
    # the DINOv2 construct: `self.device == _CPU_DEVICE`, the tensors moved with `device=self.device`
    source = """
        import torch
        import torch.nn as nn

        _CPU_DEVICE = torch.device("cpu")


        class LogReg:
            def __init__(self, device):
                self.device = device

            def fit(self, train_features, train_labels):
                train_features = train_features.to(dtype=torch.float64, device=self.device)
                train_labels = train_labels.to(dtype=torch.float64, device=self.device)
                if self.device == _CPU_DEVICE:
                    train_features = train_features.numpy()
                    train_labels = train_labels.numpy()
                return train_features


        LogReg(torch.device("cuda")).fit(torch.zeros(3), torch.zeros(3))
    """
    assert loud(source) == set()
    assert loud(source.replace("self.device == _CPU_DEVICE", "self.device != _CPU_DEVICE")) == {(16, "TP104"), (17, "TP104")}


def test_a_cuda_test_of_a_value_the_analysis_does_not_know_leaves_the_branch_as_it_was():
    # `if trg.is_cuda: np_mask.cuda()` (corpus samlynn_transformer_nopeak_mask_cuda_discarded):
    # trg is no value the analysis knows; the branch is still analysed
    source = """
        import torch


        def masks(trg):
            np_mask = torch.zeros(3)
            if trg.is_cuda:
                np_mask.cuda()
            return np_mask
    """
    assert loud(source) == {(8, "TP201")}
