"""taskspec.remote: a Python client calling a Python GeneratorService, on loopback.

Every status code of the contract is provoked here through the scripted
generator of tests/remoteutil.py; tests/test_remote_go.py does the same
across languages.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import CancelledError, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import status_pb2
from grpc_health.v1 import health_pb2

import taskspec
from taskspec import (
    GenerateOptions,
    Generator,
    Language,
    Registry,
    TaskSpecError,
    ValidationError,
    Violation,
)
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec._remote_server import EXIT_GRACE
from taskspec.remote import (
    DEFAULT_MAX_CONCURRENT_CALLS,
    DEFAULT_TIMEOUT,
    MAX_MESSAGE_BYTES,
    SERVICE_NAME,
    GeneratorError,
    GeneratorServer,
    RemoteError,
    RemoteGenerator,
    RemoteValidationError,
    list_languages,
    serve,
)
from taskspec.v1 import generator_service_pb2 as service_pb2
from taskspec.v1 import generator_service_pb2_grpc as service_grpc
from taskspec.v1 import problems_pb2, taskspec_pb2
from tests.remoteutil import (
    LONG_PROMPT_BYTES,
    ScriptedGenerator,
    scripted_spec,
    table_status,
    valid_spec,
)

#: How far grpc's rounding of a deadline (sent as a timeout) may move it, in seconds.
ROUNDING = 0.25


@pytest.fixture
def scripted() -> ScriptedGenerator:
    return ScriptedGenerator(Language.PYTHON)


@pytest.fixture
def server(scripted: ScriptedGenerator) -> Iterator[GeneratorServer]:
    registry = Registry()
    registry.register(scripted)
    srv = serve(registry)
    try:
        yield srv
    finally:
        scripted.release.set()
        srv.stop(None)


@pytest.fixture
def remote(server: GeneratorServer) -> Iterator[RemoteGenerator]:
    with RemoteGenerator(server.address, Language.PYTHON) as gen:
        yield gen


def _generate_against(
    servicer: Any, opts: GenerateOptions | None = None
) -> pytest.ExceptionInfo[RemoteError]:
    """Call Generate through RemoteGenerator on a raw gRPC server with *servicer*."""
    raw = grpc.server(ThreadPoolExecutor(max_workers=2))
    service_grpc.add_GeneratorServiceServicer_to_server(servicer, raw)
    port = raw.add_insecure_port("127.0.0.1:0")
    raw.start()
    try:
        with (
            RemoteGenerator(f"127.0.0.1:{port}", "python") as gen,
            pytest.raises(RemoteError) as info,
        ):
            gen.generate(opts if opts is not None else GenerateOptions())
    finally:
        raw.stop(None).wait()
    return info


def raw_generate(server: GeneratorServer, language: int) -> grpc.RpcError:
    """Call Generate with any language number, bypassing RemoteGenerator's checks."""
    with grpc.insecure_channel(server.address) as channel:
        stub = service_grpc.GeneratorServiceStub(channel)
        request = service_pb2.GenerateRequest(options=GenerateOptions(template_id="ok"))
        request.language = language  # type: ignore[assignment]
        with pytest.raises(grpc.RpcError) as info:
            stub.Generate(request, timeout=30)
    return info.value


def test_import_taskspec_never_imports_grpc() -> None:
    code = (
        "import sys, taskspec, taskspec.cli._main\n"
        "taskspec.cli._main._parser()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('grpc', 'grpc_health')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    assert out == "[]\n"


def test_generate_round_trip(server: GeneratorServer, remote: RemoteGenerator) -> None:
    assert server.port > 0 and server.address == f"127.0.0.1:{server.port}"
    spec = remote.generate(
        GenerateOptions(template_id="t-7", difficulty=taskspec_pb2.DIFFICULTY_MEDIUM)
    )
    assert spec == valid_spec(Language.PYTHON, "t-7")
    taskspec.validate(spec)


def test_remote_generator_is_a_generator_in_a_local_registry(remote: RemoteGenerator) -> None:
    assert isinstance(remote, Generator)
    local = Registry()
    local.register(remote)
    assert local.languages() == [Language.PYTHON]
    found = local.lookup("python")
    assert found is remote
    assert found.generate(GenerateOptions()).task_id == "scripted-python-ok"


def test_list_languages(scripted: ScriptedGenerator) -> None:
    registry = Registry()
    registry.register(ScriptedGenerator(Language.TYPESCRIPT))
    registry.register(scripted)
    registry.register(ScriptedGenerator(Language.GO))
    with serve(registry) as srv:
        assert list_languages(srv.address) == [Language.GO, Language.PYTHON, Language.TYPESCRIPT]
    with serve(Registry()) as empty:
        assert list_languages(empty.address) == []


def test_not_found(server: GeneratorServer) -> None:
    with (
        RemoteGenerator(server.address, "go") as gen,
        pytest.raises(RemoteError) as info,
    ):
        gen.generate(GenerateOptions())
    assert info.value.code is grpc.StatusCode.NOT_FOUND
    assert info.value.details == 'no generator for language "go"'
    assert isinstance(info.value, TaskSpecError)


@pytest.mark.parametrize(
    ("number", "details"),
    [
        (taskspec_pb2.LANGUAGE_UNSPECIFIED, "language is required"),
        (99, "language 99 is not defined in taskspec.v1.Language"),
    ],
)
def test_invalid_argument(server: GeneratorServer, number: int, details: str) -> None:
    err = raw_generate(server, number)
    assert isinstance(err, grpc.Call)
    assert err.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert err.details() == details
    # The problem travels in the standard trailer, as a google.rpc.Status
    # with the call's code and message whose one detail is the problems.
    [raw] = [v for k, v in err.trailing_metadata() or () if k == "grpc-status-details-bin"]
    assert isinstance(raw, bytes)
    rpc_status = status_pb2.Status.FromString(raw)
    assert (rpc_status.code, rpc_status.message) == (
        grpc.StatusCode.INVALID_ARGUMENT.value[0],
        details,
    )
    [detail] = rpc_status.details
    problems = problems_pb2.Problems()
    assert detail.Unpack(problems)
    assert [Violation.from_proto(p) for p in problems.problems] == [
        Violation("language", details, code="TS103")
    ]


def test_generator_exception_is_internal_without_traceback(
    remote: RemoteGenerator, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        caplog.at_level(logging.ERROR, logger="taskspec.remote"),
        pytest.raises(RemoteError) as info,
    ):
        remote.generate(GenerateOptions(template_id="fail"))
    assert info.value.code is grpc.StatusCode.INTERNAL
    assert info.value.details == (
        'generator for language "python" failed: ValueError: scripted failure'
    )
    assert "Traceback" not in str(info.value) and "remoteutil" not in str(info.value)
    # The server's operators get the traceback.
    [record] = caplog.records
    assert record.exc_info is not None and str(record.exc_info[1]) == "scripted failure"


def _local_problems(spec: taskspec_pb2.TaskSpec) -> list[Violation]:
    """The problems taskspec.validate finds in *spec* here."""
    with pytest.raises(ValidationError) as info:
        taskspec.validate(spec)
    return info.value.violations


@pytest.mark.parametrize(
    ("script", "details", "problems"),
    [
        (
            "invalid",
            'generator for language "python" returned an invalid task spec: '
            "task_id: task_id is required; verification.test_cmd: verification.test_cmd is "
            "required",
            _local_problems(scripted_spec(Language.PYTHON, "invalid")),
        ),
        (
            "wrong-language",
            'generator for language "python" returned a task spec for language "go", not "python"',
            [
                Violation(
                    "language",
                    'language "go" is not "python", the language asked for',
                    code="TS103",
                )
            ],
        ),
    ],
)
def test_a_spec_that_breaks_the_contract_is_a_failed_precondition_with_its_problems(
    remote: RemoteGenerator, script: str, details: str, problems: list[Violation]
) -> None:
    with pytest.raises(ValidationError) as info:
        remote.generate(GenerateOptions(template_id=script))
    err = info.value
    assert isinstance(err, RemoteValidationError) and isinstance(err, RemoteError)
    assert err.code is grpc.StatusCode.FAILED_PRECONDITION
    assert err.details == details
    assert str(err) == f"FAILED_PRECONDITION: {details}"
    assert err.violations == problems
    assert len(problems) == (2 if script == "invalid" else 1)
    assert [v.code for v in problems] == (["TS101", "TS102"] if script == "invalid" else ["TS103"])


def test_a_generator_that_returns_no_spec_is_internal(remote: RemoteGenerator) -> None:
    with pytest.raises(RemoteError) as info:
        remote.generate(GenerateOptions(template_id="not-a-spec"))
    assert not isinstance(info.value, ValidationError)
    assert info.value.code is grpc.StatusCode.INTERNAL
    assert info.value.details == (
        'generator for language "python" returned str, not a taskspec.v1.TaskSpec'
    )


def test_a_spec_over_4_mib_crosses_and_one_over_the_limit_is_refused(
    remote: RemoteGenerator,
) -> None:
    spec = remote.generate(GenerateOptions(template_id="long"))
    assert spec == scripted_spec(Language.PYTHON, "long")
    assert len(spec.prompt) == LONG_PROMPT_BYTES > 4 << 20
    with pytest.raises(RemoteValidationError) as info:
        remote.generate(GenerateOptions(template_id="huge"))
    assert info.value.code is grpc.StatusCode.FAILED_PRECONDITION
    [problem] = info.value.violations
    assert info.value.violations == _local_problems(scripted_spec(Language.PYTHON, "huge"))
    assert problem.code == "TS107"
    assert f"more than the limit of {MAX_DOCUMENT_BYTES}" in info.value.details
    assert info.value.details == (
        f'generator for language "python" returned an invalid task spec: {problem.message}'
    )


def test_a_message_over_the_limit_is_no_retry() -> None:
    """gRPC's own RESOURCE_EXHAUSTED for a message too large would invite a retry."""

    class Oversized:
        def Generate(  # noqa: N802
            self, request: service_pb2.GenerateRequest, context: grpc.ServicerContext
        ) -> service_pb2.GenerateResponse:
            return service_pb2.GenerateResponse(task_spec=scripted_spec(Language.PYTHON, "huge"))

        def ListLanguages(  # noqa: N802
            self, request: service_pb2.ListLanguagesRequest, context: grpc.ServicerContext
        ) -> service_pb2.ListLanguagesResponse:
            return service_pb2.ListLanguagesResponse()

    limit = (
        f"over the limit of {MAX_MESSAGE_BYTES} bytes "
        f"(the task spec document limit of {MAX_DOCUMENT_BYTES} bytes plus 64 KiB)"
    )
    assert MAX_MESSAGE_BYTES == MAX_DOCUMENT_BYTES + 65536
    # Received: the server sent more than the contract allows.
    info = _generate_against(Oversized())
    assert info.value.code is grpc.StatusCode.FAILED_PRECONDITION
    assert info.value.details.startswith("a message of 2000")
    assert info.value.details.endswith(limit)
    # Sent: the request would be over the limit.
    info = _generate_against(Oversized(), GenerateOptions(template_id="x" * MAX_MESSAGE_BYTES))
    assert info.value.code is grpc.StatusCode.FAILED_PRECONDITION
    assert info.value.details.startswith(f"a message of {MAX_MESSAGE_BYTES + 12} bytes")
    assert info.value.details.endswith(limit)


def test_problems_are_passed_on_through_a_chain(scripted: ScriptedGenerator) -> None:
    """A RemoteValidationError a generator lets through keeps its code and its problems."""
    back = Registry()
    back.register(scripted)

    class Front:
        language = Language.GO

        def __init__(self, target: str) -> None:
            self.remote = RemoteGenerator(target, "python")

        def generate(self, opts: GenerateOptions) -> taskspec_pb2.TaskSpec:
            return self.remote.generate(opts)

    with serve(back) as back_srv:
        front = Registry()
        front.register(Front(back_srv.address))
        with (
            serve(front) as front_srv,
            RemoteGenerator(front_srv.address, "go") as gen,
            pytest.raises(RemoteValidationError) as info,
        ):
            gen.generate(GenerateOptions(template_id="invalid"))
    assert info.value.code is grpc.StatusCode.FAILED_PRECONDITION
    assert info.value.details.startswith('generator for language "python" returned an invalid')
    assert info.value.violations == _local_problems(scripted_spec(Language.PYTHON, "invalid"))


def test_the_problems_of_one_status_are_bounded() -> None:
    """Trailers stay within a C-core client's 8 KiB; the Go server keeps the same bound."""
    from taskspec._remote_status import _bounded, _listed  # noqa: PLC0415 - the private helpers

    many = [Violation(f"f{i}", "é" * 600, code="TS101") for i in range(40)]
    kept, left = _bounded(many)
    # Each message is cut to 512 bytes at a character's start (256 "é"), and
    # the encoded problems stay within 2048 bytes: three of them.
    assert [len(v.message) for v in kept] == [256, 256, 256]
    assert (len(kept), left) == (3, 37)
    assert problems_pb2.Problems(problems=[v.to_proto() for v in kept]).ByteSize() <= 2048
    assert _listed(kept, left).endswith("é (and 37 more problems)")
    assert _bounded(many[:1]) == (kept[:1], 0)
    assert _listed(kept[:1], 1).endswith("é (and 1 more problem)")


def test_deadline_reaches_the_generator(
    server: GeneratorServer, scripted: ScriptedGenerator
) -> None:
    with (
        RemoteGenerator(server.address, "python", timeout=0.5) as gen,
        pytest.raises(RemoteError) as info,
    ):
        gen.generate(GenerateOptions(template_id="wait"))
    assert info.value.code is grpc.StatusCode.DEADLINE_EXCEEDED
    # The generator saw a deadline no later than the client's, and was told
    # when it passed (rather than waiting out its own bound).
    assert scripted.entered.acquire(timeout=30)
    server.stop(30)
    assert scripted.waited.wait(30)  # the generator has recorded what it saw
    [remaining] = scripted.seen_remaining
    # grpc sends the deadline as a rounded-up timeout: allow for the rounding.
    assert remaining is not None and 0 <= remaining <= 0.5 + ROUNDING
    assert scripted.seen_ended == [True]


def test_no_deadline_is_none(server: GeneratorServer, scripted: ScriptedGenerator) -> None:
    with grpc.insecure_channel(server.address) as channel:
        stub = service_grpc.GeneratorServiceStub(channel)
        future = stub.Generate.future(
            service_pb2.GenerateRequest(
                language=taskspec_pb2.LANGUAGE_PYTHON,
                options=GenerateOptions(template_id="wait"),
            )
        )
        assert scripted.entered.acquire(timeout=30)
        future.cancel()
        server.stop(30)
    assert future.cancelled()
    assert scripted.waited.wait(30)  # the generator has recorded what it saw
    assert scripted.seen_remaining == [None]
    assert scripted.seen_ended == [True]  # the cancellation reached the generator


def test_deadline_is_passed_on_through_a_chain(scripted: ScriptedGenerator) -> None:
    """A remote generator called while serving inherits the served call's deadline."""
    back = Registry()
    back.register(scripted)

    class Front:
        language = Language.GO

        def __init__(self, target: str) -> None:
            self.remote = RemoteGenerator(target, "python")

        def generate(self, opts: GenerateOptions) -> taskspec_pb2.TaskSpec:
            self.remote.generate(opts)  # raises: the deadline passes
            raise AssertionError("unreachable")

    with serve(back) as back_srv:
        front = Registry()
        front.register(Front(back_srv.address))
        with serve(front) as front_srv, RemoteGenerator(front_srv.address, "go", timeout=1) as gen:
            with pytest.raises(RemoteError) as info:
                gen.generate(GenerateOptions(template_id="wait"))
            assert info.value.code is grpc.StatusCode.DEADLINE_EXCEEDED
            front_srv.stop(30)
        back_srv.stop(30)
    # The front generator's RemoteGenerator has no timeout of its own: the
    # deadline it passed on is the served call's (1 s, rounded up by grpc).
    assert scripted.waited.wait(30)  # the generator has recorded what it saw
    seen = (scripted.seen_remaining, scripted.seen_ended)
    [remaining] = scripted.seen_remaining
    assert remaining is not None and remaining <= 1 + ROUNDING, seen
    assert scripted.seen_ended == [True], seen


def test_connection_failure_is_unavailable() -> None:
    srv = serve(Registry())
    address = srv.address
    srv.stop(None)  # nothing listens on the port any more
    with RemoteGenerator(address, "python") as gen, pytest.raises(RemoteError) as info:
        gen.generate(GenerateOptions())
    assert info.value.code is grpc.StatusCode.UNAVAILABLE
    assert address in info.value.details
    with pytest.raises(RemoteError) as listed:
        list_languages(address)
    assert listed.value.code is grpc.StatusCode.UNAVAILABLE


def test_client_validates_what_a_server_returns() -> None:
    """A server that breaks the contract cannot get an invalid spec past the client."""

    class Careless:
        def Generate(  # noqa: N802
            self, request: service_pb2.GenerateRequest, context: grpc.ServicerContext
        ) -> service_pb2.GenerateResponse:
            spec = valid_spec(Language.PYTHON, "x")
            spec.prompt = ""
            return service_pb2.GenerateResponse(task_spec=spec)

        def ListLanguages(  # noqa: N802
            self, request: service_pb2.ListLanguagesRequest, context: grpc.ServicerContext
        ) -> service_pb2.ListLanguagesResponse:
            return service_pb2.ListLanguagesResponse()

    info = _generate_against(Careless())
    assert isinstance(info.value, RemoteValidationError)
    assert info.value.code is grpc.StatusCode.FAILED_PRECONDITION
    assert info.value.details.endswith("returned an invalid task spec: prompt: prompt is required")
    assert info.value.violations == [Violation("prompt", "prompt is required", code="TS101")]


def test_health_service(server: GeneratorServer) -> None:
    with grpc.insecure_channel(server.address) as channel:
        check = channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        for name in ("", SERVICE_NAME):
            reply = check(health_pb2.HealthCheckRequest(service=name), timeout=30)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        with pytest.raises(grpc.RpcError) as info:
            check(health_pb2.HealthCheckRequest(service="other.Service"), timeout=30)
        assert isinstance(info.value, grpc.Call)
        assert info.value.code() is grpc.StatusCode.NOT_FOUND


def test_64_concurrent_calls(remote: RemoteGenerator) -> None:
    with ThreadPoolExecutor(max_workers=64) as pool:
        specs = list(
            pool.map(lambda i: remote.generate(GenerateOptions(template_id=f"c{i}")), range(64))
        )
    assert [s.generated_from.template_id for s in specs] == [f"c{i}" for i in range(64)]


def test_stop_lets_calls_in_flight_finish(
    server: GeneratorServer, scripted: ScriptedGenerator, remote: RemoteGenerator
) -> None:
    with ThreadPoolExecutor(max_workers=4) as pool:
        calls = [
            pool.submit(remote.generate, GenerateOptions(template_id="hold")) for _ in range(4)
        ]
        for _ in calls:
            assert scripted.entered.acquire(timeout=30)
        stopper = threading.Thread(target=server.stop, args=(60,))
        stopper.start()
        # Once stopping, the server takes no new call...
        with pytest.raises(RemoteError) as refused:
            for _ in range(1000):  # bounded: until the stop has begun
                remote.generate(GenerateOptions(template_id="ok"))
        # (refused before the call starts, or cancelled as it arrives)
        assert refused.value.code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED)
        # ...and the calls in flight finish within the grace period.
        scripted.release.set()
        assert [c.result(timeout=30).generated_from.template_id for c in calls] == ["hold"] * 4
        stopper.join(timeout=60)
        assert not stopper.is_alive()


def test_stop_without_grace_cancels_calls_in_flight(
    server: GeneratorServer, scripted: ScriptedGenerator, remote: RemoteGenerator
) -> None:
    with ThreadPoolExecutor(max_workers=1) as pool:
        call = pool.submit(remote.generate, GenerateOptions(template_id="wait"))
        assert scripted.entered.acquire(timeout=30)
        server.stop(None)
        with pytest.raises(RemoteError) as info:
            call.result(timeout=30)
    assert info.value.code is grpc.StatusCode.UNAVAILABLE
    assert scripted.waited.wait(30)  # the generator has recorded what it saw
    assert scripted.seen_ended == [True]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"language": "cobol"}, 'remote generator for invalid language "cobol"'),
        ({"language": "go", "timeout": 0}, "timeout must be a positive number of seconds, got 0"),
    ],
)
def test_remote_generator_rejects_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(TaskSpecError, match=f"^{message}$"):
        RemoteGenerator("127.0.0.1:1", **kwargs)  # type: ignore[arg-type]


def test_generate_rejects_wrong_options(remote: RemoteGenerator) -> None:
    with pytest.raises(
        TaskSpecError, match=r"^expected a taskspec\.v1\.GenerateOptions, got dict$"
    ):
        remote.generate({})  # type: ignore[arg-type]


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.1:70000", ":0", "127.0.0.1:x"])
def test_serve_rejects_bad_addresses(address: str) -> None:
    with pytest.raises(TaskSpecError, match="address must be HOST:PORT"):
        serve(Registry(), address)


def test_serve_reports_an_address_it_cannot_listen_on() -> None:
    with pytest.raises(RemoteError) as info:
        serve(Registry(), "256.0.0.1:0")
    assert info.value.code is grpc.StatusCode.UNAVAILABLE
    assert info.value.details.startswith("cannot listen on 256.0.0.1:0")


# --- a generator's own status code, and failures that are not exceptions -------

PASSED = [
    "NOT_FOUND",
    "INVALID_ARGUMENT",
    "FAILED_PRECONDITION",
    "UNAVAILABLE",
    "DEADLINE_EXCEEDED",
]


def logged(name: str) -> tuple[logging.Logger, list[logging.LogRecord]]:
    """A logger for serve(logger=...) that keeps its records, and the records."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger(f"tests.remote.{name}")
    logger.propagate = False
    logger.handlers[:] = [Keep()]
    logger.setLevel(logging.DEBUG)
    return logger, records


@pytest.mark.parametrize("code", PASSED)
def test_a_generators_status_code_reaches_the_caller(
    scripted: ScriptedGenerator, code: str
) -> None:
    logger, records = logged("codes")
    registry = Registry()
    registry.register(scripted)
    with (
        serve(registry, logger=logger) as srv,
        RemoteGenerator(srv.address, "python") as gen,
        pytest.raises(RemoteError) as info,
    ):
        gen.generate(GenerateOptions(template_id=code))
    assert info.value.code is getattr(grpc.StatusCode, code)
    assert info.value.details == f"scripted {code}"
    # Logged to the server's logger at INFO: the generator answered, with a
    # code of its own; nothing went wrong in the server.
    [record] = records
    assert record.levelno == logging.INFO
    assert record.getMessage() == (
        f'generator for language "python" refused the call: {code}: scripted {code}'
    )


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        ("ABORTED", "GeneratorError: ABORTED: scripted ABORTED"),
        ("RESOURCE_EXHAUSTED", "GeneratorError: RESOURCE_EXHAUSTED: scripted RESOURCE_EXHAUSTED"),
        ("exit", "SystemExit: 3"),
        ("interrupt", "KeyboardInterrupt"),
    ],
)
def test_any_other_failure_is_internal_and_logged(
    scripted: ScriptedGenerator, script: str, reason: str
) -> None:
    """Every call is answered: SystemExit and KeyboardInterrupt used to leave it open."""
    logger, records = logged("internal")
    registry = Registry()
    registry.register(scripted)
    with (
        serve(registry, logger=logger) as srv,
        RemoteGenerator(srv.address, "python", timeout=10) as gen,
    ):
        with pytest.raises(RemoteError) as info:
            gen.generate(GenerateOptions(template_id=script))
        assert info.value.code is grpc.StatusCode.INTERNAL
        assert info.value.details == f'generator for language "python" failed: {reason}'
        # The server still serves.
        assert gen.generate(GenerateOptions(template_id="ok")).task_id == "scripted-python-ok"
    [record] = records
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert record.getMessage() == 'generator for language "python" failed'


def test_generator_error_needs_a_status_code() -> None:
    with pytest.raises(TypeError, match=r"^code must be a grpc\.StatusCode, got str$"):
        GeneratorError("NOT_FOUND", "no template")  # type: ignore[arg-type]
    err = GeneratorError(grpc.StatusCode.NOT_FOUND, "no template")
    assert (err.code, err.message, str(err)) == (
        grpc.StatusCode.NOT_FOUND,
        "no template",
        "NOT_FOUND: no template",
    )
    assert isinstance(err, TaskSpecError)


def test_a_status_code_is_passed_on_through_a_chain(scripted: ScriptedGenerator) -> None:
    """A RemoteError a generator lets through keeps its code, as a Go status error does."""
    back = Registry()
    back.register(scripted)

    class Front:
        language = Language.GO

        def __init__(self, target: str) -> None:
            self.remote = RemoteGenerator(target, "python")

        def generate(self, opts: GenerateOptions) -> taskspec_pb2.TaskSpec:
            return self.remote.generate(opts)

    with serve(back) as back_srv:
        front = Registry()
        front.register(Front(back_srv.address))
        with (
            serve(front) as front_srv,
            RemoteGenerator(front_srv.address, "go") as gen,
            pytest.raises(RemoteError) as info,
        ):
            gen.generate(GenerateOptions(template_id="UNAVAILABLE"))
    assert (info.value.code, info.value.details) == (
        grpc.StatusCode.UNAVAILABLE,
        "scripted UNAVAILABLE",
    )


def test_remote_error_keeps_the_trailing_metadata() -> None:
    class Detailed:
        def Generate(  # noqa: N802
            self, request: service_pb2.GenerateRequest, context: grpc.ServicerContext
        ) -> service_pb2.GenerateResponse:
            context.set_trailing_metadata((("why-bin", b"\x01\x02"),))
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, "not yet")

        def ListLanguages(  # noqa: N802
            self, request: service_pb2.ListLanguagesRequest, context: grpc.ServicerContext
        ) -> service_pb2.ListLanguagesResponse:
            return service_pb2.ListLanguagesResponse()

    info = _generate_against(Detailed())
    assert (info.value.code, info.value.details) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "not yet",
    )
    assert ("why-bin", b"\x01\x02") in info.value.trailing_metadata
    assert isinstance(info.value.__cause__, grpc.RpcError)


# --- server options ---------------------------------------------------------------


def health_check(address: str) -> int:
    with grpc.insecure_channel(address) as channel:
        check = channel.unary_unary(
            "/grpc.health.v1.Health/Check",
            request_serializer=health_pb2.HealthCheckRequest.SerializeToString,
            response_deserializer=health_pb2.HealthCheckResponse.FromString,
        )
        reply = check(health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=10)
    return int(reply.status)


@pytest.mark.parametrize("limit", [2, DEFAULT_MAX_CONCURRENT_CALLS])
def test_calls_beyond_the_limit_are_refused_and_the_rest_answers(
    scripted: ScriptedGenerator, limit: int
) -> None:
    """Generators that ignore cancellation hold their calls; health and ListLanguages answer."""
    registry = Registry()
    registry.register(scripted)
    options = {} if limit == DEFAULT_MAX_CONCURRENT_CALLS else {"max_concurrent_calls": limit}
    srv = serve(registry, **options)  # type: ignore[arg-type]
    try:
        with (
            RemoteGenerator(srv.address, "python", timeout=60) as gen,
            ThreadPoolExecutor(max_workers=limit) as pool,
        ):
            held = [
                pool.submit(gen.generate, GenerateOptions(template_id="hold")) for _ in range(limit)
            ]
            for _ in held:
                assert scripted.entered.acquire(timeout=30)
            with pytest.raises(RemoteError) as info:
                gen.generate(GenerateOptions(template_id="ok"))
            assert info.value.code is grpc.StatusCode.RESOURCE_EXHAUSTED
            assert (info.value.code.name, info.value.details) == _status(
                "too many calls", limit=limit
            )
            assert list_languages(srv.address, timeout=10) == [Language.PYTHON]
            assert health_check(srv.address) == health_pb2.HealthCheckResponse.SERVING
            scripted.release.set()
            assert [h.result(timeout=30).task_id for h in held] == ["scripted-python-hold"] * limit
            # Once they are done, calls are taken again.
            assert gen.generate(GenerateOptions(template_id="ok")).task_id == "scripted-python-ok"
    finally:
        scripted.release.set()
        srv.stop(None)


def test_a_default_timeout_bounds_a_call_without_a_deadline(scripted: ScriptedGenerator) -> None:
    registry = Registry()
    registry.register(scripted)
    with (
        serve(registry, default_timeout=0.3) as srv,
        RemoteGenerator(srv.address, "python", timeout=None) as gen,
    ):
        with pytest.raises(RemoteError) as info:
            gen.generate(GenerateOptions(template_id="wait"))
        assert (info.value.code, info.value.details) == (
            grpc.StatusCode.DEADLINE_EXCEEDED,
            "context deadline exceeded",
        )
        assert scripted.waited.wait(30)  # the generator has recorded what it saw
        [remaining] = scripted.seen_remaining
        assert remaining is not None and 0 < remaining <= 0.3
        assert scripted.seen_ended == [True]
        # A caller's own deadline is kept, even a later one.
        with RemoteGenerator(srv.address, "python", timeout=30) as patient:
            patient.generate(GenerateOptions(template_id="deadline"))
        assert scripted.seen_remaining[-1] is not None and scripted.seen_remaining[-1] > 20


def test_a_call_without_a_deadline_is_answered_at_the_default_timeout(
    scripted: ScriptedGenerator,
) -> None:
    """Even from a generator that ignores its call, as the Go server answers."""
    registry = Registry()
    registry.register(scripted)
    logger, records = logged("default-timeout")
    srv = serve(registry, default_timeout=0.5, logger=logger)
    try:
        with RemoteGenerator(srv.address, "python", timeout=None) as gen:
            started = time.monotonic()
            with pytest.raises(RemoteError) as info:
                gen.generate(GenerateOptions(template_id="hold"))
            took = time.monotonic() - started
        assert (info.value.code, info.value.details) == (
            grpc.StatusCode.DEADLINE_EXCEEDED,
            "context deadline exceeded",
        )
        assert 0.5 <= took < 0.5 + 1
        assert srv.abandoned_calls == 1
        assert [r.getMessage() for r in records] == [
            'generator for language "python" is still running after its call was answered '
            "DEADLINE_EXCEEDED (its deadline passed); it is abandoned, 1 of at most 64"
        ]
        assert records[0].levelno == logging.WARNING
        # Once it returns, it is no longer counted, and its return is logged.
        scripted.release.set()
        assert _eventually(lambda: srv.abandoned_calls == 0)
        assert _eventually(lambda: len(records) == 2)
        assert records[1].getMessage().startswith(
            'generator for language "python" returned '
        ) and records[1].getMessage().endswith(
            " s after its call was answered; what it returned is dropped "
            "(0 abandoned still running)"
        )
    finally:
        scripted.release.set()
        srv.stop(None)


def _eventually(check: Callable[[], bool], bound: float = 30) -> bool:
    """Whether *check* holds within *bound* seconds (polled)."""
    end = time.monotonic() + bound
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def test_generators_run_in_daemon_threads_kept_for_the_next_call() -> None:
    """Not in gRPC's workers, which the interpreter joins at exit; reused, not started anew."""
    seen: list[threading.Thread] = []

    class Where:
        language = Language.PYTHON

        def generate(self, opts: GenerateOptions) -> taskspec.TaskSpec:
            seen.append(threading.current_thread())
            return valid_spec(Language.PYTHON, opts.template_id)

    registry = Registry()
    registry.register(Where())
    with serve(registry) as srv, RemoteGenerator(srv.address, "python", timeout=30) as gen:
        for _ in range(3):
            gen.generate(GenerateOptions(template_id="ok"))
    first = seen[0]
    assert seen == [first] * 3
    assert first.daemon
    assert first.name == "taskspec-generate"


def test_a_call_answered_at_its_deadline_frees_its_slot(scripted: ScriptedGenerator) -> None:
    """Two generators that run past their calls' deadlines do not block a third call."""
    registry = Registry()
    registry.register(scripted)
    srv = serve(registry, max_concurrent_calls=2)
    try:
        with (
            RemoteGenerator(srv.address, "python", timeout=0.5) as hurried,
            ThreadPoolExecutor(max_workers=2) as pool,
        ):
            hung = [
                pool.submit(hurried.generate, GenerateOptions(template_id="hold")) for _ in range(2)
            ]
            for _ in hung:
                assert scripted.entered.acquire(timeout=30)
            for call in hung:
                with pytest.raises(RemoteError) as info:
                    call.result(timeout=30)
                assert info.value.code is grpc.StatusCode.DEADLINE_EXCEEDED
        assert _eventually(lambda: srv.abandoned_calls == 2)
        # Both generators still run, ignoring their calls; a third call runs.
        assert not scripted.release.is_set()
        with RemoteGenerator(srv.address, "python", timeout=30) as gen:
            assert gen.generate(GenerateOptions(template_id="ok")).task_id == "scripted-python-ok"
    finally:
        scripted.release.set()
        srv.stop(None)


def test_generators_left_running_are_bounded(scripted: ScriptedGenerator) -> None:
    """Past max_abandoned_calls of them, new calls are refused until one returns."""
    registry = Registry()
    registry.register(scripted)
    srv = serve(registry, max_concurrent_calls=2, max_abandoned_calls=1)
    try:
        with RemoteGenerator(srv.address, "python", timeout=0.5) as hurried:
            with pytest.raises(RemoteError) as late:
                hurried.generate(GenerateOptions(template_id="hold"))
            assert late.value.code is grpc.StatusCode.DEADLINE_EXCEEDED
            # (the caller's clock may end the call a moment before the server's)
            assert _eventually(lambda: srv.abandoned_calls == 1)
            with pytest.raises(RemoteError) as info:
                hurried.generate(GenerateOptions(template_id="ok"))
            assert (info.value.code.name, info.value.details) == _status(
                "too many abandoned calls", limit=1
            )
            # The rest answers, and once the generator returns, calls are taken again.
            assert list_languages(srv.address, timeout=10) == [Language.PYTHON]
            assert health_check(srv.address) == health_pb2.HealthCheckResponse.SERVING
            scripted.release.set()
            assert _eventually(lambda: srv.abandoned_calls == 0)
            assert hurried.generate(GenerateOptions(template_id="ok")).task_id == (
                "scripted-python-ok"
            )
    finally:
        scripted.release.set()
        srv.stop(None)


def test_a_cancelled_call_frees_its_slot(scripted: ScriptedGenerator) -> None:
    registry = Registry()
    registry.register(scripted)
    logger, records = logged("cancelled")
    srv = serve(registry, max_concurrent_calls=1, logger=logger)
    try:
        with grpc.insecure_channel(srv.address) as channel:
            stub = service_grpc.GeneratorServiceStub(channel)
            future = stub.Generate.future(
                service_pb2.GenerateRequest(
                    language=taskspec_pb2.LANGUAGE_PYTHON,
                    options=GenerateOptions(template_id="hold"),
                )
            )
            assert scripted.entered.acquire(timeout=30)
            future.cancel()
        assert _eventually(lambda: srv.abandoned_calls == 1)
        assert "answered CANCELLED (its caller gave up)" in records[0].getMessage()
        with RemoteGenerator(srv.address, "python", timeout=30) as gen:
            assert gen.generate(GenerateOptions(template_id="ok")).task_id == "scripted-python-ok"
    finally:
        scripted.release.set()
        srv.stop(None)


def test_stop_answers_a_hung_call_unavailable_after_the_grace_period(
    scripted: ScriptedGenerator,
) -> None:
    registry = Registry()
    registry.register(scripted)
    logger, records = logged("stop")
    srv = serve(registry, logger=logger)
    try:
        with (
            RemoteGenerator(srv.address, "python", timeout=None) as gen,
            ThreadPoolExecutor(max_workers=1) as pool,
        ):
            call = pool.submit(gen.generate, GenerateOptions(template_id="hold"))
            assert scripted.entered.acquire(timeout=30)
            started = time.monotonic()
            srv.stop(0.5)
            assert time.monotonic() - started < 0.5 + 1
            with pytest.raises(RemoteError) as info:
                call.result(timeout=30)
        assert info.value.code is grpc.StatusCode.UNAVAILABLE
        assert srv.abandoned_calls == 1
        assert [r.getMessage() for r in records] == [
            'generator for language "python" is still running after its call was answered '
            "UNAVAILABLE (the server stopped); it is abandoned, 1 of at most 64",
            "stopped with 1 generator calls still running; they are abandoned",
        ]
    finally:
        scripted.release.set()
        srv.stop(None)


_LEAVE_WITH_A_HUNG_CALL = """
import sys
import threading

from taskspec import GenerateOptions, Language, Registry
from taskspec.remote import RemoteError, RemoteGenerator, serve
from tests.remoteutil import ScriptedGenerator

scripted = ScriptedGenerator(Language.PYTHON)
registry = Registry()
registry.register(scripted)
answers = []


def call(address):
    with RemoteGenerator(address, "python", timeout=None) as gen:
        try:
            gen.generate(GenerateOptions(template_id="hang"))
        except RemoteError as err:
            answers.append(err.code.name)


with serve(registry) as srv:
    caller = threading.Thread(target=call, args=(srv.address,), daemon=True)
    caller.start()
    assert scripted.entered.acquire(timeout=30)
    print("leaving", flush=True)
caller.join(30)
print(answers, srv.abandoned_calls, flush=True)
"""


def test_a_process_leaves_serve_while_a_generator_hangs() -> None:
    """The with block ends the hung call and the process exits, within the grace period."""
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-c", _LEAVE_WITH_A_HUNG_CALL],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
        env=dict(os.environ, PYTHONPATH=str(root)),
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "leaving\n"
        left = time.monotonic()
        out, err = proc.communicate(timeout=60)
        took = time.monotonic() - left
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert out == "['UNAVAILABLE'] 1\n"
    assert took < EXIT_GRACE + 1, f"the process took {took:.1f} s to exit"


def test_remote_generator_has_a_finite_default_deadline(
    server: GeneratorServer, scripted: ScriptedGenerator
) -> None:
    assert DEFAULT_TIMEOUT == 60
    with RemoteGenerator(server.address, "python") as gen:
        gen.generate(GenerateOptions(template_id="deadline"))
    with RemoteGenerator(server.address, "python", timeout=None) as unbounded:
        unbounded.generate(GenerateOptions(template_id="deadline"))
    bounded, none = scripted.seen_remaining
    assert bounded is not None and DEFAULT_TIMEOUT - 5 < bounded <= DEFAULT_TIMEOUT + ROUNDING
    assert none is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_concurrent_calls": 0}, "max_concurrent_calls must be at least 1, got 0"),
        ({"max_concurrent_calls": True}, "max_concurrent_calls must be an int, got True"),
        ({"max_abandoned_calls": 0}, "max_abandoned_calls must be at least 1, got 0"),
        ({"max_abandoned_calls": 2.0}, "max_abandoned_calls must be an int, got 2.0"),
        (
            {"max_concurrent_calls": 4, "max_workers": 4},
            r"max_workers must be more than max_concurrent_calls \(4\), so that ListLanguages "
            "and the health service always answer; got 4",
        ),
        ({"default_timeout": 0}, "default_timeout must be a positive number of seconds, got 0"),
        (
            {"default_timeout": float("inf")},
            "default_timeout must be a positive number of seconds, got inf",
        ),
    ],
)
def test_serve_rejects_bad_options(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(TaskSpecError, match=f"^{message}$"):
        serve(Registry(), **kwargs)  # type: ignore[arg-type]


def test_serve_refuses_a_port_another_server_listens_on() -> None:
    """gRPC's SO_REUSEPORT would let a second server start and split the calls."""
    registry = Registry()
    registry.register(ScriptedGenerator(Language.PYTHON))
    with serve(registry) as first:
        with pytest.raises(RemoteError) as info:
            serve(Registry(), first.address)
        assert info.value.code is grpc.StatusCode.UNAVAILABLE
        assert info.value.details == (
            f"cannot listen on {first.address}: the address is already in use "
            "(is another server listening on it?)"
        )
        # Every call still reaches the first server.
        for _ in range(20):
            assert list_languages(first.address) == [Language.PYTHON]


# -- the status table both servers follow ------------------------------------------


_STATUSES = json.loads(
    (Path(__file__).resolve().parent / "contract" / "grpc_status.json").read_text("ascii")
)["statuses"]


_status = table_status


def _status_problems(case: str, **values: object) -> list[Violation]:
    """The problems of *case* in tests/contract/grpc_status.json, filled in."""
    (entry,) = [s for s in _STATUSES if s["case"] == case]
    return [
        Violation(p["field_path"], p["message"].format(**values), code=p["code"])
        for p in entry["problems"]
    ]


def _problems_sent(err: grpc.Call) -> list[Violation]:
    """The problems in a call's grpc-status-details-bin, read here by hand."""
    found = []
    for key, value in err.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            assert isinstance(value, bytes)
            for detail in status_pb2.Status.FromString(value).details:
                problems = problems_pb2.Problems()
                assert detail.Unpack(problems)
                found += [Violation.from_proto(p) for p in problems.problems]
    return found


def test_the_status_table_is_what_the_server_answers(
    server: GeneratorServer, remote: RemoteGenerator
) -> None:
    """Every case of the table the Go server's tests read too, with Python's values."""
    seen = set()

    def check(
        case: str,
        code: grpc.StatusCode,
        details: str,
        problems: list[Violation],
        **values: object,
    ) -> None:
        assert (code.name, details) == _status(case, language="python", **values), case
        assert problems == _status_problems(case, language="python", **values), case
        seen.add(case)

    for number, case in ((0, "language unspecified"), (99, "language not defined")):
        err = raw_generate(server, number)
        assert isinstance(err, grpc.Call)
        check(case, err.code(), err.details(), _problems_sent(err))
    with RemoteGenerator(server.address, Language.GO) as go, pytest.raises(RemoteError) as info:
        go.generate(GenerateOptions())
    assert (info.value.code.name, info.value.details) == _status("no generator", language="go")
    seen.add("no generator")
    for script, case, values in (
        ("fail", "generator failed", {"error": "ValueError: scripted failure"}),
        ("invalid", "invalid spec", {}),
        ("wrong-language", "wrong language", {"other": "go"}),
        ("NOT_FOUND", "generator's own code", {"error": "scripted NOT_FOUND"}),
    ):
        with pytest.raises(RemoteError) as info:
            remote.generate(GenerateOptions(template_id=script))
        assert isinstance(info.value.__cause__, grpc.Call)
        sent = _problems_sent(info.value.__cause__)
        assert (
            info.value.violations == sent if sent else not isinstance(info.value, ValidationError)
        )
        check(case, info.value.code, info.value.details, sent, **values)
    # "too many calls" is test_calls_beyond_the_limit_are_refused_and_the_rest_answers's,
    # and "too many abandoned calls" the abandoned-call limit's test.
    assert seen | {"too many calls", "too many abandoned calls"} == {s["case"] for s in _STATUSES}


@pytest.mark.parametrize(
    ("raised", "code", "details"),
    [
        (
            TimeoutError("reading the graph timed out"),
            "DEADLINE_EXCEEDED",
            "reading the graph timed out",
        ),
        (
            RuntimeError("reading the graph"),
            "DEADLINE_EXCEEDED",
            "reading the graph",
        ),
        (CancelledError(), "CANCELLED", "CancelledError"),
        (
            RemoteError(grpc.StatusCode.CANCELLED, "the graph server gave up"),
            "CANCELLED",
            "CANCELLED: the graph server gave up",
        ),
    ],
)
def test_a_failure_caused_by_a_timeout_or_cancellation_keeps_its_code(
    raised: BaseException, code: str, details: str
) -> None:
    """As a Go generator's error that wraps context.DeadlineExceeded or context.Canceled."""

    class Timing:
        language = Language.PYTHON

        def generate(self, opts: GenerateOptions) -> taskspec_pb2.TaskSpec:
            if isinstance(raised, RuntimeError):
                raise raised from TimeoutError("timed out")
            raise raised

    logger, records = logged("context")
    registry = Registry()
    registry.register(Timing())
    with (
        serve(registry, logger=logger) as srv,
        RemoteGenerator(srv.address, "python", timeout=10) as gen,
        pytest.raises(RemoteError) as info,
    ):
        gen.generate(GenerateOptions(template_id="ok"))
    assert (info.value.code.name, info.value.details) == (code, details)
    [record] = records
    assert record.levelno == logging.INFO


class _ResetCall(grpc.RpcError):
    """A call the server reset with CANCELLED, as grpc raises it."""

    def code(self) -> grpc.StatusCode:
        return grpc.StatusCode.CANCELLED

    def details(self) -> str:
        return "Stream removed (RST_STREAM (Received RST_STREAM with error code 8))"

    def trailing_metadata(self) -> Any:
        return ()


grpc.Call.register(_ResetCall)


@pytest.mark.parametrize(("waited", "code"), [(0.2, "DEADLINE_EXCEEDED"), (0.0, "CANCELLED")])
def test_a_reset_at_the_deadline_is_deadline_exceeded(
    monkeypatch: pytest.MonkeyPatch, waited: float, code: str
) -> None:
    # On a loaded machine the server's reset of the stream at the deadline
    # can reach the client before the client's own timer fires; the call
    # then ends CANCELLED, though nobody cancelled it. Past the deadline it
    # is DEADLINE_EXCEEDED; before it, a cancel stays one.
    import time  # noqa: PLC0415

    with RemoteGenerator("127.0.0.1:1", "go", timeout=0.1) as gen:

        def reset(*args: Any, **kwargs: Any) -> Any:
            time.sleep(waited)
            raise _ResetCall

        monkeypatch.setattr(gen._stub, "Generate", reset)
        with pytest.raises(RemoteError) as info:
            gen.generate(GenerateOptions(template_id="t"))
    assert info.value.code is getattr(grpc.StatusCode, code)
