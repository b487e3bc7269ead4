"""The hand-written conformance documents in ``sources/``, as typed records.

``sources/rejected/`` holds documents Go's ParseTaskSpec rejects and
``sources/accepted/`` the odd ones it accepts: each document is a file,
byte for byte what Go is given, and each directory's ``manifest.yaml``
lists its cases in order with what each shows and, for a rejected one, the
stage at which Go is expected to fail it. The generator asks Go for the
real outcome, fails loudly if Go disagrees with the manifest, and records
Go's answer as a vector of the same name.

``sources/accepted/base.yaml`` is the valid canonical sidecar the tests
share (:data:`BASE`); most documents are it with one change.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final, Literal, get_args

import yaml

from tests.conformance.paths import SOURCES_DIR

__all__ = ["BASE", "BASE_FILE", "MANIFEST", "Doc", "Stage", "load"]

Stage = Literal["decode", "validate", ""]

#: Each directory's list of cases.
MANIFEST: Final = "manifest.yaml"
#: The valid canonical sidecar most documents are edits of.
BASE_FILE: Final = SOURCES_DIR / "accepted" / "base.yaml"

_FIELDS: Final = {"rejected": ("name", "stage", "note"), "accepted": ("name", "note")}


@dataclass(frozen=True, slots=True)
class Doc:
    """One hand-written document.

    ``name`` is the vector's file stem (unique within its class), ``note``
    says what the document exercises, and ``stage`` is where Go is expected
    to reject it: ``decode`` (yaml.v3 fails) or ``validate`` (Validate
    fails); it is empty for accepted documents.
    """

    name: str
    note: str
    data: bytes
    stage: Stage = ""


#: The valid canonical sidecar the tests share, as bytes.
BASE: Final = BASE_FILE.read_bytes()


@cache
def load(kind: str, sources: Path = SOURCES_DIR) -> tuple[Doc, ...]:
    """Every document of one class (``rejected`` or ``accepted``), in manifest order.

    Raises ValueError if the manifest is malformed, names a document twice,
    or does not list exactly the ``*.yaml`` files beside it.
    """
    if kind not in _FIELDS:
        raise ValueError(f"no hand-written documents of class {kind!r}")
    directory = sources / kind
    manifest = directory / MANIFEST
    cases = yaml.safe_load(manifest.read_bytes())
    if not isinstance(cases, list):
        raise ValueError(f"{manifest}: expected a list of cases")
    entries = [_entry(manifest, _FIELDS[kind], case) for case in cases]
    names = [name for name, _, _ in entries]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"{manifest}: duplicate names {dupes}")
    on_disk = {p.stem for p in directory.glob("*.yaml") if p.name != MANIFEST}
    if on_disk != set(names):
        raise ValueError(
            f"{directory}: unlisted documents {sorted(on_disk - set(names))}, "
            f"missing documents {sorted(set(names) - on_disk)}"
        )
    return tuple(
        Doc(name, note, (directory / f"{name}.yaml").read_bytes(), stage)
        for name, note, stage in entries
    )


def _entry(manifest: Path, fields: tuple[str, ...], case: object) -> tuple[str, str, Stage]:
    """One case's name, note and stage, checked."""
    where = f"{manifest}: case {case!r}"
    if not isinstance(case, dict) or tuple(case) != fields:
        raise ValueError(f"{where}: expected the keys {', '.join(fields)}, in that order")
    if not all(isinstance(value, str) and value for value in case.values()):
        raise ValueError(f"{where}: every value must be a non-empty string")
    name: str = case["name"]
    if "/" in name or name.startswith(".") or f"{name}.yaml" == MANIFEST:
        raise ValueError(f"{where}: {name!r} cannot be a file stem")
    stage = case.get("stage", "")
    if stage not in get_args(Stage) or ("stage" in fields) != bool(stage):
        raise ValueError(f"{where}: unknown stage {stage!r}")
    return name, case["note"], stage
