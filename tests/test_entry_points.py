"""Registry.from_entry_points with a real plugin package, installed by pip for the test.

The package declares generators in three entry-point groups: the real
``taskspec.generators`` group (one good plugin, one that fails to import),
a group with each supported kind of object (class, factory, instance), and
a group with every other way a plugin can be broken.
"""

from __future__ import annotations

import importlib
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import taskspec
from taskspec import GenerateOptions, Language, PluginFailure, Registry

PACKAGE = "taskspec_demo_plugins"

PYPROJECT = f"""\
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "taskspec-demo-plugins"
version = "0.1.0"

[tool.setuptools]
packages = ["{PACKAGE}"]

[project.entry-points."taskspec.generators"]
python = "{PACKAGE}.good:PythonGenerator"
broken = "{PACKAGE}.broken:BrokenGenerator"

[project.entry-points."taskspec_demo.forms"]
go = "{PACKAGE}.good:GO_GENERATOR"
python = "{PACKAGE}.good:PythonGenerator"
typescript = "{PACKAGE}.good:make_typescript_generator"

[project.entry-points."taskspec_demo.bad"]
a_not_a_generator = "{PACKAGE}.good:NOT_A_GENERATOR"
b_factory_raises = "{PACKAGE}.good:failing_factory"
c_invalid_language = "{PACKAGE}.good:CobolGenerator"
d_missing_attribute = "{PACKAGE}.good:DoesNotExist"
e_python = "{PACKAGE}.good:PythonGenerator"
f_python_again = "{PACKAGE}.good:PythonGenerator"
"""

GOOD = """\
import taskspec
from taskspec import GenerateOptions, Language, TaskSpec


class PythonGenerator:
    # A class attribute and a method: the class itself looks like a
    # Generator, and must still be instantiated.
    language = Language.PYTHON

    def generate(self, opts: GenerateOptions) -> TaskSpec:
        band, signals = taskspec.derive_difficulty(2, 3, 2)
        spec = TaskSpec(
            task_spec_version=1,
            task_id="demo-python",
            language=self.language.to_proto(),
            difficulty=band.to_proto(),
            prompt="Implement demo.add.",
        )
        spec.difficulty_signals.update(signals)
        spec.generated_from.kind = taskspec.GeneratedKind.KG_TEMPLATE.to_proto()
        spec.generated_from.template_id = opts.template_id
        spec.verification.test_cmd.extend(["pytest", "-q"])
        return spec


class OtherGenerator(PythonGenerator):
    def __init__(self, language: Language) -> None:
        self.language = language


GO_GENERATOR = OtherGenerator(Language.GO)


def make_typescript_generator() -> OtherGenerator:
    return OtherGenerator(Language.TYPESCRIPT)


def failing_factory() -> OtherGenerator:
    raise RuntimeError("no knowledge graph configured")


class CobolGenerator(PythonGenerator):
    language = "cobol"


NOT_A_GENERATOR = 42
"""

BROKEN = """\
import taskspec_demo_missing_dependency  # not installed anywhere

BrokenGenerator = taskspec_demo_missing_dependency.Generator
"""


@pytest.fixture(scope="module")
def plugin_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The demo package, installed by pip into its own directory on sys.path."""
    src = tmp_path_factory.mktemp("src")
    (src / "pyproject.toml").write_text(PYPROJECT)
    pkg = src / PACKAGE
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "good.py").write_text(GOOD)
    (pkg / "broken.py").write_text(BROKEN)
    site = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--disable-pip-version-check",
            "--target",
            str(site),
            str(src),
        ],
        check=True,
        capture_output=True,
    )
    assert list(site.glob("taskspec_demo_plugins-0.1.0.dist-info"))
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]
        importlib.invalidate_caches()


def _good_module() -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.good")


def test_good_plugin_registers_and_broken_one_is_reported(
    plugin_site: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="taskspec"):
        registry = Registry.from_entry_points()

    assert registry.languages() == [Language.PYTHON]
    gen = registry.lookup(Language.PYTHON)
    assert type(gen) is _good_module().PythonGenerator
    assert gen is not None
    spec = gen.generate(GenerateOptions(template_id="t1"))
    taskspec.validate(spec)
    assert spec.generated_from.template_id == "t1"

    [failure] = registry.plugin_failures
    assert (failure.name, failure.value, failure.distribution) == (
        "broken",
        f"{PACKAGE}.broken:BrokenGenerator",
        "taskspec-demo-plugins",
    )
    assert isinstance(failure.error, ModuleNotFoundError)
    assert failure.error.name == "taskspec_demo_missing_dependency"
    assert str(failure) == (
        f"generator plugin 'broken' ({PACKAGE}.broken:BrokenGenerator) from "
        "taskspec-demo-plugins failed: ModuleNotFoundError: "
        "No module named 'taskspec_demo_missing_dependency'"
    )

    [record] = caplog.records
    assert (record.name, record.levelno, record.getMessage()) == (
        "taskspec",
        logging.WARNING,
        str(failure),
    )
    assert record.exc_info is not None and record.exc_info[1] is failure.error


def test_class_factory_and_instance_entry_points(plugin_site: Path) -> None:
    registry = Registry.from_entry_points("taskspec_demo.forms")
    assert registry.plugin_failures == ()
    assert registry.languages() == [Language.GO, Language.PYTHON, Language.TYPESCRIPT]
    good = _good_module()
    assert registry.lookup(Language.GO) is good.GO_GENERATOR  # an instance is used as is
    assert type(registry.lookup(Language.PYTHON)) is good.PythonGenerator  # a class is called
    typescript = registry.lookup(Language.TYPESCRIPT)  # a factory is called
    assert type(typescript) is good.OtherGenerator
    assert typescript is not None and typescript.language is Language.TYPESCRIPT


def test_every_kind_of_broken_plugin_is_reported_and_skipped(plugin_site: Path) -> None:
    registry = Registry.from_entry_points("taskspec_demo.bad")
    assert registry.languages() == [Language.PYTHON]  # e_python, loaded before f_python_again
    reported = [(f.name, type(f.error), str(f.error)) for f in registry.plugin_failures]
    assert reported == [
        (
            "a_not_a_generator",
            TypeError,
            "int object is not a Generator (it needs a language attribute and a generate method)",
        ),
        ("b_factory_raises", RuntimeError, "no knowledge graph configured"),
        (
            "c_invalid_language",
            ValueError,
            'cannot register generator for invalid language "cobol"',
        ),
        (
            "d_missing_attribute",
            AttributeError,
            f"module '{PACKAGE}.good' has no attribute 'DoesNotExist'",
        ),
        ("f_python_again", ValueError, 'generator for language "python" already registered'),
    ]
    assert all(isinstance(f, PluginFailure) for f in registry.plugin_failures)


def test_a_group_nobody_declares_gives_an_empty_registry(plugin_site: Path) -> None:
    registry = Registry.from_entry_points("taskspec_demo.nobody")
    assert (registry.languages(), registry.plugin_failures) == ([], ())


def test_a_registry_built_by_hand_has_no_failures() -> None:
    assert Registry().plugin_failures == ()
