"""`source.fixAll.torchplace`: every safe fix in a document or notebook.

Like `torchplace check --fix`: apply the safe fixes, re-check, repeat until
nothing changes (fixes that overlapped wait for the next round).  The result is
turned into minimal line edits per document or cell.  Runs on a worker thread.
"""
from __future__ import annotations

from typing import Optional

from torchplace_rules import Config, Finding, Span
from torchplace_rules.fixes import fix_until_stable
from torchplace_rules.notebook_program import restore_lines, rewritten_lines, split_program
from torchplace_rules.text_lines import split_lines

from .analysis_units import CellPart, Unit
from .rule_isolation import check_with_isolation
from .workspace_edits import line_edits

MAX_ROUNDS = 10


def fixed_program(unit: Unit, config: Config, project=None, findings: Optional[list[Finding]] = None) -> str:
    """The program with every safe fix applied; `findings` (of `unit.text`) saves the first check."""
    def check(text: str) -> list[Finding]:
        return check_with_isolation(text, unit.path, config, unit.path or unit.key, project)[0]

    return fix_until_stable(unit.text, check, findings, max_rounds=MAX_ROUNDS)[0]


def fix_all_edits(unit: Unit, config: Optional[Config], project=None,
                  findings: Optional[list[Finding]] = None) -> list[tuple[CellPart, Span, str]]:
    """Edits per document/cell; `project` is the cross-file index the diagnostics used and
    `findings` the diagnostics' findings of `unit`'s program, when at hand."""
    if config is None:
        return []
    new_program = fixed_program(unit, config, project, findings)
    if new_program == unit.text:
        return []
    if not unit.is_notebook:
        part = unit.parts[0]
        return [(part, span, text) for span, text in line_edits(part.text, split_lines(part.text), split_lines(new_program))]
    old_cells = split_program(unit.text)
    new_cells = split_program(new_program)
    if len(old_cells) != len(unit.parts) or len(new_cells) != len(unit.parts):
        return []  # a fix touched a cell boundary: refuse rather than guess
    out = []
    for part, old, new in zip(unit.parts, old_cells, new_cells):
        if part.blanked or old == new:
            continue
        old = old[: part.line_count]
        if restore_lines(part.text, old, new, rewritten_lines(part.text)) is None:
            continue  # a fix reached a line of IPython syntax: writing it back would change the cell
        out.extend((part, span, text) for span, text in line_edits(part.text, old, new))
    return out

