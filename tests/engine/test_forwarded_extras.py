"""Keyword extras a function hands on to a model of unknown kind (the s18 whole review's one false
error, Depth-Anything's `infer(model, images, **kwargs)` calling `model(images, **kwargs)`): next to a
positional input they are options that an unknown `forward(self, x, **kwargs)` may take and ignore,
so a CPU batch part among them is no evidence of a mismatch.  Without a positional input the mapping
is the input (`model(**batch)`), and a CPU tensor passed positionally is used: both stay reported."""
from .snippets import assert_findings

H = "import torch\nfrom torch.utils.data import DataLoader\n"

CODE = """\
    def infer(model, images, **kwargs):
        return CALL


    def evaluate(model, loader):
        for i, sample in enumerate(loader):
            image = sample["image"].cuda()
            infer(model, IMAGE, dataset=sample["name"], focal=sample["focal"])


    def main(config, ds):
        model = build_model(config)
        model = model.cuda()
        evaluate(model, DataLoader(ds))
"""


def test_extras_next_to_an_input_are_no_evidence():
    assert_findings(H, CODE.replace("CALL", "model(images, **kwargs)").replace("IMAGE", "image"), set())


def test_extras_as_the_whole_input_are_reported():
    assert_findings(H, CODE.replace("CALL", "model(**kwargs)").replace("IMAGE", "image"), {(2, "TP103")})


def test_a_cpu_input_next_to_extras_is_reported():
    assert_findings(H, CODE.replace("CALL", "model(images, **kwargs)").replace("IMAGE", 'sample["image"]'),
                    {(2, "TP103")})
