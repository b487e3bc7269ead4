"""Shared pieces of the command line: exit codes, file discovery, reporting.

Output follows the compiler convention ``path:line:col: message`` so that
editors and CI annotate the exact spot.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from taskspec._errors import TaskSpecError, Violation

__all__ = [
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_USAGE",
    "Progress",
    "Report",
    "expand",
    "find_yaml",
    "read",
    "render",
]

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


def render(v: Violation) -> str:
    """A violation's message followed by its hint, as one line for a person.

    Decode messages are worded here and already carry their hint; validation
    messages are Go's and cannot, so their hint is appended in parentheses.
    """
    if not v.hint or v.hint in v.message:
        return v.message
    return f"{v.message} ({v.hint})"


class Report:
    """Counts problems and prints them as ``path:line:col: message``."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.failed = 0

    def error(self, path: Path | str, err: TaskSpecError) -> None:
        self.failed += 1
        for v in err.violations:
            line, column = (v.line, v.column) if v.line else (1, 1)
            print(f"{path}:{line}:{column}: {render(v)}", file=self.out)

    def os_error(self, path: Path | str, err: OSError, action: str = "read") -> None:
        self.failed += 1
        reason = err.strerror or str(err)
        print(f"{path}:1:1: cannot {action}: {reason}", file=self.out)


def expand(paths: Sequence[str], report: Report) -> Iterator[Path]:
    """Files named directly, and ``*.yaml`` files found below directories, in sorted order.

    A directory that cannot be read is reported and skipped, not fatal.
    """
    for raw in paths:
        path = Path(raw)
        if not path.is_dir():
            yield path
            continue

        def on_error(err: OSError, _path: Path = path) -> None:
            report.os_error(err.filename or _path, err)

        for root, dirs, files in os.walk(path, onerror=on_error):
            dirs.sort()
            yield from (Path(root, f) for f in sorted(files) if f.endswith(".yaml"))


def read(path: Path, report: Report) -> bytes | None:
    """The file's bytes, or None after reporting why they cannot be read."""
    try:
        return path.read_bytes()
    except OSError as err:
        report.os_error(path, err)
        return None


def find_yaml(paths: Sequence[str]) -> Iterator[str | tuple[str, str]]:
    """Every file to check, in output order, with unreadable directories in place.

    A path named on the command line is taken as it is (a file of any name,
    or a directory). Below a directory every ``*.yaml`` file counts, not
    only ``taskspec.yaml``, because a harness may keep other sidecars of the
    same format next to it; hidden directories such as ``.agents`` are
    walked like any other. Within a directory the files come first, then
    its subdirectories, each in code-point order of their names. Symbolic
    links to files are followed; links to directories are not, so a link
    loop cannot make the walk endless. A directory that cannot be listed
    becomes a ``(path, reason)`` entry at its place, so that it is reported
    in order and the walk goes on.

    It is a generator so that checking can start while a large tree is
    still being walked. Paths are plain strings: they are cheap to sort,
    join and send to worker processes.
    """
    for raw in paths:
        if not os.path.isdir(raw):
            yield raw
            continue
        stack = [raw]
        while stack:
            top = stack.pop()
            try:
                with os.scandir(top) as it:
                    entries = list(it)
            except OSError as err:
                yield (top, err.strerror or str(err))
                continue
            if len(entries) > 1:  # a run directory often holds just its sidecar
                entries.sort(key=_name)
            subdirs: list[str] = []
            for entry in entries:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if is_dir:
                    if not entry.is_symlink():
                        subdirs.append(entry.path)
                elif entry.name.endswith(".yaml"):
                    yield entry.path
            stack.extend(reversed(subdirs))


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


class Progress:
    """A one-line progress bar on stderr, shown only when stderr is a terminal.

    Piped or redirected output stays clean for logs and CI. The bar redraws
    at most ten times a second, and :meth:`clear` removes it before other
    output is written, so it never lands in the middle of a report line.
    The total may grow while the work is still being found; until
    :attr:`counting` is cleared the count is shown with a ``+``.
    """

    def __init__(self, label: str, out: TextIO, *, enabled: bool | None = None) -> None:
        self.label = label
        self.out = out
        self.total = 0
        self.counting = True
        self.done = 0
        self.enabled = out.isatty() if enabled is None else enabled
        self._shown = False
        self._next = 0.0

    def advance(self, count: int) -> None:
        """Count *count* more items done and redraw if it is time to."""
        self.done += count
        if self.enabled and (time.monotonic() >= self._next or self.done >= self.total):
            self.draw()

    def draw(self) -> None:
        """Draw the bar now."""
        if not self.enabled:
            return
        self._next = time.monotonic() + 0.1
        total = max(self.total, self.done, 1)
        counts = f"{self.done}/{self.total}{'+' if self.counting else ''}"
        width = max(10, min(40, shutil.get_terminal_size().columns - len(self.label) - 32))
        filled = width * self.done // total
        bar = "#" * filled + "." * (width - filled)
        self.out.write(f"\r{self.label} [{bar}] {100 * self.done // total:3d}% {counts}")
        self.out.flush()
        self._shown = True

    def clear(self) -> None:
        """Erase the bar, leaving the cursor at the start of an empty line."""
        if self._shown:
            self.out.write("\r\x1b[K")
            self.out.flush()
            self._shown = False
