"""``taskspec validate PATH...``: check sidecars against the contract, at harness scale.

A harness keeps one ``taskspec.yaml`` per run directory and may hold tens of
thousands of them, so the command is built around a cheap per-file loop.
The parent walks the tree and hands the paths, in chunks, to a process pool
(forked where the platform allows, so workers start with everything
imported); the walk goes on while the first chunks are being checked. A
worker reads each file with bare ``os`` calls, parses it and sends back, per
chunk, three counts and the finished report text, so nothing per file
crosses the process boundary but its path. Chunks come back in order, which
makes the output the same for any number of jobs, and it streams while later
chunks are still being checked. Ctrl-C stops the run with status 130.

Each problem is one line on stdout, ``path:line:col: message`` (or one JSON
object with ``--format json``). The progress bar and the closing summary go
to stderr, so stdout stays a clean list of problems for editors, CI and
scripts. An unreadable file or directory is reported like any other problem
and the run goes on; the exit status is 1 if anything was not valid.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import signal
import stat
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from taskspec._api import parse_task_spec
from taskspec._clikit import EXIT_INVALID, EXIT_OK, Progress, find_yaml, render
from taskspec._decode import MAX_DOCUMENT_BYTES
from taskspec._errors import TaskSpecError, Violation

__all__ = ["check_chunk", "register", "run"]

Item = str | tuple[str, str]
#: Per chunk: valid, invalid and unreadable counts, and the report lines.
ChunkResult = tuple[int, int, int, str]

#: Fewest files worth one more worker: below this, starting a process costs
#: more than it saves, so small runs stay in-process whatever ``--jobs`` says.
MIN_FILES_PER_JOB = 64
#: Sizes of the chunks sent to a worker: the first, and the largest. The cap
#: keeps the last chunk to finish short, and output and progress flowing.
FIRST_CHUNK = 16
MAX_CHUNK = 256

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
_BLOCK = 64 * 1024  # more than any sidecar, small enough to allocate per file

# Set once per process by _configure (in each worker through the pool's
# initializer), so the hot loop reads globals instead of arguments.
_json = False
_explicit: frozenset[str] = frozenset()


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


def register(sub: Any) -> None:
    p = sub.add_parser(
        "validate",
        help="check sidecars against the contract",
        description="Check files, or every *.yaml file below directories (hidden ones "
        "included), in parallel. Prints path:line:col: message for each problem on "
        "stdout, and a summary on stderr. Exits 0 when all are valid, 1 otherwise.",
    )
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
        choices=("text", "json"),
        default="text",
        help="text: path:line:col: message; json: one JSON object per problem per line",
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(func=run)


def _configure(as_json: bool, explicit: frozenset[str]) -> None:
    global _json, _explicit  # noqa: PLW0603 - per-process settings of the hot loop
    _json = as_json
    _explicit = explicit


def _worker_init(as_json: bool, explicit: frozenset[str]) -> None:
    # Ctrl-C is the parent's to handle; workers just stop when it ends the pool.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _configure(as_json, explicit)


def _line(path: str, v: Violation) -> str:
    """One problem as a report line; a problem without a position points at 1:1."""
    line, column = (v.line, v.column) if v.line else (1, 1)
    if _json:
        record: dict[str, str | int] = {
            "path": path,
            "line": line,
            "column": column,
            "field_path": v.field_path,
            "message": v.message,
        }
        if v.hint:
            record["hint"] = v.hint
        return json.dumps(record) + "\n"
    return f"{path}:{line}:{column}: {render(v)}\n"


def _unreadable(path: str, reason: str) -> str:
    return _line(path, Violation("", f"cannot read: {reason}"))


def _read(path: str) -> bytes:
    """The file's bytes (up to the decoder's limit and a block more).

    The common case costs four system calls: open, a read that gets the
    whole sidecar, a read that finds its end, and close; ``open().read()``
    makes nine. The file is opened non-blocking and only checked further
    (``fstat``) when a read finds nothing, so that a FIFO met during a walk
    is refused instead of hanging the run, while a special file named on the
    command line (``/dev/stdin``, a process substitution) is read to its end.
    """
    fd = os.open(path, _READ_FLAGS)
    try:
        parts: list[bytes] = []
        size = 0
        while size <= MAX_DOCUMENT_BYTES:
            try:
                part = os.read(fd, _BLOCK)
            except BlockingIOError:  # a pipe or FIFO whose writer has not written yet
                if path not in _explicit:
                    raise OSError(0, "not a regular file") from None
                os.set_blocking(fd, True)
                continue
            if not part:
                if not size and path not in _explicit and not stat.S_ISREG(os.fstat(fd).st_mode):
                    raise OSError(0, "not a regular file")
                break
            parts.append(part)
            size += len(part)
        return parts[0] if len(parts) == 1 else b"".join(parts)
    finally:
        os.close(fd)


def check_chunk(items: Sequence[Item]) -> ChunkResult:
    """Check a run of files; return the counts and the report text for them, in order.

    This is the whole per-file cost of the command, so it avoids per-file
    objects beyond what parsing needs: paths stay strings, valid files
    produce nothing, and the report is one string per chunk.
    """
    valid = invalid = unreadable = 0
    out: list[str] = []
    for item in items:
        if type(item) is tuple:  # a directory the walk could not list
            unreadable += 1
            out.append(_unreadable(*item))
            continue
        path: str = item  # type: ignore[assignment]
        try:
            data = _read(path)
        except OSError as err:
            unreadable += 1
            out.append(_unreadable(path, err.strerror or str(err)))
            continue
        try:
            parse_task_spec(data)
        except TaskSpecError as err:
            invalid += 1
            out.extend([_line(path, v) for v in err.violations])
            continue
        except Exception as err:  # a bug must not cost the report on every other file
            invalid += 1
            message = f"internal error: {type(err).__name__}: {err}"
            out.append(_line(path, Violation("", message)))
            continue
        valid += 1
    return valid, invalid, unreadable, "".join(out)


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
    valid = invalid = unreadable = 0
    write = sys.stdout.write
    for v, i, u, text in results:
        valid += v
        invalid += i
        unreadable += u
        if text:
            progress.clear()
            write(text)
            if progress.enabled:
                sys.stdout.flush()
        progress.advance(v + i + u)  # every item counts as exactly one of the three
    return valid, invalid, unreadable


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    paths: list[str] = args.paths
    jobs: int = args.jobs or _default_jobs()
    as_json = args.format == "json"
    explicit = frozenset(p for p in paths if not os.path.isdir(p))
    _configure(as_json, explicit)
    progress = Progress("validating", sys.stderr)

    # Walk just far enough to know whether every job will have work; a
    # small run is checked in-process, where it is done before a pool starts.
    walk = find_yaml(paths)
    head = list(itertools.islice(walk, jobs * MIN_FILES_PER_JOB))
    progress.total = len(head)
    if len(head) < jobs * MIN_FILES_PER_JOB:
        jobs = max(1, len(head) // MIN_FILES_PER_JOB)
        progress.counting = False
    progress.draw()
    batches = _batches(head, walk, progress)
    try:
        if jobs == 1:
            counts = _report(map(check_chunk, batches), progress)
        else:
            # Frozen at the fork, the objects workers inherit are never
            # scanned by their garbage collector, which would otherwise write
            # to (and so copy) the memory they share with this process.
            gc.freeze()
            try:
                pool = _context().Pool(jobs, _worker_init, (as_json, explicit))
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
    valid, invalid, unreadable = counts
    summary = f"{valid} valid, {invalid} invalid"
    if unreadable:
        summary += f", {unreadable} unreadable"
    print(f"{summary}, in {time.perf_counter() - started:.2f} s", file=sys.stderr)
    return EXIT_INVALID if invalid or unreadable else EXIT_OK
