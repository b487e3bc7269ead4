"""Sidecar discovery in a harness-shaped repository: what validate and fmt look at."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from taskspec import marshal_json, parse_task_spec
from taskspec.cli._discover import DEFAULT_INCLUDE, Selection, find_config, walk
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
    assert lines[0].startswith("config/settings.yaml:2:1: TS013 invalid YAML: ")
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
    assert out.startswith("./-:2:1: TS015 invalid YAML: ")


def test_a_directory_without_sidecars_warns(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "validate", "config", "tasks")
    assert (code, out) == (0, "")
    assert err.splitlines()[0] == (
        f"taskspec: warning: no sidecars found in config (looked for {', '.join(DEFAULT_INCLUDE)})"
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


# -- git's ignore rules and --force-exclude --------------------------------------


def _repo(root: Path) -> Path:
    """A scratch git repository with sidecars that git ignores in each way git can."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    for rel in (
        "keep/taskspec.yaml",
        "out/run-9/taskspec.yaml",  # ignored by the top .gitignore
        "sub/build/taskspec.yaml",  # ignored by a nested .gitignore
        "sub/build-keep/taskspec.yaml",
        "scratch/taskspec.yaml",  # ignored by .git/info/exclude
        "logs/wanted.taskspec.yaml",  # re-included with !
        "logs/other.taskspec.yaml",
    ):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(VALID_DOC)
    (root / ".gitignore").write_text("out/\nlogs/*\n!logs/wanted.taskspec.yaml\n")
    (root / "sub" / ".gitignore").write_text("build/\n")
    (root / ".git" / "info" / "exclude").write_text("scratch\n")
    return root


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_walk_leaves_out_what_git_ignores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path / "repo")
    monkeypatch.chdir(root)
    kept = ["keep/taskspec.yaml", "logs/wanted.taskspec.yaml", "sub/build-keep/taskspec.yaml"]
    assert walked(".") == kept
    # What git itself says is ignored is exactly what the walk left out.
    listed = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert sorted(p for p in listed if p.endswith("taskspec.yaml")) == kept
    # From a subdirectory, the rules above it still hold.
    assert walked("sub") == ["sub/build-keep/taskspec.yaml"]
    # --no-ignore walks everything.
    code, _, err = run(capsys, "validate", "--no-ignore", ".")
    assert (code, err.split(" in ")[0]) == (0, "7 valid, 0 invalid,")
    code, _, err = run(capsys, "validate", ".")
    assert (code, err.split(" in ")[0]) == (0, "3 valid, 0 invalid,")
    # Named on the command line, an ignored file is still checked...
    code, _, err = run(capsys, "validate", "out/run-9/taskspec.yaml")
    assert err.startswith("1 valid")
    # ...unless --force-exclude asks for what a walk would check.
    code, _, err = run(capsys, "validate", "--force-exclude", "out/run-9/taskspec.yaml")
    assert err.splitlines()[-1].startswith("0 valid, 0 invalid")


def test_force_exclude_applies_include_and_exclude_to_named_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taskspec]\ninclude = ["taskspec.yaml", "*.task.yaml"]\n'
        'exclude = ["charts/*", "fixtures"]\n'
    )
    broken = VALID_DOC.replace(b"task_id:", b"taskid:")
    for rel in (
        "charts/eval/templates/taskspec.yaml",  # excluded by a path pattern
        "tests/fixtures/taskspec.yaml",  # in an excluded directory
        "node_modules/pkg/taskspec.yaml",  # in a directory always skipped
        "ci.yaml",  # matches no include pattern
        "a.taskspec.yaml",  # nor does this, with this include
        "tasks/gcd.task.yaml",  # included
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(broken)
    named = [
        "charts/eval/templates/taskspec.yaml",
        "tests/fixtures/taskspec.yaml",
        "node_modules/pkg/taskspec.yaml",
        "ci.yaml",
        "a.taskspec.yaml",
        "./tasks/gcd.task.yaml",
        str(tmp_path / "tests" / "fixtures" / "taskspec.yaml"),  # absolute, still excluded
    ]
    code, out, _ = run(capsys, "validate", "--force-exclude", *named)
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()] == ["./tasks/gcd.task.yaml"]
    # Without it, naming a file is the user's choice: all are checked.
    code, out, _ = run(capsys, "validate", *named)
    assert len({line.split(":")[0] for line in out.splitlines()}) == len(named)
    # fmt takes the flag too.
    code, out, err = run(capsys, "fmt", "--check", "--force-exclude", *named)
    assert out == ""
    assert (
        err.splitlines()[-1] == "0 files would be reformatted, 0 already formatted, 1 not formatted"
    )


def test_validate_without_a_path_checks_the_working_directory(
    harness: Harness, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "validate")
    assert (code, out) == (0, "")
    assert err.startswith(f"{len(harness.sidecars)} valid, 0 invalid, in ")
    (harness.root / "tasks" / "gcd.taskspec.yaml").write_bytes(b"taskid: x\n")
    assert run(capsys, "validate")[:2] == run(capsys, "validate", ".")[:2]
    code, out, err = run(capsys, "validate")
    assert code == 1
    assert out.startswith("tasks/gcd.taskspec.yaml:1:1: TS001 ")


def test_a_sidecar_spelt_yml_is_checked_with_a_warning_naming_the_spelling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "taskspec.yml").write_bytes(VALID_DOC)
    (tmp_path / "gcd.taskspec.yml").write_bytes(b"taskid: x\n")
    (tmp_path / "ci.yml").write_text("on: push\n")  # not a sidecar by any spelling
    (tmp_path / "taskspec.yaml").write_bytes(VALID_DOC)
    warned = [
        "taskspec: warning: gcd.taskspec.yml: a sidecar's name ends in .yaml; "
        "rename it to gcd.taskspec.yaml",
        "taskspec: warning: run/taskspec.yml: a sidecar's name ends in .yaml; "
        "rename it to taskspec.yaml",
    ]
    code, out, err = run(capsys, "validate", ".")
    # Checked: the invalid one is reported, and the valid ones counted.
    assert code == 1
    assert out.startswith("gcd.taskspec.yml:1:1: TS001 ")
    assert [line for line in err.splitlines() if "warning" in line] == warned
    assert err.splitlines()[-1].startswith("2 valid, 1 invalid")
    # Named, by pre-commit, the same: checked and warned of.
    code, out, err = run(capsys, "validate", "--force-exclude", "gcd.taskspec.yml", "ci.yml")
    assert (code, err.splitlines()[0]) == (1, warned[0])
    assert {line.split(":")[0] for line in out.splitlines()} == {"gcd.taskspec.yml"}
    # fmt formats the valid one, and warns of both.
    code, out, err = run(capsys, "fmt", "--check", ".")
    assert code == 1
    assert [line for line in err.splitlines() if "warning" in line] == warned
    # A configuration that names only .yaml leaves them out, and says so.
    code, out, err = run(capsys, "validate", "--include", "*taskspec.yaml", ".")
    assert (code, out) == (0, "")
    assert err.splitlines()[:2] == [
        "taskspec: warning: skipped gcd.taskspec.yml: a sidecar's name ends in .yaml; "
        "rename it to gcd.taskspec.yaml to check it",
        "taskspec: warning: skipped run/taskspec.yml: a sidecar's name ends in .yaml; "
        "rename it to taskspec.yaml to check it",
    ]
    # Where the configuration includes *.yml, the file is checked, without a word.
    code, out, err = run(capsys, "validate", "--include", "*.yml", ".")
    assert "warning" not in err


def test_a_json_sidecar_is_found_and_read_as_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "ok.taskspec.json").write_bytes(marshal_json(parse_task_spec(VALID_DOC)))
    (tmp_path / "tasks" / "x.taskspec.json").write_text('{"taskId": 7}')
    (tmp_path / "package.json").write_text('{"name": "not a sidecar"}')
    (tmp_path / "taskspec.json").write_text('{"taskid": "x"}')
    assert walked(".") == ["taskspec.json", "tasks/ok.taskspec.json", "tasks/x.taskspec.json"]
    code, out, err = run(capsys, "validate", ".")
    assert code == 1
    # Read as proto3 JSON: its own words (a JSON name in the hint), not YAML's.
    assert out.startswith('taskspec.json: TS001 unknown field "taskid"')
    assert "tasks/x.taskspec.json: TS003 task_id: expected a string, got the number 7" in out
    assert "tasks/ok.taskspec.json" not in out
    assert err.splitlines()[-1].startswith("1 valid, 2 invalid")
    # fmt formats YAML only: below a directory, a JSON sidecar is passed over.
    code, out, err = run(capsys, "fmt", "--check", "tasks")
    assert (code, out) == (0, "")
    assert "TS903" not in err
    # So is one pre-commit names, under --force-exclude; named alone, it is refused.
    code, out, err = run(capsys, "fmt", "--check", "--force-exclude", "tasks/x.taskspec.json")
    assert (code, out, err) == (0, "", "")
    code, out, err = run(capsys, "fmt", "--check", "tasks/x.taskspec.json")
    assert code == 1
    assert "TS903" in err
