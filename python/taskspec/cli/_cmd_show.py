"""``taskspec show [--agent] FILE``: print one sidecar in canonical form.

``--agent`` prints what the agent may see (:func:`taskspec.agent_view`), so
a harness can hand the agent exactly these bytes and nothing more.

The file is read in the format its extension names, as ``convert`` reads it
(``.json`` proto3 JSON, ``.binpb`` binary protobuf, else YAML; for standard
input, the extension of ``--stdin-filename``), so ``show`` also prints a
JSON or binary spec as its canonical YAML.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Final

from taskspec._agent import agent_view
from taskspec._api import marshal_yaml, parse, parse_task_spec
from taskspec.cli._kit import (
    EXIT_INVALID,
    EXIT_OK,
    Report,
    add_input_options,
    display_name,
    read_checked,
    read_format,
)
from taskspec.v1.taskspec_pb2 import TaskSpec

__all__ = ["DESCRIPTION", "add_arguments", "run"]


#: What ``taskspec show --help`` says the command does.
DESCRIPTION: Final = (
    "Parse and validate one file (- for stdin) and print its canonical YAML. The file "
    "is read by its extension, as convert reads it: .json as proto3 JSON, .binpb as "
    "binary protobuf, anything else as YAML."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--agent",
        action="store_true",
        help="print only what the agent may see (the verification block is cleared)",
    )
    add_input_options(p, discovery=False)
    p.add_argument("path", metavar="FILE")


def _reader(fmt: str) -> Callable[[bytes], TaskSpec]:
    """The parser of format *fmt*."""
    return parse_task_spec if fmt == "yaml" else lambda data: parse(data, fmt)


def run(args: argparse.Namespace) -> int:
    name = display_name(args.path, args.stdin_filename)
    fmt = read_format(name)
    checked = read_checked(Report(sys.stderr), args.path, name, _reader(fmt))
    if checked is None:
        return EXIT_INVALID
    _, spec = checked
    if args.agent:
        # The file is validated above; the view itself is not a valid spec
        # (it has no test_cmd), and marshal_yaml writes it without validating.
        spec = agent_view(spec)
    sys.stdout.buffer.write(marshal_yaml(spec))
    sys.stdout.flush()
    return EXIT_OK
