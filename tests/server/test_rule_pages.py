"""The rule site (docs/rules/*.html) is generated from the rule classes and kept current."""
from __future__ import annotations

from pathlib import Path

from torchplace_rules import ALL_RULES

from torchplace_server.rule_pages import render_site

SITE = Path(__file__).resolve().parents[2] / "docs" / "rules"


def test_docs_rules_is_current():
    pages = render_site()
    on_disk = {p.name: p.read_text(encoding="utf-8") for p in SITE.iterdir()}
    stale = sorted(name for name in pages.keys() | on_disk.keys() if pages.get(name) != on_disk.get(name))
    assert not stale, f"regenerate with `python -m torchplace_server.rule_pages docs/rules`: {stale}"


def test_every_rule_page_has_the_four_parts_and_its_example():
    pages = render_site()
    for rule in ALL_RULES:
        page = pages[f"{rule.code}.html"]
        for heading in ("What it does", "Why is this bad?", "Example", "Fix"):
            assert f"<h2>{heading}</h2>" in page, (rule.code, heading)
        assert "Fix safety:" in page
        assert "<script" not in page
    assert all(f'href="{rule.code}.html"' in pages["index.html"] for rule in ALL_RULES)
