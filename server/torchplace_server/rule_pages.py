"""The rule documentation as a small static site: one HTML page per rule and an index.

Rendered from the rule classes (the same text as `torchplace explain`, in
Ruff's four parts: what it does, why it is bad, an example, the fix and its
safety), so the pages, the hover and the CLI never disagree.

    python -m torchplace_server.rule_pages [FOLDER]     # default docs/rules

writes `TP103.html` ..., `index.html` and `style.css`; the repository keeps them in
`docs/rules/` (a test checks they are current), the VS Code extension ships
them, and the server writes them once into a cache folder for the
`codeDescription` link of each diagnostic.
"""
from __future__ import annotations

import hashlib
import html
import re
import sys
import textwrap
from pathlib import Path

from torchplace_rules import ALL_RULES
from torchplace_rules.rule_base import Rule

STYLE = """
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family, system-ui, sans-serif); max-width: 48rem; margin: 2rem auto;
       padding: 0 1rem; line-height: 1.5; color: var(--vscode-foreground, CanvasText);
       background: var(--vscode-editor-background, Canvas); }
code, pre { font-family: var(--vscode-editor-font-family, ui-monospace, monospace); }
pre { padding: .75rem 1rem; overflow-x: auto; border-radius: 4px;
      background: var(--vscode-textCodeBlock-background, rgba(127, 127, 127, .12)); }
p code { padding: 0 .2em; background: var(--vscode-textCodeBlock-background, rgba(127, 127, 127, .12)); }
.severity { display: inline-block; padding: 0 .5em; border-radius: 3px; font-size: .85em;
            border: 1px solid currentColor; opacity: .8; }
nav { font-size: .9em; } table { border-collapse: collapse; } td, th { padding: .2rem .6rem; text-align: left; }
"""
CSP = "default-src 'none'; style-src 'self'"
STYLESHEET = "style.css"


def page_name(code: str) -> str:
    return f"{code}.html"


def _paragraphs(text: str) -> str:
    """The rule fields' markdown: paragraphs, inline code, fenced code blocks."""
    out, fence = [], None
    for block in re.split(r"\n\s*\n", textwrap.dedent(text).strip("\n")):
        if fence is not None or block.lstrip().startswith("```"):
            fence = (fence or []) + [block]
            if block.rstrip().endswith("```") and (len(fence) > 1 or block.count("```") >= 2):
                body = "\n\n".join(fence).strip().strip("`")
                body = body[len("python"):] if body.startswith("python") else body
                out.append(f"<pre><code>{html.escape(body.strip(chr(10)))}</code></pre>")
                fence = None
            continue
        out.append("<p>" + _inline(" ".join(line.strip() for line in block.splitlines())) + "</p>")
    return "\n".join(out)


def _inline(text: str) -> str:
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def first_paragraph(text: str) -> str:
    """The first paragraph of a rule field, joined into one line (for the hover)."""
    block = re.split(r"\n\s*\n", textwrap.dedent(text).strip("\n"))[0]
    return " ".join(line.strip() for line in block.splitlines())


def _document(title: str, body: str) -> str:
    return (f'<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f'<title>{html.escape(title)}</title>\n<link rel="stylesheet" href="{STYLESHEET}">\n</head>\n'
            f"<body>\n{body}\n</body>\n</html>\n")


def render_page(rule: Rule) -> str:
    example = textwrap.dedent(rule.example).strip("\n")
    body = "\n".join([
        '<nav><a href="index.html">All torchplace rules</a></nav>',
        f"<h1>{html.escape(rule.code)} <small>{html.escape(rule.name)}</small></h1>",
        f'<p><span class="severity">{html.escape(rule.severity.label)}</span> {html.escape(rule.summary)}</p>',
        "<h2>What it does</h2>", _paragraphs(rule.what_it_does),
        "<h2>Why is this bad?</h2>", _paragraphs(rule.why_bad),
        "<h2>Example</h2>", f"<pre><code>{html.escape(example)}</code></pre>",
        "<h2>Fix</h2>", _paragraphs(rule.fix_doc),
        f"<p><strong>Fix safety:</strong> {_inline(first_paragraph(rule.fix_safety))}</p>",
    ])
    return _document(f"{rule.code} {rule.name} — torchplace", body)


def render_index(rules=ALL_RULES) -> str:
    rows = "\n".join(
        f'<tr><td><a href="{page_name(r.code)}">{html.escape(r.code)}</a></td><td>{html.escape(r.name)}</td>'
        f"<td>{html.escape(r.severity.label)}</td><td>{html.escape(r.summary)}</td></tr>" for r in rules)
    body = ("<h1>torchplace rules</h1>\n<p>Device-placement checks for PyTorch code. "
            "Generated from the rule classes, like <code>torchplace explain CODE</code>.</p>\n"
            f"<table>\n<tr><th>code</th><th>name</th><th>severity</th><th>summary</th></tr>\n{rows}\n</table>")
    return _document("torchplace rules", body)


def render_site(rules=ALL_RULES) -> dict[str, str]:
    """File name -> HTML for every page of the site."""
    pages = {page_name(r.code): render_page(r) for r in rules}
    pages["index.html"] = render_index(rules)
    pages[STYLESHEET] = STYLE.lstrip()
    return pages


def site_digest(pages: dict[str, str]) -> str:
    digest = hashlib.sha1()
    for name in sorted(pages):
        digest.update(name.encode() + b"\0" + pages[name].encode())
    return digest.hexdigest()[:12]


def write_site(folder: Path, pages: dict[str, str] | None = None) -> list[Path]:
    pages = pages if pages is not None else render_site()
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in pages.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules")
    print(f"wrote {len(write_site(target))} pages to {target}")
