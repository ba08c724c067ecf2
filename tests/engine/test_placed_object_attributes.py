"""`.device` of what an object moved with `.to(device)` holds is that device.

An object of a kind the analysis cannot see (a torch_geometric `Data`, a HuggingFace `BatchEncoding`,
a project's batch class it does not resolve), returned by `.to(device)`, is on that device (PlacedV);
the tensors it holds moved with it, so `data.x.device` is the device as `data.device` is.  Code that
sizes its tensors on it (`torch.zeros(n, device=data.x.device)`) makes them there (DIDgen's
`start_from(dataset[i].to(device), config)`, which builds the graph on `data.x.device`, corpus batch
b23).  An object never moved says nothing, nor does another attribute of a placed object."""
import pytest

from .snippets import assert_findings, assert_pytorch_agrees

H = "import torch\nfrom torch_geometric.data import Data\n"
STUB = """\
import torch
class Data:
    def __init__(self, x):
        self.x = x
    def to(self, device):
        return Data(self.x.to(device))
"""
BODY = """\
    def start_from(data):
        made = torch.zeros(5, device=data.x.device)
        return made * torch.rand(5)

    def run(graph):
        {call}
    """
CASES = {
    "placed-then-read": ("start_from(graph.to('cuda'))", {(3, "TP101")}),
    "placed-name": ("g = graph.to(torch.device('cuda')); start_from(g)", {(3, "TP101")}),
    "never-moved": ("start_from(graph)", set()),
    "moved-to-the-cpu": ("start_from(graph.to('cpu'))", set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_engine_and_pytorch(name):
    """The engine sees an object of an unseen library; PyTorch runs it with a stand-in of the same shape."""
    body = BODY.format(call=CASES[name][0])
    assert_findings(H, body, CASES[name][1])
    assert_pytorch_agrees(STUB, body, CASES[name][1], run="run(Data(torch.ones(5)))\n")


def test_other_attributes_say_nothing():
    """Only `.device` is read through the object: `data.num_nodes` may be a number anywhere."""
    body = """\
        def f(graph):
            data = graph.to("cuda")
            return torch.rand(5) * data.num_nodes
        """
    assert_findings(H, body, set())
