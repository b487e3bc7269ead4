"""The ``taskspec`` command: one module per subcommand, wired together here.

Exit codes: 0 when everything is fine, 1 when any file is invalid (or, for
``fmt --check``, would change) or the output cannot be written, 2 on a
usage error.

The commands report every problem with their files themselves, so an
:class:`OSError` that reaches :func:`main` comes from writing the output:
standard output full (``> /dev/full``) or closed (``| head -0``). A closed
pipe means the reader has all it wants, and the command stops quietly, as
other command-line tools do; any other failure is one line on stderr. Either
way the status is 1 and no traceback is printed, and standard output is
pointed at ``/dev/null`` so that Python's flush at exit does not fail again.

The command runs on every commit of a repository with a pre-commit hook, so
its start-up is kept small: the parser names every subcommand from the table
below, and only the chosen one's module is imported, when argparse hands it
its arguments. Each ``_cmd_*`` module provides ``DESCRIPTION`` (its
``--help`` text), ``add_arguments(parser)`` and ``run(args)``.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Iterable, Sequence
from typing import Any, Final

__all__ = ["main"]

#: Every subcommand in the order ``taskspec --help`` lists them: its name,
#: its line in that list, and the module that adds its arguments and runs it.
COMMANDS: Final = (
    ("validate", "check sidecars against the contract", "taskspec.cli._cmd_validate"),
    ("fmt", "rewrite sidecars in canonical layout, keeping comments", "taskspec.cli._cmd_fmt"),
    ("show", "print a sidecar in canonical form", "taskspec.cli._cmd_show"),
    (
        "convert",
        "convert a spec between YAML, proto3 JSON and binary protobuf",
        "taskspec.cli._cmd_convert",
    ),
    ("schema", "print the JSON Schema of taskspec.yaml", "taskspec.cli._cmd_schema"),
    (
        "explain",
        "explain a problem's code (TS001 ...), or list them all",
        "taskspec.cli._cmd_explain",
    ),
    ("serve", "serve the installed generators over gRPC", "taskspec.cli._cmd_serve"),
    ("lsp", "run the language server for editors (over stdio)", "taskspec.cli._cmd_lsp"),
)


class _Version(argparse.Action):
    """``--version``: the installed version and which build runs, looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        import taskspec  # noqa: PLC0415 - only --version pays
        from taskspec._version import build, version  # noqa: PLC0415

        print(f"taskspec {version()} ({build(taskspec.__compiled__)})")
        parser.exit()


class _Command(argparse.ArgumentParser):
    """A subcommand's parser, completed from its module when argparse first hands it arguments.

    ``_SubParsersAction`` passes the rest of the command line to the chosen
    subcommand's ``parse_known_args``, so that is where the module is
    imported; the subcommands not chosen are never loaded.
    """

    def __init__(self, *, module: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._module: str | None = module

    def load(self) -> None:
        """Import the subcommand's module and add its description, arguments and ``run``."""
        if self._module is None:
            return
        command = importlib.import_module(self._module)
        self._module = None
        self.description = command.DESCRIPTION
        command.add_arguments(self)
        self.set_defaults(func=command.run)

    def parse_known_args(  # type: ignore[override]
        self, args: Iterable[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self.load()
        return super().parse_known_args(args, namespace)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="taskspec",
        description="Validate, format and show TaskSpec v1 sidecars (taskspec.yaml).",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=_Command
    )
    for name, summary, module in COMMANDS:
        sub.add_parser(name, help=summary, module=module)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        return _run(argv)
    except OSError as err:
        return _output_failed(err)


def _output_failed(err: OSError) -> int:
    """Stop after the output could not be written: quietly for a closed pipe, else in one line."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    except (OSError, ValueError):  # not a real file (tests swap in an in-memory stream)
        pass
    if err.errno != errno.EPIPE:
        try:
            print(
                f"taskspec: error: cannot write the output: {err.strerror or err}", file=sys.stderr
            )
            sys.stderr.flush()
        except OSError:
            pass  # stderr is gone too: the status is all that is left
    return 1


def _run(argv: Sequence[str] | None) -> int:
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on usage errors, 0 on --help
        if isinstance(exc.code, int):
            return int(exc.code)
        from taskspec.cli._kit import EXIT_USAGE  # noqa: PLC0415

        return EXIT_USAGE
    status: int = args.func(args)
    sys.stdout.flush()  # here, where a failure is reported, rather than at exit
    return status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
