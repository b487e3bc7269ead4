"""A real editor runs ``taskspec lsp``: Neovim, headless, with the configuration of docs/editors.md.

Neovim opens a sidecar with a misspelt key, and the test reads the
diagnostics Neovim's own LSP client holds, then applies the quick fix
through ``vim.lsp.buf.code_action`` and reads the buffer. The Lua
configuration is the block of docs/editors.md, run as it is written.

Without ``nvim`` the test skips; with ``TASKSPEC_REQUIRE_NVIM=1`` (CI, which
installs Debian's package) it fails instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs import section
from tests.helpers import SMALL_DOC

ROOT = Path(__file__).resolve().parent.parent
SECTION = section("## The language server: `taskspec lsp`")
(CONFIG,) = re.findall(r"\*\*Neovim\*\*.*?```lua\n(.*?)```", SECTION, flags=re.S)

#: Neovim older than 0.8 (Debian 12 ships 0.7) lacks vim.lsp.start; this is
#: what 0.8 added, in 0.7's terms, so that the documented block runs unchanged.
COMPAT = """\
if not vim.lsp.start then
  vim.lsp.start = function(config)
    local id = vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(0, id)
    return id
  end
end
"""

#: Open the sidecar, wait for diagnostics, write them out; apply the first
#: quick fix on the diagnostic's line through Neovim's client; write the buffer.
SCRIPT = """\
local out = os.getenv("TASKSPEC_NVIM_OUT")
local result = {}
vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("TASKSPEC_NVIM_FILE")))
local ok = vim.wait(30000, function() return #vim.diagnostic.get(0) > 0 end, 50)
result.waited = ok
result.diagnostics = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local lsp = (d.user_data or {}).lsp or {}
  table.insert(result.diagnostics, {
    lnum = d.lnum, col = d.col, message = d.message, source = d.source,
    severity = d.severity, code = d.code or lsp.code,
  })
end
if ok then
  local first = vim.diagnostic.get(0)[1]
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  vim.ui.select = function(items, _, on_choice) on_choice(items[1], 1) end
  local before = vim.api.nvim_buf_get_lines(0, 0, -1, false)[first.lnum + 1]
  vim.lsp.buf.code_action()
  result.fixed = vim.wait(30000, function()
    return vim.api.nvim_buf_get_lines(0, 0, -1, false)[first.lnum + 1] ~= before
  end, 50)
end
result.lines = vim.api.nvim_buf_get_lines(0, 0, -1, false)
local f = io.open(out, "w")
f:write(vim.fn.json_encode(result))
f:close()
vim.cmd("qall!")
"""

VALID = SMALL_DOC


def _nvim() -> str:
    nvim = shutil.which("nvim")
    required = os.environ.get("TASKSPEC_REQUIRE_NVIM", "") not in ("", "0")
    if nvim is None:
        if required:
            pytest.fail("TASKSPEC_REQUIRE_NVIM is set but nvim is not on PATH")
        pytest.skip("nvim is not on PATH (apt-get install neovim)")
    try:
        import pygls  # noqa: F401, PLC0415
    except ImportError:
        if required:
            pytest.fail("TASKSPEC_REQUIRE_NVIM is set but the lsp extra is not installed")
        pytest.skip('the lsp extra is not installed: pip install "taskspec[lsp]"')
    return nvim


def test_neovim_shows_the_diagnostics_and_applies_a_quick_fix(tmp_path: Path) -> None:
    nvim = _nvim()
    sidecar = tmp_path / "taskspec.yaml"
    sidecar.write_text(VALID.replace("task_id:", "taskid:"), encoding="utf-8")
    init = tmp_path / "init.lua"
    init.write_text(COMPAT + CONFIG, encoding="utf-8")
    script = tmp_path / "run.lua"
    script.write_text(SCRIPT, encoding="utf-8")
    out = tmp_path / "out.json"
    env = {
        **os.environ,
        # `taskspec` as the configuration of docs/editors.md names it: this Python's.
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "TASKSPEC_NVIM_FILE": str(sidecar),
        "TASKSPEC_NVIM_OUT": str(out),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    proc = subprocess.run(
        [nvim, "--headless", "-n", "-i", "NONE", "-u", str(init), "-c", f"luafile {script}"],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert out.exists(), (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    result = json.loads(out.read_text(encoding="utf-8"))
    assert result["waited"], result
    (diag,) = result["diagnostics"]
    assert diag["code"] == "TS001"
    assert diag["source"] == "taskspec"
    assert diag["message"] == 'taskid: unknown field "taskid"; did you mean "task_id"?'
    assert (diag["lnum"], diag["col"]) == (1, 0)
    assert result["fixed"], result
    assert "\n".join(result["lines"]) + "\n" == VALID
