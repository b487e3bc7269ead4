"""Sidecar discovery in a harness-shaped repository: what validate and fmt look at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from taskspec.cli._discover import Selection, find_config, walk
from taskspec.cli._main import main
from tests.harness import Harness, make_harness
from tests.helpers import VALID_DOC


@pytest.fixture
def harness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Harness:
    monkeypatch.chdir(tmp_path)
    return make_harness(tmp_path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def walked(*paths: str, **selection: object) -> list[str]:
    return [str(item) for item in walk(paths, Selection.build(**selection))]  # type: ignore[arg-type]


def test_a_directory_walk_finds_only_sidecars(harness: Harness) -> None:
    assert walked(".") == [os.path.relpath(p) for p in harness.sidecars]


def test_validate_dot_in_a_harness_repository_is_green(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "validate", ".")
    assert (code, out) == (0, "")
    assert err.startswith("3 valid, 0 invalid, in ")


def test_a_file_named_on_the_command_line_is_checked_whatever_its_name(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "validate", "config/settings.yaml", ".venv/pyvenv.cfg")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("config/settings.yaml:2:1: TS005 invalid YAML: ")
    assert lines[1].startswith(".venv/pyvenv.cfg:1:1: ")


def test_include_replaces_the_patterns_but_skips_stay(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    assert walked(".", include=["*.yaml"]) == [
        ".pre-commit-config.yaml",
        "docker-compose.yaml",
        ".agents/eval/runs/run-0001/taskspec.yaml",
        ".agents/eval/runs/run-0002/result.yaml",
        ".agents/eval/runs/run-0002/taskspec.yaml",
        ".github/workflows/ci.yaml",
        "config/settings.yaml",
        "tasks/gcd.taskspec.yaml",
    ]
    # .git, node_modules and both virtualenvs are never entered.
    code, out, _ = run(capsys, "validate", "--include", "*.yaml", ".")
    assert code == 1
    assert "node_modules" not in out and ".venv" not in out and ".git/" not in out


def test_exclude_by_name_and_by_relative_path(harness: Harness) -> None:
    assert walked(".", exclude=[".agents"]) == ["tasks/gcd.taskspec.yaml"]
    assert walked(".", exclude=["tasks/*"]) == [
        ".agents/eval/runs/run-0001/taskspec.yaml",
        ".agents/eval/runs/run-0002/taskspec.yaml",
    ]
    assert walked(".", exclude=["run-000[12]"]) == ["tasks/gcd.taskspec.yaml"]


def test_pyproject_settings_are_found_upwards_and_flags_override(
    harness: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    (harness.root / "pyproject.toml").write_text(
        '[project]\nname = "harness"\n\n'
        "[tool.taskspec]\n"
        'include = ["taskspec.yaml", "*.task.yaml"]\n'
        'exclude = [".agents/eval/runs/run-0002"]\n'
    )
    (harness.root / "tasks" / "extra.task.yaml").write_bytes(VALID_DOC)
    monkeypatch.chdir(harness.root / "tasks")
    root = str(harness.root)
    assert walked(root) == [
        f"{root}/.agents/eval/runs/run-0001/taskspec.yaml",
        f"{root}/tasks/extra.task.yaml",
    ]
    # --include replaces the configured patterns; --exclude adds to the configured ones.
    assert walked(root, include=["*.taskspec.yaml"], exclude=["*.task.yaml"]) == [
        f"{root}/tasks/gcd.taskspec.yaml"
    ]
    assert walked(root, exclude=["run-0001"]) == [f"{root}/tasks/extra.task.yaml"]


def test_a_nearer_pyproject_without_the_table_is_passed_over(harness: Harness) -> None:
    (harness.root / "pyproject.toml").write_text('[tool.taskspec]\nexclude = ["tasks"]\n')
    nested = harness.root / "pkg"
    nested.mkdir()
    (nested / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    selection = find_config(str(nested))
    assert selection.source == str(harness.root / "pyproject.toml")
    assert [p.glob for p in selection.exclude] == ["tasks"]


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('[tool.taskspec]\nincludes = ["x"]\n', "unknown key 'includes'"),
        ('[tool.taskspec]\nexclude = "tasks"\n', "exclude must be a list of glob strings"),
        ("[tool.taskspec\n", "cannot read"),
    ],
)
def test_a_bad_configuration_is_a_usage_error(
    harness: Harness, capsys: pytest.CaptureFixture[str], table: str, message: str
) -> None:
    (harness.root / "pyproject.toml").write_text(table)
    for command in ("validate", "fmt"):
        code, out, err = run(capsys, command, ".")
        assert (code, out) == (2, "")
        assert message in err and "pyproject.toml" in err


def test_a_pyproject_that_is_not_utf8_is_a_usage_error(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    (harness.root / "pyproject.toml").write_bytes(b'[tool.taskspec]\nexclude = ["\xff"]\n')
    code, out, err = run(capsys, "validate", ".")
    assert (code, out) == (2, "")
    assert "pyproject.toml: cannot read: 'utf-8' codec can't decode byte 0xff" in err


def test_a_file_named_dash_below_dot_is_a_file_not_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_bytes(b"task_id: [\n")
    assert walked(".", include=["-"], use_config=False) == [os.path.join(os.curdir, "-")]
    code, out, _ = run(capsys, "validate", "--include", "-", ".")
    assert code == 1
    assert out.startswith("./-:2:1: TS005 invalid YAML: ")


def test_a_directory_without_sidecars_warns(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "validate", "config", "tasks")
    assert (code, out) == (0, "")
    assert err.splitlines()[0] == (
        "taskspec: warning: no sidecars found in config (looked for taskspec.yaml, *.taskspec.yaml)"
    )
    assert err.count("warning") == 1
    code, _, err = run(capsys, "fmt", "--check", "config")
    assert code == 0
    assert "no sidecars found in config" in err


def test_a_missing_path_is_reported_without_a_position(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    for argv in (["validate"], ["fmt"], ["fmt", "--check"], ["show"], ["convert", "--to", "json"]):
        code, out, err = run(capsys, *argv, "gone/taskspec.yaml")
        assert code == 1, argv
        assert "gone/taskspec.yaml: TS901 cannot read: No such file or directory\n" in out + err, (
            argv
        )
        assert ":1:1:" not in out + err


def test_symlinked_directories_are_not_followed_but_named_files_are(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    (harness.root / "loop").symlink_to(".")
    (harness.root / "linked.taskspec.yaml").symlink_to("tasks/gcd.taskspec.yaml")
    # A directory's own files come before its subdirectories.
    assert walked(".") == [
        "linked.taskspec.yaml",
        *(os.path.relpath(p) for p in harness.sidecars),
    ]
