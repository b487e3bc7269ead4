"""The release procedure: one version for the Python package and the Go modules.

``scripts/release.py`` rewrites every place that names the version and
tags a commit that names it; the Go modules require each other at exactly
that version (``tests/gomodule`` fetches them from a proxy at it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scripts import release

ROOT = Path(__file__).resolve().parent.parent
OURS = re.compile(re.escape(release.MODULE_PREFIX) + r"[\w./-]+ (v\S+)")


def test_every_place_names_the_version_of_pyproject() -> None:
    version = release.current_version()
    for name, text in release.rewritten(version).items():
        assert (ROOT / name).read_text() == text, f"{name} names another version than {version}"


def test_the_go_modules_require_each_other_at_that_version() -> None:
    version = release.current_version()
    names = release.go_mod_files(ROOT)
    assert {f"{d}/go.mod" for d in release.GO_MODULES} <= set(names)
    seen = 0
    for name in [*names, "go.work"]:
        for found in OURS.findall((ROOT / name).read_text()):
            seen += 1
            assert found == f"v{version}", f"{name} requires one of this repository's modules at {found}"
    assert seen >= 5  # the library on the stubs, the gRPC half on both, and go.work's replacements


def test_a_new_version_is_written_everywhere() -> None:
    files = release.rewritten("9.8.7")
    assert 'version = "9.8.7"' in files["pyproject.toml"]
    for name in [*release.go_mod_files(ROOT), "go.work"]:
        found = OURS.findall(files[name])
        assert all(v == "v9.8.7" for v in found), (name, found)
    readme = files["README.md"]
    assert "go get github.com/taskspec/taskspec/go@v9.8.7" in readme
    assert "go get github.com/taskspec/taskspec/go/taskspecgrpc@v9.8.7" in readme
    assert f"@v{release.current_version()}" not in readme


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_release_sets_the_version_then_tags_the_commit_that_names_it(tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    assert run(ROOT, "git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)).returncode == 0
    script = str(ROOT / "scripts" / "release.py")
    first = run(clone, "python3", script, "9.8.7", "--root", str(clone))
    assert first.returncode == 1
    assert "set the version to 9.8.7" in first.stdout
    assert run(clone, "git", "tag", "--list").stdout == ""
    commit = run(
        clone, "git", "-c", "user.name=r", "-c", "user.email=r@example.com", "commit", "-qam", "9.8.7"
    )
    assert commit.returncode == 0, commit.stderr
    second = run(clone, "python3", script, "9.8.7", "--root", str(clone))
    assert second.returncode == 0, second.stderr
    tags = run(clone, "git", "tag", "--list").stdout.split()
    assert sorted(tags) == sorted(["v9.8.7", "gen/go/v9.8.7", "go/v9.8.7", "go/taskspecgrpc/v9.8.7"])
    assert "git push origin v9.8.7 gen/go/v9.8.7 go/v9.8.7 go/taskspecgrpc/v9.8.7" in second.stdout
    again = run(clone, "python3", script, "9.8.7", "--root", str(clone))
    assert again.returncode == 0 and "already has every tag" in again.stdout


def test_release_refuses_a_version_that_is_not_one() -> None:
    with pytest.raises(SystemExit):
        release.main(["1.2"])
