"""Causes found by the whole review in session 19 (benchmarks/review/false_finding_causes.md, section
"Session 19"), each as a construct snippet with a still-reported true twin.  Lines count from the
snippet."""
from .snippets import assert_findings

H = "import torch\nimport torch.nn as nn\nfrom torch.utils.data import DataLoader\n"

# R5: `DataParallel(model)` scatters its inputs to the wrapped module's device, and the tensors of the
# tuples, lists and dicts it is handed too (torch's `scatter_map`; pytorch-retinanet's
# `retinanet([data['img'].cuda().float(), data['annot']])` with the annotations left on the CPU).
SCATTERED = """\
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(4, 4)

        def forward(self, inputs):
            x, ann = {unpack}
            anchors = self.lin(x)
            return anchors - ann


    def main(dataset):
        loader = DataLoader(dataset, batch_size=4)
        model = {model}
        for data in loader:
            out = model({argument})
"""
LIST = '[data["img"].cuda(), data["annot"]]'


def test_r5_a_list_handed_to_data_parallel_is_scattered_to_the_module_device():
    body = SCATTERED.format(unpack="inputs", model="nn.DataParallel(Net()).cuda()", argument=LIST)
    assert_findings(H, body, set())


def test_r5_a_tuple_and_a_dict_are_scattered_too():
    body = SCATTERED.format(unpack="inputs", model="nn.DataParallel(Net()).cuda()",
                            argument='(data["img"].cuda(), data["annot"])')
    assert_findings(H, body, set())
    body = SCATTERED.format(unpack='inputs["img"], inputs["annot"]', model="nn.DataParallel(Net()).cuda()",
                            argument='{"img": data["img"].cuda(), "annot": data["annot"]}')
    assert_findings(H, body, set())


def test_r5_twin_the_model_without_data_parallel_gets_the_cpu_annotations():
    body = SCATTERED.format(unpack="inputs", model="Net().cuda()", argument=LIST)
    assert_findings(H, body, {(16, "TP103")})
