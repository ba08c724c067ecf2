"""The burst rule of the analysis service (issue 14, item 2): changes are coalesced only while a
backlog builds up.  A change that follows an answered one is checked at once, however soon it
comes: the keystroke benchmark's p95 of ~65 ms at 1,500 lines was this rule making back-to-back
edits wait SETTLE_S although each one before had already been checked."""
from torchplace_server.analysis_service import BURST_GAP_S, gap_before


def test_changes_close_together_with_the_one_before_unchecked_are_a_burst():
    assert gap_before(now=10.005, last=10.0, answered=None) < BURST_GAP_S
    # the latest finished check started before the previous change: that change is still unanswered
    assert gap_before(now=10.005, last=10.0, answered=9.9) < BURST_GAP_S


def test_a_change_after_an_answered_one_is_no_burst_however_soon_it_comes():
    assert gap_before(now=10.005, last=10.0, answered=10.0) >= BURST_GAP_S
    assert gap_before(now=10.005, last=10.0, answered=10.002) >= BURST_GAP_S


def test_changes_far_apart_keep_their_gap():
    assert gap_before(now=11.0, last=10.0, answered=None) == 1.0
    assert gap_before(now=10.5, last=10.0, answered=9.0) == 0.5
