"""Code actions: the engine's fix as a preferred quick-fix, "Ignore TPxxx for
this line", "Show documentation for TPxxx", `source.fixAll.torchplace` for a
file and `notebook.source.fixAll.torchplace` for a whole notebook; edits
resolved lazily (`codeAction/resolve`) for clients that support it.

As in Ruff, a notebook is fixed only by the notebook kind: VS Code asks for
`source.fixAll` once per cell, in parallel, and each answer would carry the
edits of every cell.
"""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Optional

from lsprotocol import types

from .analysis_service import Analysis, PlacedFinding
from .analysis_units import cell_program, unit_key_for
from .diagnostics import to_diagnostic
from .fix_all import fix_all_edits
from .ignore_comment import ignore_edit, still_parses
from .text_positions import spans_overlap
from .workspace_edits import workspace_edit

if TYPE_CHECKING:
    from .server import TorchplaceServer

FIX_ALL_KIND = "source.fixAll.torchplace"
NOTEBOOK_FIX_ALL_KIND = "notebook.source.fixAll.torchplace"
FIX_ALL_TITLE = "torchplace: fix all auto-fixable problems"
SHOW_DOCS_COMMAND = "torchplace.showRuleDocumentation"
KINDS = [types.CodeActionKind.QuickFix, FIX_ALL_KIND, NOTEBOOK_FIX_ALL_KIND]


def _wanted(only: Optional[list[str]], kind: str) -> bool:
    if not only:
        return True
    return any(kind == k or kind.startswith(k + ".") for k in only)


def _lazy(ls: "TorchplaceServer") -> bool:
    ca = ls.client_capabilities.text_document and ls.client_capabilities.text_document.code_action
    return bool(ca and ca.resolve_support and "edit" in ca.resolve_support.properties)


def _fix_title(pf: PlacedFinding) -> str:
    fix = pf.finding.fix
    suffix = "" if fix.is_safe else " (unsafe)"
    return f"{fix.title} ({pf.finding.code}){suffix}"


def _ignore_title(code: str) -> str:
    return f"Ignore {code} for this line"


def _docs_action(code: str, diagnostic: types.Diagnostic) -> types.CodeAction:
    return types.CodeAction(
        title=f"Show documentation for {code}", kind=types.CodeActionKind.QuickFix, diagnostics=[diagnostic],
        command=types.Command(title=f"Show documentation for {code}", command=SHOW_DOCS_COMMAND, arguments=[code]))


def _fix_edit(ls: "TorchplaceServer", pf: PlacedFinding) -> types.WorkspaceEdit:
    return workspace_edit(ls, [(e.part, e.span, e.new_text) for e in pf.edits])


def _ignore_workspace_edit(ls: "TorchplaceServer", pf: PlacedFinding) -> Optional[types.WorkspaceEdit]:
    line = pf.span.start_line
    line_text = pf.part.table.line(line)
    edit = ignore_edit(line_text, line, pf.finding.code)
    if edit is None:
        return None
    span, text = edit
    # Only a triple-quoted string opening on the line can swallow the comment: check those lines
    # alone (masking the magics of a whole document for every finding costs milliseconds).
    if ('"""' in line_text or "'''" in line_text) \
            and not still_parses(cell_program(pf.part.text)[0], span, text):
        return None
    return workspace_edit(ls, [(pf.part, span, text)])


def _matches_context(pf: PlacedFinding, context: types.CodeActionContext) -> bool:
    for diag in context.diagnostics:
        data = diag.data
        if isinstance(data, dict) and data.get("key") is not None:
            if data.get("key") == pf.key:
                return True
            continue
        if diag.code == pf.finding.code and diag.range.start.line == pf.span.start_line:
            return True
    return False


async def _fix_all_edit(ls: "TorchplaceServer", analysis: Analysis) -> types.WorkspaceEdit:
    loop = asyncio.get_running_loop()
    edits = await loop.run_in_executor(
        ls.analysis.executor, fix_all_edits, analysis.unit, analysis.config, ls.cross_file.index, analysis.findings
    )
    return workspace_edit(ls, edits)


def _has_safe_fix(analysis: Analysis) -> bool:
    return any(pf.edits is not None and pf.finding.fix.is_safe for pfs in analysis.by_uri.values() for pf in pfs)


def register(server: "TorchplaceServer") -> None:
    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=KINDS, resolve_provider=True),
    )
    async def code_action(ls: "TorchplaceServer", params: types.CodeActionParams) -> Optional[list[types.CodeAction]]:
        uri = params.text_document.uri
        analysis = await ls.analysis.current(unit_key_for(ls.workspace, uri))
        if analysis is None or analysis.config is None:
            return None
        part = analysis.unit.part_for_uri(uri)
        if part is None:
            return None
        lazy = _lazy(ls)
        only = params.context.only
        actions: list[types.CodeAction] = []
        if _wanted(only, types.CodeActionKind.QuickFix):
            codec = ls.position_codec
            start = part.table.from_client(codec, params.range.start)
            end = part.table.from_client(codec, params.range.end)
            seen_fixes: set = set()
            seen_ignores: set = set()
            seen_docs: set = set()
            for pf in ls.shown.findings(analysis, uri):
                if params.context.diagnostics:
                    if not _matches_context(pf, params.context):
                        continue
                elif not spans_overlap(pf.span, start, end):
                    continue
                diagnostic = to_diagnostic(ls, pf)
                data = {"uri": uri, "key": pf.key}
                if pf.edits is not None:
                    marker = tuple((e.part.uri, e.span, e.new_text) for e in pf.edits)
                    if marker not in seen_fixes:
                        seen_fixes.add(marker)
                        actions.append(
                            types.CodeAction(
                                title=_fix_title(pf),
                                kind=types.CodeActionKind.QuickFix,
                                diagnostics=[diagnostic],
                                is_preferred=pf.finding.fix.is_safe,
                                data={**data, "action": "fix"},
                                edit=None if lazy else _fix_edit(ls, pf),
                            )
                        )
                ignore_marker = (pf.finding.code, pf.span.start_line)
                if pf.finding.code != "TP001" and ignore_marker not in seen_ignores:
                    seen_ignores.add(ignore_marker)
                    edit = _ignore_workspace_edit(ls, pf)
                    if edit is not None:
                        actions.append(
                            types.CodeAction(
                                title=_ignore_title(pf.finding.code),
                                kind=types.CodeActionKind.QuickFix,
                                diagnostics=[diagnostic],
                                data={**data, "action": "ignore"},
                                edit=None if lazy else edit,
                            )
                        )
                if pf.finding.code not in seen_docs and ls.rule_docs.uri(pf.finding.code) is not None:
                    seen_docs.add(pf.finding.code)
                    actions.append(_docs_action(pf.finding.code, diagnostic))
        notebook = analysis.unit.is_notebook
        kind = NOTEBOOK_FIX_ALL_KIND if notebook else FIX_ALL_KIND
        asked = bool(only) and _wanted(only, kind) if notebook else _wanted(only, kind)
        if asked and _has_safe_fix(analysis):
            actions.append(
                types.CodeAction(
                    title=FIX_ALL_TITLE,
                    kind=kind,
                    data={"uri": uri, "action": "fixAll"},
                    edit=None if lazy else await _fix_all_edit(ls, analysis),
                )
            )
        return actions

    @server.command(SHOW_DOCS_COMMAND)
    async def show_rule_documentation(ls, *args: Any) -> bool:
        """Open the rule's page: in the browser (`window/showDocument`), or say where it is."""
        code = args[0] if args and isinstance(args[0], str) else None
        uri = ls.rule_docs.uri(code) if code else None
        if uri is None:
            raise ValueError(f"{SHOW_DOCS_COMMAND} expects a rule code such as TP103, got {args!r}")
        window = ls.client_capabilities.window
        if window and window.show_document and window.show_document.support:
            result = await ls.window_show_document_async(types.ShowDocumentParams(uri=uri, external=True))
            if result is not None and result.success:
                return True
        ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Info,
                                                       message=f"torchplace: the documentation of {code} is at {uri}"))
        return False

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve_code_action(ls: "TorchplaceServer", action: types.CodeAction) -> types.CodeAction:
        data: Any = action.data
        if action.edit is not None or not isinstance(data, dict) or "uri" not in data:
            return action
        uri = data["uri"]
        analysis = await ls.analysis.current(unit_key_for(ls.workspace, uri))
        if analysis is None or analysis.config is None:
            return action
        kind = data.get("action")
        if kind == "fixAll":
            action.edit = await _fix_all_edit(ls, analysis)
            return action
        for pf in ls.shown.findings(analysis, uri):
            if pf.key != data.get("key"):
                continue
            if kind == "fix" and pf.edits is not None:
                action.edit = _fix_edit(ls, pf)
            elif kind == "ignore":
                action.edit = _ignore_workspace_edit(ls, pf)
            break
        return action
