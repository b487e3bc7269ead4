"""``taskspec validate PATH...``: check sidecars against the contract, at harness scale.

A harness keeps one ``taskspec.yaml`` per run directory and may hold tens of
thousands of them, so the command is built around a cheap per-file loop.
The parent walks the tree and hands the paths, in chunks, to a process pool
(forked where the platform allows, so workers start with everything
imported); the walk goes on while the first chunks are being checked. A
worker reads each file through the CLI's one bounded read-check-report step
(:func:`taskspec.cli._kit.read_checked`), and sends back, per chunk, three
counts and the finished report text, so nothing per file crosses the process
boundary but its path. Chunks come back in order, which
makes the output the same for any number of jobs, and it streams while later
chunks are still being checked. Ctrl-C stops the run with status 130.

Only sidecars are checked below a directory (see :mod:`taskspec.cli._discover`);
a file named on the command line is always checked, and ``-`` reads
standard input. Each problem is one line on stdout (``--format``: text,
json, or GitHub annotations). The progress indicator and the closing
summary go to stderr, so stdout stays a clean list of problems for editors,
CI and scripts. An unreadable file or directory is reported like any other
problem and the run goes on; the exit status is 1 if anything was not valid.
"""

from __future__ import annotations

import argparse
import gc
import io
import itertools
import os
import signal
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

from taskspec._api import parse_task_spec
from taskspec.cli._discover import ConfigError, Selection, walk
from taskspec.cli._kit import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    FORMATS,
    STDIN,
    Progress,
    Report,
    add_input_options,
    display_name,
    os_reason,
    read_checked,
    read_input,
    warn_no_sidecars,
)

__all__ = ["DESCRIPTION", "add_arguments", "check_chunk", "run"]

#: A file to check: its path; ``(path, reason)`` for a directory the walk
#: could not list; or ``(name, bytes)`` for standard input, read by the parent.
Item = str | tuple[str, str] | tuple[str, bytes]
#: Per chunk: valid, invalid and unreadable counts, and the report lines.
ChunkResult = tuple[int, int, int, str]

#: Fewest files worth one more worker: below this, starting a process costs
#: more than it saves, so small runs stay in-process whatever ``--jobs`` says.
MIN_FILES_PER_JOB = 64
#: Sizes of the chunks sent to a worker: the first, and the largest. The cap
#: keeps the last chunk to finish short, and output and progress flowing.
FIRST_CHUNK = 16
MAX_CHUNK = 256

# Set once per process by _configure (in each worker through the pool's
# initializer), so the hot loop reads globals instead of arguments.
_format = "text"


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def _default_jobs() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


#: What ``taskspec validate --help`` says the command does.
DESCRIPTION: Final = (
    "Check sidecars: files named on the command line (- for stdin), and "
    "below directories every taskspec.yaml or *.taskspec.yaml (hidden directories "
    "included; .git, node_modules and virtualenvs skipped), in parallel. Prints "
    "path:line:col: message for each problem on stdout, and a summary on stderr. "
    "Exits 0 when all are valid, 1 otherwise."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="worker processes (default: one per available CPU; 1 checks in-process)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: path:line:col: message; json: one JSON object per problem per line; "
        "github: GitHub Actions annotations",
    )
    add_input_options(p, discovery=True)
    p.add_argument("paths", nargs="+", metavar="PATH")


def _configure(fmt: str) -> None:
    global _format  # noqa: PLW0603 - a per-process setting of the hot loop
    _format = fmt


def _worker_init(fmt: str) -> None:
    # Ctrl-C is the parent's to handle; workers just stop when it ends the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _configure(fmt)


def check_chunk(items: Sequence[Item]) -> ChunkResult:
    """Check a run of files; return the counts and the report text for them, in order.

    This is the whole per-file cost of the command, so it avoids per-file
    objects beyond what parsing needs: paths stay strings, valid files
    produce nothing, and the report is one string per chunk.
    """
    valid = 0
    out = io.StringIO()
    report = Report(out, _format)
    for item in items:
        source: str | bytes
        if isinstance(item, str):
            name = source = item
        else:
            name, detail = item
            if isinstance(detail, str):  # a directory the walk could not list
                report.os_error(name, detail)
                continue
            source = detail  # standard input, read by the parent
        try:
            checked = read_checked(report, source, name, parse_task_spec)
        except Exception as err:  # a bug must not cost the report on every other file
            report.internal_error(name, err)
            continue
        if checked is not None:
            valid += 1
    return valid, report.invalid, report.unreadable, out.getvalue()


def _batches(head: list[Item], rest: Iterator[Item], progress: Progress) -> Iterator[list[Item]]:
    """The files in chunks that start small and double up to MAX_CHUNK.

    Small first chunks put every worker to work at once; large later ones
    keep the cost per chunk (a round trip to a worker) negligible. Walking
    the rest of the tree happens here, as chunks are taken, so it overlaps
    with checking; the progress total grows with it.
    """
    items = itertools.chain(head, rest)
    size = min(FIRST_CHUNK, MAX_CHUNK)
    seen = 0
    while batch := list(itertools.islice(items, size)):
        seen += len(batch)
        progress.total = max(progress.total, seen)
        if len(batch) < size:
            progress.counting = False
        yield batch
        size = min(size * 2, MAX_CHUNK)
    progress.counting = False


def _context() -> Any:
    """Fork where it is safe and available: workers then start without re-importing.

    macOS is excluded because its system libraries are not fork-safe (and
    Python's default there is spawn for that reason).
    """
    import multiprocessing  # noqa: PLC0415 - only parallel runs pay for the import

    if sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _report(results: Iterable[ChunkResult], progress: Progress) -> tuple[int, int, int]:
    valid = invalid = unreadable_count = 0
    write = sys.stdout.write
    for v, i, u, text in results:
        valid += v
        invalid += i
        unreadable_count += u
        if text:
            progress.clear()
            write(text)
            if progress.enabled:
                sys.stdout.flush()
        progress.advance(v + i + u)  # every item counts as exactly one of the three
    return valid, invalid, unreadable_count


def _items(args: argparse.Namespace, progress: Progress) -> Iterator[Item]:
    """The walk; standard input is read here (workers have none), empty directories warned of."""
    selection = Selection.build(args.include, args.exclude)

    def on_empty(directory: str) -> None:
        progress.clear()
        warn_no_sidecars(directory, selection.patterns)

    for item in walk(args.paths, selection, on_empty):
        if item == STDIN:
            name = display_name(STDIN, args.stdin_filename)
            try:
                yield (name, read_input(STDIN))
            except OSError as err:
                yield (name, os_reason(err))
        else:
            yield item


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    jobs: int = args.jobs or _default_jobs()
    fmt: str = args.format
    _configure(fmt)
    progress = Progress("validating", sys.stderr)
    try:
        walk_items = _items(args, progress)
        # Walk just far enough to know whether every job will have work; a
        # small run is checked in-process, where it is done before a pool starts.
        head = list(itertools.islice(walk_items, jobs * MIN_FILES_PER_JOB))
    except ConfigError as err:
        print(f"taskspec validate: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    progress.total = len(head)
    if len(head) < jobs * MIN_FILES_PER_JOB:
        jobs = max(1, len(head) // MIN_FILES_PER_JOB)
        progress.counting = False
    progress.draw()
    batches = _batches(head, walk_items, progress)
    try:
        if jobs == 1:
            counts = _report(map(check_chunk, batches), progress)
        else:
            # Frozen at the fork, the objects workers inherit are never
            # scanned by their garbage collector, which would otherwise write
            # to (and so copy) the memory they share with this process.
            gc.freeze()
            try:
                pool = _context().Pool(jobs, _worker_init, (fmt,))
            finally:
                gc.unfreeze()
            with pool:
                counts = _report(pool.imap(check_chunk, batches), progress)
        sys.stdout.flush()
    except KeyboardInterrupt:
        progress.clear()
        print("interrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python's
        # exit-time flush of stdout from failing again.
        progress.clear()
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_INVALID
    progress.clear()
    valid, invalid, unreadable_count = counts
    summary = f"{valid} valid, {invalid} invalid"
    if unreadable_count:
        summary += f", {unreadable_count} unreadable"
    print(f"{summary}, in {time.perf_counter() - started:.2f} s", file=sys.stderr)
    return EXIT_INVALID if invalid or unreadable_count else EXIT_OK
