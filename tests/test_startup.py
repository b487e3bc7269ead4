"""Start-up cost: what ``import taskspec`` and a plain command load, without timing anything.

``import taskspec`` resolves its public names on first use (PEP 562) and the
command line imports only the chosen subcommand's module, so a pre-commit
hook running ``taskspec validate`` on one file does not pay for the
converter, the JSON Schema, the plugin registry or gRPC. These tests pin the
lazy table to ``__all__`` and check, in fresh interpreters, which modules a
plain import and a plain command leave in ``sys.modules``.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import io
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

import taskspec
from taskspec.cli import _main
from tests.helpers import VALID_DOC

INIT = Path(taskspec.__file__)

#: Modules that only some callers need; none of them may load with the package.
OPTIONAL = (
    "taskspec._json",  # proto3 JSON
    "taskspec._binpb",  # binary protobuf
    "taskspec._io",  # load/save and atomic writes
    "taskspec._jsonschema",
    "taskspec._registry",
    "taskspec.remote",
    "taskspec.bridge._decode",  # the general reader, for non-canonical documents
    "taskspec.cli",
    "google.protobuf.json_format",
    "importlib.metadata",
    "yaml",
    "grpc",
    "json",
    "logging",
    "pathlib",
    "secrets",
)


def _modules_after(code: str, *argv: str) -> set[str]:
    """The modules *code*, run in a fresh interpreter, adds to ``sys.modules``."""
    script = (
        "import sys\n"
        "_before = set(sys.modules)\n"
        f"{code}\n"
        "print(sorted(set(sys.modules) - _before), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *argv], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    added: list[str] = ast.literal_eval(done.stderr.strip().splitlines()[-1])
    return set(added)


def test_the_lazy_table_is_all() -> None:
    assert sorted(taskspec._LAZY) == sorted(taskspec.__all__)


@pytest.mark.parametrize("name", taskspec.__all__)
def test_each_public_name_is_its_module_object(name: str) -> None:
    module = importlib.import_module(taskspec._LAZY[name])
    assert getattr(taskspec, name) is getattr(module, name)


def test_the_type_checking_imports_are_the_lazy_table() -> None:
    """Type checkers and IDEs read the ``if TYPE_CHECKING:`` imports: the same names, same homes."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
    )
    imported = {
        alias.asname or alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("taskspec")
        for alias in node.names
    }
    assert imported == taskspec._LAZY


def test_dir_lists_every_public_name() -> None:
    assert set(taskspec.__all__) <= set(dir(taskspec))
    assert dir(taskspec) == sorted(dir(taskspec))


def test_star_import_gives_every_public_name() -> None:
    namespace: dict[str, object] = {}
    exec("from taskspec import *", namespace)
    assert set(taskspec.__all__) <= set(namespace)
    assert namespace["TaskSpec"] is taskspec.TaskSpec


def test_unknown_names_still_raise_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"has no attribute 'no_such_name'"):
        _ = taskspec.no_such_name


def test_import_taskspec_loads_nothing_but_the_package() -> None:
    # Not even typing: the names type checkers see are imported under
    # TYPE_CHECKING, which is False at run time.
    assert _modules_after("import taskspec") - {"__future__"} == {"taskspec"}


def test_import_taskspec_loads_no_optional_module() -> None:
    added = _modules_after("import taskspec")
    assert sorted(set(OPTIONAL) & added) == []


def test_parsing_a_canonical_document_loads_no_yaml_and_no_converter() -> None:
    added = _modules_after(f"import taskspec\nassert taskspec.parse_task_spec({VALID_DOC!r})")
    assert "taskspec._api" in added
    assert sorted(set(OPTIONAL) & added) == []


def test_a_document_the_fast_path_declines_still_loads_the_general_reader() -> None:
    commented = VALID_DOC.replace(b"language: go\n", b"language: go # a note\n")
    added = _modules_after(f"import taskspec\nassert taskspec.parse_task_spec({commented!r})")
    assert {"yaml", "taskspec.bridge._decode"} <= added


def test_a_modeline_does_not_load_the_general_reader() -> None:
    """Editors' schema modeline is a leading comment, which the fast path skips."""
    modeline = b"# yaml-language-server: $schema=taskspec.v1.schema.json\n" + VALID_DOC
    added = _modules_after(f"import taskspec\nassert taskspec.parse_task_spec({modeline!r})")
    assert not {"yaml", "taskspec.bridge._decode"} & added


def test_validate_one_file_loads_only_its_own_command(tmp_path: Path) -> None:
    sidecar = tmp_path / "taskspec.yaml"
    sidecar.write_bytes(VALID_DOC)
    added = _modules_after(
        "import sys\n"
        "from taskspec.cli import main\n"
        "status = main(sys.argv[1:])\n"
        "assert status == 0, status",
        "validate",
        str(sidecar),
    )
    commands = {module for _, _, module in _main.COMMANDS}
    assert commands & added == {"taskspec.cli._cmd_validate"}
    assert sorted((set(OPTIONAL) - {"taskspec.cli", "taskspec._io"}) & added) == []


def _help(parser: argparse.ArgumentParser, argv: list[str]) -> str:
    out = io.StringIO()
    with redirect_stdout(out), pytest.raises(SystemExit) as info:
        parser.parse_args(argv)
    assert info.value.code == 0
    return out.getvalue()


def test_top_level_help_lists_every_command_without_loading_one() -> None:
    lazy = _help(_main._parser(), ["--help"])
    for name, summary, _ in _main.COMMANDS:
        assert f"    {name:<10}{summary}\n" in lazy
    # Loading every command changes nothing in the top-level help.
    parser = _main._parser()
    for name, _, _ in _main.COMMANDS:
        _help(parser, [name, "--help"])
    assert _help(parser, ["--help"]) == lazy


@pytest.mark.parametrize(("name", "module"), [(n, m) for n, _, m in _main.COMMANDS])
def test_each_command_help_has_its_module_description(name: str, module: str) -> None:
    text = _help(_main._parser(), [name, "--help"])
    assert text.startswith(f"usage: taskspec {name} [-h]")
    description = importlib.import_module(module).DESCRIPTION
    assert " ".join(description.split()) in " ".join(text.split())


def test_the_version_read_without_importlib_metadata_is_its_answer() -> None:
    from importlib.metadata import version as dist_version  # noqa: PLC0415

    from taskspec._version import _recorded  # noqa: PLC0415

    assert _recorded() == dist_version("taskspec")


def test_the_version_loads_no_importlib_metadata() -> None:
    added = _modules_after("from taskspec._version import version\nassert version() != '0+unknown'")
    assert "importlib.metadata" not in added


#: What the language server leaves for after its answer to ``initialize``:
#: the engine, the CLI's shared kit and the version's metadata reader.
ENGINE = ("taskspec._codes", "taskspec._check", "taskspec.cli._kit", "importlib.metadata")


def test_the_language_server_answers_initialize_before_loading_the_engine() -> None:
    pytest.importorskip("pygls")
    added = _modules_after(
        "import sys\n"
        "from taskspec.cli import _main\n"
        "parser = _main._parser()\n"
        "args = parser.parse_args(['lsp'])\n"
        "from taskspec.cli._lsp import make_server\n"
        "make_server()\n"
    )
    assert "taskspec.cli._lsp" in added
    assert sorted(set(ENGINE) & added) == []
    warmed = _modules_after("from taskspec.cli._lsp import warm\nwarm()")
    assert set(ENGINE) - {"importlib.metadata"} <= warmed
