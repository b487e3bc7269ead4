"""A user's code type-checks: ``mypy --strict`` on the README's Python and on a user's script.

The package is marked "Typing :: Typed", so what a user writes with its
names must pass a strict type checker unchanged: the enums on a message's
fields and in its constructor, the Registry's look-ups, the errors. Each
Python snippet of the README is a module of its own, checked with the
script ``tests/data/typed/user_script.py``, in one mypy run, from a
directory outside the repository with a configuration of its own (only
``strict``), the package found as the running environment installed it
(editable in the development venv, a wheel in the compiled one), as a
user's checker finds it. (On ``MYPYPATH`` it would be checked as the user's
own code, generated stubs included, which no user's checker does.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.test_readme import BLOCKS

ROOT = Path(__file__).resolve().parent.parent
USER_SCRIPT = ROOT / "tests" / "data" / "typed" / "user_script.py"


def test_the_user_script_runs() -> None:
    result = subprocess.run(
        [sys.executable, str(USER_SCRIPT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""


def test_readme_snippets_and_a_user_script_pass_mypy_strict(tmp_path: Path) -> None:
    files = []
    for i, block in enumerate(BLOCKS):
        path = tmp_path / f"readme_block{i}.py"
        path.write_text(block)
        files.append(path.name)
    (tmp_path / "user_script.py").write_text(USER_SCRIPT.read_text())
    files.append("user_script.py")
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n")
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            "mypy.ini",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            *files,
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"Success: no issues found in {len(files)} source files")
