"""False findings of the s20 fresh precision review (review20a's domains: NLP, speech, RL, recommenders,
time series, tabular, LLM, scientific ML; benchmarks/review/false_finding_causes.md, causes M1..), each as
a regression snippet with a true twin.  Lines count from the snippet; warnings count (assert_findings
keeps information and above)."""
import pytest

from .snippets import assert_findings

H = "import io\nimport sys\nimport torch\nimport torch.nn as nn\nfrom somelib import Pipeline\n"

# M4: an object of a kind the analysis does not know, moved with `.to(device)` (a library pipeline), called
# with a mapping of CPU tensors (`{"waveform": w, "sample_rate": sr}`): such objects read the mapping
# themselves and commonly move what they take from it (pyannote's `Pipeline`, detectron2's and mmengine's
# models).  Only a tensor handed to it directly is known to meet its weights.
PIPE = """\
    def run(name):
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        pipe = Pipeline.from_pretrained(name).to(device)
        wave = torch.zeros(1, 16000)
        return pipe(ARG)
"""

CASES = {
    "m4_unknown_kind_called_with_a_mapping": (PIPE.replace("ARG", '{"waveform": wave, "sample_rate": 16000}'), set()),
    "m4_unknown_kind_called_with_a_dict_call": (PIPE.replace("ARG", "dict(waveform=wave)"), set()),
    # true twins: the CPU tensor handed directly; a known layer handed the mapping's tensor
    "m4_unknown_kind_called_with_a_tensor": (PIPE.replace("ARG", "wave"), {(5, "TP102")}),
    "m4_known_layer_called_with_the_tensor": (
        PIPE.replace("Pipeline.from_pretrained(name)", "nn.Linear(16000, 2)").replace("ARG", '{"w": wave}["w"]'),
        {(5, "TP102")}),
}


# M5: `torch.save(state, buffer)` into an in-memory `io.BytesIO()`, then `torch.load(io.BytesIO(data))` of
# `data = buffer.getvalue()`: the bytes exist only in this process, written by this run on this machine;
# `map_location` changes nothing.
BUFFER = """\
    device = "cuda" if torch.cuda.is_available() else "cpu"
    model = nn.Linear(4, 4).to(device)
    buffer = io.BytesIO()
    torch.save(model.state_dict(), buffer)
    data = buffer.getvalue()
    state = torch.load(io.BytesIO(SOURCE))
    model.load_state_dict(state)
"""

CASES.update({
    "m5_load_of_the_bytes_of_a_buffer_saved_into": (BUFFER.replace("SOURCE", "data"), set()),
    "m5_load_of_getvalue_inline": (BUFFER.replace("SOURCE", "buffer.getvalue()"), set()),
    # true twin: the bytes come from a file named on the command line
    "m5_load_of_the_bytes_of_a_file": (BUFFER.replace("SOURCE", "open(sys.argv[1], 'rb').read()"), {(6, "TP204")}),
})


@pytest.mark.parametrize("name", sorted(CASES))
def test_review20a_cause(name):
    body, expected = CASES[name]
    assert_findings(H, body, expected)
