"""The documentation's Python examples run as a user runs them, and print what they say.

The examples are the ``python`` blocks of the README and of the pages of
``docs/`` (``tests/docs.py`` reads them all).

Each example is a script of its own, run by this Python in a fresh empty
directory outside the repository, so an example that reads a file of the
repository (``examples/...``) fails here as it would after ``pip install``:
the examples build what they read. ``make test-wheel`` runs this module
with the compiled wheel installed into a venv of its own, where the
examples import the installed package. Besides the output, a script must
write nothing to stderr: no warning, no log line (gRPC's C core logs a
connection that is still open when its server stops), and it lingers a
moment after its last line, as a longer program would, so that such a line
has the time to appear.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs import README, blocks

BLOCKS = blocks("python")

#: Seconds a script that uses gRPC stays alive after its last line.
LINGER = 0.5

#: Runs the example, first checking, in the wheel's venv, that the package
#: it imports is the installed one and not the repository's python/.
RUNNER = """\
import os, runpy, sys, time
if os.environ.get("TASKSPEC_EXPECT_INSTALLED", "") not in ("", "0"):
    import taskspec
    assert taskspec.__file__.startswith(sys.prefix + os.sep), taskspec.__file__
runpy.run_path(sys.argv[1], run_name="__main__")
time.sleep(float(sys.argv[2]))
"""


def expected_output(block: str) -> list[str]:
    """The comment lines that directly follow a print(...) call are its output."""
    out: list[str] = []
    lines = block.splitlines()
    for i, line in enumerate(lines):
        if "print(" not in line:
            continue
        for follow in lines[i + 1 :]:
            stripped = follow.strip()
            if not stripped.startswith("# "):
                break
            out.append(stripped[2:])
    return out


def test_readme_has_examples() -> None:
    assert len(BLOCKS) >= 4
    # The quick start is the README's own, and runs with the rest.
    (quick_start, *_) = blocks("python", README)
    assert quick_start in BLOCKS


def test_no_example_reads_a_file_of_the_repository() -> None:
    for block in BLOCKS:
        assert "examples/" not in block, block


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example(block: str, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(block)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONWARNINGS")}
    linger = LINGER if "taskspec.remote" in block else 0.0
    result = subprocess.run(
        [sys.executable, "-c", RUNNER, str(script), str(linger)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout.splitlines() == expected_output(block)
