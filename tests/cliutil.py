"""Run the taskspec command line in-process with byte-exact stdin, stdout and stderr.

pytest's capture fixtures are function-scoped, which Hypothesis does not
allow inside a property test, and they decode stdout as text, which binary
output is not; this swaps the three streams for in-memory ones instead.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence
from typing import NamedTuple

from taskspec.cli._main import main

__all__ = ["CliResult", "run_cli"]


class CliResult(NamedTuple):
    code: int
    out: bytes
    err: str


def run_cli(argv: Sequence[str], stdin: bytes = b"") -> CliResult:
    """Run ``taskspec *argv*`` with *stdin* as its standard input."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    fake_in = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    out, err = io.BytesIO(), io.BytesIO()
    fake_out = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    fake_err = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    sys.stdin, sys.stdout, sys.stderr = fake_in, fake_out, fake_err
    try:
        code = main(list(argv))
        fake_out.flush()
        fake_err.flush()
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
    return CliResult(code, out.getvalue(), err.getvalue().decode("utf-8"))
