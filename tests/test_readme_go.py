"""The documentation's Go programs build as written and print what they say they print.

The programs are the ``go`` blocks of the README and of the pages of ``docs/``
(``tests/docs.py`` reads them all).

Each ```go block is a whole ``package main`` program. All of them go into one
scratch module, as a service would set it up from the README ("From Go"):
a go.mod that requires the library, its gRPC half and the stubs module with
``replace`` directives to this checkout, and GOFLAGS=-mod=mod so that go adds the
requirements the programs import (grpc) itself. Its go.sum starts from the
modules' own, so nothing needs the checksum database: the build works
offline from what ``go mod download`` already put in the module cache.

The programs that call a server are run against ``taskspec serve`` serving
the example plugin (examples/plugin-python), installed by pip, as the README
tells a reader to; the others are run from the repository's root.

Without Go the module is skipped, unless TASKSPEC_REQUIRE_GO=1 (as in CI),
where a missing Go side is a failure.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import taskspec
from tests.docs import ROOT, blocks, section

BLOCKS = blocks("go")
IDS = [f"go{i}" for i in range(len(BLOCKS))]
PLUGIN = ROOT / "examples" / "plugin-python"
MODULES = {
    "github.com/taskspec/taskspec/gen/go": ROOT / "gen" / "go",
    "github.com/taskspec/taskspec/go": ROOT / "go",
    "github.com/taskspec/taskspec/go/taskspecgrpc": ROOT / "go" / "taskspecgrpc",
}


def expected_output(block: str) -> list[str]:
    """The comment lines that directly follow a fmt.Print... call are its output."""
    out: list[str] = []
    lines = block.splitlines()
    for i, line in enumerate(lines):
        if "fmt.Print" not in line:
            continue
        for follow in lines[i + 1 :]:
            stripped = follow.strip()
            if not stripped.startswith("// "):
                break
            out.append(stripped[3:])
    return out


def calls_a_server(block: str) -> bool:
    return "grpc.NewClient(" in block


def go_env() -> dict[str, str]:
    """The scratch module's environment: go may add what the programs import to go.mod."""
    flags = " ".join(filter(None, [os.environ.get("GOFLAGS"), "-mod=mod"]))
    return os.environ | {"GOFLAGS": flags, "GOWORK": "off"}


def need_go() -> None:
    if shutil.which("go") is None:
        if os.environ.get("TASKSPEC_REQUIRE_GO", "") not in ("", "0"):
            pytest.fail("TASKSPEC_REQUIRE_GO is set but go is not installed")
        pytest.skip("go is not installed: the README's Go programs are not built")


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch module holding every Go block, one directory (b0, b1, ...) each."""
    need_go()
    mod = tmp_path_factory.mktemp("readme-go")
    requires = "".join(f"\t{path} v0.0.0\n" for path in MODULES)
    replaces = "".join(f"\t{path} => {dir_}\n" for path, dir_ in MODULES.items())
    (mod / "go.mod").write_text(
        f"module readme.example\n\ngo 1.26.0\n\nrequire (\n{requires})\n\nreplace (\n{replaces})\n"
    )
    sums = {line for d in MODULES.values() for line in (d / "go.sum").read_text().splitlines()}
    (mod / "go.sum").write_text("".join(f"{line}\n" for line in sorted(sums)))
    for i, block in enumerate(BLOCKS):
        (mod / f"b{i}").mkdir()
        (mod / f"b{i}" / "main.go").write_text(block)
    return mod


def go(mod: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["go", *args], cwd=mod, env=go_env(), capture_output=True, text=True, check=False
    )


def build(mod: Path, i: int) -> Path:
    """Block *i*, built into mod/bin; fails the test with go's own words if it does not."""
    binary = mod / "bin" / f"b{i}"
    if not binary.exists():
        result = go(mod, "build", "-o", str(binary), f"./b{i}")
        assert result.returncode == 0, f"README Go block {i} does not build:\n{result.stderr}"
    return binary


def test_readme_has_go_programs() -> None:
    assert len(BLOCKS) >= 2
    assert any(calls_a_server(b) for b in BLOCKS)
    for i, block in enumerate(BLOCKS):
        assert block.startswith("package main\n"), f"README Go block {i} is not a whole program"
        assert expected_output(block), f"README Go block {i} says nothing of what it prints"


@pytest.mark.parametrize("i", range(len(BLOCKS)), ids=IDS)
def test_readme_go_block_builds_and_vets(module: Path, i: int) -> None:
    unformatted = subprocess.run(
        ["gofmt", "-l", f"b{i}"], cwd=module, capture_output=True, text=True, check=True
    ).stdout
    assert unformatted == "", f"README Go block {i} is not gofmt'ed"
    build(module, i)
    vet = go(module, "vet", f"./b{i}")
    assert vet.returncode == 0, f"go vet on README Go block {i}:\n{vet.stderr}"


@pytest.mark.parametrize(
    "i", [i for i, b in enumerate(BLOCKS) if not calls_a_server(b)], ids=lambda i: IDS[i]
)
def test_readme_go_block_prints_what_it_says(module: Path, i: int) -> None:
    result = subprocess.run(
        [str(build(module, i))], cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected_output(BLOCKS[i])


# --- the example plugin, served by `taskspec serve` -------------------------------


@pytest.fixture(scope="module")
def plugin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """examples/plugin-python installed by pip into a directory of its own.

    pip builds and installs a copy (a build writes into its source tree), with
    no index and no dependencies: taskspec is the one this suite runs on. On
    PYTHONPATH, that directory's dist-info is what importlib.metadata reads,
    so `taskspec serve` finds the generator through its entry point, as in a
    venv where the plugin is installed.
    """
    tmp = tmp_path_factory.mktemp("plugin")
    source = tmp / "src"
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    target = tmp / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    return target


@pytest.fixture
def served(plugin: Path) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """`taskspec serve` on a port the system picks, with the plugin on its path: its address."""
    path = [str(plugin), *filter(None, [os.environ.get("PYTHONPATH")])]
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "taskspec"), "serve"],
        env=os.environ | {"PYTHONPATH": os.pathsep.join(path)},
        cwd=plugin.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("listening on "), first + proc.communicate(timeout=10)[1]
        yield first.removeprefix("listening on ").strip(), proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def test_the_example_plugin_frames_the_example_task() -> None:
    sys.path.insert(0, str(PLUGIN / "src"))
    try:
        generator_class = importlib.import_module("taskspec_example_plugin").PythonGenerator
    finally:
        sys.path.remove(str(PLUGIN / "src"))
    spec = generator_class().generate(taskspec.GenerateOptions())
    taskspec.validate(spec)
    assert spec == taskspec.load(ROOT / "examples" / "python.taskspec.yaml")
    framed = generator_class().generate(taskspec.GenerateOptions(template_id="t1"))
    assert framed.generated_from.template_id == "t1"


@pytest.mark.parametrize(
    "i", [i for i, b in enumerate(BLOCKS) if calls_a_server(b)], ids=lambda i: IDS[i]
)
def test_readme_go_client_prints_what_it_says_against_taskspec_serve(
    module: Path, served: tuple[str, subprocess.Popen[str]], i: int
) -> None:
    binary = build(module, i)
    address, server = served
    result = subprocess.run(
        [str(binary), "-address", address],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == expected_output(BLOCKS[i])
    server.send_signal(signal.SIGINT)
    _, err = server.communicate(timeout=15)
    assert "taskspec serve: INFO: serving python\n" in err
    assert server.returncode == 0


# --- the operations table: every name exists in both languages --------------------

OPERATIONS = "## Python and Go side by side"
GO_PACKAGES = {
    "taskspec": "github.com/taskspec/taskspec/go",
    "taskspecv1": "github.com/taskspec/taskspec/gen/go/taskspec/v1",
    "taskspecgrpc": "github.com/taskspec/taskspec/go/taskspecgrpc",
}


def operations() -> list[tuple[str, list[str], list[str]]]:
    """The table's rows: the operation, then the names its Python and Go cells give.

    A cell names things in code spans, each a dotted name with or without a
    call: `taskspec.load(path)`, `Registry.register(gen)`, `taskspec.Generator`.
    """
    rows = [
        line
        for line in section(OPERATIONS).splitlines()
        if line.startswith("| ") and "---" not in line
    ]
    assert rows[0] == "| operation | Python | Go |"
    table = []
    for row in rows[1:]:
        operation, python, go_ = (cell.strip() for cell in row.strip("| ").split(" | "))
        names = [
            [span.split("(", 1)[0] for span in re.findall(r"`([^`]+)`", cell)]
            for cell in (python, go_)
        ]
        table.append((operation, names[0], names[1]))
    return table


OPERATION_ROWS = operations()
OPERATION_IDS = [re.sub(r"\W+", "-", op).strip("-") for op, _, _ in OPERATION_ROWS]


def test_the_operations_table_names_something_in_both_languages() -> None:
    assert len(OPERATION_ROWS) >= 20
    for operation, python, go_ in OPERATION_ROWS:
        assert python, operation
        assert go_, operation
        for name in python + go_:
            assert re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", name), (operation, name)


def python_object(name: str) -> object:
    """What a Python cell's name refers to: from `taskspec`, or from `taskspec.remote`."""
    importlib.import_module("taskspec.remote")  # an attribute of taskspec once imported
    parts = name.split(".")
    if parts[0] == "taskspec":
        parts = parts[1:]
    obj: object = taskspec
    for part in parts:
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize(("operation", "python", "go_"), OPERATION_ROWS, ids=OPERATION_IDS)
def test_the_operations_table_python_names_exist(
    operation: str, python: list[str], go_: list[str]
) -> None:
    missing = []
    for name in python:
        try:
            python_object(name)
        except AttributeError:
            missing.append(name)
    assert not missing, f"{operation}: no such Python name: {', '.join(missing)}"


def go_doc(name: str) -> bool:
    """Whether `go doc` finds a Go cell's name, in the library or in the stubs."""
    package, _, symbol = name.partition(".")
    if package not in GO_PACKAGES:
        package, symbol = "taskspec", name
    result = subprocess.run(
        ["go", "doc", GO_PACKAGES[package], symbol],
        cwd=ROOT / "go",
        capture_output=True,
        text=True,
        check=False,
    )
    # go doc matches lower-case letters either way; these names are exact.
    last = symbol.rsplit(".", 1)[-1]
    return result.returncode == 0 and re.search(rf"\b{last}\b", result.stdout) is not None


@pytest.mark.parametrize(("operation", "python", "go_"), OPERATION_ROWS, ids=OPERATION_IDS)
def test_the_operations_table_go_names_exist(
    operation: str, python: list[str], go_: list[str]
) -> None:
    need_go()
    missing = [name for name in go_ if not go_doc(name)]
    assert not missing, f"{operation}: no such Go name: {', '.join(missing)}"
