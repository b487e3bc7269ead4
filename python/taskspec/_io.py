"""Reading and writing sidecar files.

Reading is bounded and never blocks: every reader in this package (``load``,
each command of the CLI, and the CLI's ``pyproject.toml`` settings) goes
through :func:`read_file` or :func:`read_stream`, which share one read loop
and stop one byte past the decoder's size limit, so ``/dev/zero`` or a
multi-gigabyte log costs a bounded read and a clear error instead of memory.
A FIFO, a device or a directory is refused at once instead of hanging a CI
job or a pre-commit hook; standard input is read only when asked for (``-``
on the command line).

A sidecar is the record of a run, and other processes read it while the
harness works, so a write must never leave a torn or half-written file: the
bytes go to a temporary file in the same directory, which is flushed and
fsynced, then renamed over the target in one atomic step, and the directory
is fsynced so that the rename itself survives a crash. The write goes
through symbolic links to the file they name, so a link stays a link and
the file it points at is the one updated. The file keeps its mode, and its
owner where the process may set it.

A formatter replaces a file with a new version of what it read, while a
person's editor may save the same file at any moment. :func:`atomic_write`
with ``expect`` (what :func:`read_snapshot` returned) replaces the file only
if it still holds exactly what was read, and otherwise leaves the newer
content in place and raises :class:`ChangedError`; see :func:`atomic_write`
for how, and for what is left of the window between the check and the
rename.

A writer that is killed leaves its temporary file behind. Its name,
``.<name>.<16 hex digits>.tmp``, is hidden and does not end in ``.yaml``,
so no walk mistakes it for a sidecar; and the writer holds an exclusive
``flock`` on it for as long as it lives, so the next write to the same file
can tell a dead writer's leftover (lock free) from a live writer's file
(locked), and removes only the former.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, BinaryIO, NamedTuple

from taskspec import _validate
from taskspec._api import marshal, marshal_yaml, parse, validate
from taskspec._errors import TaskSpecError, ValidationError
from taskspec._format import Format, file_format
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec._writable import check_nodes, check_size
from taskspec.v1 import taskspec_pb2

if TYPE_CHECKING:
    from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows has no flock; the names stay unique
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "TEMP_NAME",
    "ChangedError",
    "Snapshot",
    "atomic_write",
    "load",
    "read_file",
    "read_snapshot",
    "read_stream",
    "save",
    "write_target",
]

StrPath = str | os.PathLike[str]

#: The name of a writer's temporary file: ``.<target name>.<16 hex>.tmp``.
#: Group 1 is the target's name.
TEMP_NAME = re.compile(r"\A\.(.+)\.[0-9a-f]{16}\.tmp\Z", re.DOTALL)

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)
#: One read gets a whole sidecar (they are a few KiB) yet is cheap to allocate.
_BLOCK = 64 * 1024
#: What a reader takes at most: one byte past the decoder's limit, so that the
#: decoder can tell "too large" from "exactly at the limit".
_READ_LIMIT = MAX_DOCUMENT_BYTES + 1

_KINDS = (
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_file(path: StrPath) -> bytes:
    """The bytes of the regular file at *path*, up to one byte past the size limit.

    A directory raises :class:`IsADirectoryError`; a FIFO, a device or a
    socket raises :class:`OSError` saying what it is, at once: the file is
    opened non-blocking and checked before anything is read, so neither a
    FIFO without a writer nor ``/dev/zero`` can hold the caller up. The
    read stops past :data:`~taskspec._limits.MAX_DOCUMENT_BYTES`, so an
    oversized file costs a bounded read and the decoder reports it.
    """
    return read_snapshot(path).data


#: What identifies one version of a file: device, inode, size and
#: modification time. An atomic save makes a new inode; a write in place
#: changes the time (and mostly the size).
Identity = tuple[int, int, int, int]


def _identity(st: os.stat_result) -> Identity:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


class Snapshot(NamedTuple):
    """What one read of a file saw: its bytes, and the identity of the file that held them.

    ``atomic_write(..., expect=snapshot)`` replaces the file only if it
    still holds exactly this.
    """

    data: bytes
    identity: Identity


def read_snapshot(path: StrPath) -> Snapshot:
    """:func:`read_file`, with the identity of the file read (taken before reading).

    The identity is taken before the bytes are read, so a write in place
    during the read makes the identity stale and a later
    ``atomic_write(..., expect=...)`` refuse, rather than accept bytes that
    no version of the file ever held.
    """
    fd = os.open(path, _READ_FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _not_regular(st.st_mode, path)
        first = os.read(fd, _BLOCK)
        if len(first) < _BLOCK:  # the common case: the whole sidecar in one read
            return Snapshot(first, _identity(st))
        return Snapshot(_read_bounded(functools.partial(os.read, fd), first), _identity(st))
    finally:
        os.close(fd)


def _read_bounded(read: Callable[[int], bytes], first: bytes = b"") -> bytes:
    """*first*, then what *read* gives, in blocks, until it ends or the bound is reached.

    The one bounded read loop of the package: files and streams alike stop
    at one byte past the size limit.
    """
    parts = [first]
    size = len(first)
    while size < _READ_LIMIT and (part := read(min(_BLOCK, _READ_LIMIT - size))):
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def _not_regular(mode: int, path: StrPath) -> OSError:
    if stat.S_ISDIR(mode):
        return IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), os.fspath(path))
    kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
    return OSError(
        errno.EINVAL, f"not a regular file ({kind}); use - to read standard input", os.fspath(path)
    )


def read_stream(stream: BinaryIO) -> bytes:
    """Up to one byte past the size limit from *stream* (standard input, for ``-``)."""
    return _read_bounded(stream.read)


def load(path: StrPath, *, format: Format | str | None = None) -> taskspec_pb2.TaskSpec:
    """Read, decode and validate the spec in the file at *path*, in the format its extension names.

    ``.yaml`` and ``.yml`` are YAML (:func:`~taskspec.parse_task_spec`),
    ``.json`` proto3 JSON (:func:`~taskspec.parse_json`), ``.binpb`` and
    ``.pb`` binary protobuf (:func:`~taskspec.parse_binpb`), in any case, as
    :func:`~taskspec.format_for_path` and the command line read them, and as
    the Go library's ``Load`` does. *format* (a :class:`~taskspec.Format` or
    its name) reads the file in that format whatever its name.

    Problems reaching the file come first and raise :class:`OSError` as for
    any other file, because they are about the environment, not the
    document: missing, unreadable, or not a regular file (see
    :func:`read_file`). A name whose extension names no format then raises
    :class:`~taskspec.TaskSpecError` with code TS903, its hint the
    extensions there are; problems with the content raise it too (a
    :class:`~taskspec.DecodeError` or :class:`~taskspec.ValidationError`).
    """
    data = read_file(path)
    return parse(data, file_format(path, format))


def save(path: StrPath, spec: taskspec_pb2.TaskSpec, *, format: Format | str | None = None) -> None:
    """Validate *spec* and write it to *path* atomically, in the format its extension names.

    The format is chosen as :func:`load` chooses it: canonical YAML
    (:func:`~taskspec.marshal_yaml`) for ``.yaml`` and ``.yml``, canonical
    JSON (:func:`~taskspec.marshal_json`) for ``.json``, binary protobuf
    (:func:`~taskspec.marshal_binpb`) for ``.binpb`` and ``.pb``, or
    *format* whatever the name; a name whose extension names no format is a
    :class:`~taskspec.TaskSpecError` (TS903) and nothing is written. The
    bytes are the Go library's ``Save``'s.

    Nothing is written that :func:`load` would refuse: the spec is
    validated first, which refuses YAML over the size limit
    (:class:`~taskspec.ValidationError`, TS107), and YAML over a reader's
    node count (60,000 signals are 120,000 nodes), or JSON or binary over
    the size limit, is refused with a :class:`~taskspec.TaskSpecError`
    naming the field that takes most of it (see :mod:`taskspec._writable`).
    On any failure the previous file, if any, is left exactly as it was and
    no temporary file remains. A symbolic link is written through: the file
    it points at gets the bytes.
    """
    fmt = file_format(path, format).value
    if fmt != "yaml":
        validate(spec)
        atomic_write(path, check_size(spec, marshal(spec, fmt), fmt))
        return
    # The YAML is written once: validating measures it for the size rule
    # (TS107), and for YAML only the node count is left to check.
    try:
        data = marshal_yaml(spec)
    except TaskSpecError:  # not writable at all: validating says why
        validate(spec)
        raise
    broken = _validate.check(spec, written=data)
    if broken:
        raise ValidationError(broken)
    check_nodes(spec)
    atomic_write(path, data)


def write_target(path: StrPath) -> Path:
    """The file a write to *path* replaces: *path* with every symbolic link resolved.

    Renaming over the link itself would turn it into a regular file and
    leave the file it pointed at unchanged, so writes go to the target.
    """
    # Imported here, with secrets below, so that readers never pay for them.
    from pathlib import Path  # noqa: PLC0415

    return Path(os.path.realpath(path))


class ChangedError(Exception):
    """The file changed after it was read: it was left alone, holding the newer content.

    Raised by ``atomic_write(..., expect=...)``; ``path`` is the file.
    """

    def __init__(self, path: str) -> None:
        super().__init__(f"{path}: changed while being rewritten; left alone")
        self.path = path


def atomic_write(path: StrPath, data: bytes, *, expect: Snapshot | None = None) -> bool:
    """Replace *path* with *data* so readers see the old bytes or the new, never a mix.

    The new file keeps the mode of the file it replaces, and its owner and
    group where this process may set them; a new file gets the usual 0o666
    less the umask. Temporary files of the same target left by killed
    writers are removed first. A file whose mode has no write bit is
    refused (:class:`PermissionError`), even for root, as ``open(path,
    "w")`` refuses it; a directory that cannot be written to is named in
    the error, since the file itself may well be writable.

    With *expect* (what :func:`read_snapshot` returned when the caller read
    the file it now rewrites), the file is replaced only if it still holds
    exactly that: the same bytes in the same file (device, inode, size and
    modification time). Otherwise the newer content is left in place and
    :class:`ChangedError` is raised; if the file already holds *data*
    (another run wrote the same bytes), nothing is done and False is
    returned. Otherwise the result is True.

    The check and the rename cannot be one step, so a save landing between
    them would be lost to a plain rename. On Linux the rename is an atomic
    exchange (``renameat2(RENAME_EXCHANGE)``) instead, after which the file
    that was displaced is looked at: if it is not the one read, a save
    landed in that window, and it is exchanged back (repeatedly, should
    saves keep landing), so no save is lost; readers may see the formatted
    bytes for those few microseconds. Where the exchange is not available
    (other systems, filesystems without it) a plain rename follows a last
    ``stat`` of the target, and a save in the microseconds between the two
    is lost. A concurrent taskspec writer of the same file could also take
    a displaced save, which sits under this write's temporary name for
    those microseconds, for a dead writer's leftover and remove it.
    """
    target = write_target(path)
    directory = target.parent
    try:
        old: os.stat_result | None = target.stat()
    except FileNotFoundError:
        old = None
    if expect is not None and (old is None or _identity(old) != expect.identity):
        return _changed(target, data)  # checked before any work: the common refusal
    if old is not None and not old.st_mode & 0o222:
        # Replacing needs only a writable directory, but a file marked
        # read-only says "do not change me", as gofmt and black respect.
        raise PermissionError(
            errno.EACCES, "the file is read-only (its mode has no write bit)", os.fspath(target)
        )
    _remove_stale(directory, target.name)
    try:
        fd, tmp = _create_locked_temp(directory, target.name)
    except PermissionError as err:
        # The file itself may be writable: the new one is made beside it.
        raise PermissionError(
            err.errno, f"the directory {directory} is not writable ({err.strerror})", directory
        ) from None
    ours = os.fstat(fd)
    replaced = True
    try:
        if old is not None:
            _keep_owner_and_mode(fd, old)
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
        if expect is None:
            os.replace(tmp, target)
        else:
            replaced = _replace_unchanged(tmp, target, expect, data, ours)
    except BaseException:
        # Only while it is this write's file: after an exchange the name
        # may hold a save that is someone else's.
        _unlink_if(tmp, ours)
        raise
    finally:
        os.close(fd)  # also releases the lock, after the rename
    _fsync_dir(directory)
    return replaced


def _changed(target: Path, data: bytes) -> bool:
    """False if *target* already holds *data*; otherwise raise :class:`ChangedError`."""
    try:
        if read_file(target) == data:
            return False
    except OSError:
        pass
    raise ChangedError(os.fspath(target))


def _holds(target: Path, expect: Snapshot) -> bool:
    """Whether *target* is still the file *expect* was read from, with the same bytes."""
    try:
        fd = os.open(target, _READ_FLAGS)
    except FileNotFoundError:
        return False
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or _identity(st) != expect.identity:
            return False
        return _read_bounded(functools.partial(os.read, fd)) == expect.data
    finally:
        os.close(fd)


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _replace_unchanged(
    tmp: Path, target: Path, expect: Snapshot, data: bytes, ours: os.stat_result
) -> bool:
    """Rename *tmp* over *target* if *target* still holds *expect*; see :func:`atomic_write`."""
    if not _holds(target, expect):
        _unlink_if(tmp, ours)
        return _changed(target, data)
    if not _exchange(tmp, target):
        # No atomic exchange here: a last look, then a plain rename.
        try:
            unchanged = _identity(os.stat(target)) == expect.identity
        except FileNotFoundError:
            unchanged = False
        if not unchanged:
            _unlink_if(tmp, ours)
            return _changed(target, data)
        os.replace(tmp, target)
        return True
    # The target is this write's file now, and tmp the file it displaced.
    held = os.open(tmp, _READ_FLAGS | getattr(os, "O_NOFOLLOW", 0))
    try:
        if _identity(os.fstat(held)) == expect.identity:
            os.unlink(tmp)  # the file that was read: replaced as intended
            return True
        _give_back(tmp, target, ours, held)
    finally:
        os.close(held)
    raise ChangedError(os.fspath(target))


def _give_back(tmp: Path, target: Path, placed: os.stat_result, held: int) -> None:
    """Put the newest save back at *target*, and remove the stale file that ends up at *tmp*.

    *tmp* holds a save that is newer than *placed*, the file at *target*.
    An exchange puts it back and brings out what *target* held: *placed*,
    which is stale and removed, or a save that landed meanwhile, which is
    newer still and goes back in turn. Every file involved is kept open
    until the end, so that no inode number is reused and mistaken for
    another.
    """
    opened: list[int] = []
    try:
        while True:
            newer = os.fstat(held)
            if not _exchange(tmp, target):  # pragma: no cover - it worked a moment ago
                raise OSError(errno.EIO, "cannot exchange the file back", os.fspath(target))
            out = os.open(tmp, _READ_FLAGS | getattr(os, "O_NOFOLLOW", 0))
            opened.append(out)
            if _same_file(os.fstat(out), placed):
                os.unlink(tmp)
                return
            placed, held = newer, out  # a save landed on the target meanwhile
    finally:
        for fd in opened:
            os.close(fd)


def _unlink_if(tmp: Path, ours: os.stat_result) -> None:
    """Remove *tmp* if it is still the file *ours* describes."""
    with contextlib.suppress(FileNotFoundError):
        if _same_file(os.lstat(tmp), ours):
            os.unlink(tmp)


#: ``renameat2``'s flag for an atomic exchange of two names, and "relative
#: to the working directory" for its directory arguments (Linux).
_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    """glibc's ``renameat2``, or None where there is none (other systems, old C libraries)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # noqa: PLC0415 - only a checked rewrite pays for it

    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


def _exchange(a: Path, b: Path) -> bool:
    """Swap the files named *a* and *b* in one atomic step; False where that is not possible."""
    fn = _renameat2()
    if fn is None:
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    import ctypes  # noqa: PLC0415

    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):  # not on this filesystem
        return False
    raise OSError(err, os.strerror(err), os.fspath(b))


def _create_locked_temp(directory: Path, name: str) -> tuple[int, Path]:
    """A new temporary file for *name* in *directory*, open and exclusively locked.

    Between creating the file and locking it, another writer's clean-up may
    take the free lock and remove the file; the inode check catches that,
    and a fresh name is tried.
    """
    import secrets  # noqa: PLC0415

    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    while True:
        tmp = directory / f".{name}.{secrets.token_hex(8)}.tmp"
        fd = os.open(tmp, flags, 0o666)
        if fcntl is None:  # pragma: no cover - no flock here
            return fd, tmp
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.stat(tmp).st_ino == os.fstat(fd).st_ino:
                return fd, tmp
        except FileNotFoundError:
            pass
        except BaseException:
            os.close(fd)
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        os.close(fd)


def _keep_owner_and_mode(fd: int, old: os.stat_result) -> None:
    """Give the new file *old*'s owner and group (where permitted), then its mode.

    The owner goes first because changing it may clear set-id bits, which
    the mode then restores. Only root may give a file away, and only a
    member of the group may set it, so a refusal leaves the writer's own
    owner rather than failing the write.
    """
    if hasattr(os, "fchown"):
        current = os.fstat(fd)
        if (current.st_uid, current.st_gid) != (old.st_uid, old.st_gid):
            with contextlib.suppress(PermissionError):
                os.fchown(fd, old.st_uid, old.st_gid)
    os.fchmod(fd, stat.S_IMODE(old.st_mode))


def _remove_stale(directory: Path, name: str) -> None:
    """Remove temporary files for *name* whose writer is gone (their lock is free)."""
    if fcntl is None:  # pragma: no cover - without flock a live writer cannot be told apart
        return
    for entry in _temp_files(directory, name):
        try:
            fd = os.open(entry, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # locked: a live writer's file
            os.close(fd)
            continue
        try:
            # Still the file that was locked (not a new writer's under a reused name)?
            if os.stat(entry).st_ino == os.fstat(fd).st_ino:
                os.unlink(entry)
        except OSError:
            pass
        finally:
            os.close(fd)


def _temp_files(directory: Path, name: str) -> Iterator[str]:
    """The temporary files for *name* in *directory* (one listing; nothing below it).

    This is not a walk: it lists the one directory a write goes to, for
    names :data:`TEMP_NAME` gives to that target. Finding sidecars in a
    tree is :func:`taskspec.cli._discover.walk`, which in turn skips these
    names; the name pattern has its one home here.
    """
    try:
        with os.scandir(directory) as it:
            for entry in it:
                match = TEMP_NAME.match(entry.name)
                if match and match.group(1) == name and entry.is_file(follow_symlinks=False):
                    yield entry.path
    except OSError:
        return


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
