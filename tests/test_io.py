"""load and save: reading sidecars, and atomic writes that never leave a torn file."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import taskspec
from taskspec import ValidationError, _limits
from taskspec._io import read_stream
from taskspec.cli._discover import Selection, walk
from tests.helpers import VALID_DOC, valid_spec


def test_save_then_load_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    spec = valid_spec()
    taskspec.save(path, spec)
    assert path.read_bytes() == VALID_DOC
    assert taskspec.load(path) == spec
    assert taskspec.load(str(path)) == spec
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taskspec.yaml"]


def test_load_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        taskspec.load(tmp_path / "absent.yaml")


def test_save_refuses_an_invalid_spec_and_leaves_the_file(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"original")
    spec = valid_spec()
    spec.prompt = " "
    with pytest.raises(ValidationError, match="prompt is required"):
        taskspec.save(path, spec)
    assert path.read_bytes() == b"original"
    assert [p.name for p in tmp_path.iterdir()] == ["taskspec.yaml"]


def test_failed_write_midway_leaves_original_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"original contents\n")
    real_write = os.write
    calls = 0

    def failing_write(fd: int, data: bytes | memoryview) -> int:
        nonlocal calls
        calls += 1
        if calls == 1:
            return real_write(fd, bytes(data[:10]))  # a short write: half the file is out
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "write", failing_write)
    with pytest.raises(OSError, match="No space left"):
        taskspec.save(path, valid_spec())
    assert calls == 2
    assert path.read_bytes() == b"original contents\n"
    assert [p.name for p in tmp_path.iterdir()] == ["taskspec.yaml"]


def test_failed_fsync_leaves_original_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"original")

    def failing_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="Input/output error"):
        taskspec.save(path, valid_spec())
    assert path.read_bytes() == b"original"
    assert [p.name for p in tmp_path.iterdir()] == ["taskspec.yaml"]


def test_failed_rename_leaves_original_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"original")

    def failing_replace(src: object, dst: object) -> None:
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError):
        taskspec.save(path, valid_spec())
    assert path.read_bytes() == b"original"
    assert [p.name for p in tmp_path.iterdir()] == ["taskspec.yaml"]


def test_save_keeps_the_mode_of_the_file_it_replaces(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    path.chmod(0o640)
    taskspec.save(path, valid_spec())
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_new_file_gets_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        path = tmp_path / "new.yaml"
        taskspec.save(path, valid_spec())
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_readers_never_see_a_partial_file(tmp_path: Path) -> None:
    """The target's inode is swapped whole: an open reader keeps the old bytes."""
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old contents")
    with path.open("rb") as reader:
        taskspec.save(path, valid_spec())
        assert reader.read() == b"old contents"
    assert path.read_bytes() == VALID_DOC


# -- writes go through symbolic links and keep what the file was -------------


def test_save_writes_through_a_symlink_and_the_link_stays(tmp_path: Path) -> None:
    real = tmp_path / "store" / "taskspec.yaml"
    real.parent.mkdir()
    real.write_bytes(b"old")
    real.chmod(0o600)
    link = tmp_path / "taskspec.yaml"
    link.symlink_to(os.path.relpath(real, tmp_path))
    chain = tmp_path / "again.yaml"
    chain.symlink_to("taskspec.yaml")  # a link to a link

    taskspec.save(chain, valid_spec())

    assert link.is_symlink() and chain.is_symlink()
    assert os.readlink(link) == os.path.join("store", "taskspec.yaml")
    assert real.read_bytes() == VALID_DOC
    assert stat.S_IMODE(real.stat().st_mode) == 0o600
    assert sorted(p.name for p in real.parent.iterdir()) == ["taskspec.yaml"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again.yaml", "store", "taskspec.yaml"]


def test_a_dangling_symlink_gets_its_target_created(tmp_path: Path) -> None:
    link = tmp_path / "taskspec.yaml"
    link.symlink_to("real.yaml")
    taskspec.save(link, valid_spec())
    assert link.is_symlink()
    assert (tmp_path / "real.yaml").read_bytes() == VALID_DOC


@pytest.mark.skipif(os.geteuid() != 0, reason="only root may give a file to another owner")
def test_save_keeps_the_owner_and_group(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    os.chown(path, 4321, 8765)
    path.chmod(0o2640)  # set-gid survives too: the mode is set after the owner
    taskspec.save(path, valid_spec())
    st = path.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (4321, 8765, 0o2640)


def test_a_refused_chown_keeps_the_writers_owner(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    mine = path.stat()
    calls: list[tuple[int, int]] = []

    def refuse(fd: int, uid: int, gid: int) -> None:
        calls.append((uid, gid))
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "fchown", refuse)
    real_fstat = os.fstat

    def fstat_other_owner(fd: int) -> os.stat_result:
        st = real_fstat(fd)
        if stat.S_ISREG(st.st_mode) and st.st_ino != mine.st_ino:
            fields = list(st)
            fields[4] = mine.st_uid + 1  # pretend the temp file belongs to someone else
            return os.stat_result(fields)
        return st

    monkeypatch.setattr(os, "fstat", fstat_other_owner)
    taskspec.save(path, valid_spec())
    assert calls == [(mine.st_uid, mine.st_gid)]
    assert path.read_bytes() == VALID_DOC


# -- a killed writer's temporary file ------------------------------------------


def test_a_dead_writers_temp_file_is_removed_by_the_next_write(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    stale = tmp_path / ".taskspec.yaml.0123456789abcdef.tmp"
    stale.write_bytes(b"half a sid")  # nobody holds its lock: its writer is gone
    other = tmp_path / ".other.yaml.0123456789abcdef.tmp"
    other.write_bytes(b"another file's leftover")
    lookalike = tmp_path / ".taskspec.yaml.notours.tmp"
    lookalike.write_bytes(b"not a temp name of ours")

    taskspec.save(path, valid_spec())

    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted([lookalike.name, other.name, "taskspec.yaml"])


def test_a_writer_killed_mid_write_leaves_a_file_the_next_write_removes(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    code = (
        "import os, sys, time\n"
        "import taskspec._io as io\n"
        "real = os.write\n"
        "def stall(fd, data):\n"
        "    real(fd, bytes(data[:7]))\n"
        "    print('writing', flush=True)\n"
        "    time.sleep(600)\n"
        "os.write = stall\n"
        "io.atomic_write(sys.argv[1], b'new contents')\n"
    )
    writer = subprocess.Popen(
        [sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert writer.stdout is not None and writer.stdout.readline() == "writing\n"
    finally:
        writer.kill()
        writer.wait(timeout=30)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "taskspec.yaml"]
    assert len(leftovers) == 1 and leftovers[0].startswith(".taskspec.yaml.")
    assert path.read_bytes() == b"old"
    # Never taken for a sidecar ...
    assert list(walk([str(tmp_path)], Selection())) == [str(path)]
    # ... and gone after the next write.
    taskspec.save(path, valid_spec())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taskspec.yaml"]


def test_a_live_writers_temp_file_is_left_alone(tmp_path: Path) -> None:
    fcntl = pytest.importorskip("fcntl")
    path = tmp_path / "taskspec.yaml"
    live = tmp_path / ".taskspec.yaml.fedcba9876543210.tmp"
    live.write_bytes(b"being written")
    code = (
        "import fcntl, sys, time\n"
        "f = open(sys.argv[1], 'rb')\n"
        "fcntl.flock(f, fcntl.LOCK_EX)\n"
        "print('locked', flush=True)\n"
        "sys.stdin.read()\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(live)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        taskspec.save(path, valid_spec())
        assert live.read_bytes() == b"being written"
    finally:
        holder.communicate("", timeout=30)
    assert fcntl is not None
    taskspec.save(path, valid_spec())  # the writer is gone now: its file goes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taskspec.yaml"]


def test_temp_names_are_never_sidecars(tmp_path: Path) -> None:
    (tmp_path / "taskspec.yaml").write_bytes(VALID_DOC)
    (tmp_path / ".taskspec.yaml.0123456789abcdef.tmp").write_bytes(VALID_DOC)
    (tmp_path / ".x.taskspec.yaml.0123456789abcdef.tmp").write_bytes(VALID_DOC)
    everything = Selection.build(include=["*"], use_config=False)
    assert list(walk([str(tmp_path)], everything)) == [str(tmp_path / "taskspec.yaml")]


# -- reads are bounded and never block -----------------------------------------


def test_load_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "taskspec.yaml"
    os.mkfifo(fifo)  # no writer: a blocking open would hang forever
    with pytest.raises(OSError, match=r"not a regular file \(a FIFO\)"):
        taskspec.load(fifo)


def test_load_refuses_devices_and_directories(tmp_path: Path) -> None:
    with pytest.raises(OSError, match=r"not a regular file \(a character device\)"):
        taskspec.load("/dev/zero")
    with pytest.raises(IsADirectoryError):
        taskspec.load(tmp_path)


def test_load_reads_no_more_than_the_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"# " + b"x" * (_limits.MAX_DOCUMENT_BYTES + 5_000_000))
    real_read = os.read
    total = 0

    def counting_read(fd: int, n: int) -> bytes:
        nonlocal total
        data = real_read(fd, n)
        total += len(data)
        return data

    monkeypatch.setattr(os, "read", counting_read)
    with pytest.raises(taskspec.DecodeError, match="larger than"):
        taskspec.load(path)
    assert total == _limits.MAX_DOCUMENT_BYTES + 1


def test_read_stream_is_bounded() -> None:
    data = read_stream(io.BytesIO(b"a" * (_limits.MAX_DOCUMENT_BYTES + 100)))
    assert len(data) == _limits.MAX_DOCUMENT_BYTES + 1
    assert read_stream(io.BytesIO(b"small")) == b"small"


# -- files and directories that cannot be written ------------------------------


def test_a_read_only_file_is_refused_and_kept(tmp_path: Path) -> None:
    """Even for root: 0444 says "do not change me", and the directory being writable does not."""
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    path.chmod(0o444)
    with pytest.raises(PermissionError, match=r"the file is read-only") as info:
        taskspec.save(path, valid_spec())
    assert info.value.filename == str(path)
    assert path.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taskspec.yaml"]


def test_a_directory_that_cannot_be_written_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    if os.geteuid() == 0:  # root writes anywhere: refuse the new file as the kernel would
        real_open = os.open

        def refuse_create(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if flags & os.O_CREAT:
                raise PermissionError(13, "Permission denied", file)
            return real_open(file, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", refuse_create)
    else:
        tmp_path.chmod(0o555)
    try:
        with pytest.raises(PermissionError) as info:
            taskspec.save(path, valid_spec())
    finally:
        tmp_path.chmod(0o755)
    assert info.value.strerror == f"the directory {tmp_path} is not writable (Permission denied)"
    assert path.read_bytes() == b"old"
