"""The pre-commit hooks, run by the real pre-commit against a temporary git repository.

``pre-commit try-repo`` installs this checkout (uncommitted changes
included) into its own virtualenv, as a user's pre-commit would from a tag,
and runs the hooks that ``.pre-commit-hooks.yaml`` declares. The install
comes from PyPI, like any user's, so this is the slowest test in the suite;
both hooks share one install per call. The install is the pure build
(``TASKSPEC_COMPILE=0``, which pip passes on to the build): compiling with
mypyc is what takes the time, and the hooks run the same commands either way;
``make test-wheel`` and ``make test-compiled`` test the compiled build.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.harness import COMMENTED_DOC
from tests.helpers import VALID_DOC

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")


def test_the_hooks_take_every_yaml_file_and_let_the_config_decide() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in hooks] == ["taskspec-validate", "taskspec-fmt"]
    validate, fmt = hooks
    # Broad: [tool.taskspec] picks the sidecars. validate takes JSON too; fmt formats YAML only.
    assert validate["types_or"] == ["yaml", "json"] and "types" not in validate
    assert fmt["types"] == ["yaml"]
    for hook in hooks:
        assert hook["language"] == "python"
        assert "files" not in hook
        assert hook["entry"].endswith(" --force-exclude")
        assert hook["require_serial"] is True


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One PRE_COMMIT_HOME for the module: each hook environment is installed once."""
    return tmp_path_factory.mktemp("pre-commit-home")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def _try_repo(
    repo: Path, home: Path, *, all_files: bool = True
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(home),
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "PRE_COMMIT_COLOR": "never",
        "TASKSPEC_COMPILE": "0",
    }
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(ROOT),
            *(["--all-files"] if all_files else []),
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )


def _status(output: str, name: str) -> str:
    match = re.search(
        rf"^{re.escape(name)}\.+(Passed|Failed|\(no files to check\)Skipped)$", output, re.M
    )
    assert match, output
    return match[1]


def test_pre_commit_runs_both_hooks(tmp_path: Path, home: Path) -> None:
    repo = tmp_path / "harness"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / ".github" / "workflows" / "ci.yaml").write_text("on: [push]\njobs: {}\n")
    runs = repo / ".agents" / "eval" / "runs"
    (runs / "r1").mkdir(parents=True)
    (runs / "r1" / "taskspec.yaml").write_bytes(VALID_DOC)
    (repo / "gcd.taskspec.yaml").write_bytes(COMMENTED_DOC)
    _git(repo, "add", "-A")

    clean = _try_repo(repo, home)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert _status(clean.stdout, "taskspec validate") == "Passed"
    assert _status(clean.stdout, "taskspec fmt") == "Passed"

    (runs / "r2").mkdir()
    (runs / "r2" / "taskspec.yaml").write_bytes(
        VALID_DOC.replace(b"language: go", b"language: golang")
    )
    messy = COMMENTED_DOC.replace(b"    ", b"  ")
    (repo / "gcd.taskspec.yaml").write_bytes(messy)
    _git(repo, "add", "-A")

    dirty = _try_repo(repo, home)
    assert dirty.returncode == 1, dirty.stdout + dirty.stderr
    assert _status(dirty.stdout, "taskspec validate") == "Failed"
    problem = (
        '.agents/eval/runs/r2/taskspec.yaml:3:11: TS103 invalid language "golang";'
        ' did you mean "go"?'
    )
    assert problem in dirty.stdout
    assert _status(dirty.stdout, "taskspec fmt") == "Failed"
    assert "files were modified by this hook" in dirty.stdout
    assert "reformatted gcd.taskspec.yaml" in dirty.stdout
    # Each problem once: fmt names the invalid file in one line and leaves the rest to validate.
    assert dirty.stdout.count('invalid language "golang"') == 1
    assert (
        ".agents/eval/runs/r2/taskspec.yaml:3:11: TS103 cannot format: the file is invalid"
        in dirty.stdout
    )
    # fmt put it back in canonical layout, comments and all.
    assert (repo / "gcd.taskspec.yaml").read_bytes() == COMMENTED_DOC


def test_an_invalid_json_or_yml_sidecar_fails_the_commit(tmp_path: Path, home: Path) -> None:
    """The new user's report: x.taskspec.json and x.taskspec.yml, invalid, and both hooks passed.

    pre-commit runs on what is staged, as on a commit. Each of the two is
    committed alone, with a YAML and a JSON file that are no sidecars.
    """
    repo = tmp_path / "tasks-repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "package.json").write_text('{"name": "not-a-sidecar"}\n')
    (repo / "ci.yml").write_text("on: [push]\n")
    _git(repo, "add", "-A")
    # Nothing that is a sidecar: validate passes (no --fail-if-empty in the hook).
    clean = _try_repo(repo, home, all_files=False)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert _status(clean.stdout, "taskspec validate") == "Passed"
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "start")

    tasks = repo / "tasks"
    tasks.mkdir()
    (tasks / "x.taskspec.json").write_text('{"taskId": "x"}\n')
    _git(repo, "add", "-A")
    dirty = _try_repo(repo, home, all_files=False)
    assert dirty.returncode == 1, dirty.stdout + dirty.stderr
    assert _status(dirty.stdout, "taskspec validate") == "Failed"
    assert re.search(
        r"^tasks/x\.taskspec\.json(:\d+:\d+)?: TS101 prompt is required", dirty.stdout, re.M
    )
    # fmt is not given JSON: it has nothing to run on.
    assert _status(dirty.stdout, "taskspec fmt") == "(no files to check)Skipped"
    _git(repo, "rm", "-q", "--cached", "tasks/x.taskspec.json")

    (tasks / "x.taskspec.yml").write_bytes(VALID_DOC.replace(b"language: go", b"language: golang"))
    _git(repo, "add", "tasks/x.taskspec.yml")
    dirty = _try_repo(repo, home, all_files=False)
    assert dirty.returncode == 1, dirty.stdout + dirty.stderr
    assert _status(dirty.stdout, "taskspec validate") == "Failed"
    assert 'tasks/x.taskspec.yml:3:11: TS103 invalid language "golang"' in dirty.stdout
    assert "taskspec: warning: tasks/x.taskspec.yml: a sidecar's name ends in .yaml" in dirty.stdout
    assert _status(dirty.stdout, "taskspec fmt") == "Failed"
    assert "tasks/x.taskspec.yml:3:11: TS103 cannot format: the file is invalid" in dirty.stdout


def test_the_hooks_follow_include_and_exclude_of_tool_taskspec(tmp_path: Path, home: Path) -> None:
    """The new user's monorepo: a Helm template named taskspec.yaml, and *.task.yaml sidecars.

    pre-commit runs on what is staged, as on a commit, and passes every
    staged YAML file by name; the config decides which are sidecars.
    """
    repo = tmp_path / "monorepo"
    repo.mkdir()
    _git(repo, "init", "-q")
    (repo / "pyproject.toml").write_text(
        "[tool.taskspec]\n"
        'include = ["taskspec.yaml", "*.taskspec.yaml", "*.task.yaml"]\n'
        'exclude = ["charts/*"]\n'
    )
    template = repo / "charts" / "eval" / "templates" / "taskspec.yaml"
    template.parent.mkdir(parents=True)
    template.write_text("task_id: {{ .Values.taskId }}\nlanguage: {{ .Values.language }}\n")
    (repo / "deploy.yaml").write_text("kind: Deployment\n")  # a YAML file, not a sidecar
    (repo / "tasks").mkdir()
    (repo / "tasks" / "gcd.task.yaml").write_bytes(VALID_DOC)
    _git(repo, "add", "-A")

    # The Helm template is excluded by the config: the commit goes through.
    clean = _try_repo(repo, home, all_files=False)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert _status(clean.stdout, "taskspec validate") == "Passed"
    assert _status(clean.stdout, "taskspec fmt") == "Passed"
    assert "charts/" not in clean.stdout

    # A broken *.task.yaml, which only the config's include makes a sidecar, is blocked.
    (repo / "tasks" / "gcd.task.yaml").write_bytes(VALID_DOC.replace(b"task_id:", b"taskid:"))
    template.write_text("task_id: {{ .Values.other }}\n")
    _git(repo, "add", "-A")
    dirty = _try_repo(repo, home, all_files=False)
    assert dirty.returncode == 1, dirty.stdout + dirty.stderr
    assert _status(dirty.stdout, "taskspec validate") == "Failed"
    assert (
        'tasks/gcd.task.yaml:2:1: TS001 taskid: unknown field "taskid"; did you mean "task_id"?'
        in dirty.stdout
    )
    assert "charts/" not in dirty.stdout
    assert dirty.stdout.count("unknown field") == 1  # once, from validate
