"""``taskspec schema``: print the JSON Schema of the YAML sidecar.

The schema ships inside the package, byte for byte the committed
``schema/taskspec.v1.schema.json``, so an installed ``taskspec`` can hand
an editor or a CI step the schema of exactly the version it validates
with: ``taskspec schema > taskspec.v1.schema.json``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Final

from taskspec._jsonschema import FILENAME, packaged
from taskspec.cli._kit import EXIT_INVALID, EXIT_OK

__all__ = ["DESCRIPTION", "add_arguments", "run"]


#: What ``taskspec schema --help`` says the command does.
DESCRIPTION: Final = (
    "Print the JSON Schema (draft 2020-12) of TaskSpec v1 sidecars, for "
    "editors and other JSON Schema tools."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``schema`` takes no arguments."""


def run(args: argparse.Namespace) -> int:
    try:
        data = packaged()
    except OSError as err:  # a broken install: the package data is missing
        print(f"taskspec: cannot read the packaged {FILENAME}: {err}", file=sys.stderr)
        return EXIT_INVALID
    sys.stdout.buffer.write(data)
    sys.stdout.flush()
    return EXIT_OK
