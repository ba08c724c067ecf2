"""Warm probe kernels belong to open documents: closing one shuts its kernel down."""
from __future__ import annotations

import logging
import sys

log = logging.getLogger(__name__)


def release_kernel(uri: str) -> None:
    """Shut down the document's kernel at once, if the probe ever ran (never imports it)."""
    bridge = sys.modules.get("torchplace_probe.editor_bridge")
    close = getattr(bridge, "close_document", None)
    if close is not None:
        try:
            close(uri)
        except Exception:  # closing must never break didClose
            log.exception("could not shut down the probe kernel of %s", uri)
