"""Shared fixtures: the repository paths and the Go conformance consumer."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conformance.gobridge import GoConsumer

ROOT = Path(__file__).resolve().parent.parent
CONFORM = ROOT / ".bin" / "taskspec-conform"


def _require_go() -> bool:
    return os.environ.get("TASKSPEC_REQUIRE_GO", "") not in ("", "0")


@pytest.fixture(scope="session")
def go() -> Iterator[GoConsumer]:
    """The Go consumer (real yaml.v3 and the generated Go stubs), one process per run.

    Without Go on the machine the tests that need it are skipped, unless
    TASKSPEC_REQUIRE_GO=1 (as in CI), where a missing Go side is a failure.
    """
    if shutil.which("go") is None and not CONFORM.exists():
        if _require_go():
            pytest.fail("TASKSPEC_REQUIRE_GO is set but go is not installed")
        pytest.skip("go is not installed: cross-language checks skipped")
    if not CONFORM.exists() or _stale(CONFORM):
        subprocess.run(["make", "conform"], cwd=ROOT, check=True, capture_output=True)
    consumer = GoConsumer(CONFORM)
    try:
        yield consumer
    finally:
        consumer.close()


def _stale(binary: Path) -> bool:
    built = binary.stat().st_mtime
    sources = list((ROOT / "tests" / "conformance" / "go").rglob("*.go"))
    sources += list((ROOT / "gen" / "go").rglob("*.go"))
    sources += list((ROOT / "go").rglob("*.go"))
    return any(p.stat().st_mtime > built for p in sources)
