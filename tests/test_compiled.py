"""The compiled build and the pure-Python one: which is running, and that each stays apart.

``make compiled`` builds the modules setup.py lists in ``COMPILED`` with
mypyc into a venv of its own; ``make test-compiled`` runs this whole suite
there with ``TASKSPEC_EXPECT_COMPILED=1``, so every other test checks the
compiled modules' behaviour and these check that they are the ones loaded.
In the pure venv the same tests check that nothing compiled is loaded and
that no build left extension modules next to the sources. ``make
test-wheel`` runs them against the compiled wheel of ``make dist``,
installed into a venv outside the repository, with
``TASKSPEC_EXPECT_INSTALLED=1`` as well.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import os
import pydoc
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader
from pathlib import Path

import pytest

import taskspec
from taskspec import DecodeError, TaskSpec
from taskspec.bridge import _decode, _fastpath
from tests.helpers import VALID_DOC

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_SOURCES = ROOT / "python"


def _compiled_module_names() -> list[str]:
    """The dotted names of the modules in setup.py's ``COMPILED`` list."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "COMPILED"
        ):
            paths: list[str] = ast.literal_eval(node.value)
            return [".".join(Path(p).relative_to("python").with_suffix("").parts) for p in paths]
    raise AssertionError("setup.py has no COMPILED list")


COMPILED_MODULES = _compiled_module_names()


def _is_extension(name: str) -> bool:
    return isinstance(importlib.import_module(name).__loader__, ExtensionFileLoader)


def test_the_compiled_list_names_the_reader_and_the_writer() -> None:
    assert "taskspec.bridge._fastpath" in COMPILED_MODULES
    assert "taskspec.bridge._emit" in COMPILED_MODULES
    for name in COMPILED_MODULES:
        assert (PACKAGE_SOURCES / (name.replace(".", "/") + ".py")).is_file(), name


def test_the_general_reader_is_compiled_but_not_its_entry_point() -> None:
    # Its stages are hot for every document the fast path declines; the entry
    # point holds the globals tests replace (see the node budget test below).
    for stage in ("_decode_load", "_decode_walk", "_decode_scalar", "_decode_msg"):
        assert f"taskspec.bridge.{stage}" in COMPILED_MODULES
    assert "taskspec.bridge._decode" not in COMPILED_MODULES


def test_compiled_is_a_bool_that_says_which_modules_run() -> None:
    assert isinstance(taskspec.__compiled__, bool)
    # Either every listed module is an extension or none is.
    assert {name: _is_extension(name) for name in COMPILED_MODULES} == dict.fromkeys(
        COMPILED_MODULES, taskspec.__compiled__
    )


def test_only_the_listed_modules_are_compiled() -> None:
    for name in ("taskspec", "taskspec._api", "taskspec.bridge._decode", "taskspec._limits"):
        assert not _is_extension(name), name


@pytest.mark.skipif(
    os.environ.get("TASKSPEC_EXPECT_COMPILED", "") in ("", "0"),
    reason="runs where the compiled build is expected (make test-compiled)",
)
def test_the_compiled_build_is_the_one_running() -> None:
    assert taskspec.__compiled__ is True
    assert str(_fastpath.__file__).endswith(tuple(EXTENSION_SUFFIXES))


@pytest.mark.skipif(
    os.environ.get("TASKSPEC_EXPECT_INSTALLED", "") in ("", "0"),
    reason="runs against a wheel installed into a venv of its own (make test-wheel)",
)
def test_the_package_under_test_is_the_installed_one() -> None:
    # make test-wheel runs these tests from the repository against the wheel
    # a user installs; python/ on sys.path would have them test the sources.
    installed = Path(taskspec.__file__).resolve()
    assert not installed.is_relative_to(PACKAGE_SOURCES), installed
    assert installed.is_relative_to(Path(sys.prefix).resolve()), (installed, sys.prefix)
    assert taskspec.__compiled__ is True


def test_no_extension_module_sits_next_to_the_sources() -> None:
    # One there would be imported instead of its .py by every editable
    # (pure-Python) install: the compiled build installs into its own venv.
    found = [p for p in PACKAGE_SOURCES.rglob("*") if p.name.endswith(tuple(EXTENSION_SUFFIXES))]
    assert found == []


def test_the_node_budget_of_the_fast_path_can_be_lowered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A compiled module inlines Final constants; the fast path reads its
    # budget from a plain global so that it can be lowered in either build.
    assert isinstance(_fastpath.parse_canonical(VALID_DOC), TaskSpec)
    # A canonical line holds at most two nodes, plus one for the document.
    lines = VALID_DOC.count(b"\n") + 1
    monkeypatch.setattr(_fastpath, "MAX_NODES", 2 * lines + 1)
    assert isinstance(_fastpath.parse_canonical(VALID_DOC), TaskSpec)
    monkeypatch.setattr(_fastpath, "MAX_NODES", 2 * lines)
    assert _fastpath.parse_canonical(VALID_DOC) is None


def test_the_node_budget_of_the_general_reader_can_be_lowered(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The general reader's entry point is not compiled, so it reads its
    # budget at each call in either build and hands it to the compiled stages.
    assert _decode.decode(VALID_DOC).spec.task_id == "kg-go-impl-mathx-gcd"
    monkeypatch.setattr(_decode, "MAX_NODES", 10)
    with pytest.raises(DecodeError, match="document has more than 10 nodes"):
        _decode.decode(VALID_DOC)


# --- help() in the compiled build --------------------------------------------------


def _source_docstrings(module: str) -> dict[str, str]:
    """The docstring of each top-level function and class of *module*, and of each method.

    Keys are qualified names (``validate``, ``Rule.format``), read from the
    module's source in the repository, as ``help()`` shows them.
    """
    tree = ast.parse((PACKAGE_SOURCES / (module.replace(".", "/") + ".py")).read_text("utf-8"))
    docs = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.ClassDef):
            continue
        if doc := ast.get_docstring(node):
            docs[node.name] = doc
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and (doc := ast.get_docstring(item)):
                    docs[f"{node.name}.{item.name}"] = doc
    return docs


def _public() -> list[str]:
    return [
        name
        for name in taskspec.__all__
        if inspect.isroutine(getattr(taskspec, name)) or inspect.isclass(getattr(taskspec, name))
    ]


@pytest.mark.parametrize("name", _public())
def test_help_shows_each_public_function_and_class_with_its_docstring(name: str) -> None:
    obj = getattr(taskspec, name)
    doc = inspect.getdoc(obj)
    assert doc, f"taskspec.{name} has no docstring"
    # Written in the package (not generated, as the messages are): the
    # source's text, whichever build runs.
    source = PACKAGE_SOURCES / (obj.__module__.replace(".", "/") + ".py")
    if source.is_file() and obj.__qualname__ in _source_docstrings(obj.__module__):
        assert doc == _source_docstrings(obj.__module__)[obj.__qualname__]
        assert doc.splitlines()[0] in pydoc.render_doc(obj, renderer=pydoc.TextDoc())


@pytest.mark.parametrize("module", COMPILED_MODULES)
def test_the_compiled_modules_keep_the_docstrings_of_their_functions_and_methods(
    module: str,
) -> None:
    # mypyc writes a text signature as a compiled function's C docstring;
    # setup.py's build adds the source's text after it.
    loaded = importlib.import_module(module)
    checked = 0
    for qualname, doc in _source_docstrings(module).items():
        obj: object = loaded
        for part in qualname.split("."):
            obj = getattr(obj, part)
        if not inspect.isroutine(obj):
            continue  # a class: the public ones are checked above
        assert inspect.getdoc(obj) == doc, f"{module}.{qualname}"
        checked += 1
    assert checked or not _source_docstrings(module)
