"""load and save: reading sidecars, and atomic writes that never leave a torn file."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

import taskspec
from taskspec import ValidationError
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
