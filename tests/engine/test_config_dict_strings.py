"""A string item of a dict the frame holds decides an `==` test: `params["name"] == "HeMISUnet"`
where `params` is the caller's config literal `{"name": "Unet", ...}`.

ivadomed's training loop takes the multi-modal branch (a list of tensors) only for the HeMIS model;
with the tutorial's `"name": "Unet"` the branch is never taken, so the batch stays one CUDA tensor and
mix-up's CPU `torch.FloatTensor([lambda_])` meets it (corpus batch b23).  Before, the test was open
and the two branches' values (a list, a tensor) joined to unknown.  A key the dict may lack, a dict of
unknown items or one whose item a branch rebinds decides nothing."""
from .snippets import assert_findings, case_tests

H = "import torch\n"
BODY = """\
    def train(params, batch):
        {rebind}
        if params["name"] == "HeMIS":
            x = [t.cuda() for t in batch]
        else:
            x = batch.cuda()
        return x * torch.FloatTensor([0.5])

    train({params}, torch.rand(2, 3))
    """
CASES = {
    "other-model": (BODY.format(params='{"name": "Unet", "n": 1}', rebind="pass"), {(7, "TP101")}),
    "negated": (BODY.replace('== "HeMIS"', '!= "Unet"').format(params='{"name": "Unet"}', rebind="pass"),
                {(7, "TP101")}),
}
test_engine, test_pytorch_agrees = case_tests(H, CASES)


def test_item_rebound_in_a_branch():
    """An item some path rebinds holds no one string: the test stays open (engine only: the run is random)."""
    body = BODY.format(params='{"name": "Unet"}', rebind='if random.random() > 0.5: params["name"] = "HeMIS"')
    assert_findings("import random\n" + H, body, set())


def test_item_set_by_a_method_call():
    """`params.setdefault("name", ...)` / `params.update(...)` in the function: the item is not the caller's."""
    for rebind in ('params.setdefault("name", "HeMIS")', 'params.update(name="HeMIS")'):
        assert_findings(H, BODY.format(params='{"n": 1}', rebind=rebind), set())
