"""``taskspec validate`` over a harness tree: parallel, ordered, robust, and helpful."""

from __future__ import annotations

import io
import json
import os
import pty
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

import taskspec
from taskspec.cli import _cmd_validate
from taskspec.cli._kit import Progress
from taskspec.cli._main import main
from tests.cliutil import run_cli
from tests.helpers import VALID_DOC

SUMMARY = re.compile(r"^(\d+) valid, (\d+) invalid(?:, (\d+) unreadable)?, in \d+\.\d\d s$")

#: Edits that break VALID_DOC, by run number; expected_lines has what they cause.
BROKEN: dict[int, tuple[bytes, bytes]] = {
    3: (b"task_id:", b"taskid:"),
    7: (b"language: go", b"language: golang"),
    8: (b"    test_cmd:", b"    testcmd:"),
    11: (b"prompt: Implement mathx.GCD.", b"prompt: ' '"),
}


def run_dir(root: Path, n: int) -> Path:
    return root / ".agents" / "eval" / "runs" / f"run-{n:03d}"


def make_tree(root: Path, count: int = 13) -> None:
    """*count* run directories with one sidecar each, broken as BROKEN says."""
    for n in range(count):
        doc = VALID_DOC
        if n in BROKEN:
            doc = doc.replace(*BROKEN[n])
        run_dir(root, n).mkdir(parents=True)
        (run_dir(root, n) / "taskspec.yaml").write_bytes(doc)
    if count <= 5:
        return
    # *.taskspec.yaml below a directory is a sidecar too; other files, other
    # YAML included, are not looked at.
    (run_dir(root, 5) / "extra.taskspec.yaml").write_bytes(
        VALID_DOC.replace(b"difficulty: medium", b"difficulty: Hard")
    )
    (run_dir(root, 5) / "notes.txt").write_text("not yaml")
    (run_dir(root, 5) / "agent-config.yaml").write_text("model: [unclosed\n")


def expected_lines(root: Path) -> list[str]:
    def at(n: int, name: str = "taskspec.yaml") -> Path:
        return run_dir(root, n) / name

    return [
        f'{at(3)}:2:1: TS001 taskid: unknown field "taskid"; did you mean "task_id"?',
        f'{at(5, "extra.taskspec.yaml")}:4:13: TS103 invalid difficulty "Hard";'
        ' did you mean "hard"?',
        f'{at(7)}:3:11: TS103 invalid language "golang"; did you mean "go"?',
        f'{at(8)}:23:5: TS001 verification.testcmd: unknown field "testcmd" in verification;'
        ' did you mean "test_cmd"?',
        f"{at(11)}:14:9: TS101 prompt is required",
    ]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["validate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def summary(err: str) -> tuple[int, int, int]:
    """The counts of the summary line, which must be the last line of stderr."""
    match = SUMMARY.match(err.splitlines()[-1])
    assert match, err
    return int(match[1]), int(match[2]), int(match[3] or 0)


class PoolSpy:
    """Records the sets of worker processes the command starts, and starts them for real."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sizes: list[int] = []
        spy = self

        class Workers(_cmd_validate.Workers):
            def __init__(self, jobs: int, fmt: str) -> None:
                spy.sizes.append(jobs)
                super().__init__(jobs, fmt)

        monkeypatch.setattr(_cmd_validate, "Workers", Workers)


def test_tree_gives_same_report_for_any_jobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(tmp_path)
    pools = PoolSpy(monkeypatch)
    monkeypatch.setattr(_cmd_validate, "MIN_FILES_PER_JOB", 1)

    code1, out1, err1 = run(capsys, "--jobs", "1", str(tmp_path))
    assert pools.sizes == []  # --jobs 1 never starts a pool
    code2, out2, err2 = run(capsys, "--jobs", "2", str(tmp_path))
    assert pools.sizes == [2]

    assert code1 == code2 == 1
    assert out1 == out2
    assert out1.splitlines() == expected_lines(tmp_path)
    assert summary(err1) == summary(err2) == (9, 5, 0)
    # The hidden directory is walked when named itself, too.
    assert run(capsys, str(tmp_path / ".agents"))[1] == out1


_check_chunk = _cmd_validate.check_chunk
#: Where slow_first_chunk records the order chunks finish in (set per test).
_finished_log: Path | None = None


def slow_first_chunk(items: Sequence[_cmd_validate.Item]) -> _cmd_validate.ChunkResult:
    """check_chunk, but the chunk of run-000 waits for all 13 others; logs each finish."""
    assert _finished_log is not None
    if any("run-000" in str(item) for item in items):
        deadline = time.monotonic() + 60  # only against a hang if the pool misbehaves
        while time.monotonic() < deadline:
            if _finished_log.exists() and len(_finished_log.read_text().splitlines()) == 13:
                break
            time.sleep(0.01)
    result = _check_chunk(items)
    with _finished_log.open("a") as log:  # appends from both workers, a line each
        log.write(f"{Path(str(items[0])).parent.name}\n")
    return result


def test_output_order_does_not_follow_completion_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(tmp_path)
    (run_dir(tmp_path, 0) / "taskspec.yaml").write_bytes(b"bogus: 1\n" + VALID_DOC)
    monkeypatch.setattr(_cmd_validate, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(_cmd_validate, "MAX_CHUNK", 1)  # one file per chunk
    # Workers are forked, so they see the patched module attributes.
    monkeypatch.setattr(_cmd_validate, "check_chunk", slow_first_chunk)
    monkeypatch.setattr(sys.modules[__name__], "_finished_log", tmp_path / "finished.log")
    code, out, _ = run(capsys, "--jobs", "2", str(tmp_path))

    finished = (tmp_path / "finished.log").read_text().splitlines()
    assert len(finished) == 14  # one chunk per file
    assert finished[-1] == "run-000"  # the first chunk finished last...
    first = f'{run_dir(tmp_path, 0) / "taskspec.yaml"}:1:1: TS001 bogus: unknown field "bogus"'
    assert code == 1
    assert out.splitlines()[0].startswith(first)  # ...and is still reported first
    assert out.splitlines()[1:] == expected_lines(tmp_path)


def test_small_runs_stay_in_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(tmp_path)
    pools = PoolSpy(monkeypatch)
    code, out, _ = run(capsys, "--jobs", "8", str(tmp_path))
    assert pools.sizes == []  # 14 files are fewer than MIN_FILES_PER_JOB
    assert (code, out.splitlines()) == (1, expected_lines(tmp_path))


def test_json_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(tmp_path)
    code, out, err = run(capsys, "--format", "json", str(tmp_path / ".agents"))
    assert code == 1
    document = json.loads(out)  # one document, problems and summary
    records = document["problems"]
    assert records[0] == {
        "path": str(run_dir(tmp_path, 3) / "taskspec.yaml"),
        "code": "TS001",
        "field_path": "taskid",
        "line": 2,
        "column": 1,
        "message": 'taskid: unknown field "taskid"',  # the hint is apart, as for an enum
        "hint": 'did you mean "task_id"?',
        "severity": "error",
        # The suggestion as data: the key's span, and what to write there.
        "fix": {
            "text": "task_id",
            "start_line": 2,
            "start_column": 1,
            "end_line": 2,
            "end_column": 7,
        },
    }
    assert records[2] == {
        "path": str(run_dir(tmp_path, 7) / "taskspec.yaml"),
        "code": "TS103",
        "field_path": "language",
        "line": 3,
        "column": 11,
        "message": 'invalid language "golang"',  # Go's wording, untouched
        "hint": 'did you mean "go"?',
        "severity": "error",
        "fix": {"text": "go", "start_line": 3, "start_column": 11, "end_line": 3, "end_column": 17},
    }
    assert records[4] == {  # every key, always: no hint is ""
        "path": str(run_dir(tmp_path, 11) / "taskspec.yaml"),
        "code": "TS101",
        "field_path": "prompt",
        "line": 14,
        "column": 9,
        "message": "prompt is required",
        "hint": "",
        "severity": "error",
    }
    assert len(records) == 5
    assert document["summary"] == {
        "files": 14,
        "valid": 9,
        "invalid": 5,
        "unreadable": 0,
        "problems": 5,
    }
    assert summary(err) == (9, 5, 0)  # on stderr too, so a person sees it
    # jsonl: the same records, one a line, as they are found.
    code, out, err = run(capsys, "--format", "jsonl", str(tmp_path / ".agents"))
    assert [json.loads(line) for line in out.splitlines()] == records


def test_suggestions_are_hints_and_go_messages_stay_exact() -> None:
    with pytest.raises(taskspec.ValidationError) as info:
        taskspec.parse_task_spec(VALID_DOC.replace(b"language: go", b"language: golang"))
    assert str(info.value) == 'invalid language "golang"'
    (violation,) = info.value.violations
    assert (violation.message, violation.hint) == (
        'invalid language "golang"',
        'did you mean "go"?',
    )

    with pytest.raises(taskspec.DecodeError) as decode_info:
        taskspec.parse_task_spec(VALID_DOC.replace(b"task_id:", b"taskid:"))
    assert decode_info.value.violations[0].hint == 'did you mean "task_id"?'

    # No guess: the hint lists the valid keys instead, and the message stays without it.
    with pytest.raises(taskspec.DecodeError) as none_info:
        taskspec.parse_task_spec(VALID_DOC + b"bogus: 1\n")
    (bogus,) = none_info.value.violations
    assert bogus.message == 'bogus: unknown field "bogus"'
    keys = ", ".join(f.name for f in taskspec.TaskSpec.DESCRIPTOR.fields)
    assert bogus.hint == f"expected one of: {keys}"
    assert f"; expected one of: {keys}" in str(none_info.value)


def test_show_shows_hints_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.yaml"
    path.write_bytes(VALID_DOC.replace(b"language: go", b"language: py"))
    assert main(["show", str(path)]) == 1
    assert (
        capsys.readouterr().err
        == f'{path}:3:11: TS103 invalid language "py"; did you mean "python"?\n'
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads through chmod 000")
def test_unreadable_file_and_directory_are_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(tmp_path, 3)
    locked_file = run_dir(tmp_path, 0) / "taskspec.yaml"
    locked_dir = run_dir(tmp_path, 1)
    locked_file.chmod(0)
    locked_dir.chmod(0)
    try:
        code, out, err = run(capsys, "--jobs", "1", str(tmp_path))
    finally:
        locked_dir.chmod(0o755)
        locked_file.chmod(0o644)
    assert code == 1
    assert out.splitlines() == [
        f"{locked_file}: TS901 cannot read: Permission denied",
        f"{locked_dir}: TS901 cannot read: Permission denied",
    ]
    assert summary(err) == (1, 0, 2)


def test_entries_that_fail_even_for_root_are_reported_and_not_fatal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = tmp_path / "runs"
    for name in ("a", "b", "c", "d", "e"):
        (runs / name).mkdir(parents=True)
    (runs / "a" / "taskspec.yaml").symlink_to("missing.yaml")  # dangling
    (runs / "b" / "taskspec.yaml").symlink_to("taskspec.yaml")  # a loop
    os.mkfifo(runs / "c" / "taskspec.yaml")  # would block a plain open()
    (runs / "e" / "taskspec.yaml").write_bytes(VALID_DOC)
    # A directory that cannot be listed; root can list any, so say so for it.
    unlistable = str(runs / "d")
    real_scandir = os.scandir

    def scandir(path: Any) -> Any:
        if path == unlistable:
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    code, out, err = run(capsys, str(runs))
    assert code == 1
    assert out.splitlines() == [
        f"{runs / 'a' / 'taskspec.yaml'}: TS901 cannot read: No such file or directory",
        f"{runs / 'b' / 'taskspec.yaml'}: TS901 cannot read: Too many levels of symbolic links",
        f"{runs / 'c' / 'taskspec.yaml'}: TS901 cannot read: not a regular file (a FIFO);"
        " use - to read standard input",
        f"{unlistable}: TS901 cannot read: Permission denied",
    ]
    assert summary(err) == (1, 0, 4)


def test_a_crash_on_one_file_does_not_stop_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(tmp_path, 3)
    real = taskspec.check

    def check(data: bytes, fmt: str, *, strict_paths: bool) -> list[taskspec.Violation]:
        if b"taskid" in data:
            raise RuntimeError("boom")
        return real(data, fmt, strict_paths=strict_paths)

    (run_dir(tmp_path, 1) / "taskspec.yaml").write_bytes(VALID_DOC.replace(b"task_id:", b"taskid:"))
    monkeypatch.setattr(_cmd_validate, "check", check)
    code, out, err = run(capsys, str(tmp_path))
    assert code == 1
    assert out == (
        f"{run_dir(tmp_path, 1) / 'taskspec.yaml'}: TS999 internal error: RuntimeError: boom\n"
    )
    assert summary(err) == (2, 1, 0)


def test_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.yaml"
    good.write_bytes(VALID_DOC)
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(VALID_DOC.replace(b"language: go", b"language: cobol"))
    assert run(capsys, str(good))[0] == 0
    assert run(capsys, str(good), str(bad))[0] == 1
    for usage in (
        ["--jobs", "0", str(good)],
        ["--jobs", "x", str(good)],
        ["--format", "xml", str(good)],
    ):
        assert main(["validate", *usage]) == 2
    assert "--jobs: must be a positive integer, got '0'" in capsys.readouterr().err


def test_empty_tree_is_valid_with_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.yaml").write_text("not: a sidecar\n")
    code, out, err = run(capsys, str(tmp_path))
    assert (code, out, summary(err)) == (0, "", (0, 0, 0))
    assert err.splitlines()[:2] == [
        f"taskspec: warning: no sidecars found in {tmp_path}"
        " (looked for taskspec.yaml, *.taskspec.yaml, taskspec.yml, *.taskspec.yml,"
        " taskspec.json, *.taskspec.json)",
        "taskspec: warning: nothing to check: no file named, and no sidecar found",
    ]
    # --fail-if-empty makes it a failure, for a CI step that must check something.
    code, out, err = run(capsys, "--fail-if-empty", str(tmp_path))
    assert (code, out, summary(err)) == (1, "", (0, 0, 0))
    # With a sidecar there, the flag changes nothing.
    (tmp_path / "taskspec.yaml").write_bytes(VALID_DOC)
    code, out, err = run(capsys, "--fail-if-empty", str(tmp_path))
    assert (code, out, summary(err)) == (0, "", (1, 0, 0))
    assert "warning" not in err


def test_a_pipe_named_on_the_command_line_is_refused_and_dash_reads_stdin() -> None:
    bad = VALID_DOC.replace(b"language: go", b"language: golang")
    done = subprocess.run(
        [sys.executable, "-m", "taskspec", "validate", "/dev/stdin"],
        input=bad,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout == (
        b"/dev/stdin: TS901 cannot read: not a regular file (a FIFO);"
        b" use - to read standard input\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "taskspec", "validate", "-", "--stdin-filename", "runs/x.yaml"],
        input=bad,
        capture_output=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout == b'runs/x.yaml:3:11: TS103 invalid language "golang"; did you mean "go"?\n'


def cli(root: Path) -> list[str]:
    return [sys.executable, "-m", "taskspec", "validate", "--jobs", "2", str(root)]


def test_progress_bar_only_on_a_terminal(tmp_path: Path) -> None:
    make_tree(tmp_path)

    piped = subprocess.run(cli(tmp_path), capture_output=True, text=True, check=False)
    assert piped.returncode == 1
    assert piped.stdout.splitlines() == expected_lines(tmp_path)
    assert SUMMARY.match(piped.stderr.rstrip("\n")), piped.stderr  # the summary and nothing else

    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(cli(tmp_path), stdout=subprocess.PIPE, stderr=slave)
    finally:
        os.close(slave)
    stdout, _ = proc.communicate(timeout=120)
    terminal = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # EIO: the child's side is closed and drained
            break
        if not data:
            break
        terminal += data
    os.close(master)

    assert proc.returncode == 1
    assert stdout.decode().splitlines() == expected_lines(tmp_path)  # stdout is unaffected
    assert re.search(rb"\rvalidating \[[#.]+\] +\d+% \d+/14", terminal), terminal
    assert re.search(rb"\rvalidating \[#+\] 100% 14/14(?!\d)", terminal), terminal
    assert b"\r\x1b[K" in terminal  # and is erased before the summary
    last = terminal.replace(b"\r\n", b"\n").rsplit(b"\x1b[K", 1)[1].decode()
    assert SUMMARY.match(last.strip()), last


def test_progress_shows_a_running_count_until_the_total_is_known() -> None:
    out = io.StringIO()
    progress = Progress("validating", out, enabled=True)
    progress.total = 40
    progress.draw()
    assert out.getvalue().endswith("\rvalidating 0 done, 40 found so far\x1b[K")
    progress.total = 80
    progress.advance(80)  # all done so far, but more may be found: no bar, no 100%
    assert out.getvalue().endswith("\rvalidating 80 done, 80 found so far\x1b[K")
    assert "%" not in out.getvalue()
    progress.counting = False
    progress.draw()
    assert out.getvalue().endswith(" 100% 80/80\x1b[K")
    progress.clear()
    assert out.getvalue().endswith("\r\x1b[K")


def test_progress_is_silent_when_disabled() -> None:
    out = io.StringIO()  # not a terminal
    progress = Progress("validating", out)
    progress.total = 3
    progress.draw()
    progress.advance(3)
    progress.clear()
    assert out.getvalue() == ""


def test_workers_take_chunks_that_shrink_to_the_end_and_see_every_file_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(200):
        run_dir(tmp_path, n).mkdir(parents=True)
        doc = VALID_DOC if n % 50 else VALID_DOC.replace(b"task_id:", b"taskid:")
        (run_dir(tmp_path, n) / "taskspec.yaml").write_bytes(doc)
    monkeypatch.setattr(_cmd_validate, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(_cmd_validate, "MIN_CHUNK", 1)
    sizes: list[int] = []
    real_send = _cmd_validate.Workers.send

    def send(
        self: _cmd_validate.Workers, chunk: list[_cmd_validate.Item]
    ) -> Future[_cmd_validate.ChunkResult]:
        sizes.append(len(chunk))
        return real_send(self, chunk)

    monkeypatch.setattr(_cmd_validate.Workers, "send", send)
    code1, out1, err1 = run(capsys, "--jobs", "1", str(tmp_path))
    code2, out2, err2 = run(capsys, "--jobs", "2", str(tmp_path))
    assert sum(sizes) == 200  # every file dealt out exactly once
    assert max(sizes) > 1 and sizes[-1] == 1  # large chunks, then small ones at the end
    assert (code1, out1, summary(err1)) == (code2, out2, summary(err2))
    assert [line.split(":")[0] for line in out2.splitlines()] == [
        str(run_dir(tmp_path, n) / "taskspec.yaml") for n in (0, 50, 100, 150)
    ]
    assert summary(err2) == (196, 4, 0)


def test_unlistable_directories_in_a_parallel_run_are_reported_in_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(tmp_path)
    unlistable = str(run_dir(tmp_path, 4))
    real_scandir = os.scandir

    def scandir(path: Any) -> Any:  # the walk is the parent's: workers need no patch
        if path == unlistable:
            raise PermissionError(13, "Permission denied", path)
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(_cmd_validate, "MIN_FILES_PER_JOB", 1)
    code1, out1, err1 = run(capsys, "--jobs", "1", str(tmp_path))
    code2, out2, err2 = run(capsys, "--jobs", "2", str(tmp_path))
    assert (code1, out1, summary(err1)) == (code2, out2, summary(err2))
    assert out2.splitlines() == [
        *expected_lines(tmp_path)[:1],
        f"{unlistable}: TS901 cannot read: Permission denied",
        *expected_lines(tmp_path)[1:],
    ]
    assert summary(err2) == (8, 5, 1)


def _exit_at_once(items: Sequence[_cmd_validate.Item]) -> _cmd_validate.ChunkResult:
    os._exit(3)  # a worker killed from outside (out of memory, say)


def test_a_worker_that_dies_ends_the_run_with_an_error_instead_of_a_hang(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_tree(tmp_path)
    monkeypatch.setattr(_cmd_validate, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(_cmd_validate, "check_chunk", _exit_at_once)  # seen by forked workers
    code, out, err = run(capsys, "--jobs", "2", str(tmp_path))
    assert (code, out) == (2, "")
    assert err == "taskspec validate: error: a worker process ended unexpectedly\n"


# -- file names that could forge a line ----------------------------------------

#: A name with a line break that, printed raw, starts a forged problem line.
_FORGED = "x\nforged.yaml:1:1: all good\x1b[2K.taskspec.yaml"


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_a_file_name_with_control_characters_stays_on_one_line(tmp_path: Path, fmt: str) -> None:
    (tmp_path / _FORGED).write_bytes(b"bogus: 1\n" + VALID_DOC)
    result = run_cli(["validate", "--format", fmt, str(tmp_path)])
    assert result.code == 1
    lines = result.out.decode().splitlines()
    assert len(lines) == 1 or fmt == "json", lines
    assert "\x1b" not in lines[0]
    if fmt == "json":
        assert json.loads(result.out)["problems"][0]["path"] == str(tmp_path / _FORGED)
    elif fmt == "github":
        assert lines[0].startswith(
            f"::error file={tmp_path}/x%0Aforged.yaml%3A1%3A1%3A all good\\x1b[2K.taskspec.yaml,"
        )
    else:
        assert lines[0].startswith(
            f"{tmp_path}/x\\nforged.yaml:1:1: all good\\x1b[2K.taskspec.yaml:1:1: TS001 bogus:"
        )


def test_fmt_lists_a_file_name_with_control_characters_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / _FORGED
    path.write_bytes(VALID_DOC.replace(b"language: go", b"language: 'go'"))
    check = run_cli(["fmt", "--check", str(tmp_path)])
    assert check.out.decode() == (
        f"would reformat {tmp_path}/x\\nforged.yaml:1:1: all good\\x1b[2K.taskspec.yaml\n"
    )
    done = run_cli(["fmt", str(tmp_path)])
    assert done.out.decode().count("\n") == 1


def test_json_clips_a_megabyte_field_path_as_the_message_does(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(VALID_DOC + b"? " + b"k" * (1 << 20) + b"\n: 1\n")
    result = run_cli(["validate", "--format", "json", str(path)])
    (record,) = json.loads(result.out)["problems"]
    assert record["field_path"] == "k" * 80 + "... (1048576 characters)"
    assert len(result.out) < 1000


# -- artifact paths that leave the workspace ---------------------------------------

ESCAPING_DOC = VALID_DOC.replace(b"path: mathx/gcd.go", b"path: ../../etc/passwd")
ESCAPING_MESSAGE = (
    'TS301 artifact path "../../etc/passwd" is not allowed:'
    " the path climbs out of the workspace with .."
)


def test_an_escaping_artifact_path_is_a_warning_and_the_file_stays_valid(tmp_path: Path) -> None:
    assert ESCAPING_DOC != VALID_DOC
    (tmp_path / "taskspec.yaml").write_bytes(ESCAPING_DOC)
    res = run_cli(["validate", str(tmp_path)])
    assert res.code == 0, res
    assert res.out.decode() == f"{tmp_path / 'taskspec.yaml'}:16:13: warning: {ESCAPING_MESSAGE}\n"
    res = run_cli(["validate", "--format", "github", str(tmp_path)])
    assert res.out.decode().startswith(
        f"::warning file={tmp_path / 'taskspec.yaml'},line=16,col=13,title=TS301::"
    )


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_strict_paths_makes_an_escaping_path_a_problem(tmp_path: Path, jobs: str) -> None:
    # Enough files for workers when jobs is 2 (the setting must reach them).
    for i in range(2 * _cmd_validate.MIN_FILES_PER_JOB):
        doc = ESCAPING_DOC if i % 2 else VALID_DOC
        (tmp_path / f"{i:03d}.taskspec.yaml").write_bytes(doc)
    res = run_cli(["validate", "--strict-paths", "-j", jobs, str(tmp_path)])
    assert res.code == 1, res
    lines = res.out.decode().splitlines()
    assert len(lines) == _cmd_validate.MIN_FILES_PER_JOB
    assert all(line.endswith(f".taskspec.yaml:16:13: {ESCAPING_MESSAGE}") for line in lines)
    n = _cmd_validate.MIN_FILES_PER_JOB
    assert f"{n} valid, {n} invalid" in res.err


#: A valid sidecar whose block prompt fmt writes as one quoted line: validate
#: gives it a hint on stderr (a line of it ends in a space).
HINTED_DOC = (
    b"task_spec_version: 1\ntask_id: kg-go-impl-mathx-gcd\nlanguage: go\ndifficulty: medium\n"
    b"generated_from:\n    kind: kg_template\nprompt: |-\n    Implement \n    mathx.GCD.\n"
    b"verification:\n    test_cmd:\n        - go\n        - test\n"
)


def _noted_tree(root: Path, count: int) -> None:
    """Run directories whose files give problems (stdout), hints and warnings (stderr)."""
    for n in range(count):
        run_dir(root, n).mkdir(parents=True)
        kind = n % 4
        if kind == 0:  # invalid: problems on stdout
            (run_dir(root, n) / "taskspec.yaml").write_bytes(
                VALID_DOC.replace(b"task_id:", b"taskid:")
            )
        elif kind == 1:  # valid, with a hint on stderr
            (run_dir(root, n) / "taskspec.yaml").write_bytes(HINTED_DOC)
        elif kind == 2:  # checked, with a naming warning on stderr from the walk
            (run_dir(root, n) / "taskspec.yml").write_bytes(HINTED_DOC)
        else:
            (run_dir(root, n) / "taskspec.yaml").write_bytes(VALID_DOC)
    (root / "empty").mkdir()


def _without_timing(err: str) -> str:
    """Stderr but the time at the end of the summary line."""
    return err.rsplit(" in ", 1)[0]


def test_stdout_and_stderr_are_the_same_bytes_for_any_jobs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Problems, hints and the walk's warnings each come out in file order, whatever the jobs.

    Chunks of at most three files over two workers finish in any order: the
    output must not follow them.
    """
    _noted_tree(tmp_path, 60)
    monkeypatch.setattr(_cmd_validate, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(_cmd_validate, "MIN_CHUNK", 1)
    monkeypatch.setattr(_cmd_validate, "MAX_CHUNK", 3)
    pools = PoolSpy(monkeypatch)
    paths = [str(tmp_path / "empty"), str(tmp_path)]
    code1, out1, err1 = run(capsys, "--jobs", "1", *paths)
    code2, out2, err2 = run(capsys, "--jobs", "2", *paths)
    assert pools.sizes == [2]
    assert code1 == code2 == 1
    assert out1 == out2
    assert _without_timing(err1) == _without_timing(err2)
    assert summary(err1) == summary(err2) == (45, 15, 0)
    lines = err1.splitlines()
    assert lines[0].startswith(f"taskspec: warning: no sidecars found in {tmp_path / 'empty'} ")
    assert len([line for line in lines if line.startswith("taskspec: hint: ")]) == 30
    assert len([line for line in lines if "a sidecar's name ends in .yaml" in line]) == 15
    # In file order: each run directory's notes after the one before it.
    named = [next(p for p in line.split() if "run-" in p) for line in lines[1:-1]]
    assert named == sorted(named)


def test_the_command_writes_the_same_bytes_for_any_jobs(tmp_path: Path) -> None:
    """The same, from the real command: enough files for two workers at the default sizes."""
    _noted_tree(tmp_path, 4 * _cmd_validate.MIN_FILES_PER_JOB)
    results = [
        subprocess.run(
            [sys.executable, "-m", "taskspec", "validate", "--jobs", jobs, str(tmp_path)],
            capture_output=True,
            check=False,
        )
        for jobs in ("1", "2", "1", "2")
    ]
    assert {r.returncode for r in results} == {1}
    assert len({r.stdout for r in results}) == 1
    assert len({_without_timing(r.stderr.decode()) for r in results}) == 1
    assert results[0].stderr.count(b"taskspec: hint: ") == 2 * _cmd_validate.MIN_FILES_PER_JOB


@pytest.mark.parametrize(
    ("files", "size", "cpus", "done", "jobs"),
    [
        (10, 6_000, 2, True, 1),  # small: in-process
        (100, 60_000, 2, True, 1),
        (2047, 1_300_000, 2, True, 1),  # just under the file count
        (10, 6_000, 2, False, None),  # the walk goes on: cannot tell yet
        (_cmd_validate.PARALLEL_MIN_FILES, 1_300_000, 2, False, 2),  # decided mid-walk
        (100, _cmd_validate.PARALLEL_MIN_BYTES, 2, False, 1),  # large files, too few for two
        (200, _cmd_validate.PARALLEL_MIN_BYTES, 2, False, 2),
        (200, _cmd_validate.PARALLEL_MIN_BYTES, 8, False, 3),  # 64 files a job at least
        (50_000, 10**8, 1, False, 1),  # one CPU: never a pool
        (50_000, 10**8, 1, True, 1),
    ],
)
def test_the_default_jobs_start_workers_only_for_a_large_run(
    files: int, size: int, cpus: int, done: bool, jobs: int | None
) -> None:
    assert _cmd_validate.parallel_jobs(files, size, cpus, done=done) == jobs


@pytest.mark.parametrize(
    ("cpus", "busy", "free"),
    [(2, None, 2), (2, 0, 2), (2, 1, 1), (2, 6, 1), (8, 3, 5), (8, 2.5, 5), (1, 0, 1)],
)
def test_the_default_jobs_count_the_cpus_other_work_leaves_free(
    cpus: int, busy: float | None, free: int
) -> None:
    assert _cmd_validate.free_cpus(cpus, busy) == free


def test_a_large_run_on_a_busy_machine_stays_in_process(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(8):
        run_dir(tmp_path, n).mkdir(parents=True)
        (run_dir(tmp_path, n) / "taskspec.yaml").write_bytes(VALID_DOC)
    pools = PoolSpy(monkeypatch)
    monkeypatch.setattr(_cmd_validate, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(_cmd_validate, "PARALLEL_MIN_FILES", 4)
    monkeypatch.setattr(_cmd_validate, "_cpus", lambda: 2)
    monkeypatch.setattr(_cmd_validate, "_busy", lambda: 3)  # three others running
    assert run(capsys, str(tmp_path))[0] == 0
    assert pools.sizes == []
    monkeypatch.setattr(_cmd_validate, "_busy", lambda: 0)
    assert run(capsys, str(tmp_path))[0] == 0
    assert pools.sizes == [2]


def test_a_small_run_by_default_starts_no_workers_and_a_large_one_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(8):
        run_dir(tmp_path, n).mkdir(parents=True)
        (run_dir(tmp_path, n) / "taskspec.yaml").write_bytes(VALID_DOC)
    pools = PoolSpy(monkeypatch)
    monkeypatch.setattr(_cmd_validate, "_cpus", lambda: 2)
    monkeypatch.setattr(_cmd_validate, "_busy", lambda: 0)  # both free
    assert run(capsys, str(tmp_path))[0] == 0
    assert pools.sizes == []
    # The same tree counts as large once the thresholds are below it.
    monkeypatch.setattr(_cmd_validate, "MIN_FILES_PER_JOB", 1)
    monkeypatch.setattr(_cmd_validate, "PARALLEL_MIN_FILES", 4)
    assert run(capsys, str(tmp_path))[0] == 0
    assert pools.sizes == [2]
    # Or its bytes do, however few the files.
    monkeypatch.setattr(_cmd_validate, "PARALLEL_MIN_FILES", 1000)
    monkeypatch.setattr(_cmd_validate, "PARALLEL_MIN_BYTES", 2 * len(VALID_DOC))
    assert run(capsys, str(tmp_path))[0] == 0
    assert pools.sizes == [2, 2]
