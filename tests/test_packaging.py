"""The build falls back to pure Python, with one line, whenever it cannot compile.

setup.py compiles the hot modules with mypyc by default. A user's install
must never fail, nor bury them in mypy's report, because compiling failed:
without a C compiler, or when mypyc's type check fails (a mistake in a
``.pyi`` or an annotation, stubs missing from the build environment), the
build goes on as pure Python and says why in one line. With
``TASKSPEC_COMPILE=1`` the same failure fails the build with the full report.

Each case builds a wheel from a scratch copy of what the sdist carries, with
``python -m build --no-isolation`` in this venv (which has the pinned mypy
and stubs), so that no network is needed and the build's output is seen
whole. ``make dist`` and ``make test-wheel`` cover the compiled path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTICE = "taskspec: building the pure-Python package: "
#: What the sdist carries (MANIFEST.in and the package), enough to build it.
SDIST_PARTS = ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md", "LICENSE")
SDIST_TREES = ("python", "proto", "examples", "schema")


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """A scratch copy of the package's sources, without build or cache leftovers."""
    src = tmp_path / "src"
    src.mkdir()
    for name in SDIST_PARTS:
        shutil.copy2(ROOT / name, src / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.so", ".mypy_cache")
    for tree in SDIST_TREES:
        shutil.copytree(ROOT / tree, src / tree, ignore=ignore)
    return src


def _build(src: Path, **env: str) -> tuple[subprocess.CompletedProcess[str], list[Path]]:
    """Build a wheel of *src* into src/out with *env* added; the result and the wheels."""
    full = {k: v for k, v in os.environ.items() if k != "TASKSPEC_COMPILE"}
    result = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", "out", "."],
        cwd=src,
        env=full | env,
        capture_output=True,
        text=True,
        check=False,
    )
    return result, sorted((src / "out").glob("*.whl"))


def _notices(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in (result.stdout + result.stderr).splitlines() if NOTICE in line]


def _extensions(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as zf:
        return [name for name in zf.namelist() if name.endswith(".so")]


def _break_the_types(src: Path) -> None:
    """A type error in a compiled module, as a wrong annotation or .pyi would cause."""
    module = src / "python" / "taskspec" / "bridge" / "_emit.py"
    module.write_text(module.read_text() + '\n_BROKEN: int = "not an int"\n')


def test_a_type_error_falls_back_to_pure_python_with_one_line(source: Path) -> None:
    _break_the_types(source)
    result, wheels = _build(source)
    assert result.returncode == 0, result.stderr
    [notice] = _notices(result)
    # The notice names mypyc's first error; the rest of its report stays out.
    assert "mypyc could not compile" in notice
    assert "_emit.py:" in notice and "Incompatible types in assignment" in notice
    output = result.stdout + result.stderr
    assert output.count("error:") == 1, output
    [wheel] = wheels
    assert wheel.name.endswith("-py3-none-any.whl")
    assert _extensions(wheel) == []


def test_a_required_compiled_build_fails_on_a_type_error_with_the_report(source: Path) -> None:
    _break_the_types(source)
    result, wheels = _build(source, TASKSPEC_COMPILE="1")
    assert result.returncode != 0
    assert wheels == []
    assert _notices(result) == []
    assert 'Incompatible types in assignment (expression has type "str"' in result.stderr


def test_no_c_compiler_falls_back_to_pure_python_with_one_line(source: Path) -> None:
    result, wheels = _build(source, CC=str(source / "no-such-cc"))
    assert result.returncode == 0, result.stderr
    assert _notices(result) == [NOTICE + "no C compiler found"]
    [wheel] = wheels
    assert wheel.name.endswith("-py3-none-any.whl")
    assert _extensions(wheel) == []


def test_a_required_compiled_build_fails_without_a_c_compiler(source: Path) -> None:
    result, wheels = _build(source, CC=str(source / "no-such-cc"), TASKSPEC_COMPILE="1")
    assert result.returncode != 0
    assert wheels == []
    assert "TASKSPEC_COMPILE=1 needs a C compiler" in result.stderr


#: A stand-in C compiler and linker that "builds" every object and library
#: as an empty file, at once, but fails on the shim of bridge/_emit.py: the
#: group's library and the shims before it are then built, the rest not.
HALF_A_COMPILER = """\
#!/bin/sh
out=
while [ $# -gt 0 ]; do
    case "$1" in
        -o) out="$2"; shift ;;
        */bridge/_emit.c) echo "cc: cannot compile $1" >&2; exit 1 ;;
    esac
    shift
done
: > "$out"
"""


def test_a_compiler_failing_halfway_falls_back_and_leaves_no_extension_behind(
    source: Path,
) -> None:
    # An extension built before the failure would reach the wheel unless the
    # fallback removed it, and without the rest of its group it cannot import.
    cc = source / "half-a-cc"
    cc.write_text(HALF_A_COMPILER)
    cc.chmod(0o755)
    result, wheels = _build(source, CC=str(cc), LDSHARED=f"{cc} -shared")
    assert result.returncode == 0, result.stderr
    assert "building 'taskspec__mypyc' extension" in result.stdout
    assert "building 'taskspec._rules' extension" in result.stdout
    [notice] = _notices(result)
    assert notice.startswith(NOTICE + "compiling failed (CompileError: ")
    [wheel] = wheels
    assert _extensions(wheel) == []
    with zipfile.ZipFile(wheel) as zf:
        assert "taskspec/bridge/_emit.py" in zf.namelist()


def test_taskspec_compile_0_builds_pure_python_without_a_notice(source: Path) -> None:
    result, wheels = _build(source, TASKSPEC_COMPILE="0")
    assert result.returncode == 0, result.stderr
    assert _notices(result) == []
    [wheel] = wheels
    assert wheel.name.endswith("-py3-none-any.whl")
