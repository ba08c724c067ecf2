"""TEST-ONLY launcher: the real server plus fault-injection switches.

Never used in production (it lives under tests/).  Flags, stripped before the
server's own arguments are parsed:
  --no-probe        make `import torchplace_probe` fail, as on a machine without it
  --exploding-rule  register rule TP999 whose check raises on any file containing
                    the word EXPLODE, to prove one crashing rule cannot silence others
  --introspect      answer the request `torchplace/test/state` with the server's copy
                    of a document's text and the size of pygls' request bookkeeping
  --exit-after-initialized SECONDS
                    exit with status 3 that long after `initialized`: a server that
                    crashes once it is up (the editor e2e's crash loop), whatever the load
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

args = sys.argv[1:]
if "--no-probe" in args:
    args.remove("--no-probe")
    sys.modules["torchplace_probe"] = None  # import now raises ImportError
if "--exploding-rule" in args:
    args.remove("--exploding-rule")
    import exploding_rule

    exploding_rule.install()

introspect = "--introspect" in args
if introspect:
    args.remove("--introspect")
crash_after = None
if "--exit-after-initialized" in args:
    at = args.index("--exit-after-initialized")
    crash_after = float(args[at + 1])
    del args[at:at + 2]

from torchplace_server import server as server_module  # noqa: E402
from torchplace_server.serve_command import main  # noqa: E402

if introspect:
    build = server_module.build_server

    def build_with_state_request():
        server = build()

        @server.feature("torchplace/test/state")
        def state(ls, params):
            uri = params.get("uri") if isinstance(params, dict) else getattr(params, "uri", None)
            doc = ls.workspace.text_documents.get(uri) if uri else None
            return {"text": doc.source if doc is not None else None,
                    "futures": len(ls.protocol._request_futures),
                    "version": doc.version if doc is not None else None}

        return server

    server_module.build_server = build_with_state_request

if crash_after is not None:
    import asyncio
    import inspect
    import os

    from lsprotocol import types

    build_plain = server_module.build_server

    def build_crashing():
        server = build_plain()
        original = server.protocol.fm.features[types.INITIALIZED]

        async def initialized_then_exit(params):
            result = original(params)
            if inspect.isawaitable(result):
                await result
            asyncio.get_running_loop().call_later(crash_after, os._exit, 3)

        server.protocol.fm.features[types.INITIALIZED] = initialized_then_exit
        return server

    server_module.build_server = build_crashing

sys.exit(main(args))
