"""The package's version, from the installed distribution's metadata, and its build.

``pyproject.toml`` is the one place the version is written; ``__version__``
and ``taskspec --version`` both read it back from the metadata that
installing the package records, so the two can never disagree with it.
``taskspec --version`` also names the build that is running, since the same
version installs either compiled or, where it could not compile, as pure
Python, and the two differ in speed.
"""

from __future__ import annotations

import functools
import os
import sys
from importlib.machinery import ExtensionFileLoader
from importlib.util import find_spec

__all__ = ["build", "is_compiled", "version"]


@functools.cache
def version() -> str:
    """The installed version of the ``taskspec`` distribution, or ``"0+unknown"``.

    The fallback covers running from a source tree that was never installed
    (``PYTHONPATH=python``), where no metadata exists.
    """
    return _recorded() or _from_metadata()


def _recorded() -> str | None:
    """The ``Version`` of the first ``taskspec-*.dist-info`` on ``sys.path``, or None.

    The distribution ``importlib.metadata`` would find, read without
    importing it: that import (the ``email`` package) costs more than the
    language server's whole answer to ``initialize`` may wait.
    ``tests/test_startup.py`` pins the two to the same answer.
    """
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in sorted(names):
            if not (name.startswith("taskspec-") and name.endswith(".dist-info")):
                continue
            try:
                with open(os.path.join(entry, name, "METADATA"), encoding="utf-8") as f:
                    for line in f:
                        if not line.strip():
                            break
                        key, _, value = line.partition(":")
                        if key == "Version":
                            return value.strip()
            except OSError:
                continue
    return None


def _from_metadata() -> str:
    from importlib.metadata import PackageNotFoundError  # noqa: PLC0415 - costly import
    from importlib.metadata import version as dist_version  # noqa: PLC0415

    try:
        return dist_version("taskspec")
    except PackageNotFoundError:
        return "0+unknown"


def build(compiled: bool) -> str:
    """Which build of the package is running: ``"compiled, mypyc"`` or ``"pure Python"``.

    *compiled* is ``taskspec.__compiled__`` (:func:`is_compiled`).
    """
    return "compiled, mypyc" if compiled else "pure Python"


def is_compiled() -> bool:
    """Whether the YAML bridge's hot modules run compiled (mypyc extension modules).

    Read from the modules that are actually imported, not from how the
    package was meant to be built.
    """
    spec = find_spec("taskspec.bridge._emit")
    return spec is not None and isinstance(spec.loader, ExtensionFileLoader)
