"""The rule reference (docs/rules.md) rendered from the rule classes, the one source."""
from __future__ import annotations

from .rules import ALL_RULES


def render_reference() -> str:
    lines = ["# torchplace rules", "",
             "Generated from the rule classes by `python -m torchplace_rules.rule_docs` (a test keeps it current).", "",
             "| code | name | severity | summary |", "|---|---|---|---|"]
    for r in ALL_RULES:
        summary = r.summary.replace("|", "\\|")
        lines.append(f"| [{r.code}](#{r.code.lower()}) | {r.name} | {r.severity.label} | {summary} |")
    lines.append("")
    for r in ALL_RULES:
        body = r.docs_markdown().replace(f"# {r.name} ({r.code})", f"## {r.code}\n\n### {r.name}", 1)
        body = body.replace("\n## ", "\n#### ")
        lines.append(body)
    return "\n".join(lines).rstrip() + "\n"


if __name__ == "__main__":
    import pathlib
    import sys

    target = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs/rules.md")
    target.write_text(render_reference(), encoding="utf-8")
    print(f"wrote {target}")
