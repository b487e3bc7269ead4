"""``taskspec validate PATH...``: check sidecars against the contract, at harness scale.

A harness keeps one ``taskspec.yaml`` per run directory and may hold tens of
thousands of them, so the command is built around a cheap per-file loop:
the parent walks the tree once, cuts the list of paths into chunks and hands
them to a process pool (forked where the platform allows, so workers start
with everything imported). A worker reads each file with bare ``os`` calls,
parses it and sends back, per chunk, three counts and the finished report
text, so nothing per file crosses the process boundary except its path.
Chunks come back in order, which makes the output the same for any number
of jobs, and it streams while later chunks are still being checked.

Each problem is one line on stdout, ``path:line:col: message`` (or one JSON
object with ``--format json``). The progress bar and the closing summary go
to stderr, so stdout stays a clean list of problems for editors, CI and
scripts. An unreadable file or directory is reported like any other problem
and the run goes on; the exit status is 1 if anything was not valid.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import signal
import stat
import sys
import time
from collections.abc import Iterable, Sequence
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
#: Largest chunk sent to a worker. Each job gets about eight chunks so the
#: last one to finish is short; the cap keeps output and progress flowing.
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

    The common case costs three system calls: open, one read that gets the
    whole sidecar, and the read that finds its end. It is opened
    non-blocking and only checked further when a read finds nothing, so
    that a FIFO met during a walk is refused instead of hanging the run,
    while a special file named on the command line (``/dev/stdin``, a
    process substitution) is read to its end.
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


def _chunks(items: list[Item], jobs: int) -> list[list[Item]]:
    size = max(1, min(MAX_CHUNK, math.ceil(len(items) / (jobs * 8))))
    return [items[i : i + size] for i in range(0, len(items), size)]


def _context() -> Any:
    """Fork where it is safe and available: workers then start without re-importing.

    macOS is excluded because its system libraries are not fork-safe (and
    Python's default there is spawn for that reason).
    """
    import multiprocessing  # noqa: PLC0415 - only parallel runs pay for the import

    if sys.platform != "darwin" and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _report(
    results: Iterable[ChunkResult], sizes: list[int], progress: Progress
) -> tuple[int, int, int]:
    valid = invalid = unreadable = 0
    write = sys.stdout.write
    for (v, i, u, text), size in zip(results, sizes, strict=True):
        valid += v
        invalid += i
        unreadable += u
        if text:
            progress.clear()
            write(text)
            if progress.enabled:
                sys.stdout.flush()
        progress.advance(size)
    return valid, invalid, unreadable


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    paths: list[str] = args.paths
    items = find_yaml(paths)
    jobs: int = args.jobs or _default_jobs()
    jobs = max(1, min(jobs, len(items) // MIN_FILES_PER_JOB))
    chunks = _chunks(items, jobs)
    sizes = [len(c) for c in chunks]
    as_json = args.format == "json"
    explicit = frozenset(p for p in paths if not os.path.isdir(p))
    _configure(as_json, explicit)
    progress = Progress(len(items), "validating", sys.stderr)
    progress.draw()
    try:
        if jobs == 1:
            counts = _report(map(check_chunk, chunks), sizes, progress)
        else:
            with _context().Pool(jobs, _worker_init, (as_json, explicit)) as pool:
                counts = _report(pool.imap(check_chunk, chunks), sizes, progress)
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
