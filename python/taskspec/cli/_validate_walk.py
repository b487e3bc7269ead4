"""What ``taskspec validate`` checks, in order: the files the walk finds, and its notes in place.

The walk's warnings (a directory with no sidecar, a name spelt ``.yml``)
travel among the files as :class:`Note` items, so that each is written to
stderr with the chunk that holds it, in file order whatever the number of
jobs. Standard input is read here, in the parent: workers have none.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from typing import NamedTuple

from taskspec.cli._discover import Selection, walk
from taskspec.cli._kit import STDIN, display_name, misspelt, no_sidecars, os_reason, read_input

__all__ = ["Item", "Note", "items", "size"]


class Note(NamedTuple):
    """A line for stderr that the walk wrote in its place among the files (a warning)."""

    text: str


#: A file to check: its path; ``(path, reason)`` for a directory the walk
#: could not list; ``(name, bytes)`` for standard input, read by the parent;
#: or a Note, written to stderr in its place, so that stderr is in file order.
Item = str | tuple[str, str] | tuple[str, bytes] | Note


def items(args: argparse.Namespace) -> Iterator[Item]:
    """The walk; standard input is read here (workers have none).

    The walk's warnings (a directory with no sidecar, a name spelt ``.yml``)
    come as Notes in their place among the files, to be written with the
    chunk that holds them.
    """
    selection = Selection.build(args.include, args.exclude)
    notes: list[Note] = []

    def on_empty(directory: str) -> None:
        notes.append(Note(no_sidecars(directory, selection.patterns)))

    def on_misspelt(path: str, checked: bool) -> None:
        notes.append(Note(misspelt(path, checked)))

    walked = walk(
        args.paths,
        selection,
        on_empty,
        force_exclude=args.force_exclude,
        ignore=not args.no_ignore,
        on_misspelt=on_misspelt,
    )
    for item in walked:
        if notes:
            yield from notes
            notes.clear()
        if item == STDIN:
            name = display_name(STDIN, args.stdin_filename)
            try:
                yield (name, read_input(STDIN))
            except OSError as err:
                yield (name, os_reason(err))
        else:
            yield item
    yield from notes


def size(item: Item) -> int:
    """The bytes of a file to check, as far as a stat tells (0 for anything else)."""
    if type(item) is not str:
        return 0
    try:
        return os.stat(item).st_size
    except OSError:
        return 0
