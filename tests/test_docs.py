"""The README is short and says only what is so; the pages of docs/ hang together.

Every claim the README makes is pinned here or where the text says (the
examples by tests/test_readme.py and tests/test_readme_go.py, the terminal
sessions by tests/test_readme_claims.py): the install lines and what they
need, the speed of the compiled build, what ``validate`` does in CI and the
pre-commit hooks, and the editor's setup. The links of every page lead to a
file and a heading that exist.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
import yaml

import taskspec
from taskspec import _limits
from taskspec.cli._discover import DEFAULT_INCLUDE
from tests.cliutil import run_cli
from tests.docs import PAGES, README, ROOT, TEXTS, blocks, page
from tests.helpers import VALID_DOC

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
VERSION = PYPROJECT["project"]["version"]


def _prose(text: str) -> str:
    """*text* without its fenced code blocks, on one line."""
    return " ".join(re.sub(r"```.*?```", "", text, flags=re.S).split())


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(text: str) -> set[str]:
    headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", text, flags=re.S), re.M)
    return {_slug(h) for h in headings}


def test_the_readme_is_at_most_300_lines() -> None:
    assert README.count("\n") <= 300


@pytest.mark.parametrize("name", PAGES)
def test_every_link_leads_to_a_file_and_heading_that_exist(name: str) -> None:
    text = re.sub(r"```.*?```", "", TEXTS[name], flags=re.S)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    assert links or name == "docs/development.md"
    here = (ROOT / name).parent
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue  # a URL
        path, _, anchor = link.partition("#")
        target = (here / path).resolve() if path else ROOT / name
        assert target.exists(), f"{name}: {link}: no such file"
        if anchor:
            assert anchor in _anchors(target.read_text(encoding="utf-8")), f"{name}: {link}"


def test_the_readme_links_every_page() -> None:
    linked = {
        (ROOT / link.partition("#")[0]).resolve()
        for link in re.findall(r"\]\(([^)#:\s]+)[^)]*\)", README)
    }
    for name in [*PAGES[1:], "docs/problems.md", "CONTRIBUTING.md", "BENCHMARKS.md"]:
        assert (ROOT / name).resolve() in linked, name


def test_the_quick_starts_are_a_python_and_a_go_program() -> None:
    # tests/test_readme.py and tests/test_readme_go.py run them with the rest.
    assert len(blocks("python", README)) == 1
    assert len(blocks("go", README)) == 1


# --- install ---------------------------------------------------------------------


def _tag_exists(tag: str) -> bool:
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: its tags cannot be read")
    listed = subprocess.run(
        ["git", "tag", "--list", tag], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return listed.stdout.strip() == tag


def test_the_install_lines_name_a_release_or_say_how_to_pin_a_commit() -> None:
    named = re.findall(r"@v(\d+\.\d+\.\d+)|rev: v(\d+\.\d+\.\d+)", README)
    versions = {a or b for a, b in named}
    assert versions == {VERSION}, "the install lines name the version of pyproject.toml"
    assert len(named) == 4  # pip, the two go get lines, the hook's rev
    prose = _prose(README)
    if not _tag_exists(f"v{VERSION}"):
        assert "No release is tagged yet" in prose
        assert "pin a commit: for pip, `@<commit>` in place of the tag," in prose
        assert "for pre-commit, `rev: <commit>` (its full hash)" in prose
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^release: .*## Cut release VERSION", makefile, re.M)


def test_the_readme_names_the_supported_pythons() -> None:
    classifiers = PYPROJECT["project"]["classifiers"]
    minors = [c.rsplit(" ", 1)[1] for c in classifiers if re.fullmatch(r".*:: 3\.\d+", c)]
    *first, last = minors
    assert f"supports Python {', '.join(first)} and {last}" in _prose(README)
    assert PYPROJECT["project"]["requires-python"] == f">={minors[0]}"


def _row(label: str) -> float:
    """A figure of BENCHMARKS.md's table of µs per document, which `make bench` printed."""
    benchmarks = (ROOT / "BENCHMARKS.md").read_text()
    (figure,) = re.findall(rf"^\| {re.escape(label)} \| ([\d.]+) \|$", benchmarks, re.M)
    return float(figure)


def test_the_speed_claim_is_what_make_bench_measured() -> None:
    # The rows are the ones scripts/bench.py prints, as BENCHMARKS.md records them.
    bench = (ROOT / "scripts" / "bench.py").read_text()
    for printed in ("taskspec parse_task_spec, compiled build", "taskspec marshal_yaml"):
        assert f'("{printed}"' in bench
    parse = _row("`taskspec.parse_task_spec`") / _row("`taskspec.parse_task_spec`, compiled build")
    write = _row("`taskspec.marshal_yaml`") / _row("`taskspec.marshal_yaml`, compiled build")
    claim = (
        f"parses a small sidecar about {parse:.1f} times as fast as the same modules in "
        f"pure Python and writes it about {write:.1f} times as fast (`make bench`;"
    )
    assert claim in _prose(README)


# --- the command line in CI and pre-commit ---------------------------------------------


def test_validate_looks_for_the_names_the_readme_gives() -> None:
    prose = _prose(README)
    assert (
        "checks every sidecar it finds (`taskspec.yaml`, `*.taskspec.yaml`, the same spelt "
        "`.yml`, and `.json` ones)" in prose
    )
    yaml_names = ("taskspec.yaml", "*.taskspec.yaml")
    named = {n.replace(".yaml", ext) for n in yaml_names for ext in (".yaml", ".yml", ".json")}
    assert named == set(DEFAULT_INCLUDE)


def test_validate_exits_as_the_readme_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prose = _prose(README)
    assert (
        "It exits 0 when everything is valid, 1 when anything is invalid, and 2 on a usage error"
        in prose
    )
    assert "A run that finds nothing to check warns, as above, and exits 0;" in prose
    assert "`--fail-if-empty` makes it exit 1, for a CI step" in prose
    monkeypatch.chdir(tmp_path)
    assert run_cli(["validate", "."]).code == 0
    assert run_cli(["validate", "--fail-if-empty", "."]).code == 1
    assert run_cli(["validate", "--no-such-option", "."]).code == 2
    (tmp_path / "taskspec.yaml").write_bytes(VALID_DOC)
    assert run_cli(["validate", "--fail-if-empty", "."]).code == 0
    (tmp_path / "bad.taskspec.yaml").write_bytes(
        VALID_DOC.replace(b"language: go", b"language: golang")
    )
    assert run_cli(["validate", "."]).code == 1


def test_the_pre_commit_configuration_is_the_hooks_as_they_are() -> None:
    hooks = {
        hook["id"]: hook for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    }
    (config,) = (b for b in blocks("yaml", README) if "repos:" in b)
    (repo,) = yaml.safe_load(config)["repos"]
    assert [hook["id"] for hook in repo["hooks"]] == list(hooks)
    (pip,) = re.findall(r"git\+(https://\S+)@v", README)
    assert repo["repo"] == pip  # the repository pip installs from
    prose = _prose(README)
    # taskspec-validate takes YAML and JSON, taskspec-fmt YAML only, neither --fail-if-empty.
    hooks_claim = (
        "`taskspec-validate` checks every staged sidecar, YAML or JSON, and `taskspec-fmt`"
    )
    assert f"{hooks_claim} formats the YAML ones" in prose
    assert set(hooks["taskspec-validate"]["types_or"]) == {"yaml", "json"}
    assert hooks["taskspec-fmt"]["types"] == ["yaml"]
    assert "The hooks do not pass `--fail-if-empty`" in prose
    for hook in hooks.values():
        assert "--fail-if-empty" not in hook["entry"]
        assert "--force-exclude" in hook["entry"]  # [tool.taskspec] decides, as the README says


# --- the editor ------------------------------------------------------------------------


def test_the_editor_paragraph_names_what_exists() -> None:
    prose = _prose(README)
    assert "`schema/taskspec.v1.schema.json` is the JSON Schema of a sidecar" in prose
    assert (ROOT / "schema" / "taskspec.v1.schema.json").is_file()
    assert '`taskspec lsp` (`pip install "taskspec[lsp]"`)' in prose
    assert "lsp" in PYPROJECT["project"]["optional-dependencies"]
    editors = page("docs/editors.md")
    (named,) = re.findall(r"sets both up in ([^.]+)\.", prose)
    listed = re.split(r", | and ", named)
    assert listed == ["VS Code", "JetBrains IDEs", "Neovim", "Helix", "Zed"]
    for editor in listed:
        assert f"**{editor}" in editors, editor


# --- docs/contract.md ----------------------------------------------------------------


def test_the_language_list_is_every_language_of_the_contract() -> None:
    rows = re.findall(r"^\| `(\w+)` \| `(LANGUAGE_\w+)` \|", page("docs/contract.md"), re.M)
    assert rows == [(str(m), f"LANGUAGE_{m.name}") for m in taskspec.Language]


def test_the_limits_are_the_contracts() -> None:
    prose = _prose(page("docs/contract.md"))
    mib, depth, nodes = _limits.MAX_DOCUMENT_BYTES / 2**20, _limits.MAX_DEPTH, _limits.MAX_NODES
    claim = f"at most {mib:g} MiB, {depth} levels of nesting and {nodes:,} nodes (aliases expanded)"
    assert claim in prose
