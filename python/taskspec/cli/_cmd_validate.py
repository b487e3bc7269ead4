"""``taskspec validate PATH...``: check sidecars against the contract, at harness scale.

A harness keeps one ``taskspec.yaml`` per run directory and may hold tens of
thousands of them, so the command is built around a cheap per-file loop.
Small runs are checked in-process. By default only a large run (2,048
files, or 2 MiB of them: :func:`parallel_jobs`) on a machine with a free
second CPU (:func:`free_cpus`, by the processes running now) goes to worker
processes, since below that starting them costs more than they save; with
``--jobs N`` every run of at least 64 files a worker does. Workers are a
``concurrent.futures`` process pool that start once (forked where the
platform allows, so they start with everything imported) and live for the
whole run. The parent only walks the tree and
deals out paths: it walks ahead of the workers, so it soon knows how much is
left, and sizes each chunk from that (a share of what remains, capped), so
chunks are large while there is much to do and small at the end, where they
keep both workers busy to the last file. A chunk travels as one string of
paths, and comes back as three counts and the finished report and notes: nothing
is pickled per file. A worker holds the chunk it checks and the next one,
so it never waits for the parent, and the parent writes results in chunk
order, which makes the output the same for any number of jobs, on stdout
and on stderr (a chunk brings back its hints, and the walk's warnings travel
in it in their place); it streams while later chunks are still being
checked.
A worker reads each file with the CLI's bounded reader
(:func:`taskspec.cli._kit.read_input`) and gets every problem of it from
the library (:func:`taskspec.check`): decode problems, broken rules and
warnings, in one list, each at its own position. Ctrl-C stops the run with
status 130.

Only sidecars are checked below a directory (see :mod:`taskspec.cli._discover`);
a file named on the command line is always checked, and ``-`` reads
standard input. A file is read in the format its extension names, as
``convert`` reads it (:func:`taskspec.cli._kit.read_format`; ``--stdin-filename``
names standard input's): ``.json`` as proto3 JSON, ``.binpb`` as binary
protobuf, anything else as YAML. Every problem of a file is reported, each
on one line of stdout with its code and severity (``--format``: text, JSON
Lines, or GitHub annotations; see :mod:`taskspec.cli._kit`); ``--format
json`` holds the lines back and writes one JSON document at the end, with
the summary in it. A file is invalid when one of its problems is an error;
warnings (TS301, TS302) leave it valid, and ``--strict-paths`` makes TS301
an error. The progress indicator and the closing
summary go to stderr, so stdout stays a clean list of problems for editors,
CI and scripts. An unreadable file or directory is reported like any other
problem and the run goes on; the exit status is 1 if anything was not valid.
A run that checked nothing says so on stderr, and with ``--fail-if-empty``
exits 1.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import gc
import io
import itertools
import os
import signal
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Final, TypeVar

from taskspec._check import check
from taskspec.cli._discover import ConfigError
from taskspec.cli._fix import add_fix_argument, fix_files
from taskspec.cli._jobs import free_cpus
from taskspec.cli._jobs import others_running as _busy
from taskspec.cli._jobs import usable_cpus as _cpus
from taskspec.cli._kit import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_USAGE,
    FORMATS,
    Progress,
    Report,
    add_input_options,
    json_document,
    note_block_prompt,
    positive_int,
    read_format,
    read_input,
    warning,
)
from taskspec.cli._validate_walk import Item, Note
from taskspec.cli._validate_walk import items as _items
from taskspec.cli._validate_walk import size as _size

if TYPE_CHECKING:
    from concurrent.futures import Future

_T = TypeVar("_T")

__all__ = [
    "DESCRIPTION",
    "Item",
    "add_arguments",
    "check_chunk",
    "free_cpus",
    "parallel_jobs",
    "run",
]


#: Per chunk: valid, invalid and unreadable counts, the report lines (stdout)
#: and the notes (stderr: warnings and hints), each in file order.
ChunkResult = tuple[int, int, int, str, str]

#: Fewest files worth one more worker: below this, starting a process costs
#: more than it saves, so small runs stay in-process whatever ``--jobs`` says.
MIN_FILES_PER_JOB = 64
#: When the default ``--jobs`` starts workers at all: for this many files, or
#: this many bytes of them, whichever comes first. Below both, starting the
#: pool and sending the chunks costs more than a second CPU saves: a file
#: costs about 0.1 ms (0.2 us a byte) and the pool about 0.07 s of CPU, so
#: the break-even is near 1,300 typical files (see BENCHMARKS.md, "Default
#: --jobs"); these keep a margin.
PARALLEL_MIN_FILES = 2048
PARALLEL_MIN_BYTES = 2 << 20
#: Chunk sizes. In-process, chunks start at FIRST_CHUNK and double; for
#: workers, a chunk is a share of the files left (SHARES_PER_JOB per worker),
#: never under MIN_CHUNK (a round trip to a worker costs about as much as
#: checking a file). MAX_CHUNK, about a tenth of a second of checking, keeps
#: output and progress flowing.
FIRST_CHUNK = 16
MIN_CHUNK = 16
MAX_CHUNK = 1024
SHARES_PER_JOB = 4
#: Chunks a worker holds at once (after its first), so that it never waits
#: for the parent between two chunks.
PREFETCH = 2
#: How far the parent walks ahead of the workers, in files (enough to size
#: chunks from what is left, bounded so that memory stays flat), and how many
#: it walks between two looks at the workers.
WALK_AHEAD = 65536
WALK_STEP = 64

# Set once per process by _configure (in each worker when it starts), so the
# hot loop reads globals instead of arguments.
_format = "text"
_strict_paths = False


class WorkerLostError(Exception):
    """A worker process ended without sending back the chunk it had."""


def parallel_jobs(files: int, size: int, cpus: int, *, done: bool) -> int | None:
    """How many workers the default ``--jobs`` uses, or None while it cannot tell yet.

    *files* and *size* (their bytes) are what the walk has found so far,
    *cpus* the CPUs this process may use, and *done* says the walk found
    everything. Workers pay only for a large run: one of PARALLEL_MIN_FILES
    files or PARALLEL_MIN_BYTES bytes; then one per CPU, with at least
    MIN_FILES_PER_JOB files each (and no more than are free: see
    :func:`_head`). A smaller run, once the walk is over, or any run on one
    CPU, is checked in-process (1).
    """
    if cpus > 1 and (files >= PARALLEL_MIN_FILES or size >= PARALLEL_MIN_BYTES):
        return max(1, min(cpus, files // MIN_FILES_PER_JOB))
    return 1 if done or cpus <= 1 else None


def _default_jobs() -> int:
    """The default ``--jobs`` for a large run: the CPUs this process may use that are free."""
    return free_cpus(_cpus(), _busy())


#: What ``taskspec validate --help`` says the command does.
DESCRIPTION: Final = (
    "Check sidecars: files named on the command line (- for stdin), and "
    "below directories every taskspec.yaml or *.taskspec.yaml, the same spelt .yml (with "
    "a warning) and the same ending in .json (hidden directories "
    "included; .git, node_modules and virtualenvs skipped), a large run in parallel. A file is "
    "read by its extension, as convert reads it: .json as proto3 JSON, .binpb as "
    "binary protobuf, anything else as YAML. Prints every problem of every file on "
    "stdout, one a line (path:line:col: CODE message; hint, and "
    "path:line:col: warning: CODE message; hint for a warning), and a summary on "
    "stderr. Exits 0 when every file is valid (warnings allowed), 1 otherwise."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-j",
        "--jobs",
        type=positive_int,
        default=None,
        metavar="N",
        help="worker processes (default: for a run of at least "
        f"{PARALLEL_MIN_FILES} files or {PARALLEL_MIN_BYTES >> 20} MiB, one per CPU "
        "that other running processes leave free, else in-process; 1 checks in-process)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: path:line:col: CODE message; hint (warning: before the code of a "
        "warning; the position left out when unknown); json: one JSON document, every "
        "problem and a summary; jsonl: one JSON object per problem per line, as found "
        "(path, code, field_path, line, column, message, hint, severity: always all "
        'there, line and column 0 when unknown, hint "" when none; and fix when the '
        "problem has one: text, start_line, start_column, end_line, end_column); "
        "github: GitHub Actions annotations (::error or ::warning)",
    )
    p.add_argument(
        "--fail-if-empty",
        action="store_true",
        help="exit 1 when nothing was checked: no path named a file, and no directory held "
        "a sidecar (by default that is a warning, and exit 0)",
    )
    p.add_argument(
        "--strict-paths",
        action="store_true",
        help="make a solution artifact path that would lead out of the workspace "
        "(absolute, .., a NUL byte; code TS301) an error that makes the file invalid, "
        "not a warning",
    )
    add_fix_argument(p)
    add_input_options(p, discovery=True)
    p.add_argument(
        "paths",
        nargs="*",
        default=[os.curdir],
        metavar="PATH",
        help="files and directories to check, - for standard input (default: .)",
    )


def _configure(fmt: str, strict_paths: bool = False) -> None:
    global _format, _strict_paths  # noqa: PLW0603 - per-process settings of the hot loop
    _format = fmt
    _strict_paths = strict_paths


def check_chunk(items: Sequence[Item]) -> ChunkResult:
    """Check a run of files; return the counts and the report text for them, in order.

    This is the whole per-file cost of the command, so it avoids per-file
    objects beyond what parsing needs: paths stay strings, valid files
    produce nothing, and the report is one string per chunk.
    """
    valid = 0
    out = io.StringIO()
    err = io.StringIO()
    report = Report(out, _format)
    for item in items:
        data: bytes
        if isinstance(item, Note):
            err.write(item.text)
            continue
        if isinstance(item, str):
            name = item
            try:
                data = read_input(item)
            except OSError as error:
                report.os_error(name, error)
                continue
        else:
            name, detail = item
            if isinstance(detail, str):  # a directory the walk could not list
                report.os_error(name, detail)
                continue
            data = detail  # standard input, read by the parent
        try:
            problems = check(data, read_format(name), strict_paths=_strict_paths)
        except Exception as error:  # a bug must not cost the report on every other file
            report.internal_error(name, error)
            continue
        if not problems or report.problems(name, problems):
            valid += 1
            note_block_prompt(name, data, err)
    return valid, report.invalid, report.unreadable, out.getvalue(), err.getvalue()


def _batches(head: list[Item], rest: Iterator[Item], progress: Progress) -> Iterator[list[Item]]:
    """In-process: the files in chunks that start small and double up to MAX_CHUNK.

    Walking the rest of the tree happens here, as chunks are taken; the
    progress total grows with it.
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


def _start(fmt: str, strict_paths: bool) -> None:
    """A worker's start: the parent's settings, and Ctrl-C left to the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _configure(fmt, strict_paths)


def _check_payload(payload: str | list[Item]) -> ChunkResult:
    """check_chunk in a worker: a chunk comes as one string of NUL-separated paths where it can.

    No path holds a NUL. A chunk that holds something else (an unlistable
    directory, standard input's bytes) comes as the list of its items.
    """
    return check_chunk(payload.split("\0") if isinstance(payload, str) else payload)


def _ready() -> None:
    """Nothing: submitted once, it makes the pool start its workers."""


class Workers:
    """Worker processes (a ``concurrent.futures`` pool) that start once and check chunks.

    The pool starts every worker at its first task, while the objects the
    parent holds are frozen: the workers inherit them, and their garbage
    collector never scans (and so never copies) the memory they share.
    """

    def __init__(self, jobs: int, fmt: str) -> None:
        # Only parallel runs pay for the import (it brings logging).
        from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

        self.jobs = jobs
        self._pool = ProcessPoolExecutor(
            jobs, mp_context=_context(), initializer=_start, initargs=(fmt, _strict_paths)
        )
        gc.freeze()
        try:
            _result(self._pool.submit(_ready))
        except WorkerLostError:
            self.close(wait=False)
            raise
        finally:
            gc.unfreeze()

    def send(self, chunk: list[Item]) -> Future[ChunkResult]:
        """Queue *chunk* for a worker; its result comes back through the future."""
        # A chunk that holds a Note, an unlistable directory or standard
        # input's bytes goes as its list.
        paths = all(type(item) is str for item in chunk)
        payload: str | list[Item] = "\0".join(chunk) if paths else chunk  # type: ignore[arg-type]
        with _lost_worker():
            return self._pool.submit(_check_payload, payload)

    def close(self, *, wait: bool = True) -> None:
        """Stop the workers: let them finish (*wait*), or drop what is queued and end them."""
        if not wait:
            # A worker busy with a chunk (or stuck on a file) is ended, not
            # waited for. Python 3.14 has terminate_workers for that; before
            # it, the pool's processes are ended one by one.
            terminate = getattr(self._pool, "terminate_workers", None)
            if terminate is not None:
                terminate()
                return
            for proc in list((getattr(self._pool, "_processes", None) or {}).values()):
                proc.terminate()
        self._pool.shutdown(wait=True, cancel_futures=not wait)


@contextlib.contextmanager
def _lost_worker() -> Iterator[None]:
    """A pool broken by a worker that died, in a submit or a result, as a WorkerLostError."""
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415

    try:
        yield
    except BrokenProcessPool as err:
        raise WorkerLostError("a worker process ended unexpectedly") from err


def _result(future: Future[_T]) -> _T:
    """The future's result; a worker that died is a WorkerLostError."""
    with _lost_worker():
        return future.result()


def _deal(
    workers: Workers, walked: Iterator[Item], buffer: list[Item], progress: Progress
) -> Iterator[ChunkResult]:
    """The parent's loop: walk ahead, deal chunks to workers, yield results in order.

    *buffer* holds what has been walked and not yet dealt out. Each chunk is
    a share of it, so chunks shrink as the end nears; while the walk goes
    on, the buffer is a lower bound of what is left, so the first chunks are
    the small ones that put every worker to work at once. PREFETCH chunks
    per worker are being checked at once, so a worker never waits for the
    parent between two of them; results are yielded in the order of the
    chunks, held back while an earlier chunk is still being checked.
    """
    from concurrent.futures import FIRST_COMPLETED, wait  # noqa: PLC0415

    share = SHARES_PER_JOB * workers.jobs
    # Every chunk dealt out and not yet yielded, oldest first, and those of
    # them still being checked: a slow chunk holds back the output, never
    # the workers.
    out: collections.deque[Future[ChunkResult]] = collections.deque()
    busy: set[Future[ChunkResult]] = set()
    walking = True
    while True:
        while buffer and len(busy) < PREFETCH * workers.jobs:
            size = min(MAX_CHUNK, max(MIN_CHUNK, -(-len(buffer) // share)))
            future = workers.send(buffer[:size])
            del buffer[:size]
            out.append(future)
            busy.add(future)
        while out and out[0].done():
            busy.discard(out[0])
            yield _result(out.popleft())
        if walking and len(buffer) < WALK_AHEAD:
            before = len(buffer)
            buffer.extend(itertools.islice(walked, WALK_STEP))
            progress.total += len(buffer) - before
            if len(buffer) - before < WALK_STEP:
                walking = False
                progress.counting = False
            continue  # walk on while the workers check
        if not out:
            if buffer:
                continue
            return
        done, _ = wait(busy, return_when=FIRST_COMPLETED)
        busy -= done


def _report(
    results: Iterable[ChunkResult], progress: Progress, held: list[str] | None = None
) -> tuple[int, int, int]:
    """Write each chunk's report as it comes, or keep it in *held* (``--format json``).

    A chunk's notes go to stderr after its report lines go to stdout: each
    stream is in file order, whatever the number of jobs.
    """
    valid = invalid = unreadable_count = 0
    write = sys.stdout.write if held is None else held.append
    for v, i, u, text, notes in results:
        valid += v
        invalid += i
        unreadable_count += u
        if text or notes:
            progress.clear()
        if text:
            write(text)
            if held is None and (progress.enabled or notes):
                sys.stdout.flush()
        if notes:
            sys.stderr.write(notes)
            sys.stderr.flush()
        progress.advance(v + i + u)  # every item counts as exactly one of the three
    return valid, invalid, unreadable_count


def _head(walked: Iterator[Item], jobs: int | None) -> tuple[list[Item], int]:
    """Walk until the number of workers is known; the items walked, and that number.

    With ``--jobs N`` (*jobs*), just far enough to know whether every job will
    have MIN_FILES_PER_JOB files; by default, until :func:`parallel_jobs`
    can tell (files and bytes found so far), and for a large run, how many
    CPUs are free (:func:`_default_jobs`, asked only then).
    """
    if jobs is not None:
        head = list(itertools.islice(walked, jobs * MIN_FILES_PER_JOB))
        if len(head) < jobs * MIN_FILES_PER_JOB:
            jobs = max(1, len(head) // MIN_FILES_PER_JOB)
        return head, jobs
    head = []
    files = size = 0
    cpus = _cpus()
    for item in walked:
        head.append(item)
        if type(item) is str:
            files += 1
            size += _size(item)
        decided = parallel_jobs(files, size, cpus, done=False)
        if decided is not None:
            return head, decided if decided == 1 else min(decided, _default_jobs())
    return head, parallel_jobs(files, size, cpus, done=True) or 1


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    fmt: str = args.format
    _configure(fmt, args.strict_paths)
    progress = Progress("validating", sys.stderr)
    try:
        if args.fix:
            fix_files(args)
        walk_items = _items(args)
        # Walk just far enough to know how many workers pay; a small run is
        # checked in-process, where it is done before a pool would start.
        head, jobs = _head(walk_items, args.jobs)
    except ConfigError as err:
        print(f"taskspec validate: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    progress.total = len(head)
    if jobs == 1:
        progress.counting = False
    progress.draw()
    held: list[str] | None = [] if fmt == "json" else None
    try:
        if jobs == 1:
            chunks = map(check_chunk, _batches(head, walk_items, progress))
            counts = _report(chunks, progress, held)
        else:
            workers = Workers(jobs, fmt)
            try:
                counts = _report(_deal(workers, walk_items, head, progress), progress, held)
            except BaseException:
                workers.close(wait=False)
                raise
            workers.close()
        if held is not None:
            valid, invalid, unreadable_count = counts
            lines = "".join(held)
            totals = {
                "files": valid + invalid + unreadable_count,
                "valid": valid,
                "invalid": invalid,
                "unreadable": unreadable_count,
                "problems": lines.count("\n"),
            }
            progress.clear()
            sys.stdout.write(json_document(lines, totals))
        sys.stdout.flush()
    except WorkerLostError as err:
        progress.clear()
        print(f"taskspec validate: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        progress.clear()
        print("interrupted", file=sys.stderr)
        return 128 + signal.SIGINT
    finally:
        # Whatever ends the run, the indicator is erased first. An OSError
        # writing stdout (a closed pipe, a full disk) goes on to main, which
        # stops quietly or in one line, as for every command.
        progress.clear()
    valid, invalid, unreadable_count = counts
    summary = f"{valid} valid, {invalid} invalid"
    if unreadable_count:
        summary += f", {unreadable_count} unreadable"
    checked = valid + invalid + unreadable_count
    if not checked:
        sys.stderr.write(warning("nothing to check: no file named, and no sidecar found"))
    print(f"{summary}, in {time.perf_counter() - started:.2f} s", file=sys.stderr)
    if invalid or unreadable_count or (not checked and args.fail_if_empty):
        return EXIT_INVALID
    return EXIT_OK
