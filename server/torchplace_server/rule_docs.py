"""Each rule's docs as a local markdown file, for `Diagnostic.codeDescription`.

The text is `rule.docs_markdown()` (what `torchplace explain` prints), written
once into a cache folder keyed by the content's hash, and linked as a
`file://` URI: no invented web domain, and the link works offline.
"""
from __future__ import annotations

import hashlib
import logging
import os
import tempfile
from pathlib import Path
from typing import Optional

from pygls import uris

from torchplace_rules import get_rule

log = logging.getLogger(__name__)


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "torchplace" / "rule-docs"


class RuleDocs:
    def __init__(self, root: Optional[Path] = None) -> None:
        self.root = root or cache_root()
        self._uris: dict[str, Optional[str]] = {}

    def markdown(self, code: str) -> Optional[str]:
        try:
            return get_rule(code).docs_markdown()
        except KeyError:
            return None

    def uri(self, code: str) -> Optional[str]:
        """file:// URI of the rule's docs page, or None when it cannot be written."""
        if code in self._uris:
            return self._uris[code]
        uri = None
        text = self.markdown(code)
        if text is not None:
            try:
                rule = get_rule(code)
                digest = hashlib.sha1(text.encode()).hexdigest()[:12]
                path = self.root / f"{rule.code}-{rule.name}-{digest}.md"
                if not path.exists():
                    self.root.mkdir(parents=True, exist_ok=True)
                    fd, tmp = tempfile.mkstemp(dir=self.root, suffix=".tmp")
                    with os.fdopen(fd, "w", encoding="utf-8") as out:
                        out.write(text)
                    os.replace(tmp, path)
                uri = uris.from_fs_path(str(path))
            except OSError as exc:
                log.warning("torchplace: cannot write the docs of %s: %s", code, exc)
        self._uris[code] = uri
        return uri
