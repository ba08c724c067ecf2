"""Hover on a flagged range: the rule's docs, the same text as `torchplace explain`."""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from lsprotocol import types

from .analysis_units import unit_key_for
from .text_positions import span_contains

if TYPE_CHECKING:
    from .server import TorchplaceServer


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
        sections, codes = [], []
        for pf in hits:
            if pf.finding.code in codes:
                continue
            codes.append(pf.finding.code)
            docs = ls.rule_docs.markdown(pf.finding.code)
            if docs:
                sections.append(docs)
        if not sections:
            return None
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n---\n\n".join(sections)),
            range=part.table.range(ls.position_codec, hits[0].span),
        )
