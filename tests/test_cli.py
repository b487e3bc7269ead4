"""The taskspec command line: validate, fmt and show, with their exit codes."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

import taskspec
from taskspec.cli._kit import Report, read_checked
from taskspec.cli._main import main
from tests.cliutil import run_cli
from tests.helpers import VALID_DOC

ROOT = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_examples_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "validate", str(ROOT / "examples"))
    assert (code, out) == (0, "")
    assert err.startswith("3 valid, 0 invalid, in ")  # the summary goes to stderr


def test_validate_reports_path_line_col(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "a" / "taskspec.yaml"
    good.parent.mkdir()
    good.write_bytes(VALID_DOC)
    bad = tmp_path / "b" / "taskspec.yaml"
    bad.parent.mkdir()
    bad.write_bytes(
        VALID_DOC.replace(b"language: go", b"language: cobol").replace(
            b"prompt: Implement mathx.GCD.", b"prompt: ' '"
        )
    )
    (tmp_path / "notes.txt").write_text("not yaml, not looked at")
    code, out, _ = run(capsys, "validate", str(tmp_path))
    assert code == 1
    assert out.splitlines() == [
        f'{bad}:3:11: TS103 invalid language "cobol"',
        f"{bad}:14:9: TS101 prompt is required",
    ]


def test_validate_decode_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.yaml"
    path.write_bytes(b"task_spec_version: 1\nbogus: 2\n")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    first = f'{path}:2:1: TS001 bogus: unknown field "bogus"'
    assert any(line.startswith(first) for line in out.splitlines())


def test_validate_missing_file_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "validate", str(tmp_path / "nope.yaml"))
    assert code == 1
    assert out == f"{tmp_path / 'nope.yaml'}: TS901 cannot read: No such file or directory\n"


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert main(["fmt"]) == 2  # fmt rewrites files: it is told which
    assert main(["frobnicate"]) == 2
    capsys.readouterr()


def test_fmt_check_lists_and_fmt_rewrites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    messy = tmp_path / "messy.taskspec.yaml"
    original = b"# comment\n" + VALID_DOC.replace(b"    ", b"  ")
    messy.write_bytes(original)
    canonical = tmp_path / "taskspec.yaml"
    canonical.write_bytes(VALID_DOC)
    other = tmp_path / "other.yaml"  # not a sidecar: fmt does not touch it
    other.write_bytes(original)

    code, out, err = run(capsys, "fmt", "--check", str(tmp_path))
    assert (code, out) == (1, f"would reformat {messy}\n")
    assert err == "1 file would be reformatted, 1 already formatted\n"
    assert messy.read_bytes() == original

    code, out, err = run(capsys, "fmt", str(tmp_path))
    assert (code, out) == (0, f"reformatted {messy}\n")
    assert err == "1 file reformatted, 1 already formatted\n"
    assert messy.read_bytes() == b"# comment\n" + VALID_DOC
    assert other.read_bytes() == original
    names = ["messy.taskspec.yaml", "other.yaml", "taskspec.yaml"]
    assert sorted(p.name for p in tmp_path.iterdir()) == names

    success = (0, "", "0 files would be reformatted, 2 already formatted\n")
    assert run(capsys, "fmt", "--check", str(tmp_path)) == success


def test_fmt_leaves_invalid_files_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    data = VALID_DOC.replace(b"language: go", b"language:   cobol")
    path.write_bytes(data)
    code, _, err = run(capsys, "fmt", str(path))
    assert code == 1
    # One line, at the first problem with its code: validate lists the problems.
    assert err == (
        f"{path}:3:13: TS103 cannot format: the file is invalid"
        " (taskspec validate lists its problems)\n"
        "0 files reformatted, 0 already formatted, 1 not formatted\n"
    )
    assert path.read_bytes() == data


def test_show_prints_canonical_yaml(capsys: pytest.CaptureFixture[str]) -> None:
    path = ROOT / "examples" / "go.taskspec.yaml"
    code = main(["show", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    # show prints the spec's canonical YAML; the example's modeline comment is
    # for editors, not part of the spec, so it is the one line show leaves out.
    modeline, body = path.read_bytes().split(b"\n", 1)
    assert modeline.startswith(b"# yaml-language-server: $schema=")
    assert out.encode() == body


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.taskspec.yaml")))
def test_the_agent_view_of_an_example_does_not_show_its_commands(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = taskspec.load(path)
    code = main(["show", "--agent", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    for cmd in (spec.verification.build_cmd, spec.verification.test_cmd):
        if cmd:
            assert " ".join(cmd) not in out
    assert main(["validate", str(path)]) == 0
    assert "TS303" not in capsys.readouterr().out


def test_python_dash_m_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "taskspec", "validate", str(ROOT / "examples")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, "")


# -- standard input, names, formats and the version ----------------------------


def test_every_command_reads_stdin_with_a_chosen_name() -> None:
    bad = VALID_DOC.replace(b"language: go", b"language: cobol")
    for argv in (
        ["validate", "-"],
        ["show", "-"],
        ["convert", "--to", "json", "-"],
    ):
        result = run_cli([*argv, "--stdin-filename", "runs/r1/taskspec.yaml"], stdin=bad)
        assert result.code == 1, argv
        problems = result.out.decode() + result.err
        assert 'runs/r1/taskspec.yaml:3:11: TS103 invalid language "cobol"' in problems, argv
        result = run_cli(argv, stdin=bad)
        assert '-:3:11: TS103 invalid language "cobol"' in result.out.decode() + result.err, argv


def test_fmt_dash_writes_the_formatted_text_to_stdout() -> None:
    messy = VALID_DOC.replace(b"    ", b"  ")
    assert run_cli(["fmt", "-"], stdin=messy) == (0, VALID_DOC, "")
    assert run_cli(["fmt", "-"], stdin=VALID_DOC) == (0, VALID_DOC, "")
    check = run_cli(["fmt", "--check", "-", "--stdin-filename", "t.yaml"], stdin=messy)
    assert check == (1, b"would reformat t.yaml\n", "")
    assert run_cli(["fmt", "--check", "-"], stdin=VALID_DOC) == (0, b"", "")


def test_fmt_diff_prints_a_unified_diff_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    messy = VALID_DOC.replace(b"task_id: kg-go-impl-mathx-gcd", b"task_id:   kg-go-impl-mathx-gcd")
    path.write_bytes(messy)
    for argv in (["fmt", "--diff", str(path)], ["fmt", "--diff", "--check", str(path)]):
        result = run_cli(argv)
        assert result.code == (1 if "--check" in argv else 0)
        assert result.out.decode() == (
            f"--- {path}\t(original)\n"
            f"+++ {path}\t(formatted)\n"
            "@@ -1,5 +1,5 @@\n"
            " task_spec_version: 1\n"
            "-task_id:   kg-go-impl-mathx-gcd\n"
            "+task_id: kg-go-impl-mathx-gcd\n"
            " language: go\n"
            " difficulty: medium\n"
            " difficulty_signals:\n"
        )
        assert path.read_bytes() == messy
    assert run_cli(["fmt", "--diff", "--check", str(ROOT / "examples")]) == (
        0,
        b"",
        "0 files would be reformatted, 3 already formatted\n",
    )


def test_fmt_writes_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "store" / "task.yaml"
    real.parent.mkdir()
    real.write_bytes(VALID_DOC.replace(b"    ", b"  "))
    real.chmod(0o640)
    link = tmp_path / "taskspec.yaml"
    link.symlink_to("store/task.yaml")
    result = run_cli(["fmt", str(tmp_path)])
    assert result == (
        0,
        f"reformatted {link}\n".encode(),
        "1 file reformatted, 0 already formatted\n",
    )
    assert link.is_symlink() and os.readlink(link) == "store/task.yaml"
    assert real.read_bytes() == VALID_DOC
    assert real.stat().st_mode & 0o777 == 0o640


def test_fmt_refuses_a_fifo_and_a_device_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "taskspec.yaml"
    os.mkfifo(fifo)
    for argv in (["fmt", str(fifo)], ["show", "/dev/zero"], ["fmt", "/dev/zero"]):
        result = run_cli(argv)
        assert result.code == 1
        assert "cannot read: not a regular file" in result.err, argv


def test_github_annotations() -> None:
    bad = VALID_DOC.replace(b"language: go", b"language: go,lang").replace(
        b"prompt: I", b'prompt: "'
    )
    result = run_cli(
        ["validate", "--format", "github", "-", "--stdin-filename", "a,b:c%.yaml"], stdin=bad
    )
    assert result.code == 1
    lines = result.out.decode().splitlines()
    assert lines[0].startswith("::error file=a%2Cb%3Ac%25.yaml,line=")
    missing = run_cli(["validate", "--format", "github", "/nonexistent/taskspec.yaml"])
    assert missing.out == (
        b"::error file=/nonexistent/taskspec.yaml,title=TS901::"
        b"cannot read: No such file or directory\n"
    )
    invalid = run_cli(
        ["validate", "--format", "github", "-"],
        stdin=VALID_DOC.replace(b"prompt: Implement mathx.GCD.", b'prompt: "\\n"'),
    )
    assert invalid.out == b"::error file=-,line=14,col=9,title=TS101::prompt is required\n"


def test_version_comes_from_the_package_metadata_and_names_the_build() -> None:
    assert taskspec.__version__ == version("taskspec")
    result = subprocess.run(
        [sys.executable, "-m", "taskspec", "--version"], capture_output=True, text=True, check=False
    )
    build = "compiled, mypyc" if taskspec.__compiled__ else "pure Python"
    assert (result.returncode, result.stdout) == (0, f"taskspec {version('taskspec')} ({build})\n")
    if os.environ.get("TASKSPEC_EXPECT_COMPILED", "") not in ("", "0"):
        # make test-compiled and make test-wheel: the compiled build says so.
        assert "(compiled, mypyc)" in result.stdout
    with pytest.raises(AttributeError):
        taskspec.__not_there__  # noqa: B018


@pytest.mark.parametrize(("compiled", "build"), [(True, "compiled, mypyc"), (False, "pure Python")])
def test_version_names_the_build_that_is_running(
    monkeypatch: pytest.MonkeyPatch, compiled: bool, build: str
) -> None:
    # The label follows taskspec.__compiled__, which looks at the modules
    # actually imported; either build's label is checked in either venv.
    monkeypatch.setattr(taskspec, "__compiled__", compiled)
    result = run_cli(["--version"])
    assert (result.code, result.out) == (0, f"taskspec {version('taskspec')} ({build})\n".encode())


def test_read_checked_reads_checks_and_reports_in_one_step(tmp_path: Path) -> None:
    """The step show, convert, fmt and validate share: read, check, report a failure once."""
    out = io.StringIO()
    report = Report(out)
    good = tmp_path / "taskspec.yaml"
    good.write_bytes(VALID_DOC)
    checked = read_checked(report, str(good), "good.yaml", taskspec.parse_task_spec)
    assert checked is not None
    assert checked[0] == VALID_DOC
    assert checked[1].task_id == "kg-go-impl-mathx-gcd"
    bad = VALID_DOC.replace(b"language: go", b"language: [go]")
    assert read_checked(report, bad, "bad.yaml", taskspec.parse_task_spec) is None
    missing = str(tmp_path / "gone.yaml")
    assert read_checked(report, missing, "gone.yaml", taskspec.parse_task_spec) is None
    assert (report.invalid, report.unreadable, report.failed) == (1, 1, 2)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("bad.yaml:3:11: TS003 language: expected a string, got a sequence")
    assert lines[1] == "gone.yaml: TS901 cannot read: No such file or directory"


def test_fmt_refuses_a_read_only_file_and_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    doc = VALID_DOC.replace(b"language: go", b"language: 'go'")
    path.write_bytes(doc)
    path.chmod(0o444)
    result = run_cli(["fmt", str(path)])
    assert (result.code, result.out) == (1, b"")
    assert result.err == (
        f"{path}: TS901 cannot write: the file is read-only (its mode has no write bit)\n"
        "0 files reformatted, 0 already formatted, 1 not formatted\n"
    )
    assert path.read_bytes() == doc


# -- standard output full or closed --------------------------------------------

_OUTPUT_CASES = {
    "show": ["show", "{valid}"],
    "convert": ["convert", "--to", "json", "{valid}"],
    "schema": ["schema"],
    "fmt -": ["fmt", "-"],
    "fmt --diff": ["fmt", "--diff", "{unformatted}"],
    "validate": ["validate", "{invalid}"],
    "explain": ["explain", "TS011"],
}


def _output_case(tmp_path: Path, case: str) -> tuple[list[str], bytes]:
    valid = tmp_path / "valid.yaml"
    valid.write_bytes(VALID_DOC)
    unformatted = tmp_path / "unformatted.yaml"
    unformatted.write_bytes(VALID_DOC.replace(b"language: go", b"language: 'go'"))
    invalid = tmp_path / "invalid.yaml"
    invalid.write_bytes(b"not a mapping\n")
    names = {"valid": valid, "unformatted": unformatted, "invalid": invalid}
    argv = [arg.format(**names) for arg in _OUTPUT_CASES[case]]
    return [sys.executable, "-m", "taskspec", *argv], unformatted.read_bytes()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("case", _OUTPUT_CASES)
def test_a_full_stdout_is_one_line_and_status_1(tmp_path: Path, case: str) -> None:
    argv, stdin = _output_case(tmp_path, case)
    with open("/dev/full", "wb") as full:
        done = subprocess.run(argv, input=stdin, stdout=full, stderr=subprocess.PIPE, check=False)
    assert done.returncode == 1
    assert done.stderr.decode() == (
        "taskspec: error: cannot write the output: No space left on device\n"
    )


@pytest.mark.parametrize("case", _OUTPUT_CASES)
def test_a_closed_stdout_stops_quietly_with_status_1(tmp_path: Path, case: str) -> None:
    """``| head -0``: the reader is gone before anything is written."""
    argv, stdin = _output_case(tmp_path, case)
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = subprocess.run(
            argv, input=stdin, stdout=write_end, stderr=subprocess.PIPE, check=False
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (1, b"")


def test_fmt_keeps_crlf_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    crlf = (b"# owner: platform-eval\n" + VALID_DOC).replace(b"\n", b"\r\n")
    path.write_bytes(crlf.replace(b"    ", b"  "))
    check = run_cli(["fmt", "--check", str(path)])
    assert check == (1, f"would reformat {path}\n".encode(), check.err)
    assert run_cli(["fmt", str(path)]).code == 0
    assert path.read_bytes() == crlf  # every line still ends in CRLF, comment kept
    # The canonical layout with CRLF is formatted: nothing to do.
    assert run_cli(["fmt", "--check", str(path)]) == (
        0,
        b"",
        "0 files would be reformatted, 1 already formatted\n",
    )
    assert run_cli(["fmt", "-"], stdin=crlf) == (0, crlf, "")
    assert run_cli(["fmt", "--strip-comments", "-"], stdin=crlf) == (
        0,
        VALID_DOC.replace(b"\n", b"\r\n"),
        "",
    )
