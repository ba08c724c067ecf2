"""Each rule's documentation page, for `Diagnostic.codeDescription`, the hover link and
"Show documentation for TPxxx".

The pages are the rule site (`rule_pages`), written once into a cache folder
named by the content's hash (`~/.cache/torchplace/rule-docs/<hash>/TP103.html`)
and linked as `file://` URIs: no invented web domain, and the links work
offline.  VS Code shows them rendered (the extension's rule-docs view);
other editors open them in the browser.
"""
from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import Optional

from pygls import uris

from torchplace_rules import get_rule

from .rule_pages import page_name, render_site, site_digest

log = logging.getLogger(__name__)


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "torchplace" / "rule-docs"


class RuleDocs:
    def __init__(self, root: Optional[Path] = None) -> None:
        self.root = root or cache_root()
        self._folder: Optional[Path] = None
        self._failed = False

    def markdown(self, code: str) -> Optional[str]:
        try:
            return get_rule(code).docs_markdown()
        except KeyError:
            return None

    def uri(self, code: str) -> Optional[str]:
        """file:// URI of the rule's page, or None (an unknown code, or a cache that cannot be written)."""
        try:
            get_rule(code)
        except KeyError:
            return None
        folder = self._site()
        return uris.from_fs_path(str(folder / page_name(code))) if folder is not None else None

    def _site(self) -> Optional[Path]:
        if self._folder is None and not self._failed:
            pages = render_site()
            folder = self.root / site_digest(pages)
            try:
                if not (folder / "index.html").exists():
                    self.root.mkdir(parents=True, exist_ok=True)
                    staging = Path(tempfile.mkdtemp(dir=self.root, prefix=".writing-"))
                    for name, text in pages.items():
                        (staging / name).write_text(text, encoding="utf-8")
                    try:
                        os.replace(staging, folder)
                    except OSError:  # another server wrote it first
                        for path in staging.iterdir():
                            path.unlink()
                        staging.rmdir()
                self._folder = folder
            except OSError as exc:
                log.warning("torchplace: cannot write the rule pages under %s: %s", self.root, exc)
                self._failed = True
        return self._folder
