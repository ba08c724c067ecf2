"""Random edit sequences over LSP (issue 15, items 1 and 4): the server's text equals the
client's, every request is answered, diagnostics stay inside the document and fixes edit
only their spans.  Bounded here; `benchmarks/lsp_fuzz.py --fuzz` runs 1,000 sequences."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from lsp_fuzz import FuzzSession, documents, edits


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    fuzz = FuzzSession(str(tmp_path_factory.mktemp("fuzz")))
    yield fuzz
    fuzz.close()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow, HealthCheck.data_too_large])
@given(initial=documents(), drawn=edits())
def test_random_edit_sequences_keep_server_and_client_in_step(session, initial, drawn):
    outcome = session.run(initial, drawn)
    assert outcome.problems == [], "\n".join(outcome.problems)
    assert outcome.answered == outcome.requests


@pytest.mark.parametrize("newline", ["\r\n", "\n", "\r"])
def test_an_out_of_range_change_at_the_end_of_a_line_lands_before_its_break(session, newline):
    text = f"import torch{newline}x = 1{newline}y = 2{newline}"
    drawn = [((1, 999), (1, 999), "  # end")]  # character far past the line's end
    outcome = session.run(text, drawn)
    assert outcome.problems == [], "\n".join(outcome.problems)
