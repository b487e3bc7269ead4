"""Reading and writing sidecar files.

A sidecar is the record of a run, and other processes read it while the
harness works, so a write must never leave a torn or half-written file: the
bytes go to a temporary file in the same directory, which is flushed and
fsynced, then renamed over the target in one atomic step. The directory is
fsynced too, so the rename itself survives a crash.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from taskspec._api import marshal_yaml, parse_task_spec, validate
from taskspec.v1 import taskspec_pb2

__all__ = ["atomic_write", "load", "save"]

StrPath = str | os.PathLike[str]


def load(path: StrPath) -> taskspec_pb2.TaskSpec:
    """Read, decode and validate the sidecar at *path*.

    Problems with the content raise :class:`~taskspec.TaskSpecError`;
    problems reaching the file (missing, unreadable) raise :class:`OSError`
    as for any other file, because they are about the environment, not the
    document.
    """
    return parse_task_spec(Path(path).read_bytes())


def save(path: StrPath, spec: taskspec_pb2.TaskSpec) -> None:
    """Validate *spec* and write its canonical YAML to *path* atomically.

    The spec is validated first so that nothing is written that
    :func:`load` would refuse; on any failure the previous file, if any, is
    left exactly as it was and no temporary file remains.
    """
    validate(spec)
    atomic_write(path, marshal_yaml(spec))


def atomic_write(path: StrPath, data: bytes) -> None:
    """Replace *path* with *data* so readers see the old bytes or the new, never a mix.

    The new file keeps the mode of the file it replaces, or gets the usual
    0o666 less the umask when it is new.
    """
    target = Path(path)
    directory = target.parent
    try:
        mode = target.stat().st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    tmp = directory / f".{target.name}.{secrets.token_hex(8)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
    try:
        try:
            if mode is not None:
                os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(directory)


def _fsync_dir(directory: Path) -> None:
    try:
        dir_fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - platforms without directory fds
        return
    try:
        os.fsync(dir_fd)
    except OSError:  # pragma: no cover - some filesystems refuse it
        pass
    finally:
        os.close(dir_fd)
