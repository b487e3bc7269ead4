"""A user's code type-checks: ``mypy --strict`` on the README's Python and on a user's script.

The package is marked "Typing :: Typed", so what a user writes with its
names must pass a strict type checker unchanged: the enums on a message's
fields and in its constructor, the Registry's look-ups, the errors. Each
Python snippet of the README is a module of its own, checked with the
script ``tests/data/typed/user_script.py``, in one mypy run, from a
directory outside the repository with a configuration of its own (only
``strict``), the package found as the running environment installed it
(editable in the development venv, a wheel in the compiled one), as a
user's checker finds it. (On ``MYPYPATH`` it would be checked as the user's
own code, generated stubs included, which no user's checker does.)

The stubs say what the run time accepts: an enum field's constructor takes
a member or the exact name of a proto enum value (``"LANGUAGE_GO"``), and
mypy refuses any other string (``language="go"``), which would raise
``ValueError: unknown enum label`` at run time.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from taskspec.v1 import taskspec_pb2
from tests.test_readme import BLOCKS

ROOT = Path(__file__).resolve().parent.parent
USER_SCRIPT = ROOT / "tests" / "data" / "typed" / "user_script.py"


def test_the_user_script_runs() -> None:
    result = subprocess.run(
        [sys.executable, str(USER_SCRIPT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""


def _mypy_strict(tmp_path: Path, files: list[str]) -> subprocess.CompletedProcess[str]:
    """``mypy --strict`` on *files* in *tmp_path*, as a user's checker runs it."""
    (tmp_path / "mypy.ini").write_text("[mypy]\nstrict = True\n")
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            "mypy.ini",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            *files,
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_readme_snippets_and_a_user_script_pass_mypy_strict(tmp_path: Path) -> None:
    files = []
    for i, block in enumerate(BLOCKS):
        path = tmp_path / f"readme_block{i}.py"
        path.write_text(block)
        files.append(path.name)
    (tmp_path / "user_script.py").write_text(USER_SCRIPT.read_text())
    files.append("user_script.py")
    result = _mypy_strict(tmp_path, files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith(f"Success: no issues found in {len(files)} source files")


# Lines 4 to 6 are what the run time takes; 7 to 9 raise ValueError there.
ENUM_ARGUMENTS = """\
from taskspec import Difficulty, Language, TaskSpec
from taskspec.v1 import generator_service_pb2

TaskSpec(language="LANGUAGE_GO", difficulty="DIFFICULTY_EASY")
TaskSpec(language=Language.GO, difficulty=Difficulty.EASY)
generator_service_pb2.ListLanguagesResponse(languages=["LANGUAGE_GO", Language.PYTHON])
TaskSpec(language="go")
TaskSpec(language=Language.GO, difficulty="easy")
generator_service_pb2.ListLanguagesResponse(languages=["go"])
"""


def _names(enum: object) -> str:
    """The Literal of *enum*'s value names, as mypy prints it, from the descriptor."""
    values = enum.DESCRIPTOR.values  # type: ignore[attr-defined]
    return "Literal[" + ", ".join(f"'{v.name}'" for v in values) + "]"


def test_mypy_strict_takes_only_the_enum_value_names_the_run_time_takes(tmp_path: Path) -> None:
    (tmp_path / "enum_arguments.py").write_text(ENUM_ARGUMENTS)
    result = _mypy_strict(tmp_path, ["enum_arguments.py"])
    errors = [line for line in result.stdout.splitlines() if ": error: " in line]
    assert [line.split(":")[1] for line in errors] == ["7", "8", "9"], result.stdout
    language, difficulty = _names(taskspec_pb2.Language), _names(taskspec_pb2.Difficulty)
    assert (
        'Argument "language" to "TaskSpec" has incompatible type "Literal[\'go\']"; '
        f'expected "{language} | Language | None"  [arg-type]'
    ) in errors[0]
    assert (
        'Argument "difficulty" to "TaskSpec" has incompatible type "Literal[\'easy\']"; '
        f'expected "{difficulty} | Difficulty | None"  [arg-type]'
    ) in errors[1]
    assert (
        "List item 0 has incompatible type \"Literal['go']\"; "
        f'expected "{language} | Language"  [list-item]'
    ) in errors[2]
    assert result.returncode == 1

    # What mypy took, the run time takes; what it refused, the run time refuses.
    lines = ENUM_ARGUMENTS.splitlines()
    namespace: dict[str, object] = {}
    exec("\n".join(lines[:6]), namespace)
    for line in lines[6:]:
        with pytest.raises(ValueError, match=r"unknown (enum )?label"):
            exec(line, dict(namespace))


SCRATCH_PROTOS = {
    "scratch/colors.proto": """\
syntax = "proto3";
package scratch;
enum Color { COLOR_UNSPECIFIED = 0; COLOR_RED = 1; }
""",
    "scratch/probe.proto": """\
syntax = "proto3";
package scratch;
import "scratch/colors.proto";
message Probe {
  enum Shade { SHADE_UNSPECIFIED = 0; SHADE_DARK = 1; }
  Color color = 1;
  repeated Shade shades = 2;
  map<string, Color> by_name = 3;
  optional Shade shade = 4;
}
""",
}


def test_the_stub_script_narrows_every_enum_argument_once(tmp_path: Path) -> None:
    """scripts/gen_stub_literals.py on protoc's own output: nested, imported, repeated, map."""
    for name, text in SCRATCH_PROTOS.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    out = tmp_path / "out"
    out.mkdir()
    protoc = [sys.executable, "-m", "grpc_tools.protoc", f"-I{tmp_path}"]
    subprocess.run(
        [*protoc, f"--python_out={out}", f"--pyi_out={out}", *SCRATCH_PROTOS], check=True
    )
    script = [sys.executable, str(ROOT / "scripts" / "gen_stub_literals.py"), str(out)]
    subprocess.run(script, check=True)
    stub = (out / "scratch" / "probe_pb2.pyi").read_text()
    color = '_Union[_colors_pb2.Color, _Literal["COLOR_UNSPECIFIED", "COLOR_RED"]]'
    shade = '_Union[Probe.Shade, _Literal["SHADE_UNSPECIFIED", "SHADE_DARK"]]'
    assert f"color: _Optional[{color}]" in stub
    assert f"shades: _Optional[_Iterable[{shade}]]" in stub
    assert f"shade: _Optional[{shade}]" in stub
    assert f"value: _Optional[{color}]" in stub  # the map entry's constructor
    # A map's own argument keeps protoc's type: pure Python refuses names there.
    assert "by_name: _Optional[_Mapping[str, _colors_pb2.Color]]" in stub
    assert ", str]" not in stub
    assert "from typing import ClassVar as _ClassVar, Literal as _Literal, " in stub
    # Run again, it changes nothing.
    subprocess.run(script, check=True)
    assert (out / "scratch" / "probe_pb2.pyi").read_text() == stub
