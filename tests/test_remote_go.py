"""The GeneratorService across languages, on loopback: Go client to Python server,
Python client to Go server.

The Go end is the hand-written Go library (``go/``: NewRemoteGenerator and
NewGeneratorServer), driven through ``tests/conformance/grpc``
(``taskspec-grpc-peer``). Both ends script their generators the same way
(tests/remoteutil.py), so every status code is provoked in both directions.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import grpc
import pytest
from grpc_health.v1 import health_pb2

import taskspec
from taskspec import GenerateOptions, Language, Registry, ValidationError, Violation
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec._remote_status import _rpc_error
from taskspec.remote import (
    SERVICE_NAME,
    GeneratorServer,
    RemoteError,
    RemoteGenerator,
    RemoteValidationError,
    list_languages,
    serve,
)
from taskspec.v1 import generator_service_pb2 as service_pb2
from taskspec.v1 import generator_service_pb2_grpc as service_grpc
from taskspec.v1 import taskspec_pb2
from tests.remoteutil import (
    GO_TEST_CMD,
    HUGE_PROMPT_BYTES,
    LONG_PROMPT_BYTES,
    ScriptedGenerator,
    scripted_spec,
)

ROOT = Path(__file__).resolve().parent.parent
PEER = ROOT / ".bin" / "taskspec-grpc-peer"
GO, PYTHON = taskspec_pb2.LANGUAGE_GO, taskspec_pb2.LANGUAGE_PYTHON


@pytest.fixture(scope="module")
def peer() -> Path:
    """The Go peer, built by ``make grpc-peer`` if needed.

    Without Go the module is skipped, unless TASKSPEC_REQUIRE_GO=1 (as in
    CI), where a missing Go side is a failure.
    """
    if shutil.which("go") is None:
        if os.environ.get("TASKSPEC_REQUIRE_GO", "") not in ("", "0"):
            pytest.fail("TASKSPEC_REQUIRE_GO is set but go is not installed")
        pytest.skip("go is not installed: cross-language GeneratorService checks skipped")
    subprocess.run(["make", "grpc-peer"], cwd=ROOT, check=True, capture_output=True)
    return PEER


class Lines:
    """The lines a process prints, read by a thread so waiting for one is bounded.

    (select() on a buffered pipe misses lines already in Python's buffer.)
    """

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self._queue: queue.Queue[str] = queue.Queue()
        assert proc.stdout is not None
        stdout = proc.stdout
        threading.Thread(target=self._pump, args=(stdout,), daemon=True).start()

    def _pump(self, stdout: IO[str]) -> None:
        for line in stdout:
            self._queue.put(line)
        self._queue.put("")

    def next(self, timeout: float = 60) -> str:
        """The next line, waiting at most *timeout* seconds."""
        try:
            line = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("the Go peer printed nothing") from None
        assert line, "the Go peer exited"
        return line


# --- a Go client calling a Python server -----------------------------------------


@pytest.fixture(scope="module")
def scripted() -> ScriptedGenerator:
    return ScriptedGenerator(Language.PYTHON)


@pytest.fixture(scope="module")
def py_server(scripted: ScriptedGenerator) -> Iterator[GeneratorServer]:
    registry = Registry()
    registry.register(scripted)
    with serve(registry) as srv:
        yield srv


def go_calls(peer: Path, address: str, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the Go client once over *requests* (JSON lines) and return its results."""
    proc = subprocess.run(
        [str(peer), "call", address],
        input="".join(json.dumps(r) + "\n" for r in requests),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_go_client_python_server_status_codes(
    peer: Path, py_server: GeneratorServer, scripted: ScriptedGenerator
) -> None:
    requests: list[dict[str, Any]] = [
        {"language": PYTHON, "template": "t-7"},
        {"language": PYTHON, "template": "fail"},
        {"language": GO},
        {"language": 0, "raw": True},
        {"language": 99, "raw": True},
        {"language": PYTHON, "template": "wait", "timeout_ms": 300},
        {"language": PYTHON, "template": "c", "concurrent": 64},
    ]
    who = 'generator for language "python"'
    results = go_calls(peer, py_server.address, requests)
    # Which side notices the passed deadline first is a race: the Go client's
    # own context ("context deadline exceeded") or the Python server, whose
    # status gRPC words as "Deadline Exceeded". The code is the same either way.
    deadline = results.pop(5)
    assert deadline["code"] == "DeadlineExceeded"
    assert deadline["deadline"] is True  # errors.Is(err, context.DeadlineExceeded)
    assert deadline["message"] in {"context deadline exceeded", "Deadline Exceeded"}
    assert results == [
        {"code": "OK", "task_id": "scripted-python-t-7", "template": "t-7"},
        {"code": "Internal", "message": f"{who} failed: ValueError: scripted failure"},
        {"code": "NotFound", "message": 'no generator for language "go"'},
        {"code": "InvalidArgument", "message": "language is required"},
        {
            "code": "InvalidArgument",
            "message": "language 99 is not defined in taskspec.v1.Language",
        },
        {"code": "OK"},
    ]
    # The Go caller's deadline reached the Python generator, which was told
    # when it passed.
    assert scripted.waited.wait(60)
    [remaining] = scripted.seen_remaining
    assert remaining is not None and 0 <= remaining <= 0.3 + 0.25
    assert scripted.seen_ended == [True]


def test_go_client_unavailable(peer: Path) -> None:
    srv = serve(Registry())
    address = srv.address
    srv.stop(None)
    [result] = go_calls(peer, address, [{"language": PYTHON}])
    assert result["code"] == "Unavailable"


# --- a Python client calling a Go server -----------------------------------------


@pytest.fixture(scope="module")
def go_server(peer: Path) -> Iterator[tuple[Lines, str]]:
    proc = subprocess.Popen(
        [str(peer), "serve"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = Lines(proc)
        line = lines.next()
        assert line.startswith("listening on 127.0.0.1:"), line
        yield lines, line.removeprefix("listening on ").strip()
    finally:
        assert proc.stdin is not None
        proc.stdin.close()  # the peer stops gracefully when its stdin closes
        proc.wait(timeout=60)  # its stdout is drained by the Lines thread
    assert proc.returncode == 0


def events(proc: Lines, until: str) -> list[dict[str, Any]]:
    """The peer's event lines up to and including the first *until* event."""
    seen = []
    for _ in range(1000):  # bounded
        event = json.loads(proc.next())
        seen.append(event)
        if event["event"] == until:
            return seen
    raise AssertionError(f"no {until} event in {seen}")


@pytest.mark.parametrize(
    ("template", "details"),
    [
        ("fail", 'generator for language "go" failed: scripted failure'),
        ("panic", 'generator for language "go" failed: panic: scripted panic'),
    ],
)
def test_python_client_go_server_internal(
    go_server: tuple[Lines, str], template: str, details: str
) -> None:
    proc, address = go_server
    with RemoteGenerator(address, "go", timeout=60) as gen, pytest.raises(RemoteError) as info:
        gen.generate(GenerateOptions(template_id=template))
    assert not isinstance(info.value, ValidationError)
    assert info.value.code is grpc.StatusCode.INTERNAL
    assert info.value.details == details
    assert events(proc, "entered") == [{"event": "entered", "template": template}]


def test_python_client_go_server(go_server: tuple[Lines, str]) -> None:
    proc, address = go_server
    assert list_languages(address, timeout=60) == [Language.GO]
    with RemoteGenerator(address, "go", timeout=60) as gen:
        spec = gen.generate(GenerateOptions(template_id="t-9"))
        assert (spec.task_id, spec.generated_from.template_id) == ("scripted-go-t-9", "t-9")
        events(proc, "entered")
    with RemoteGenerator(address, "python", timeout=60) as py, pytest.raises(RemoteError) as info:
        py.generate(GenerateOptions())
    assert info.value.code is grpc.StatusCode.NOT_FOUND
    assert info.value.details == 'no generator for language "python"'
    with grpc.insecure_channel(address) as channel:
        stub = service_grpc.GeneratorServiceStub(channel)
        for number, details in [
            (0, "language is required"),
            (99, "language 99 is not defined in taskspec.v1.Language"),
        ]:
            request = service_pb2.GenerateRequest()
            request.language = number  # type: ignore[assignment]
            with pytest.raises(grpc.RpcError) as raw:
                stub.Generate(request, timeout=60)
            assert isinstance(raw.value, grpc.Call)
            assert (raw.value.code(), raw.value.details()) == (
                grpc.StatusCode.INVALID_ARGUMENT,
                details,
            )
            # The Go server's problem, as the Python client reads it.
            err = _rpc_error(raw.value)
            assert isinstance(err, RemoteValidationError) and isinstance(err, ValidationError)
            assert (err.code, err.details) == (grpc.StatusCode.INVALID_ARGUMENT, details)
            assert err.violations == [Violation("language", details, code="TS103")]


def test_python_client_go_server_deadline_and_cancellation(
    go_server: tuple[Lines, str],
) -> None:
    proc, address = go_server
    with RemoteGenerator(address, "go", timeout=0.3) as gen, pytest.raises(RemoteError) as info:
        gen.generate(GenerateOptions(template_id="wait"))
    assert info.value.code is grpc.StatusCode.DEADLINE_EXCEEDED
    *_, ended = events(proc, "ended")
    # The Go generator's ctx carried the Python caller's deadline, and was
    # done. (On a loaded machine the call may reach it after the deadline,
    # so what remained may be below zero: only its bound is asserted.)
    assert ended["deadline"] is True and ended["done"] is True
    assert ended["remaining"] <= 0.3 + 0.25

    with grpc.insecure_channel(address) as channel:
        stub = service_grpc.GeneratorServiceStub(channel)
        future = stub.Generate.future(
            service_pb2.GenerateRequest(language=GO, options=GenerateOptions(template_id="wait"))
        )
        events(proc, "entered")
        future.cancel()
        *_, ended = events(proc, "ended")
    assert future.cancelled()
    assert ended == {"event": "ended", "deadline": False, "remaining": -1, "done": True}


def test_python_client_go_server_64_concurrent_calls(
    go_server: tuple[Lines, str],
) -> None:
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    proc, address = go_server
    with RemoteGenerator(address, "go", timeout=60) as gen, ThreadPoolExecutor(64) as pool:
        specs = list(
            pool.map(lambda i: gen.generate(GenerateOptions(template_id=f"c{i}")), range(64))
        )
    assert [s.generated_from.template_id for s in specs] == [f"c{i}" for i in range(64)]
    entered = [json.loads(proc.next()) for _ in range(64)]
    assert sorted(e["template"] for e in entered) == sorted(f"c{i}" for i in range(64))


# --- a generator's own status code, in every direction --------------------------

#: The codes a generator may fail its call with, as Python and Go name them.
PASSED = {
    "NOT_FOUND": "NotFound",
    "INVALID_ARGUMENT": "InvalidArgument",
    "FAILED_PRECONDITION": "FailedPrecondition",
    "UNAVAILABLE": "Unavailable",
    "DEADLINE_EXCEEDED": "DeadlineExceeded",
}


def coded_results(peer: Path, address: str, language: int) -> list[dict[str, Any]]:
    """The Go client's results for a generator failing with each code, then ABORTED."""
    requests = [{"language": language, "template": code} for code in [*PASSED, "ABORTED"]]
    return go_calls(peer, address, requests)


def test_go_client_python_server_generator_codes(peer: Path, py_server: GeneratorServer) -> None:
    results = coded_results(peer, py_server.address, PYTHON)
    assert results == [
        {
            "code": go_name,
            "message": f"scripted {code}",
            # Only DEADLINE_EXCEEDED is errors.Is(err, context.DeadlineExceeded).
            **({"deadline": True} if code == "DEADLINE_EXCEEDED" else {}),
        }
        for code, go_name in PASSED.items()
    ] + [
        {
            "code": "Internal",
            "message": 'generator for language "python" failed: '
            "GeneratorError: ABORTED: scripted ABORTED",
        }
    ]
    # A generator that raises SystemExit or KeyboardInterrupt is answered too.
    assert go_calls(
        peer,
        py_server.address,
        [
            {"language": PYTHON, "template": "exit", "timeout_ms": 30_000},
            {"language": PYTHON, "template": "interrupt", "timeout_ms": 30_000},
        ],
    ) == [
        {"code": "Internal", "message": 'generator for language "python" failed: SystemExit: 3'},
        {
            "code": "Internal",
            "message": 'generator for language "python" failed: KeyboardInterrupt',
        },
    ]


def test_go_client_go_server_generator_codes(peer: Path, go_server: tuple[Lines, str]) -> None:
    proc, address = go_server
    results = coded_results(peer, address, GO)
    for _ in range(len(PASSED) + 1):
        assert json.loads(proc.next())["event"] == "entered"
    assert results[:-1] == [
        {
            "code": go_name,
            "message": f"scripted {code}",
            **({"deadline": True} if code == "DEADLINE_EXCEEDED" else {}),
        }
        for code, go_name in PASSED.items()
    ]
    assert results[-1] == {
        "code": "Internal",
        "message": 'generator for language "go" failed: '
        "rpc error: code = Aborted desc = scripted ABORTED",
    }


@pytest.mark.parametrize("code", PASSED)
def test_python_client_go_server_generator_codes(go_server: tuple[Lines, str], code: str) -> None:
    proc, address = go_server
    with RemoteGenerator(address, "go") as gen, pytest.raises(RemoteError) as info:
        gen.generate(GenerateOptions(template_id=code))
    assert info.value.code is getattr(grpc.StatusCode, code)
    assert info.value.details == f"scripted {code}"
    assert events(proc, "entered") == [{"event": "entered", "template": code}]


def test_python_client_go_server_other_codes_are_internal(go_server: tuple[Lines, str]) -> None:
    proc, address = go_server
    with RemoteGenerator(address, "go") as gen, pytest.raises(RemoteError) as info:
        gen.generate(GenerateOptions(template_id="ABORTED"))
    assert info.value.code is grpc.StatusCode.INTERNAL
    assert info.value.details == (
        'generator for language "go" failed: rpc error: code = Aborted desc = scripted ABORTED'
    )
    events(proc, "entered")


def test_go_client_python_server_deadline_is_the_context_error(
    peer: Path, py_server: GeneratorServer
) -> None:
    """errors.Is(err, context.DeadlineExceeded) after the caller's deadline, and Canceled is not."""
    [result] = go_calls(
        peer, py_server.address, [{"language": PYTHON, "template": "wait", "timeout_ms": 200}]
    )
    assert result["code"] == "DeadlineExceeded"
    assert result["deadline"] is True
    assert "canceled" not in result


# --- server options, across languages ----------------------------------------------


class GoClient:
    """The Go peer's client, driven a request at a time."""

    def __init__(self, peer: Path, address: str) -> None:
        self.proc = subprocess.Popen(
            [str(peer), "call", address],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.lines = Lines(self.proc)

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.lines.next())
        return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)
        assert self.proc.returncode == 0


SERVING = health_pb2.HealthCheckResponse.ServingStatus.Name(health_pb2.HealthCheckResponse.SERVING)


def test_go_client_python_server_limit_and_default_timeout(peer: Path) -> None:
    """Two hung generator calls fill the Python server; the rest answers a Go client."""
    scripted = ScriptedGenerator(Language.PYTHON)
    registry = Registry()
    registry.register(scripted)
    srv = serve(registry, max_concurrent_calls=2, default_timeout=0.3)
    client = GoClient(peer, srv.address)
    try:
        # Deadlines of their own: the server's default would answer them at 0.3 s.
        hold = {"language": PYTHON, "template": "hold", "background": True, "timeout_ms": 30_000}
        for _ in range(2):
            assert client.ask(hold) == {"code": "STARTED"}
        for _ in range(2):
            assert scripted.entered.acquire(timeout=30)
        assert client.ask({"language": PYTHON, "template": "ok"}) == {
            "code": "ResourceExhausted",
            "message": "the server is running 2 generator calls, its limit; try again later",
        }
        assert client.ask({"op": "languages"}) == {"code": "OK", "languages": [PYTHON]}
        assert client.ask({"op": "health"}) == {"code": "OK", "health": SERVING}
        scripted.release.set()
        done = client.ask({"op": "wait"})
        assert [r["code"] for r in done["results"]] == ["OK", "OK"]
        # A call without a deadline gets the server's default.
        assert client.ask({"language": PYTHON, "template": "wait"}) == {
            "code": "DeadlineExceeded",
            "message": "context deadline exceeded",
            "deadline": True,
        }
        [remaining] = scripted.seen_remaining
        assert remaining is not None and 0 < remaining <= 0.3
        # Even from a generator that ignores its call, as the Go server answers.
        scripted.release.clear()
        assert client.ask({"language": PYTHON, "template": "hold"}) == {
            "code": "DeadlineExceeded",
            "message": "context deadline exceeded",
            "deadline": True,
        }
        assert srv.abandoned_calls == 1
    finally:
        scripted.release.set()
        client.close()
        srv.stop(None)


@pytest.fixture
def go_limited(peer: Path) -> Iterator[tuple[subprocess.Popen[str], Lines, str]]:
    """The Go server with WithMaxConcurrentCalls(2) and WithDefaultTimeout(300ms)."""
    proc = subprocess.Popen(
        [str(peer), "serve", "-max-concurrent-calls", "2", "-default-timeout", "300ms"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = Lines(proc)
        line = lines.next()
        assert line.startswith("listening on 127.0.0.1:"), line
        yield proc, lines, line.removeprefix("listening on ").strip()
    finally:
        assert proc.stdin is not None
        proc.stdin.close()  # releases "hold" calls, then stops gracefully
        proc.wait(timeout=60)
    assert proc.returncode == 0


def test_python_client_go_server_limit_and_default_timeout(
    go_limited: tuple[subprocess.Popen[str], Lines, str],
) -> None:
    """Two hung generator calls fill the Go server; the rest answers a Python client."""
    from concurrent.futures import ThreadPoolExecutor  # noqa: PLC0415

    proc, lines, address = go_limited
    with RemoteGenerator(address, "go") as gen, ThreadPoolExecutor(2) as pool:
        held = [pool.submit(gen.generate, GenerateOptions(template_id="hold")) for _ in range(2)]
        assert [json.loads(lines.next()) for _ in range(2)] == [
            {"event": "entered", "template": "hold"}
        ] * 2
        with pytest.raises(RemoteError) as info:
            gen.generate(GenerateOptions(template_id="ok"))
        assert info.value.code is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert info.value.details == (
            "the server is running 2 generator calls, its limit; try again later"
        )
        assert list_languages(address, timeout=10) == [Language.GO]
        with grpc.insecure_channel(address) as channel:
            check = channel.unary_unary(
                "/grpc.health.v1.Health/Check",
                request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
                response_deserializer=health_pb2.HealthCheckResponse.FromString,
            )
            reply = check(health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=10)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        assert proc.stdin is not None
        proc.stdin.write("release\n")
        proc.stdin.flush()
        assert [h.result(timeout=30).task_id for h in held] == ["scripted-go-hold"] * 2
    # A call without a deadline gets the server's default.
    with RemoteGenerator(address, "go", timeout=None) as gen, pytest.raises(RemoteError) as late:
        gen.generate(GenerateOptions(template_id="wait"))
    # In the same words as the Python server's default deadline.
    assert (late.value.code, late.value.details) == (
        grpc.StatusCode.DEADLINE_EXCEEDED,
        "context deadline exceeded",
    )
    *_, ended = events(lines, "ended")
    assert ended["deadline"] is True and ended["done"] is True and ended["remaining"] <= 0.3


def test_python_server_refuses_the_go_servers_port(go_server: tuple[Lines, str]) -> None:
    _, address = go_server
    with pytest.raises(RemoteError) as info:
        serve(Registry(), address)
    assert info.value.code is grpc.StatusCode.UNAVAILABLE
    assert info.value.details == (
        f"cannot listen on {address}: the address is already in use "
        "(is another server listening on it?)"
    )
    assert list_languages(address, timeout=10) == [Language.GO]


# --- problems and message sizes, in all four directions ----------------------------
#
# Each direction is checked on the same scripts: "invalid" (a spec that fails
# validation), "wrong-language", a request with no language (Go clients only:
# the Python client refuses to send one), "long" (a 5 MB prompt, more than
# gRPC's default message limit) and "huge" (a 20 MB prompt, over the
# document limit: TS107). The problems expected are the ones the Python
# library finds in the same spec here, so the Go server's and the Python
# server's are compared with each other too.


def problem_dicts(violations: list[Violation]) -> list[dict[str, Any]]:
    """*violations* as the Go peer reports a ValidationError's."""
    return [
        {
            "code": v.code,
            "field_path": v.field_path,
            "line": v.line,
            "column": v.column,
            "message": v.message,
            "hint": v.hint,
            "severity": v.severity,
        }
        for v in violations
    ]


def local_problems(language: Language, script: str, server: str) -> list[Violation]:
    """What taskspec.validate finds here in the spec *server*'s generator returns for *script*."""
    spec = scripted_spec(language, script, GO_TEST_CMD if server == "go" else ("pytest", "-q"))
    with pytest.raises(ValidationError) as info:
        taskspec.validate(spec)
    return info.value.violations


def wrong_language(got: str, asked: str) -> list[Violation]:
    return [
        Violation(
            "language", f'language "{got}" is not "{asked}", the language asked for', code="TS103"
        )
    ]


def expected(server: str) -> dict[str, tuple[str, str, list[Violation]]]:
    """For each script: the Python code name, message and problems *server* answers with."""
    language, other = (Language.GO, "python") if server == "go" else (Language.PYTHON, "go")
    who = f'generator for language "{language.value}"'
    huge = local_problems(language, "huge", server)
    return {
        "invalid": (
            "FAILED_PRECONDITION",
            f"{who} returned an invalid task spec: task_id: task_id is required; "
            "verification.test_cmd: verification.test_cmd is required",
            local_problems(language, "invalid", server),
        ),
        "wrong-language": (
            "FAILED_PRECONDITION",
            f'{who} returned a task spec for language "{other}", not "{language.value}"',
            wrong_language(other, language.value),
        ),
        "huge": (
            "FAILED_PRECONDITION",
            f"{who} returned an invalid task spec: {huge[0].message}",
            huge,
        ),
    }


GO_NAMES = {"FAILED_PRECONDITION": "FailedPrecondition", "INVALID_ARGUMENT": "InvalidArgument"}


def check_go_client(results: list[dict[str, Any]], server: str) -> None:
    """The Go client's results for PROBLEM_REQUESTS against *server*."""
    want = expected(server)
    language = "go" if server == "go" else "python"
    assert results[0] == {
        "code": "OK",
        "task_id": f"scripted-{language}-long",
        "template": "long",
        "prompt_bytes": LONG_PROMPT_BYTES,
    }
    for result, script in zip(results[1:4], ["invalid", "wrong-language", "huge"], strict=True):
        code, message, problems = want[script]
        assert result == {
            "code": GO_NAMES[code],
            "message": message,
            "problems": problem_dicts(problems),
        }, script
    huge = want["huge"][2]
    assert [v.code for v in huge] == ["TS107"]
    assert f"more than the limit of {MAX_DOCUMENT_BYTES}" in huge[0].message
    for result, message in zip(
        results[4:],
        ["language is required", "language 99 is not defined in taskspec.v1.Language"],
        strict=True,
    ):
        assert result == {
            "code": "InvalidArgument",
            "message": message,
            "problems": problem_dicts([Violation("language", message, code="TS103")]),
        }


def problem_requests(language: int) -> list[dict[str, Any]]:
    return [
        {"language": language, "template": "long", "timeout_ms": 60_000},
        {"language": language, "template": "invalid"},
        {"language": language, "template": "wrong-language"},
        {"language": language, "template": "huge", "timeout_ms": 60_000},
        # Through NewRemoteGenerator, which sends what it is given.
        {"language": 0},
        {"language": 99},
    ]


def test_go_client_python_server_problems_and_sizes(peer: Path, py_server: GeneratorServer) -> None:
    check_go_client(go_calls(peer, py_server.address, problem_requests(PYTHON)), "python")


def test_go_client_go_server_problems_and_sizes(peer: Path, go_server: tuple[Lines, str]) -> None:
    proc, address = go_server
    results = go_calls(peer, address, problem_requests(GO))
    assert [json.loads(proc.next())["template"] for _ in range(4)] == [
        "long",
        "invalid",
        "wrong-language",
        "huge",
    ]
    check_go_client(results, "go")


@pytest.mark.parametrize("server", ["python", "go"])
def test_python_client_problems_and_sizes(
    server: str, py_server: GeneratorServer, go_server: tuple[Lines, str]
) -> None:
    proc, go_address = go_server
    address, language = (go_address, "go") if server == "go" else (py_server.address, "python")
    with RemoteGenerator(address, language, timeout=60) as gen:
        spec = gen.generate(GenerateOptions(template_id="long"))
        assert len(spec.prompt) == LONG_PROMPT_BYTES
        assert spec.task_id == f"scripted-{language}-long"
        for script, (code, message, problems) in expected(server).items():
            with pytest.raises(ValidationError) as info:
                gen.generate(GenerateOptions(template_id=script))
            err = info.value
            assert isinstance(err, RemoteValidationError), script
            assert (err.code.name, err.details, err.violations) == (code, message, problems)
    if server == "go":
        assert [json.loads(proc.next())["template"] for _ in range(4)] == [
            "long",
            "invalid",
            "wrong-language",
            "huge",
        ]
    assert len(scripted_spec(Language.GO, "huge").prompt) == HUGE_PROMPT_BYTES
