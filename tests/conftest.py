"""Shared fixtures: the repository paths and the Go conformance consumer."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

try:
    from hypothesis import settings
except ImportError:  # the installed-wheel run (make test-wheel) takes no Hypothesis test
    pass
else:
    # No test has a wall-clock deadline: under load (two suites at once, a
    # busy CI machine) Hypothesis's default of 200 ms per example fails tests
    # that are correct. Every @settings that names no deadline inherits this.
    settings.register_profile("taskspec", deadline=None)
    settings.load_profile("taskspec")


def _contract_or_exit() -> None:
    """Stop the run with one message when the proto's contract options are incomplete.

    Importing taskspec refuses a field without its decisions; without this,
    every test would fail on that import, and the one useful message would
    be buried among them.
    """
    try:
        import taskspec  # noqa: F401, PLC0415
    except RuntimeError as err:
        if type(err).__name__ != "ContractError":
            raise
        pytest.exit(f"the proto's contract options are incomplete: {err}", returncode=4)


_contract_or_exit()

from tests.conformance.gobridge import GoConsumer  # noqa: E402

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
