"""The shared conformance vectors (``tests/conformance/vectors/``) as typed records.

The vectors are Go's recorded answers (see :mod:`tests.conformance.generate`),
so every check against them runs without Go. The helpers here load them
once and run a check over a whole class, collecting every failure into one
assertion so that a regression names all the vectors it breaks at once.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from taskspec import TaskSpec, TaskSpecError
from tests.conformance.gobridge import spec_from_json
from tests.conformance.paths import CLASSES, STRICTER_FILE, VECTORS_DIR

__all__ = [
    "CLASSES",
    "STRICTER_FILE",
    "VECTORS_DIR",
    "Vector",
    "budget_refusals",
    "check_each",
    "first_difference",
    "in_memory_stricter_rules",
    "load",
    "stricter",
]


@dataclass(frozen=True, slots=True)
class Vector:
    """One vector: its class, its document bytes and its manifest entry."""

    kind: str
    file: str
    data: bytes
    meta: Mapping[str, Any]

    @property
    def name(self) -> str:
        """``class/stem``, the name stricter.json and failure reports use."""
        return f"{self.kind}/{Path(self.file).stem}"

    @property
    def note(self) -> str:
        return str(self.meta["note"])

    def spec(self, key: str = "spec") -> TaskSpec:
        """The manifest's SPEC object under *key* as a message."""
        return spec_from_json(self.meta[key])


@cache
def load(kind: str) -> tuple[Vector, ...]:
    """Every vector of one class, in manifest order."""
    directory = VECTORS_DIR / kind
    manifest = json.loads((directory / "manifest.json").read_text(encoding="ascii"))
    assert manifest["class"] == kind
    return tuple(
        Vector(kind, case["file"], (directory / case["file"]).read_bytes(), case)
        for case in manifest["cases"]
    )


@cache
def stricter() -> Mapping[str, Mapping[str, Any]]:
    """stricter.json's ``vectors`` table: vector name to its rule, note and exact refusal."""
    table = json.loads(STRICTER_FILE.read_text(encoding="ascii"))
    vectors: dict[str, dict[str, Any]] = table["vectors"]
    return vectors


def budget_refusals() -> Mapping[str, Mapping[str, Any]]:
    """stricter.json's ``budgets`` table: vectors the Go package rejects with its own
    message that both libraries refuse first with a shared budget's message."""
    table = json.loads(STRICTER_FILE.read_text(encoding="ascii"))
    budgets: dict[str, dict[str, Any]] = table["budgets"]
    return budgets


def in_memory_stricter_rules() -> Mapping[str, str]:
    """stricter.json's ``in_memory`` table: rules exercised by a test rather than a vector."""
    table = json.loads(STRICTER_FILE.read_text(encoding="ascii"))
    rules: dict[str, str] = table["in_memory"]
    return rules


def first_difference(want: bytes, got: bytes) -> str:
    """A short description of where two byte strings first differ."""
    at = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b), None)
    if at is None:
        at = min(len(want), len(got))
    line = want[:at].count(b"\n") + 1
    return (
        f"first difference at byte {at} (line {line}): "
        f"want {want[max(0, at - 20) : at + 30]!r}, got {got[max(0, at - 20) : at + 30]!r}"
    )


def check_each(items: Iterable[Vector], check: Callable[[Vector], str | None]) -> int:
    """Run *check* on every vector; fail once, listing every vector it reported.

    *check* returns None when the vector passes and a reason otherwise; a
    TaskSpecError escaping it counts as a failure with that error. Returns
    how many vectors were checked, so callers can assert the set was not empty.
    """
    failures: list[str] = []
    count = 0
    for vector in items:
        count += 1
        try:
            reason = check(vector)
        except TaskSpecError as err:
            reason = f"unexpected {type(err).__name__}: {err}"
        if reason is not None:
            failures.append(f"{vector.name} ({vector.note}): {reason}")
    shown = "\n  ".join(failures[:25])
    more = f"\n  ... and {len(failures) - 25} more" if len(failures) > 25 else ""
    assert not failures, f"{len(failures)} of {count} vectors failed:\n  {shown}{more}"
    return count
