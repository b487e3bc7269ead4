"""``taskspec show [--agent] FILE``: print one sidecar in canonical form.

``--agent`` prints what the agent may see (:func:`taskspec.agent_view`), so
a harness can hand the agent exactly these bytes and nothing more.
"""

from __future__ import annotations

import argparse
import sys
from typing import Final

from taskspec._agent import agent_view
from taskspec._api import marshal_yaml, parse_task_spec
from taskspec.cli._kit import (
    EXIT_INVALID,
    EXIT_OK,
    Report,
    add_input_options,
    display_name,
    read_checked,
)

__all__ = ["DESCRIPTION", "add_arguments", "run"]


#: What ``taskspec show --help`` says the command does.
DESCRIPTION: Final = "Parse and validate one file (- for stdin) and print its canonical YAML."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--agent",
        action="store_true",
        help="print only what the agent may see (the verification block is cleared)",
    )
    add_input_options(p, discovery=False)
    p.add_argument("path", metavar="FILE")


def run(args: argparse.Namespace) -> int:
    name = display_name(args.path, args.stdin_filename)
    checked = read_checked(Report(sys.stderr), args.path, name, parse_task_spec)
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
