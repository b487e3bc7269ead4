"""``taskspec validate PATH...``: check sidecars against the contract, at harness scale.

A harness keeps one ``taskspec.yaml`` per run directory and may hold tens of
thousands of them, so the command is built around a cheap per-file loop.
Small runs are checked in-process. Larger ones go to worker processes that
start once (forked where the platform allows, so they start with everything
imported) and live for the whole run. The parent only walks the tree and
deals out paths: it walks ahead of the workers, so it soon knows how much is
left, and sizes each chunk from that (a share of what remains, capped), so
chunks are large while there is much to do and small at the end, where they
keep both workers busy to the last file. A chunk travels as one string of
paths, and comes back as three counts and the finished report text: nothing
is pickled per file. A worker holds the chunk it checks and the next one,
so it never waits for the parent, and the parent writes results in chunk
order, which makes the output the same for any number of jobs; it streams
while later chunks are still being checked.
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
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import gc
import io
import itertools
import os
import queue
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final

from taskspec._check import check
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
    json_document,
    note_block_prompt,
    os_reason,
    positive_int,
    read_format,
    read_input,
    warn_misspelt,
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
    "included; .git, node_modules and virtualenvs skipped), in parallel. A file is "
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
        help="worker processes (default: one per available CPU; 1 checks in-process)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: path:line:col: CODE message; hint (warning: before the code of a "
        "warning; the position left out when unknown); json: one JSON document, every "
        "problem and a summary; jsonl: one JSON object per problem per line, as found "
        "(path, code, field_path, line, column, message, hint, severity: always all "
        'there, line and column 0 when unknown, hint "" when none); github: GitHub '
        "Actions annotations (::error or ::warning)",
    )
    p.add_argument(
        "--strict-paths",
        action="store_true",
        help="make a solution artifact path that would lead out of the workspace "
        "(absolute, .., a NUL byte; code TS301) an error that makes the file invalid, "
        "not a warning",
    )
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
    report = Report(out, _format)
    for item in items:
        data: bytes
        if isinstance(item, str):
            name = item
            try:
                data = read_input(item)
            except OSError as err:
                report.os_error(name, err)
                continue
        else:
            name, detail = item
            if isinstance(detail, str):  # a directory the walk could not list
                report.os_error(name, detail)
                continue
            data = detail  # standard input, read by the parent
        try:
            problems = check(data, read_format(name), strict_paths=_strict_paths)
        except Exception as err:  # a bug must not cost the report on every other file
            report.internal_error(name, err)
            continue
        if not problems or report.problems(name, problems):
            valid += 1
            note_block_prompt(name, data)
    return valid, report.invalid, report.unreadable, out.getvalue()


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


def _serve(conn: Any, fmt: str, strict_paths: bool) -> None:
    """A worker's life: take a chunk, check it, send its result back; None ends it.

    A chunk is one string of NUL-separated paths (no path holds a NUL), or a
    list of items when it holds something else (an unlistable directory,
    standard input's bytes).
    """
    # Ctrl-C is the parent's to handle; it stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _configure(fmt, strict_paths)
    while (chunk := conn.recv()) is not None:
        conn.send(check_chunk(chunk.split("\0") if isinstance(chunk, str) else chunk))


class Workers:
    """Worker processes that start once and check chunks until closed.

    Chunks go out through a thread of their own, so the parent never waits
    on a full pipe: a worker may be sending a large report back at the same
    time, and each would wait for the other.
    """

    def __init__(self, jobs: int, fmt: str) -> None:
        ctx = _context()
        self.conns: list[Any] = []
        self._procs: list[Any] = []
        self._outbox: queue.SimpleQueue[tuple[Any, object] | None] = queue.SimpleQueue()
        self._sender = threading.Thread(target=self._send_all, name="taskspec-send", daemon=True)
        # Frozen at the fork, the objects workers inherit are never scanned
        # by their garbage collector, which would otherwise write to (and so
        # copy) the memory they share with this process.
        gc.freeze()
        try:
            for _ in range(jobs):
                ours, theirs = ctx.Pipe()
                proc = ctx.Process(target=_serve, args=(theirs, fmt, _strict_paths), daemon=True)
                proc.start()
                theirs.close()  # so that a worker's end of its pipe dies with it
                self.conns.append(ours)
                self._procs.append(proc)
        except BaseException:
            self.close(wait=False)
            raise
        finally:
            gc.unfreeze()
        self._sender.start()

    def send(self, conn: Any, chunk: list[Item]) -> None:
        """Queue *chunk* for the worker at *conn*: one string of paths where it can be."""
        try:
            self._outbox.put((conn, "\0".join(chunk)))  # type: ignore[arg-type]
        except TypeError:  # not all paths
            self._outbox.put((conn, chunk))

    def _send_all(self) -> None:
        while (job := self._outbox.get()) is not None:
            conn, payload = job
            # A worker that is gone is noticed by the loop reading its results.
            with contextlib.suppress(OSError):
                conn.send(payload)

    def close(self, *, wait: bool = True) -> None:
        """Stop the workers: ask them to and wait (*wait*), or end them at once."""
        if wait and self._sender.is_alive():
            for conn in self.conns:
                self._outbox.put((conn, None))
        for proc in self._procs:
            if wait:
                proc.join(5)
            if proc.is_alive():
                proc.terminate()
                proc.join()
        if self._sender.is_alive():  # no send can block now: no worker is left
            self._outbox.put(None)
            self._sender.join()
        for conn in self.conns:
            conn.close()


def _deal(
    workers: Workers, walked: Iterator[Item], buffer: list[Item], progress: Progress
) -> Iterator[ChunkResult]:
    """The parent's loop: walk ahead, deal chunks to workers, yield results in order.

    *buffer* holds what has been walked and not yet dealt out. Each chunk is
    a share of it, so chunks shrink as the end nears; while the walk goes
    on, the buffer is a lower bound of what is left, so the first chunks are
    the small ones that put every worker to work at once. A worker that has
    sent back a result holds up to PREFETCH chunks, so it never waits for
    the parent between two of them.
    """
    from multiprocessing.connection import wait  # noqa: PLC0415 - parallel runs only

    share = SHARES_PER_JOB * len(workers.conns)
    # Per worker, the numbers of the chunks it holds, oldest first.
    held: dict[Any, collections.deque[int]] = {c: collections.deque() for c in workers.conns}
    depth = dict.fromkeys(workers.conns, 1)  # until its first result comes back
    results: dict[int, ChunkResult] = {}
    walking = True
    sent = written = 0
    while True:
        for conn, chunks in held.items():
            while buffer and len(chunks) < depth[conn]:
                size = min(MAX_CHUNK, max(MIN_CHUNK, -(-len(buffer) // share)))
                workers.send(conn, buffer[:size])
                del buffer[:size]
                chunks.append(sent)
                sent += 1
        ahead = walking and len(buffer) < WALK_AHEAD
        if ahead:
            before = len(buffer)
            buffer.extend(itertools.islice(walked, WALK_STEP))
            progress.total += len(buffer) - before
            if len(buffer) - before < WALK_STEP:
                walking = ahead = False
                progress.counting = False
        busy = [conn for conn, chunks in held.items() if chunks]
        if not busy:
            if walking or buffer:
                continue
            return
        ready: list[Any] = wait(busy, 0 if ahead else None)
        for conn in ready:
            try:
                result: ChunkResult = conn.recv()
            except (EOFError, OSError) as err:
                raise WorkerLostError("a worker process ended unexpectedly") from err
            results[held[conn].popleft()] = result
            depth[conn] = PREFETCH
        while written in results:
            yield results.pop(written)
            written += 1


def _report(
    results: Iterable[ChunkResult], progress: Progress, held: list[str] | None = None
) -> tuple[int, int, int]:
    """Write each chunk's report as it comes, or keep it in *held* (``--format json``)."""
    valid = invalid = unreadable_count = 0
    write = sys.stdout.write if held is None else held.append
    for v, i, u, text in results:
        valid += v
        invalid += i
        unreadable_count += u
        if text:
            progress.clear()
            write(text)
            if progress.enabled and held is None:
                sys.stdout.flush()
        progress.advance(v + i + u)  # every item counts as exactly one of the three
    return valid, invalid, unreadable_count


def _items(args: argparse.Namespace, progress: Progress) -> Iterator[Item]:
    """The walk; standard input is read here (workers have none), empty directories warned of."""
    selection = Selection.build(args.include, args.exclude)

    def on_empty(directory: str) -> None:
        progress.clear()
        warn_no_sidecars(directory, selection.patterns)

    def on_misspelt(path: str) -> None:
        progress.clear()
        warn_misspelt(path)

    walked = walk(
        args.paths,
        selection,
        on_empty,
        force_exclude=args.force_exclude,
        ignore=not args.no_ignore,
        on_misspelt=on_misspelt,
    )
    for item in walked:
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
    _configure(fmt, args.strict_paths)
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
    print(f"{summary}, in {time.perf_counter() - started:.2f} s", file=sys.stderr)
    return EXIT_INVALID if invalid or unreadable_count else EXIT_OK
