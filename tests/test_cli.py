"""The taskspec command line: validate, fmt and show, with their exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from taskspec._cli import main
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
        f'{bad}:3:11: invalid language "cobol"',
        f"{bad}:14:9: prompt is required",
    ]


def test_validate_decode_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "t.yaml"
    path.write_bytes(b"task_spec_version: 1\nbogus: 2\n")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 1
    assert out.startswith(f"{path}:2:1: bogus: unknown field 'bogus'")


def test_validate_missing_file_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "validate", str(tmp_path / "nope.yaml"))
    assert code == 1
    assert out == f"{tmp_path / 'nope.yaml'}:1:1: cannot read: No such file or directory\n"


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert main(["validate"]) == 2
    assert main(["frobnicate"]) == 2
    capsys.readouterr()


def test_fmt_check_lists_and_fmt_rewrites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    messy = tmp_path / "messy.yaml"
    original = b"# comment\n" + VALID_DOC.replace(b"    ", b"  ")
    messy.write_bytes(original)
    canonical = tmp_path / "canonical.yaml"
    canonical.write_bytes(VALID_DOC)

    code, out, _ = run(capsys, "fmt", "--check", str(tmp_path))
    assert (code, out) == (1, f"{messy}\n")
    assert messy.read_bytes() == original

    code, out, _ = run(capsys, "fmt", str(tmp_path))
    assert (code, out) == (0, f"reformatted {messy}\n")
    assert messy.read_bytes() == VALID_DOC
    assert sorted(p.name for p in tmp_path.iterdir()) == ["canonical.yaml", "messy.yaml"]

    assert run(capsys, "fmt", "--check", str(tmp_path)) == (0, "", "")


def test_fmt_leaves_invalid_files_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.yaml"
    data = VALID_DOC.replace(b"language: go", b"language:   cobol")
    path.write_bytes(data)
    code, _, err = run(capsys, "fmt", str(path))
    assert code == 1
    assert 'invalid language "cobol"' in err
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


def test_python_dash_m_entry_point() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "taskspec", "validate", str(ROOT / "examples")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (result.returncode, result.stdout) == (0, "")
