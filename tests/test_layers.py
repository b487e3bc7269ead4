"""The package's layers: no import cycle, every module in a layer, no module too long.

``make lint`` runs import-linter on the contracts in ``pyproject.toml``
(CONTRIBUTING.md's dependency map). These tests hold the map to the package:
every module has a place in it, no two modules import each other by any
path (an import inside a function counts), and no hand-written module grows
past the length a reader can hold.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import grimp

#: The repository, and the package's sources in it (what any build installs).
ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "taskspec"

#: The most lines a hand-written module may have.
MAX_LINES = 600

#: Modules another change brings under MAX_LINES: each is named, never a pattern.
PENDING = {"cli/_cmd_validate.py"}


def _generated(path: Path) -> bool:
    """The stubs buf writes, and the modules ``make generate`` writes (``*_gen.py``)."""
    stub = path.parent.name == "v1" and path.stem.endswith(("_pb2", "_pb2_grpc"))
    return stub or path.stem.endswith("_gen")


def _contracts() -> list[dict[str, Any]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, Any]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def test_no_hand_written_module_is_over_the_bound() -> None:
    long = {
        str(p.relative_to(PACKAGE)): n
        for p in PACKAGE.rglob("*.py")
        if not _generated(p) and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert set(long) <= PENDING, long


def test_no_two_modules_import_each_other() -> None:
    graph = grimp.build_graph("taskspec")
    modules = sorted(graph.modules)
    cycles = []
    for i, a in enumerate(modules):
        for b in modules[i + 1 :]:
            there = graph.chain_exists(importer=a, imported=b)
            if there and graph.chain_exists(importer=b, imported=a):
                cycles.append((a, b))
    assert cycles == []


def test_every_module_has_its_layer() -> None:
    [layers] = [c for c in _contracts() if c["type"] == "layers"]
    placed = {name.strip() for layer in layers["layers"] for name in layer.split("|")}
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    modules |= {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    assert placed == modules
