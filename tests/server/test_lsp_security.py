"""Nothing loads project code without a probe request (issue 15, item 9): a compiled module in
the workspace, met while jedi resolves a base class, is never imported by the server, even
started as editors start it (`python -m torchplace_server` in the project folder)."""
from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig

import pytest

from raw_rpc import RawServer

EXTENSION_C = r"""
#include <Python.h>
#include <stdio.h>
static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "booby", NULL, -1, NULL};
PyMODINIT_FUNC PyInit_booby(void) {
    FILE *f = fopen(getenv("BOOBY_MARKER"), "a");
    if (f) { fputs("initialised\n", f); fclose(f); }
    return PyModule_Create(&mod);
}
"""
TRAIN = ("import torch\nfrom booby import Net\n\ndevice = torch.device('cuda')\n\n\nclass Model(Net):\n    pass\n\n\n"
         "model = Model().to(device)\nx = torch.zeros(3)\ny = model(x)\n")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs a C compiler to build the booby-trapped module")
def test_a_compiled_module_in_the_workspace_is_never_initialised(tmp_path):
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    (tmp_path / "booby.c").write_text(EXTENSION_C)
    subprocess.run(["gcc", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}", str(tmp_path / "booby.c"),
                    "-o", str(tmp_path / f"booby{suffix}")], check=True)
    marker = tmp_path / "INITIALISED"
    # The trap works: importing it from the project folder runs its initialiser.
    subprocess.run([sys.executable, "-c", "import booby"], cwd=tmp_path, env={"BOOBY_MARKER": str(marker)}, check=True)
    assert marker.read_text() == "initialised\n"
    marker.unlink()
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "train.py").write_text(TRAIN)
    server = RawServer(command=[sys.executable, "-m", "torchplace_server"], cwd=str(tmp_path),
                       env={"BOOBY_MARKER": str(marker)})
    try:
        server.initialize(root_uri=(tmp_path.as_uri()), capabilities={
            "textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": True}}})
        uri = (tmp_path / "train.py").as_uri()
        server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": 1,
                                                                "text": TRAIN}})
        report = server.answer(server.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}), 120)
        assert "result" in report
    finally:
        server.close()
    assert not marker.exists(), "the server (or its jedi) initialised the project's compiled module"
