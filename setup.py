"""Build hook for the optional compiled build of the YAML bridge's hot modules.

pyproject.toml defines the package; this file adds only extension modules,
and only when asked: with ``TASKSPEC_COMPILE=1`` (``make compiled``) the
modules in :data:`COMPILED` are compiled with mypyc, which ships with the
pinned mypy, so the build needs ``--no-build-isolation`` in a venv that has
requirements-dev.txt installed, and a C compiler. Without it the package is
pure Python, as ``make venv`` and a plain ``pip install`` build it.

The pure-Python sources stay in the package either way: a compiled module
is an extension next to its ``.py`` file, which the import system prefers.
``taskspec.__compiled__`` says which of the two is running.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup

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
    "python/taskspec/bridge/_decode_walk.py",
    "python/taskspec/bridge/_decode_scalar.py",
    "python/taskspec/bridge/_decode_msg.py",
    "python/taskspec/_validate.py",
    "python/taskspec/_rules.py",
]

#: Where the compiled build's intermediate files go (C sources, objects,
#: the build tree), out of python/ so that nothing lands next to the sources.
BUILD_DIR = "build/compiled"


def _compile_requested() -> bool:
    return os.environ.get("TASKSPEC_COMPILE", "") not in ("", "0")


def _compiled_build() -> dict[str, Any]:
    """The setup() arguments of the compiled build, or none for the pure one."""
    if not _compile_requested():
        return {}
    if "editable_wheel" in sys.argv:
        # An editable install would put the extensions into python/taskspec/,
        # where they would shadow the sources for every venv that uses them.
        raise SystemExit("TASKSPEC_COMPILE=1 needs a regular install: pip install . (not -e)")
    from mypyc.build import mypycify  # noqa: PLC0415  (only the compiled build needs mypy)

    return {
        "ext_modules": mypycify(COMPILED, opt_level="3", target_dir=f"{BUILD_DIR}/mypyc"),
        "options": {"build": {"build_base": BUILD_DIR}},
    }


setup(**_compiled_build())
