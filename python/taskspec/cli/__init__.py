"""The ``taskspec`` command line: validate, fmt, convert, show, schema, serve.

Only :func:`main` is public. Each subcommand lives in its own ``_cmd_*``
module; what they share (the bounded reader, the sidecar walker, the
reporter and the exit codes) lives once in :mod:`taskspec.cli._kit`, and
sidecar discovery in :mod:`taskspec.cli._discover`.
"""

from __future__ import annotations

from taskspec.cli._main import main

__all__ = ["main"]
