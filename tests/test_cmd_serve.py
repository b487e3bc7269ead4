"""``taskspec serve`` as a real process, serving a real pip-installed plugin package."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import grpc
import pytest

from taskspec import GenerateOptions, Language, TaskSpec
from taskspec.remote import RemoteError, RemoteGenerator, list_languages
from tests.remoteutil import table_status

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "taskspec_serve_demo"

PYPROJECT = f"""\
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "taskspec-serve-demo"
version = "0.1.0"

[tool.setuptools]
packages = ["{PACKAGE}"]

[project.entry-points."taskspec.generators"]
python = "{PACKAGE}.gen:ScriptedPython"
broken = "{PACKAGE}.missing:Generator"
"""

GEN = """\
from taskspec import Language
from tests.remoteutil import ScriptedGenerator


def ScriptedPython():
    return ScriptedGenerator(Language.PYTHON)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    (src / "pyproject.toml").write_text(PYPROJECT)
    (src / PACKAGE).mkdir()
    (src / PACKAGE / "__init__.py").write_text("")
    (src / PACKAGE / "gen.py").write_text(GEN)
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--disable-pip-version-check",
            "--target",
            str(target),
            str(src),
        ],
        check=True,
        capture_output=True,
    )
    return target


def read_line(proc: subprocess.Popen[str], timeout: float = 60) -> str:
    """The next line of the process's stdout, waiting at most *timeout* seconds."""
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, "taskspec serve printed nothing"
    return proc.stdout.readline()


def _serve(site: Path, *options: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """`taskspec serve *options*` with the generators of *site*: the process and its address."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    proc = subprocess.Popen(
        [sys.executable, "-m", "taskspec", "serve", *options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        line = read_line(proc)
        assert line.startswith("listening on 127.0.0.1:"), line
        yield proc, line.removeprefix("listening on ").strip()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate(timeout=60)


@pytest.fixture
def served(site: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    yield from _serve(site, "--address", "127.0.0.1:0")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_serve_serves_plugins_and_stops_on_signal(
    served: tuple[subprocess.Popen[str], str], sig: signal.Signals
) -> None:
    proc, address = served
    assert list_languages(address, timeout=30) == [Language.PYTHON]
    with RemoteGenerator(address, "python", timeout=30) as gen:
        spec = gen.generate(GenerateOptions(template_id="from-cli"))
        assert spec.generated_from.template_id == "from-cli"
        with pytest.raises(RemoteError) as info:
            gen.generate(GenerateOptions(template_id="fail"))
        assert info.value.code is grpc.StatusCode.INTERNAL
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out == ""
    # The broken plugin is logged, with its reason, and did not stop the rest.
    assert (
        "taskspec serve: WARNING: generator plugin 'broken' "
        f"({PACKAGE}.missing:Generator) from taskspec-serve-demo failed: "
        f"ModuleNotFoundError: No module named '{PACKAGE}.missing'"
    ) in err
    assert "taskspec serve: INFO: serving python\n" in err
    # The generator's failure is logged on the server, traceback included.
    assert 'taskspec serve: ERROR: generator for language "python" failed' in err
    assert err.rstrip().endswith("taskspec serve: INFO: stopped")


def test_serve_rejects_a_bad_address() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "taskspec", "serve", "--address", "localhost"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert "taskspec serve: address must be HOST:PORT" in proc.stderr


def test_serve_refuses_a_port_in_use(served: tuple[subprocess.Popen[str], str]) -> None:
    """A second ``taskspec serve`` on the same port says so and stops; the first serves on."""
    first, address = served
    proc = subprocess.run(
        [sys.executable, "-m", "taskspec", "serve", "--address", address],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert (
        f"taskspec serve: cannot listen on {address}: the address is already in use "
        "(is another server listening on it?)\n"
    ) in proc.stderr
    for _ in range(20):
        assert list_languages(address, timeout=30) == [Language.PYTHON]
    assert first.poll() is None


@pytest.fixture
def limited(site: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    yield from _serve(
        site,
        "--max-concurrent-calls",
        "1",
        "--max-abandoned-calls",
        "1",
        "--default-timeout",
        "0.3",
    )


def occupy(
    pool: ThreadPoolExecutor, caller: RemoteGenerator, gen: RemoteGenerator, script: str
) -> tuple[Future[TaskSpec], RemoteError]:
    """Start a *script* call through *caller* on a server that runs one call at a time.

    Returns the call, once in flight, and the refusal of a call through *gen*
    that proved it so.
    """
    call = pool.submit(caller.generate, GenerateOptions(template_id=script))
    for _ in range(1000):  # bounded: until the call has arrived
        if call.done():  # refused itself, arriving while a probe ran: again
            call = pool.submit(caller.generate, GenerateOptions(template_id=script))
        try:
            gen.generate(GenerateOptions(template_id="ok"))
        except RemoteError as err:
            return call, err
        time.sleep(0.01)
    raise AssertionError(f"the {script} call never arrived")


def test_serve_options(limited: tuple[subprocess.Popen[str], str]) -> None:
    _, address = limited
    with RemoteGenerator(address, "python", timeout=None) as gen:
        # No deadline of its own: the server's default of 0.3 s ends it.
        with pytest.raises(RemoteError) as info:
            gen.generate(GenerateOptions(template_id="wait"))
        assert info.value.code is grpc.StatusCode.DEADLINE_EXCEEDED
    with (
        RemoteGenerator(address, "python", timeout=30) as gen,
        RemoteGenerator(address, "python", timeout=1) as holder,
        ThreadPoolExecutor(max_workers=1) as pool,
    ):
        # A generator that ignores cancellation holds the one call allowed
        # until its caller's deadline...
        held, refused = occupy(pool, holder, gen, "hold")
        assert (refused.code.name, refused.details) == table_status("too many calls", limit=1)
        # ...and the server still answers the rest.
        assert list_languages(address, timeout=30) == [Language.PYTHON]
        with pytest.raises(RemoteError) as late:
            held.result(timeout=30)
        assert late.value.code is grpc.StatusCode.DEADLINE_EXCEEDED
        # Answered, it runs on, abandoned: the one allowed.
        for _ in range(100):  # bounded: the caller's clock may end the call first
            with pytest.raises(RemoteError) as info:
                gen.generate(GenerateOptions(template_id="ok"))
            if info.value.details != refused.details:
                break
            time.sleep(0.01)
        assert (info.value.code.name, info.value.details) == table_status(
            "too many abandoned calls", limit=1
        )


def _signalled(proc: subprocess.Popen[str], sig: signal.Signals) -> tuple[float, str]:
    """Send *sig*; the seconds until the process ended, and its stderr."""
    proc.send_signal(sig)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=60)
    return time.monotonic() - sent, err


GRACE = 0.5


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_serve_within_the_grace_while_a_generator_hangs(
    site: Path, sig: signal.Signals
) -> None:
    for proc, address in _serve(site, "--max-concurrent-calls", "1", "--grace", str(GRACE)):
        with (
            RemoteGenerator(address, "python", timeout=30) as gen,
            RemoteGenerator(address, "python", timeout=None) as caller,
            ThreadPoolExecutor(max_workers=1) as pool,
        ):
            hung, _ = occupy(pool, caller, gen, "hang")
            took, err = _signalled(proc, sig)
            with pytest.raises(RemoteError) as info:
                hung.result(timeout=30)
        assert info.value.code is grpc.StatusCode.UNAVAILABLE
        assert proc.returncode == 0, err
        assert took < GRACE + 1, f"taskspec serve took {took:.1f} s to stop"
        assert err.endswith(
            'taskspec serve: WARNING: generator for language "python" is still running after '
            "its call was answered UNAVAILABLE (the server stopped); it is abandoned, "
            "1 of at most 64\n"
            "taskspec serve: WARNING: stopped with 1 generator calls still running; "
            "they are abandoned\n"
            "taskspec serve: INFO: stopped\n"
        ), err


@pytest.mark.parametrize(
    ("first", "second"), [(signal.SIGTERM, signal.SIGINT), (signal.SIGINT, signal.SIGINT)]
)
def test_a_second_signal_ends_serve_at_once(
    site: Path, first: signal.Signals, second: signal.Signals
) -> None:
    for proc, address in _serve(site, "--max-concurrent-calls", "1", "--grace", "60"):
        with (
            RemoteGenerator(address, "python", timeout=30) as gen,
            RemoteGenerator(address, "python", timeout=None) as caller,
            ThreadPoolExecutor(max_workers=1) as pool,
        ):
            occupy(pool, caller, gen, "hang")
            proc.send_signal(first)
            # Once stopping (the address refuses calls), the second signal.
            for _ in range(1000):  # bounded: until the stop has begun
                try:
                    list_languages(address, timeout=30)
                except RemoteError:
                    break
                time.sleep(0.01)
            took, err = _signalled(proc, second)
        assert proc.returncode == 128 + second, err
        assert took < 1, f"taskspec serve took {took:.1f} s to end"
        assert err.endswith(f"taskspec serve: WARNING: stopping at once ({second.name})\n"), err


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--max-concurrent-calls", "0", "must be a positive integer, got '0'"),
        ("--default-timeout", "-1", "must be a number of seconds, 0 or more, got '-1'"),
        ("--default-timeout", "nan", "must be a number of seconds, 0 or more, got 'nan'"),
    ],
)
def test_serve_rejects_bad_options(flag: str, value: str, message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "taskspec", "serve", flag, value],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert f"argument {flag}: {message}" in proc.stderr
