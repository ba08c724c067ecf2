"""Hover on a flagged range: the finding's message, its related places, a one-paragraph
summary of the rule and a link to its page (a few lines, never the whole page)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from torchplace_rules import get_rule

from .analysis_service import PlacedFinding
from .analysis_units import unit_key_for
from .rule_pages import first_paragraph
from .text_positions import span_contains

if TYPE_CHECKING:
    from .server import TorchplaceServer


def hover_markdown(ls: "TorchplaceServer", pf: PlacedFinding) -> str:
    f = pf.finding
    lines = [f"**{f.code}** `{f.name}` ({f.severity.label}): {f.message}"]
    for part, span, message in pf.related[:3]:
        where = "" if part.uri == pf.part.uri else " (another cell)"
        lines.append(f"- line {span.start_line + 1}{where}: {message}")
    try:
        rule = get_rule(f.code)
    except KeyError:
        return "\n\n".join(lines)
    summary = first_paragraph(rule.what_it_does)
    href = ls.rule_docs.uri(f.code)
    link = f" [Documentation for {f.code}]({href})" if href else ""
    return "\n".join(lines) + "\n\n" + summary + link


def register(server: "TorchplaceServer") -> None:
    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: "TorchplaceServer", params: types.HoverParams) -> Optional[types.Hover]:
        uri = params.text_document.uri
        analysis = await ls.analysis.current(unit_key_for(ls.workspace, uri))
        if analysis is None:
            return None
        part = analysis.unit.part_for_uri(uri)
        if part is None:
            return None
        line, col = part.table.from_client(ls.position_codec, params.position)
        hits = [pf for pf in ls.shown.findings(analysis, uri) if span_contains(pf.span, line, col)]
        if not hits:
            return None
        sections, codes = [], set()
        for pf in hits:
            if (pf.finding.code, pf.finding.message) in codes:
                continue
            codes.add((pf.finding.code, pf.finding.message))
            sections.append(hover_markdown(ls, pf))
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n\n---\n\n".join(sections)),
            range=part.table.range(ls.position_codec, hits[0].span),
        )
