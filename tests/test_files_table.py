"""load and save by the file's name: the shared table, round trips, and the Go library's bytes.

``tests/contract/files.json`` holds files (a name, and text or base64) and
what reading each gives: the spec, as canonical JSON, or the first problem.
``go/files_table_test.go`` runs the same cases through the Go library's
``Load``, ``LoadFormat`` and ``LoadFS``; here they go through
:func:`taskspec.load`. The two libraries then also write the same bytes for
the same spec and name, which the Go consumer's ``lib_save`` shows.
"""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

import pytest

import taskspec
from taskspec import Format, TaskSpec, TaskSpecError
from taskspec._codes import CATALOGUE
from taskspec._format import _EXTENSIONS
from tests.conformance.gobridge import GoConsumer
from tests.conftest import ROOT
from tests.helpers import valid_spec

TABLE: dict[str, Any] = json.loads(
    (ROOT / "tests" / "contract" / "files.json").read_text(encoding="utf-8")
)
CASES: list[dict[str, Any]] = TABLE["cases"]

#: One name per extension a format has, in any case.
NAMES = {
    "taskspec.yaml": Format.YAML,
    "t.YML": Format.YAML,
    "t.taskspec.json": Format.JSON,
    "t.binpb": Format.BINPB,
    "t.PB": Format.BINPB,
}


def _data(case: dict[str, Any]) -> bytes:
    if "text" in case:
        return str(case["text"]).encode("utf-8")
    return base64.b64decode(case["base64"])


def test_the_table_covers_every_outcome() -> None:
    codes = {case["problem"]["code"] for case in CASES if "problem" in case}
    assert {"TS903", "TS001", "TS020", "TS021", "TS101", ""} <= codes
    assert {case["name"].rsplit(".", 1)[-1] for case in CASES if "json" in case} >= {
        "yaml",
        "yml",
        "YAML",
        "json",
        "JSON",
        "binpb",
        "pb",
    }
    assert any("format" in case for case in CASES)
    # The words of a file-name problem are a form of the catalogue's TS903.
    assert CATALOGUE["TS903"].stage == "file"


@pytest.mark.parametrize("case", CASES, ids=[c["description"] for c in CASES])
def test_load_reads_each_file_as_the_table_says(tmp_path: Path, case: dict[str, Any]) -> None:
    path = tmp_path / case["name"]
    path.write_bytes(_data(case))
    if "json" in case:
        spec = taskspec.load(path, format=case.get("format"))
        assert taskspec.marshal_json(spec).decode("utf-8") == case["json"]
        return
    with pytest.raises(TaskSpecError) as info:
        taskspec.load(path, format=case.get("format"))
    v = info.value.violations[0]
    want = case["problem"]
    assert (v.code, v.field_path, v.message, v.hint) == (
        want["code"],
        want["field_path"],
        want["message"],
        want["hint"],
    )


@pytest.mark.parametrize("name", sorted(NAMES))
def test_save_then_load_round_trips_in_each_format(tmp_path: Path, name: str) -> None:
    spec = valid_spec()
    spec.difficulty_signals["z10"] = -3
    path = tmp_path / name
    taskspec.save(path, spec)
    assert path.read_bytes() == taskspec.marshal(spec, NAMES[name])
    assert taskspec.load(path) == spec
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_the_format_given_overrides_the_name(tmp_path: Path) -> None:
    spec = valid_spec()
    path = tmp_path / "spec.yaml"
    taskspec.save(path, spec, format="binpb")
    assert path.read_bytes() == taskspec.marshal_binpb(spec)
    assert taskspec.load(path, format=Format.BINPB) == spec
    with pytest.raises(TaskSpecError) as info:
        taskspec.load(path)  # read as YAML, as its name says
    assert info.value.violations[0].code == "TS008"


@pytest.mark.parametrize("name", ["spec.txt", "taskspec", "taskspec.yaml.bak"])
def test_save_refuses_a_name_that_names_no_format_and_writes_nothing(
    tmp_path: Path, name: str
) -> None:
    with pytest.raises(TaskSpecError) as info:
        taskspec.save(tmp_path / name, valid_spec())
    (v,) = info.value.violations
    assert v.code == "TS903"
    assert v.hint == "expected one of: " + ", ".join(_EXTENSIONS)
    assert not list(tmp_path.iterdir())


def test_save_refuses_an_unknown_format_before_validating(tmp_path: Path) -> None:
    invalid = TaskSpec()
    with pytest.raises(TaskSpecError, match='unknown format "toml"'):
        taskspec.save(tmp_path / "spec.yaml", invalid, format="toml")
    with pytest.raises(TaskSpecError) as info:
        taskspec.save(tmp_path / "spec.txt", invalid)
    assert info.value.violations[0].code == "TS903"
    assert not list(tmp_path.iterdir())


def test_json_over_the_size_limit_is_refused_though_its_yaml_fits(tmp_path: Path) -> None:
    spec = valid_spec()
    spec.prompt = '"' * (9 * 1024 * 1024)  # 9 MiB of YAML, 18 MiB of JSON
    with pytest.raises(TaskSpecError, match="cannot write: the JSON would be") as info:
        taskspec.save(tmp_path / "spec.json", spec)
    assert info.value.violations[0].field_path == "prompt"
    assert not list(tmp_path.iterdir())


def test_load_refuses_a_fifo_with_a_known_extension_at_once(tmp_path: Path) -> None:
    for name in ("spec.json", "spec.binpb", "spec.txt"):
        fifo = tmp_path / name
        os.mkfifo(fifo)  # no writer: a blocking open would hang forever
        with pytest.raises(OSError, match="a FIFO"):
            taskspec.load(fifo)


@pytest.mark.parametrize("name", sorted(NAMES))
def test_both_libraries_save_the_same_bytes_for_a_name(
    go: GoConsumer, tmp_path: Path, name: str
) -> None:
    spec = valid_spec()
    spec.difficulty_signals.update({"a10": 1, "a9": 2, "é": 3})
    ours, theirs = tmp_path / "py" / name, tmp_path / "go" / name
    ours.parent.mkdir()
    theirs.parent.mkdir()
    taskspec.save(ours, spec)
    binpb = base64.b64encode(spec.SerializeToString(deterministic=True)).decode("ascii")
    res = go.request(op="lib_save", binpb_b64=binpb, path=str(theirs))
    assert res["ok"], res
    assert theirs.read_bytes() == ours.read_bytes()
    assert ours.read_bytes() == taskspec.marshal(spec, NAMES[name])


def test_both_libraries_refuse_a_name_that_names_no_format(go: GoConsumer, tmp_path: Path) -> None:
    spec = valid_spec()
    binpb = base64.b64encode(spec.SerializeToString(deterministic=True)).decode("ascii")
    path = tmp_path / "spec.txt"
    res = go.request(op="lib_save", binpb_b64=binpb, path=str(path))
    assert not res["ok"]
    with pytest.raises(TaskSpecError) as info:
        taskspec.save(path, spec)
    # The Go error is the path, ": ", its prefix, then the same words.
    assert res["error"].startswith(f"{path}: ")
    assert res["error"].endswith(str(info.value))
    assert not list(tmp_path.iterdir())
