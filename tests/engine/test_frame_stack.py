"""The analysis runs in one piece of CPython's frame stack (`frame_stack.roomy`, speed, issue 10):
a recursion that rises and falls across the stack's 16 KiB chunks maps and unmaps a chunk at every
crossing (13,900 times on the 120 engine_speed files, system time engine_speed counts)."""
import sys

import pytest

from torchplace_rules import Config, check_source, engine
from torchplace_rules.frame_stack import CHUNKED_FRAME_STACK, ROOM_SLOTS, roomy

chunked = pytest.mark.skipif(not CHUNKED_FRAME_STACK, reason="frames on a chunked stack: CPython 3.11+")


def _down(depth: int) -> int:
    return 0 if depth == 0 else _down(depth - 1) + 1


def _waves(times: int = 400, depth: int = 300) -> int:
    """Down `depth` frames and back, `times` times: each descent crosses several chunk boundaries."""
    return sum(_down(depth) for _ in range(times))


def _faults(run) -> int:
    import resource  # (POSIX only: the test that counts faults runs on Linux)

    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    run()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


@chunked
def test_the_check_claims_room_for_the_analysis_under_it():
    assert engine._check.__code__.co_stacksize >= ROOM_SLOTS


@chunked
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="minor page faults as Linux counts them")
def test_a_recursion_under_a_roomy_frame_maps_no_chunk_per_crossing():
    roomy_waves = roomy(lambda: _waves())
    _waves(), roomy_waves()  # (warm: code objects specialised, memory pools made)
    plain = min(_faults(_waves) for _ in range(3))
    under = min(_faults(roomy_waves) for _ in range(3))
    assert plain > 400  # (at least one fresh page per descent)
    assert under < plain / 10


def test_roomy_changes_no_result_and_no_depth():
    def depth_here():
        frame, n = sys._getframe(), 0
        while frame is not None:
            frame, n = frame.f_back, n + 1
        return n

    assert roomy(lambda: depth_here())() == (lambda: depth_here())()
    text = "import torch\nx = torch.zeros(3).cuda()\ny = torch.ones(3)\nz = x + y\n"
    assert "TP101" in [f.code for f in check_source(text, "t.py", Config())]
