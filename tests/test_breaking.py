"""The versioning gate bites: buf breaking fails on reader-breaking changes to v1."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

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
        (r"string task_id = 2;", "string task_identifier = 2;", "FIELD_SAME_NAME"),
        (r"string prompt = 7;", "string prompt = 17;", "FIELD_NO_DELETE"),
        (r"int64 timeout_seconds = 3;", "int32 timeout_seconds = 3;", "FIELD_SAME_TYPE"),
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
    edit(
        workdir,
        r"  Verification verification = 9;\n",
        "  Verification verification = 9;\n  optional string notes = 10;\n",
    )
    edit(
        workdir,
        r"  LANGUAGE_TYPESCRIPT = 3;\n",
        "  LANGUAGE_TYPESCRIPT = 3;\n  LANGUAGE_RUST = 4;\n",
    )
    result = breaking(workdir)
    assert result.returncode == 0, result.stdout + result.stderr
