"""The README's Python examples run, and print what the README says they print."""

from __future__ import annotations

import contextlib
import io
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.S)


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


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example(block: str) -> None:
    buf = io.StringIO()
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(block, "README.md", "exec"), {"__name__": "readme_example"})
    finally:
        os.chdir(cwd)
    assert buf.getvalue().splitlines() == expected_output(block)
