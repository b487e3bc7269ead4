"""A temporary repository shaped like a real evaluation harness, for CLI tests.

It holds what a harness repository really holds next to its sidecars, so
that the command line is tested where users run it: GitHub workflows, a
pre-commit configuration, a virtualenv and ``node_modules`` (both full of
YAML, some of it even named ``taskspec.yaml``), a ``.git`` directory, runs
under ``.agents/eval/runs/<run-id>/`` and hand-edited sidecars with comments.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tests.helpers import VALID_DOC

__all__ = ["COMMENTED_DOC", "Harness", "make_harness"]

#: A sidecar as a person keeps it: comments above keys and list items, at
#: the end of lines, and at the end of the file; otherwise canonical.
COMMENTED_DOC = (
    b"# owner: platform-eval, INC-1234\n"
    + VALID_DOC.replace(
        b"language: go\n", b"language: go # the harness image pins go1.26\n"
    ).replace(
        b"    test_cmd:\n",
        b"    # the race detector doubles the run time; keep the timeout in step\n    test_cmd:\n",
    )
    + b"# reviewed 2026-11-02\n"
)

#: Not sidecars, but YAML that a walk of every *.yaml would trip over.
_OTHER_YAML = {
    ".github/workflows/ci.yaml": b"on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n",
    ".pre-commit-config.yaml": b"repos:\n  - repo: local\n    hooks: []\n",
    "docker-compose.yaml": b"services:\n  db:\n    image: postgres\n",
    "config/settings.yaml": b"level: [debug\n",  # not even valid YAML
}
#: Sidecar-named files in places a walk must skip.
_SKIPPED_SIDECARS = (
    ".git/taskspec.yaml",
    ".venv/lib/python3.11/site-packages/evalkit/data/taskspec.yaml",
    "node_modules/@harness/fixtures/taskspec.yaml",
    "tools/env/lib/bundled.taskspec.yaml",  # tools/env is a venv of another name
)


@dataclass(frozen=True)
class Harness:
    root: Path
    #: The sidecars a default walk checks, in walk order.
    sidecars: tuple[Path, ...]
    #: The commented sidecars among them.
    commented: tuple[Path, ...]


def make_harness(root: Path) -> Harness:
    """Write the harness repository under *root* and describe it."""
    for name, data in _OTHER_YAML.items():
        _write(root / name, data)
    for name in _SKIPPED_SIDECARS:
        _write(root / name, b"task_spec_version: [this file must never be read\n")
    _write(root / ".venv" / "pyvenv.cfg", b"home = /usr/bin\n")
    _write(root / "tools" / "env" / "pyvenv.cfg", b"home = /usr/bin\n")
    _write(root / "pyproject.toml", b'[project]\nname = "harness"\n')
    runs = root / ".agents" / "eval" / "runs"
    run1 = _write(runs / "run-0001" / "taskspec.yaml", COMMENTED_DOC)
    run2 = _write(runs / "run-0002" / "taskspec.yaml", VALID_DOC)
    _write(runs / "run-0002" / "result.yaml", b"passed: true\n")
    task = _write(root / "tasks" / "gcd.taskspec.yaml", COMMENTED_DOC)
    return Harness(root, (run1, run2, task), (run1, task))


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path
