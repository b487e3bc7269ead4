"""The ``taskspec`` command: one module per subcommand, wired together here.

Exit codes: 0 when everything is fine, 1 when any file is invalid (or, for
``fmt --check``, would change), 2 on a usage error.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from taskspec.cli import _cmd_convert, _cmd_fmt, _cmd_schema, _cmd_serve, _cmd_show, _cmd_validate
from taskspec.cli._kit import EXIT_USAGE

__all__ = ["main"]

# Each module contributes one subcommand through register(subparsers).
_COMMANDS = (
    _cmd_validate,
    _cmd_fmt,
    _cmd_show,
    _cmd_convert,
    _cmd_schema,
    _cmd_serve,
)


class _Version(argparse.Action):
    """``--version``: the installed distribution's version, looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from taskspec._version import version  # noqa: PLC0415 - only --version pays for it

        print(f"taskspec {version()}")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="taskspec",
        description="Validate, format and show TaskSpec v1 sidecars (taskspec.yaml).",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in _COMMANDS:
        command.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        return int(exc.code) if isinstance(exc.code, int) else EXIT_USAGE
    status: int = args.func(args)
    return status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
