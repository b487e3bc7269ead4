"""The ``taskspec`` command line: validate, fmt, convert, show, schema, explain, serve.

Only :func:`main` is public. Each subcommand lives in its own ``_cmd_*``
module; what they share (the bounded reader, the read-check-report step,
the reporter and the exit codes) lives once in :mod:`taskspec.cli._kit`, and
sidecar discovery, the one directory walker, in :mod:`taskspec.cli._discover`.
``fmt``'s comment keeping, built on the YAML bridge, is :mod:`taskspec.cli._comments`.
"""

from __future__ import annotations

from taskspec.cli._main import main

__all__ = ["main"]
