"""The versioning gates bite: buf breaking and the contract check refuse breaking v1 changes.

``make breaking`` runs both: ``buf breaking`` for names, numbers and types,
and ``scripts/check_contract.py`` for the contract options, which buf
ignores. Each test edits a scratch copy of the schema; the new field's
number is the next free one, read from the descriptors.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taskspec import TaskSpec
from taskspec.v1 import taskspec_pb2

ROOT = Path(__file__).resolve().parent.parent
BUF = ROOT / ".venv" / "bin" / "buf"
PROTO = Path("proto/taskspec/v1/taskspec.proto")


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    if not BUF.exists():
        pytest.fail("buf is not installed in .venv: run make venv")
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    shutil.copy(ROOT / "buf.yaml", tmp_path / "buf.yaml")
    (tmp_path / "release").mkdir()
    shutil.copy(ROOT / "release" / "taskspec-v1.binpb", tmp_path / "release")
    return tmp_path


#: The next free field number of TaskSpec.
NEXT = max(f.number for f in TaskSpec.DESCRIPTOR.fields) + 1


def contract(workdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "check_contract.py"),
            "--buf",
            str(BUF),
            "--against",
            "release/taskspec-v1.binpb",
        ],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
    )


def add_field(workdir: Path, declaration: str) -> None:
    """Add *declaration* (with ``{n}`` for its number) as TaskSpec's last field."""
    path = workdir / PROTO
    text = path.read_text()
    head, sep, tail = text.partition("\nmessage TaskSpec {\n")
    body, end, rest = tail.partition("\n}\n")
    path.write_text(head + sep + body + "\n  " + declaration.format(n=NEXT) + end + rest)


def breaking(workdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BUF), "breaking", "--against", "release/taskspec-v1.binpb", "--error-format", "json"],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
    )


def edit(workdir: Path, old: str, new: str) -> None:
    path = workdir / PROTO
    text = path.read_text()
    assert len(re.findall(old, text)) == 1, old
    path.write_text(re.sub(old, new, text))


def test_unchanged_schema_passes(workdir: Path) -> None:
    result = breaking(workdir)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("old", "new", "rule"),
    [
        (r"string task_id = 2 \[", "string task_identifier = 2 [", "FIELD_SAME_NAME"),
        (r"string prompt = 7 \[", "string prompt = 17 [", "FIELD_NO_DELETE"),
        (r"int64 timeout_seconds = 3 \[", "int32 timeout_seconds = 3 [", "FIELD_SAME_TYPE"),
        (r"  LANGUAGE_TYPESCRIPT = 3;\n", "", "ENUM_VALUE_NO_DELETE"),
        (r"DIFFICULTY_HARD = 3;", "DIFFICULTY_DIFFICULT = 3;", "ENUM_VALUE_SAME_NAME"),
        (
            r"GENERATED_KIND_BENCHMARK_SEED = 2;",
            "GENERATED_KIND_BENCH_SEED = 2;",
            "ENUM_VALUE_SAME_NAME",
        ),
    ],
    ids=[
        "rename-field",
        "renumber-field",
        "retype-field",
        "remove-enum-value",
        "rename-enum-value",
        "rename-kind",
    ],
)
def test_reader_breaking_change_fails(workdir: Path, old: str, new: str, rule: str) -> None:
    edit(workdir, old, new)
    result = breaking(workdir)
    assert result.returncode != 0
    assert f'"type":"{rule}"' in result.stdout.replace(" ", ""), result.stdout


def test_additive_changes_pass(workdir: Path) -> None:
    add_field(
        workdir,
        "string notes = {n} [(field) = {{\n"
        "    presence: PRESENCE_OMIT_EMPTY\n    visibility: VISIBILITY_SHOWN\n  }}];",
    )
    # A value after the last, with the next free number (the proto may have
    # gained values since this was written).
    values = taskspec_pb2.Language.DESCRIPTOR.values
    last = max(values, key=lambda v: v.number)
    edit(
        workdir,
        rf"  {last.name} = {last.number};\n",
        f"  {last.name} = {last.number};\n  LANGUAGE_ADDED_HERE = {last.number + 1};\n",
    )
    result = breaking(workdir)
    assert result.returncode == 0, result.stdout + result.stderr
    result = contract(workdir)
    assert result.returncode == 0, result.stdout + result.stderr


def test_unchanged_contract_passes(workdir: Path) -> None:
    result = contract(workdir)
    assert result.returncode == 0, result.stderr
    assert "no breaking change" in result.stdout


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            r"(role = 2 \[\(field\) = \{\n    presence: )PRESENCE_OMIT_EMPTY",
            r"\1PRESENCE_ALWAYS",
            "taskspec.v1.SolutionArtifact.role: presence changed from PRESENCE_OMIT_EMPTY to "
            "PRESENCE_ALWAYS",
        ),
        (
            r"(build_cmd = 1 \[\(field\) = \{\n    presence: PRESENCE_OMIT_EMPTY\n"
            r"    visibility: )VISIBILITY_HIDDEN",
            r"\1VISIBILITY_SHOWN",
            "taskspec.v1.Verification.build_cmd: visibility changed from VISIBILITY_HIDDEN",
        ),
        (
            r'message: "task_id is required"',
            'message: "task_id must be set"',
            "taskspec.v1.TaskSpec.task_id: rule changed from",
        ),
        (
            r"timeout_seconds = 3 \[\(field\) = \{\n(.*\n){3}"
            r"      check: CHECK_AT_LEAST\n      bound: 0",
            "timeout_seconds = 3 [(field) = {\n    presence: PRESENCE_OMIT_EMPTY\n"
            "    visibility: VISIBILITY_HIDDEN\n    rule: {\n      check: CHECK_AT_LEAST\n"
            "      bound: 1",
            "taskspec.v1.Verification.timeout_seconds: rule changed from",
        ),
        (
            r"max_nodes: 100000",
            "max_nodes: 50000",
            "taskspec.v1.TaskSpec: limits changed from",
        ),
    ],
    ids=["presence", "visibility", "rule-message", "rule-bound", "limit"],
)
def test_contract_change_fails(workdir: Path, old: str, new: str, said: str) -> None:
    edit(workdir, old, new)
    assert breaking(workdir).returncode == 0, "buf breaking alone does not see this change"
    result = contract(workdir)
    assert result.returncode == 1
    assert said in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (
            "presence: PRESENCE_ALWAYS\n    visibility: VISIBILITY_SHOWN",
            "a new field must be omitted from YAML when empty",
        ),
        (
            "presence: PRESENCE_OMIT_EMPTY\n    visibility: VISIBILITY_SHOWN\n"
            '    rule: {{check: CHECK_NOT_BLANK message: "notes is required"}}',
            "a new field cannot have a rule that its zero value breaks (CHECK_NOT_BLANK)",
        ),
    ],
    ids=["always-written", "required"],
)
def test_new_field_that_breaks_v1_fails(workdir: Path, options: str, said: str) -> None:
    add_field(workdir, "string notes = {n} [(field) = {{\n    " + options + "\n  }}];")
    assert breaking(workdir).returncode == 0
    result = contract(workdir)
    assert result.returncode == 1
    assert f"taskspec.v1.TaskSpec.notes: {said}" in result.stderr, result.stderr
