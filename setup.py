"""Build hook: the compiled build of the YAML bridge's hot modules, by default.

pyproject.toml defines the package; this file adds only extension modules.
A regular install (``pip install .``, a wheel build) compiles the modules in
:data:`COMPILED` with mypyc, from the pinned build requirements in
pyproject.toml's ``[build-system]`` (mypy and the type stubs it checks the
modules against), so the build needs only a C compiler. When there is none,
or compiling fails for any reason (no Python headers, a type error mypyc
finds, a compiler error), the build says so in one line on stderr and goes
on as pure Python: installing never fails for want of a compiler. pip
shows a build's output only with ``-v``; ``python -m build`` always does.

- ``TASKSPEC_COMPILE=0`` builds pure Python on purpose (the pure wheel of
  ``make dist``).
- ``TASKSPEC_COMPILE=1`` requires the compiled build: any failure fails the
  build (``make compiled``, CI).
- An editable install (``pip install -e .``, as ``make venv`` makes) is
  always pure Python: extensions next to the sources would shadow them for
  every venv that uses the checkout.

The pure-Python sources stay in the package either way: a compiled module
is an extension next to its ``.py`` file, which the import system prefers.
``taskspec.__compiled__`` and ``taskspec --version`` say which is running.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: The hot path of parse_task_spec and marshal_yaml: the canonical reader,
#: the writer and what they call per document, and the stages of the general
#: reader (not its entry point, bridge/_decode.py, whose globals tests replace).
COMPILED = [
    "python/taskspec/bridge/_fastpath.py",
    "python/taskspec/bridge/_emit.py",
    "python/taskspec/bridge/_scalar.py",
    "python/taskspec/bridge/_keyorder.py",
    "python/taskspec/bridge/_resolve.py",
    "python/taskspec/bridge/_gostr.py",
    "python/taskspec/bridge/_decode_load.py",
    "python/taskspec/bridge/_decode_bom.py",
    "python/taskspec/bridge/_decode_walk.py",
    "python/taskspec/bridge/_decode_scalar.py",
    "python/taskspec/bridge/_decode_msg.py",
    "python/taskspec/bridge/_decode_tags.py",
    "python/taskspec/_validate.py",
    "python/taskspec/_rules.py",
]

#: Where the compiled build's intermediate files go (C sources, objects,
#: the build tree), out of python/ so that nothing lands next to the sources.
BUILD_DIR = "build/compiled"

#: The setuptools commands that build extension modules. Only these compile:
#: the metadata steps a build runs first (egg_info, dist_info) and sdist
#: need no C code, and running mypyc in them too would type-check the
#: modules, and print any notice, once per step.
BUILDING = frozenset({"bdist_wheel", "build", "build_ext", "install"})


def _notice(why: str) -> None:
    print(f"taskspec: building the pure-Python package: {why}", file=sys.stderr)


def _required() -> bool:
    return os.environ.get("TASKSPEC_COMPILE", "") == "1"


def _first_line(text: str) -> str:
    """The first non-empty line of a failure's text, cut short for the one-line notice."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:200]
    return ""


def _compiler() -> str | None:
    """The C compiler the build would use, if one is on PATH."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(cc.split()[0])


def _python_headers() -> bool:
    """Whether this Python's C headers are installed (not always: python3-dev on Debian)."""
    return os.path.isfile(os.path.join(sysconfig.get_path("include"), "Python.h"))


def _docstrings(paths: list[str]) -> dict[str, str]:
    """The docstring of each function, class and method of *paths*, by its C name.

    mypyc names the wrapper of a module's function ``CPyPy_<module>___<name>``,
    a method's ``CPyPy_<module>___<Class>___<name>`` and a class's type
    ``CPyType_<module>___<Class>_template_``, ``<module>`` the last part of
    the module's name, which the modules of :data:`COMPILED` each have
    their own of. The text is as :func:`inspect.cleandoc` leaves it, which is
    what ``help()`` shows.
    """
    docs: dict[str, str] = {}
    for path in paths:
        module = Path(path).stem
        for node in ast.parse(Path(path).read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and (doc := ast.get_docstring(node)):
                docs[f"CPyPy_{module}___{node.name}"] = doc
            if not isinstance(node, ast.ClassDef):
                continue
            if doc := ast.get_docstring(node):
                docs[f"CPyType_{module}___{node.name}_template_"] = doc
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and (doc := ast.get_docstring(item)):
                    docs[f"CPyPy_{module}___{node.name}___{item.name}"] = doc
    return docs


#: A C docstring mypyc writes: a string literal (the text signature) or NULL.
_C_DOC = r'PyDoc_STR\((?P<doc>"(?:[^"\\]|\\.)*"|NULL)\)'
#: A function's or method's entry in a method table, from its wrapper's name to its doc.
_C_FUNCTION = re.compile(r"\(PyCFunction\)(?P<name>CPyPy_\w+),[^,]*, " + _C_DOC)
#: A class's type, from its name to its doc.
_C_CLASS = re.compile(r"static PyTypeObject (?P<name>CPyType_\w+) = \{[^}]*?\.tp_doc = " + _C_DOC)


def _keep_docstrings(sources: list[str], docs: dict[str, str]) -> None:
    """Give mypyc's C code of *sources* the docstrings *docs* of the Python sources.

    mypyc gives a compiled function, method or class only its text
    signature (``name(args)\\n--\\n\\n``) as its C docstring, so that
    ``help()`` and ``__doc__`` lose the source's text. Here each docstring
    follows its signature, as CPython's own builtins write theirs: a second
    string literal, which the C compiler joins to the first, in UTF-8, as
    CPython decodes a C docstring.
    """
    from mypyc.codegen.cstring import c_string_initializer  # noqa: PLC0415

    def with_doc(match: re.Match[str]) -> str:
        doc = docs.get(match["name"])
        if doc is None:
            return match[0]
        literal = c_string_initializer(doc.encode("utf-8"))
        joined = literal if match["doc"] == "NULL" else f"{match['doc']} {literal}"
        return match[0][: match.start("doc") - match.start()] + joined + ")"

    for source in sources:
        if not source.endswith(".c"):
            continue
        path = Path(source)
        text = path.read_text(encoding="utf-8")
        new = _C_CLASS.sub(with_doc, _C_FUNCTION.sub(with_doc, text))
        if new != text:
            path.write_text(new, encoding="utf-8")


def _mypycify() -> list[Any]:
    """mypyc's extension modules for :data:`COMPILED`, its report held back unless it fails.

    mypyc type-checks the modules before it compiles them and prints every
    error it finds, then exits. On a user's install such a dump would be
    noise: the fallback's notice names the first error instead. When the
    compiled build is required, the whole report is replayed on stderr.
    """
    from mypyc.build import mypycify  # noqa: PLC0415  (only the compiled build needs mypy)

    report = io.StringIO()
    try:
        with contextlib.redirect_stdout(report), contextlib.redirect_stderr(report):
            extensions: list[Any] = mypycify(
                COMPILED,
                opt_level="3",
                target_dir=f"{BUILD_DIR}/mypyc",
                # The shared library of the group is a top-level module in
                # site-packages: taskspec__mypyc rather than a hash.
                group_name="taskspec",
            )
    except BaseException as err:
        err.add_note(report.getvalue())
        raise
    docs = _docstrings(COMPILED)
    _keep_docstrings([source for ext in extensions for source in ext.sources], docs)
    return extensions


class _BuildExt(build_ext):
    """build_ext that falls back to the pure build when compiling fails, unless required.

    A partly built set of modules would not import (each module's shim
    needs the shared library of the group), so on failure every built
    extension is removed, not just the one that failed. The wheel keeps
    the platform tag it was given before compiling began.
    """

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:
            if _required():
                raise
            for ext in self.extensions:
                built = self.get_ext_fullpath(ext.name)
                if os.path.exists(built):
                    os.remove(built)
            self.extensions = []
            _notice(f"compiling failed ({type(err).__name__}: {_first_line(str(err))})")


def _compiled_build() -> dict[str, Any]:
    """The setup() arguments of the compiled build, or none for the pure one."""
    if os.environ.get("TASKSPEC_COMPILE", "") == "0":
        return {}
    if "editable_wheel" in sys.argv or "develop" in sys.argv:
        if _required():
            raise SystemExit("TASKSPEC_COMPILE=1 needs a regular install: pip install . (not -e)")
        return {}
    if not BUILDING.intersection(sys.argv):
        return {}
    if _compiler() is None:
        if _required():
            raise SystemExit("TASKSPEC_COMPILE=1 needs a C compiler, and none was found")
        _notice("no C compiler found")
        return {}
    if not _python_headers():
        if _required():
            raise SystemExit("TASKSPEC_COMPILE=1 needs Python's C headers (Python.h)")
        _notice(f"no Python.h in {sysconfig.get_path('include')}")
        return {}
    try:
        ext_modules = _mypycify()
    except (Exception, SystemExit) as err:
        report = "\n".join(getattr(err, "__notes__", []))
        if _required():
            print(report, file=sys.stderr)
            raise
        why = _first_line(report) or _first_line(str(err)) or "no report"
        _notice(f"mypyc could not compile ({type(err).__name__}: {why})")
        return {}
    return {
        "ext_modules": ext_modules,
        "cmdclass": {"build_ext": _BuildExt},
        "options": {"build": {"build_base": BUILD_DIR}},
    }


setup(**_compiled_build())
