"""Cut a release: one version for the Python package and the Go modules.

``pyproject.toml``'s version is the release's. The Go modules a service
fetches (the stubs in ``gen/go``, the library in ``go``, its gRPC half in
``go/taskspecgrpc``) require each other at exactly that version, so that
``go get github.com/taskspec/taskspec/go@vX.Y.Z`` resolves the rest at
real versions; ``go.work`` points those requirements at the working tree
for development.

    python scripts/release.py 1.1.0   # make the tree say 1.1.0, then commit
    python scripts/release.py 1.1.0   # on the commit that says it: tag it

The first call rewrites every place that names the version (pyproject.toml,
each go.mod's requirement of a sibling module, go.work's replacements and
the README's install lines) and stops, so that the change is reviewed and
committed like any other. Once HEAD says the version and the work tree is
clean, the same call creates the annotated tags the release needs: ``vX.Y.Z``
for the Python package, and ``<dir>/vX.Y.Z`` for each Go module, the form
the Go module proxy looks for a module in a subdirectory. It pushes nothing:
it prints the ``git push`` command.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The directories of the Go modules a service fetches, each tagged.
GO_MODULES = ("gen/go", "go", "go/taskspecgrpc")
#: The module path every Go module of this repository starts with.
MODULE_PREFIX = "github.com/taskspec/taskspec/"

_VERSION = re.compile(r"^\d+\.\d+\.\d+$")
_PYPROJECT_VERSION = re.compile(r'(?m)^version = "([^"]+)"$')
#: A requirement of one of this repository's modules, in a go.mod or a
#: go.work replacement: the module path, then its version.
_OUR_REQUIREMENT = re.compile(r"(" + re.escape(MODULE_PREFIX) + r"[\w./-]+ )v\d+\.\d+\.\d+")
#: The README's install lines: go get of a module, pip of a tag, a hook rev.
_README_VERSIONS = (
    re.compile(r"(go get " + re.escape(MODULE_PREFIX) + r"[\w./-]+@)v\d+\.\d+\.\d+"),
    re.compile(r"(git\+https://github\.com/taskspec/taskspec@)v\d+\.\d+\.\d+"),
    re.compile(r"(    rev: )v\d+\.\d+\.\d+"),
)


def go_mod_files(root: Path) -> list[str]:
    """Every go.mod of the repository, the fetched modules' and the others'."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.glob("**/go.mod")
        if not any(
            part.startswith(".") or part == "node_modules" for part in p.relative_to(root).parts
        )
    )


def current_version(root: Path = ROOT) -> str:
    match = _PYPROJECT_VERSION.search((root / "pyproject.toml").read_text())
    if match is None:
        raise SystemExit("release: pyproject.toml has no version line")
    return match.group(1)


def rewritten(version: str, root: Path = ROOT) -> dict[str, str]:
    """Each file that names the release's version, as it reads for ``version``."""
    files: dict[str, str] = {}
    text = (root / "pyproject.toml").read_text()
    files["pyproject.toml"] = _PYPROJECT_VERSION.sub(f'version = "{version}"', text, count=1)
    for name in (*go_mod_files(root), "go.work"):
        text = (root / name).read_text()
        files[name] = _OUR_REQUIREMENT.sub(lambda m: f"{m.group(1)}v{version}", text)
    text = (root / "README.md").read_text()
    for pattern in _README_VERSIONS:
        text = pattern.sub(lambda m: f"{m.group(1)}v{version}", text)
    files["README.md"] = text
    return files


def tags(version: str) -> list[str]:
    return [f"v{version}", *(f"{d}/v{version}" for d in GO_MODULES)]


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("version", help="the release's version, X.Y.Z")
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="the repository (default: this one)"
    )
    args = parser.parse_args(argv)
    root: Path = args.root
    version: str = args.version.removeprefix("v")
    if not _VERSION.match(version):
        parser.error(f"{args.version!r} is not a version of the form X.Y.Z")

    changed = []
    for name, text in rewritten(version, root).items():
        path = root / name
        if path.read_text() != text:
            path.write_text(text)
            changed.append(name)
    if changed:
        print(f"release: set the version to {version} in: {', '.join(changed)}")
        print("release: review and commit the change, then run this again to tag it")
        return 1

    if git(root, "status", "--porcelain"):
        print("release: the work tree has changes; commit them first", file=sys.stderr)
        return 1
    existing = set(git(root, "tag", "--list").split())
    made = [t for t in tags(version) if t not in existing]
    for tag in made:
        git(root, "tag", "-a", tag, "-m", f"taskspec {version}")
    head = git(root, "rev-parse", "--short", "HEAD")
    if made:
        print(f"release: tagged {head}: {' '.join(made)}")
    else:
        print(f"release: {head} already has every tag of {version}")
    print(f"release: publish with: git push origin {' '.join(tags(version))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
