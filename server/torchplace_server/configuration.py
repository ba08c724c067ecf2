"""Settings plumbing: initializationOptions, workspace/configuration and
didChangeConfiguration (pyproject.toml changes arrive through `watched_files`).

See `settings` for the keys and the precedence.
"""
from __future__ import annotations

import asyncio
import logging
import platform
import sys
from importlib import metadata
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from . import __version__
from .settings import SECTION, unwrap_initialization_options
from .watched_files import register_watchers

if TYPE_CHECKING:
    from .server import TorchplaceServer

log = logging.getLogger(__name__)


def _version_of(distribution: str) -> str:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "?"


def _client_supports_configuration(ls: "TorchplaceServer") -> bool:
    ws = ls.client_capabilities.workspace
    return bool(ws and ws.configuration)


async def pull_configuration(ls: "TorchplaceServer") -> bool:
    """Ask the client for section `torchplace`; keep what we have if it has none.

    Returns whether the settings changed."""
    if not _client_supports_configuration(ls):
        return False
    try:
        result = await asyncio.wait_for(
            ls.workspace_configuration_async(
                types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION, scope_uri=ls.workspace.root_uri)])
            ),
            timeout=10,
        )
    except Exception as exc:  # noqa: BLE001 - a client that cannot answer keeps the old settings
        log.warning("torchplace: workspace/configuration failed: %r", exc)
        return False
    value: Any = result[0] if result else None
    if value is None or value == ls.settings.raw:
        return False
    ls.settings.update(value, "workspace/configuration")
    return True


def register(server: "TorchplaceServer") -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: "TorchplaceServer", params: types.InitializeParams) -> None:
        ls.connected = True
        if ls.log_handler is not None:
            ls.log_handler.loop = asyncio.get_event_loop()
        client = params.client_info
        log.info("torchplace %s (pygls %s) on Python %s at %s; client %s; workspace %s",
                 __version__, _version_of("pygls"), platform.python_version(), sys.executable,
                 f"{client.name} {client.version or ''}".strip() if client else "unnamed", ls.workspace.root_path)
        options = unwrap_initialization_options(params.initialization_options)
        if options is not None:
            ls.settings.update(options, "initializationOptions")

    @server.feature(types.INITIALIZED)
    async def initialized(ls: "TorchplaceServer", params: types.InitializedParams) -> None:
        ls.spawn(register_watchers(ls))
        if await pull_configuration(ls):
            ls.diagnostics.settings_changed()
        else:
            ls.workspace_checks.settings_changed()
        log.info("torchplace: ready; settings: %s", ls.settings.describe())

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: "TorchplaceServer", params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict) and SECTION in settings:
            if settings[SECTION] == ls.settings.raw:
                return  # another extension's settings changed: nothing to re-check
            ls.settings.update(settings[SECTION], "workspace/didChangeConfiguration")
        elif not (_client_supports_configuration(ls) and await pull_configuration(ls)):
            return
        log.info("torchplace: settings changed: %s", ls.settings.describe())
        ls.diagnostics.settings_changed()
