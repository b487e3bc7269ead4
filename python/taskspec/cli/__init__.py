"""The ``taskspec`` command line: validate, fmt, convert, show, schema, explain, serve.

Only :func:`main` is public. Each subcommand lives in its own ``_cmd_*``
module; what they share (the bounded reader, the read-check-report step,
the reporter and the exit codes) lives once in :mod:`taskspec.cli._kit`, and
sidecar discovery, the one directory walker, in :mod:`taskspec.cli._discover`.
``fmt``'s comment keeping, built on the YAML bridge, is :mod:`taskspec.cli._comments`.
:func:`frozen_imports` is here, not in the kit, which brings the engine.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

from taskspec.cli._main import main

__all__ = ["main"]


@contextlib.contextmanager
def frozen_imports() -> Iterator[None]:
    """Import with the garbage collector off, and freeze what the imports leave.

    lsprotocol defines some six hundred classes as it is imported: with the
    collector off meanwhile the import is about a sixth faster, and frozen
    after, those objects are skipped by every later collection.
    """
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
