"""The release procedure: one version for the Python package and the Go modules.

``scripts/release.py`` writes the version into every place that names it
and tags a commit that names it everywhere; the Go modules require each
other at exactly that version (``tests/gomodule`` fetches them from a proxy
at it). The script runs here on a copy of the files it reads, in a git
repository of its own.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "release.py"
#: A requirement of one of this repository's Go modules, and its version.
OURS = re.compile(r"github\.com/taskspec/taskspec/[\w./-]+ (v\S+)")
#: The modules a service fetches, each tagged at a release.
FETCHED = ("gen/go", "go", "go/taskspecgrpc")

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def version() -> str:
    match = re.search(r'(?m)^version = "([^"]+)"$', (ROOT / "pyproject.toml").read_text())
    assert match
    return match.group(1)


def go_mods(root: Path) -> list[Path]:
    return [
        p
        for p in sorted(root.glob("**/go.mod"))
        if not any(
            part.startswith(".") or part == "node_modules" for part in p.relative_to(root).parts
        )
    ]


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)


def git(cwd: Path, *args: str) -> str:
    done = run(cwd, "git", "-c", "user.name=r", "-c", "user.email=r@example.com", *args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def release(repo: Path, v: str) -> subprocess.CompletedProcess[str]:
    return run(repo, sys.executable, str(SCRIPT), v, "--root", str(repo))


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The files that name the version, copied from the work tree into a repository."""
    repo = tmp_path / "repo"
    for path in [ROOT / "pyproject.toml", ROOT / "README.md", ROOT / "go.work", *go_mods(ROOT)]:
        dest = repo / path.relative_to(ROOT)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, dest)
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "copy")
    return repo


def test_the_go_modules_require_each_other_at_the_version_of_pyproject() -> None:
    v = f"v{version()}"
    names = [p.relative_to(ROOT).as_posix() for p in go_mods(ROOT)]
    assert {f"{d}/go.mod" for d in FETCHED} <= set(names)
    seen = 0
    for name in [*names, "go.work"]:
        for found in OURS.findall((ROOT / name).read_text()):
            seen += 1
            assert found == v, (
                f"{name} requires one of this repository's modules at {found}, not {v}"
            )
    assert seen >= 5  # the library on the stubs, the gRPC half on both, go.work's replacements


def test_the_work_tree_names_its_version_everywhere(repo: Path) -> None:
    # Nothing to write: the script goes straight to tagging.
    done = release(repo, version())
    assert done.returncode == 0, done.stdout + done.stderr
    assert "set the version" not in done.stdout
    assert sorted(git(repo, "tag", "--list").split()) == sorted(
        [f"v{version()}", *(f"{d}/v{version()}" for d in FETCHED)]
    )


def test_release_sets_the_version_then_tags_the_commit_that_names_it(repo: Path) -> None:
    first = release(repo, "9.8.7")
    assert first.returncode == 1
    assert "set the version to 9.8.7" in first.stdout
    assert git(repo, "tag", "--list") == ""
    assert 'version = "9.8.7"' in (repo / "pyproject.toml").read_text()
    for path in [*go_mods(repo), repo / "go.work"]:
        found = OURS.findall(path.read_text())
        assert all(v == "v9.8.7" for v in found), (path, found)
    readme = (repo / "README.md").read_text()
    assert "go get github.com/taskspec/taskspec/go@v9.8.7" in readme
    assert "go get github.com/taskspec/taskspec/go/taskspecgrpc@v9.8.7" in readme
    assert f"@v{version()}" not in readme

    refused = release(repo, "9.8.7")  # the change is not committed yet
    assert refused.returncode == 1 and "commit them first" in refused.stderr
    git(repo, "commit", "-qam", "9.8.7")
    second = release(repo, "9.8.7")
    assert second.returncode == 0, second.stderr
    tags = ["v9.8.7", "gen/go/v9.8.7", "go/v9.8.7", "go/taskspecgrpc/v9.8.7"]
    assert sorted(git(repo, "tag", "--list").split()) == sorted(tags)
    assert f"git push origin {' '.join(tags)}" in second.stdout
    again = release(repo, "9.8.7")
    assert again.returncode == 0 and "already has every tag" in again.stdout


def test_release_refuses_a_version_that_is_not_one(repo: Path) -> None:
    done = release(repo, "1.2")
    assert done.returncode == 2 and "is not a version of the form X.Y.Z" in done.stderr
