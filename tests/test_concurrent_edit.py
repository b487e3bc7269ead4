"""A rewrite never replaces content newer than what it read: fmt against a concurrent editor.

``atomic_write(..., expect=snapshot)`` replaces a file only if it still
holds what was read. These tests put a save at each point of the rewrite
where one can land (before the check, between the check and the rename,
during the give-back), and then run ``fmt`` against a separate process that
saves files atomically in a loop, as an editor does, and checks before each
save that its previous one is still there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from taskspec import _io
from taskspec._io import ChangedError, atomic_write, read_snapshot
from tests.cliutil import run_cli
from tests.helpers import VALID_DOC


def _save(path: Path, data: bytes) -> None:
    """An editor's atomic save: a new file renamed over the old one."""
    tmp = path.with_name(path.name + ".editor~")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _leftovers(directory: Path, *keep: str) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name not in keep)


def test_an_unchanged_file_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    assert atomic_write(path, b"new", expect=read_snapshot(path)) is True
    assert path.read_bytes() == b"new"
    assert _leftovers(tmp_path) == ["taskspec.yaml"]


def test_a_file_saved_after_the_read_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    snapshot = read_snapshot(path)
    _save(path, b"the editor's save")
    with pytest.raises(ChangedError):
        atomic_write(path, b"formatted old", expect=snapshot)
    assert path.read_bytes() == b"the editor's save"
    assert _leftovers(tmp_path) == ["taskspec.yaml"]


def test_a_write_in_place_with_the_same_size_is_seen(tmp_path: Path) -> None:
    """The same inode, size and (coarse) time: the bytes still tell."""
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    snapshot = read_snapshot(path)
    with path.open("r+b") as f:
        f.write(b"new")
    os.utime(path, ns=(snapshot.identity[3], snapshot.identity[3]))  # same time, too
    with pytest.raises(ChangedError):
        atomic_write(path, b"formatted", expect=snapshot)
    assert path.read_bytes() == b"new"


def test_a_deleted_file_stays_deleted(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    snapshot = read_snapshot(path)
    path.unlink()
    with pytest.raises(ChangedError):
        atomic_write(path, b"formatted", expect=snapshot)
    assert _leftovers(tmp_path) == []


def test_a_file_that_already_holds_the_result_is_not_an_error(tmp_path: Path) -> None:
    """Two fmt runs at once: the second finds the first one's result, and is done."""
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    snapshot = read_snapshot(path)
    _save(path, b"formatted")
    assert atomic_write(path, b"formatted", expect=snapshot) is False
    assert path.read_bytes() == b"formatted"
    assert _leftovers(tmp_path) == ["taskspec.yaml"]


def _save_after(monkeypatch: pytest.MonkeyPatch, name: str, path: Path, *saves: bytes) -> None:
    """Make ``_io.<name>`` save *saves* to *path*, one per call, after doing its work."""
    real = getattr(_io, name)
    pending = list(saves)

    def wrapped(*args: Any) -> Any:
        result = real(*args)
        if pending:
            _save(path, pending.pop(0))
        return result

    monkeypatch.setattr(_io, name, wrapped)


def test_a_save_between_the_check_and_the_rename_is_given_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if _io._renameat2() is None:
        pytest.skip("no renameat2 here: the window is documented, not closed")
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    snapshot = read_snapshot(path)
    _save_after(monkeypatch, "_holds", path, b"saved in the window")
    with pytest.raises(ChangedError):
        atomic_write(path, b"formatted old", expect=snapshot)
    assert path.read_bytes() == b"saved in the window"
    assert _leftovers(tmp_path) == ["taskspec.yaml"]


def test_saves_landing_during_the_give_back_keep_the_newest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save after each exchange: each time the newest goes back, and nothing is left over."""
    if _io._renameat2() is None:
        pytest.skip("no renameat2 here")
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    snapshot = read_snapshot(path)
    _save_after(monkeypatch, "_holds", path, b"save 1")
    _save_after(monkeypatch, "_exchange", path, b"save 2", b"save 3", b"save 4")
    with pytest.raises(ChangedError):
        atomic_write(path, b"formatted old", expect=snapshot)
    assert path.read_bytes() == b"save 4"
    assert _leftovers(tmp_path) == ["taskspec.yaml"]


def test_without_an_atomic_exchange_a_last_look_comes_before_the_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_io, "_renameat2", lambda: None)
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(b"old")
    assert atomic_write(path, b"new", expect=read_snapshot(path)) is True
    assert path.read_bytes() == b"new"

    snapshot = read_snapshot(path)
    _save_after(monkeypatch, "_holds", path, b"saved after the check")
    with pytest.raises(ChangedError):
        atomic_write(path, b"formatted", expect=snapshot)
    assert path.read_bytes() == b"saved after the check"
    assert _leftovers(tmp_path) == ["taskspec.yaml"]


# -- fmt ----------------------------------------------------------------------


#: A valid sidecar fmt rewrites (the prompt is quoted; canonical YAML is plain).
def _version(n: int) -> bytes:
    return VALID_DOC.replace(b"prompt: Implement mathx.GCD.", b'prompt: "v%d"' % n)


def test_fmt_leaves_a_file_saved_while_it_formats_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from taskspec.cli import _comments  # noqa: PLC0415

    path = tmp_path / "taskspec.yaml"
    other = tmp_path / "b.taskspec.yaml"
    path.write_bytes(_version(1))
    other.write_bytes(_version(1))
    real = _comments.format_document

    def format_while_the_editor_saves(data: bytes, **kwargs: Any) -> bytes:
        result = real(data, **kwargs)
        if not path.read_bytes().startswith(b"#"):
            _save(path, b"# the editor's save\n" + _version(2))
        return result

    monkeypatch.setattr(_comments, "format_document", format_while_the_editor_saves)
    result = run_cli(["fmt", str(path), str(other)])
    assert result.code == 1
    assert result.err == (
        f"{path}: TS902 changed while being formatted;"
        " left alone with the newer content (run again)\n"
        "1 file reformatted, 0 already formatted, 1 not formatted\n"
    )
    assert result.out == f"reformatted {other}\n".encode()
    assert path.read_bytes() == b"# the editor's save\n" + _version(2)
    assert b'"v1"' not in other.read_bytes()
    assert _leftovers(tmp_path) == sorted([path.name, other.name])


#: The editor: saves every file in turn, atomically, each time checking
#: that its previous save of the file is still there (formatted or not).
#: It prints how many saves it made and every save it found lost.
_EDITOR = textwrap.dedent(
    r"""
    import os, re, sys
    directory, stop = sys.argv[1], sys.argv[2]
    template = open(os.path.join(directory, "template"), "rb").read()
    names = sorted(n for n in os.listdir(directory) if n.endswith(".taskspec.yaml"))
    version = dict.fromkeys(names, 0)
    marker = re.compile(rb'prompt: "?v(\d+)"?\n')
    saves, lost = 0, []
    def check(name):
        with open(os.path.join(directory, name), "rb") as f:
            found = int(marker.search(f.read()).group(1))
        if found != version[name]:
            lost.append((name, version[name], found))
    while not os.path.exists(stop):
        for name in names:
            check(name)
            version[name] += 1
            path = os.path.join(directory, name)
            with open(path + ".editor~", "wb") as f:
                f.write(template.replace(b"VERSION", str(version[name]).encode()))
            os.replace(path + ".editor~", path)
            saves += 1
    for name in names:
        check(name)
    print(saves, lost)
    """
)


def test_fmt_loses_no_save_of_an_editor_saving_in_a_loop(tmp_path: Path) -> None:
    """A real concurrent writer: 200 files, saved over and over while fmt runs five times."""
    work = tmp_path / "work"
    work.mkdir()
    template = VALID_DOC.replace(b"prompt: Implement mathx.GCD.", b'prompt: "vVERSION"')
    (work / "template").write_bytes(template)
    for i in range(200):
        (work / f"{i:03}.taskspec.yaml").write_bytes(template.replace(b"VERSION", b"0"))
    stop = tmp_path / "stop"
    editor = subprocess.Popen(
        [sys.executable, "-c", _EDITOR, str(work), str(stop)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        results = [run_cli(["fmt", str(work)]) for _ in range(5)]
    finally:
        stop.touch()
        out, err = editor.communicate(timeout=120)
    assert editor.returncode == 0, err
    saves, lost = out.split(" ", 1)
    assert lost.strip() == "[]", f"saves lost (file, saved, found): {lost}"
    assert int(saves) > 200
    for result in results:
        assert result.code in (0, 1)
        for line in result.err.splitlines()[:-1]:
            assert line.endswith(
                ": TS902 changed while being formatted;"
                " left alone with the newer content (run again)"
            ), line
    assert _leftovers(work, "template") == sorted(f"{i:03}.taskspec.yaml" for i in range(200))
