"""Library classes picked at run time, and names a library's star import binds (session s19, recall19b).

- A choice of two transformers classes of one kind (`MODEL_CLASSES[args.model_type]` over a table of
  `(XModel, XTokenizer)` pairs, `BertModel if bert else XLMModel`) is a class of that kind: its
  `from_pretrained` loads a model on the CPU, or a tokenizer whose `return_tensors="pt"` output is on the
  CPU (flow/pretrained_classes.py).  Before, the join of two different imported names was unknown, so a
  model moved to the GPU and called with the tokenizer's CPU output gave nothing (simalign).
- `from transformers import *` (a library's star import, the file's only one): a global name the file
  binds nowhere is the library's (`BertModel` is `transformers.BertModel`); before it was unknown.
  Builtins, two library star imports and names the file binds itself stay as they were.

The mismatch itself (a module whose weights are on the GPU called with CPU ids) is proven under a fake GPU
with an nn.Embedding standing for the model.
"""
import textwrap
from pathlib import Path

import pytest

from torchplace_rules import Config, check_path, check_source
from torchplace_rules.flow.pretrained_classes import joined_class
from torchplace_rules.model import Severity
from torchplace_rules.project_index import ProjectIndex

from .fake_gpu import run_on_fake_gpu


def loud(source: str) -> list:
    return [(f.span.start_line + 1, f.code) for f in check_source(source, "t.py") if f.severity <= Severity.WARNING]


def loud_in_project(tmp_path: Path, source: str, **others: str) -> list:
    for name, text in others.items():
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    path = tmp_path / "main.py"
    path.write_text(source)
    return [(f.span.start_line + 1, f.code) for f in check_path(path, Config(), project=ProjectIndex(tmp_path))
            if f.severity <= Severity.WARNING]


TABLE = """\
import sys
import torch
from transformers import BertModel, BertTokenizer, XLMModel, XLMTokenizer

MODEL_CLASSES = {"bert": (BertModel, BertTokenizer), "xlm": (XLMModel, XLMTokenizer)}


def embed(name, text):
    model_class, tokenizer_class = MODEL_CLASSES[name]
    model = model_class.from_pretrained(name).to("cuda")
    tokenizer = tokenizer_class.from_pretrained(name)
    inputs = tokenizer(text, return_tensors="pt")
    return model(**inputs)


embed(sys.argv[1], "hi")
"""

BRANCH = """\
import torch
from transformers import AutoModel, BertTokenizer, XLMTokenizer


def run(bert, text):
    model = AutoModel.from_pretrained("m").cuda()
    tokenizer_class = BertTokenizer if bert else XLMTokenizer
    tokenizer = tokenizer_class.from_pretrained("m")
    inputs = tokenizer(text, return_tensors="pt")
    return model(**inputs)
"""

MODEL_BRANCH = """\
import torch
from transformers import BertModel, XLMModel


def run(bert, ids):
    model_class = BertModel if bert else XLMModel
    model = model_class.from_pretrained("m")
    return model(ids.cuda())
"""


def test_the_mismatch_under_a_fake_gpu():
    source = """\
import torch
model = torch.nn.Embedding(10, 4)
ids = torch.ones(1, 4, dtype=torch.long)
model.to("cuda")(ids)
"""
    assert run_on_fake_gpu(source) is not None
    assert run_on_fake_gpu(source.replace('model.to("cuda")(ids)', 'model(ids.cuda())')) is not None


def test_a_table_of_model_and_tokenizer_classes_picked_by_an_unknown_key():
    assert loud(TABLE) == [(13, "TP102")]


def test_a_table_lookup_with_the_inputs_moved_gives_nothing():
    assert loud(TABLE.replace('return_tensors="pt")', 'return_tensors="pt").to("cuda")')) == []


def test_a_branch_between_two_tokenizer_classes():
    assert loud(BRANCH) == [(10, "TP102")]


def test_a_branch_between_two_model_classes():
    assert loud(MODEL_BRANCH) == [(8, "TP102")]


@pytest.mark.parametrize("other", [
    "BertModel",              # a model class is not a tokenizer class
    "mylib.XLMTokenizer",     # a tokenizer class of another package
])
def test_a_choice_of_classes_of_different_kinds_stays_unknown(other):
    source = BRANCH.replace("import torch\n", "import torch\nimport mylib\nfrom transformers import BertModel\n")
    source = source.replace("else XLMTokenizer", f"else {other}")
    assert loud(source) == []


def test_joined_class_names():
    assert joined_class("transformers.BertModel", "transformers.XLNetLMHeadModel") == "transformers.<one of>Model"
    assert joined_class("transformers.BertForMaskedLM", "transformers.models.gpt2.GPT2Model") == "transformers.<one of>Model"
    assert joined_class("transformers.BertTokenizer", "transformers.CLIPProcessor") == "transformers.<one of>Tokenizer"
    assert joined_class("transformers.<one of>Model", "transformers.BertModel") == "transformers.<one of>Model"
    assert joined_class("transformers.BertModel", "transformers.BertTokenizer") is None
    assert joined_class("transformers.BertConfig", "transformers.XLMConfig") is None
    assert joined_class("transformers.BertModel", "diffusers.UNet2DModel") is None


STAR = """\
import torch
from transformers import *


class Loader(object):
    def __init__(self, device):
        self.model = BertModel.from_pretrained("bert")
        self.model.to(device)
        self.tokenizer = BertTokenizer.from_pretrained("bert")

    def embed(self, text):
        inputs = self.tokenizer(text, return_tensors="pt")
        return self.model(**inputs)


Loader(torch.device("cuda")).embed(["a"])
"""


def test_a_name_from_a_library_star_import(tmp_path):
    assert loud_in_project(tmp_path, STAR) == [(13, "TP102")]


def test_two_library_star_imports_leave_the_name_unknown(tmp_path):
    source = STAR.replace("from transformers import *", "from transformers import *\nfrom mylib import *")
    assert loud_in_project(tmp_path, source) == []


def test_a_name_the_file_binds_itself_is_its_own(tmp_path):
    own = "\n\nclass BertModel(torch.nn.Module):\n    @classmethod\n    def from_pretrained(cls, name):\n" \
          "        return cls().cuda()\n\n\n"
    source = STAR.replace("\n\nclass Loader", own + "class Loader")
    assert loud_in_project(tmp_path, source) == []


def test_a_project_module_star_import_is_not_a_library(tmp_path):
    source = STAR.replace("from transformers import *", "from models import *")
    models = """\
        import torch


        class BertModel(torch.nn.Module):
            pass
        """
    assert loud_in_project(tmp_path, source, models=models) == []
