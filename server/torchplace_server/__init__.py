"""torchplace's language server: live device-placement diagnostics, quick-fixes,
hover docs, code lenses and notebook support, on pygls 2.x.

One module per feature (see `server.build_server`).  Imports no torch.
"""

__version__ = "0.1.0"
