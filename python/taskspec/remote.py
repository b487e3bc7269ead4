"""Generators across languages: both ends of the gRPC ``GeneratorService``.

A generator is usually best written in the language it frames tasks for,
with that language's own tools. :func:`serve` offers every generator in a
:class:`~taskspec.Registry` over gRPC (``taskspec.v1.GeneratorService``, see
``proto/taskspec/v1/generator_service.proto``), so a Go harness can call a
Python generator; :class:`RemoteGenerator` is a :class:`~taskspec.Generator`
that calls such a server, in any language, so a remote generator registers
in a local Registry like any other.

The status codes are the service's contract and the Go side uses the same:

- ``INVALID_ARGUMENT``: the request's language is UNSPECIFIED or a number
  the schema does not define (with a problem for ``language``, TS103);
- ``NOT_FOUND``: no generator is served for the language;
- the generator's own code: a generator that raises :class:`GeneratorError`
  with ``NOT_FOUND``, ``INVALID_ARGUMENT``, ``FAILED_PRECONDITION``,
  ``UNAVAILABLE`` or ``DEADLINE_EXCEEDED`` fails the call with that code and
  message; an exception caused by a timeout (a ``TimeoutError``, or one
  raised ``from`` it) fails it with ``DEADLINE_EXCEEDED``, and one caused
  by a cancellation (``concurrent.futures.CancelledError``, or a
  :class:`RemoteError` that was ``CANCELLED``) with ``CANCELLED``, as a Go
  generator's error that wraps a context error does;
- ``FAILED_PRECONDITION``: the generator returned a spec that breaks the
  contract (it fails validation, TS107 for one over the document limit
  included) or is for another language: retrying gives the same spec, the
  generator must be fixed. The message lists the problems and the spec is
  never passed on;
- ``RESOURCE_EXHAUSTED``: the server is already running its limit of
  generator calls (``max_concurrent_calls`` of :func:`serve`): the one code
  that invites a retry later;
- ``INTERNAL``: the generator raised anything else, ``SystemExit`` and
  ``KeyboardInterrupt`` included (the message carries the exception's type
  and message, never its traceback, which is logged on the server), or
  returned no TaskSpec at all;
- ``DEADLINE_EXCEEDED`` and ``CANCELLED``: the call's deadline passed, or
  the caller gave up, first. A served generator sees the deadline and the
  cancellation through :func:`current_call`.

The problems of an ``INVALID_ARGUMENT`` or ``FAILED_PRECONDITION`` answer
travel as structured status details, as ``google.rpc.BadRequest`` field
violations do: a ``google.rpc.Status`` in the standard
``grpc-status-details-bin`` trailer whose details hold a
``taskspec.v1.Problems``. :class:`RemoteGenerator` turns them back into a
:class:`RemoteValidationError`, a :class:`~taskspec.ValidationError` with
the same problems, as the Go client returns a ``*ValidationError``.

Messages are accepted up to :data:`MAX_MESSAGE_BYTES` each way (the
document limit plus 64 KiB of framing), not gRPC's 4 MiB default, so that
every valid spec crosses; past it the call fails with a code that does not
invite a retry and a message that names the limit.

This module needs the optional ``grpc`` extra (``pip install
'taskspec[grpc]'``): grpcio, grpcio-health-checking and
googleapis-common-protos (for ``google.rpc.Status``). ``import taskspec``
never imports it, so the rest of the package works without grpc.
"""

from __future__ import annotations

import contextvars
import errno
import logging
import math
import re
import socket
import threading
import time
from collections.abc import Sequence
from concurrent import futures
from types import TracebackType
from typing import Final, Never, Self, cast

try:
    import grpc
    from google.rpc import status_pb2
    from grpc_health.v1 import health, health_pb2, health_pb2_grpc
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"taskspec.remote needs the grpc extra: pip install 'taskspec[grpc]' ({err})"
    ) from err

from google.protobuf.message import DecodeError

from taskspec._api import validate
from taskspec._codes import code_of
from taskspec._enums import Language
from taskspec._errors import TaskSpecError, ValidationError, Violation
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec._registry import Registry
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import generator_service_pb2 as service_pb2
from taskspec.v1 import generator_service_pb2_grpc as service_grpc
from taskspec.v1 import problems_pb2, taskspec_pb2

__all__ = [
    "DEFAULT_ADDRESS",
    "DEFAULT_MAX_CONCURRENT_CALLS",
    "DEFAULT_TIMEOUT",
    "MAX_MESSAGE_BYTES",
    "MESSAGE_OPTIONS",
    "SERVICE_NAME",
    "CallContext",
    "GeneratorError",
    "GeneratorServer",
    "RemoteError",
    "RemoteGenerator",
    "RemoteValidationError",
    "current_call",
    "list_languages",
    "serve",
]

#: The full name of the service, as the health service reports it.
SERVICE_NAME: Final[str] = service_pb2.DESCRIPTOR.services_by_name["GeneratorService"].full_name

#: Where :func:`serve` listens unless told otherwise: loopback only, on a
#: port the operating system picks (see :attr:`GeneratorServer.port`).
DEFAULT_ADDRESS: Final = "127.0.0.1:0"

#: How many generator calls :func:`serve` runs at once unless told
#: otherwise; a call beyond them is refused with ``RESOURCE_EXHAUSTED``.
DEFAULT_MAX_CONCURRENT_CALLS: Final = 64

#: The deadline, in seconds, of a :class:`RemoteGenerator` call or a
#: :func:`list_languages` call unless told otherwise.
DEFAULT_TIMEOUT: Final = 60.0

#: The largest message a GeneratorService server or client of this module
#: sends or accepts, in bytes: the contract's document limit (a valid spec's
#: canonical YAML is within it, and its binary encoding is no larger) plus
#: 64 KiB for the rest of the response. gRPC's default of 4 MiB would refuse
#: valid specs.
MAX_MESSAGE_BYTES: Final = MAX_DOCUMENT_BYTES + 64 * 1024

#: The channel (and server) options that raise gRPC's message limits to
#: :data:`MAX_MESSAGE_BYTES`. :func:`serve` and a :class:`RemoteGenerator`
#: given an address use them; pass them to a channel of your own
#: (``grpc.insecure_channel(target, options=MESSAGE_OPTIONS)``), since gRPC
#: Python sets the limits per channel only.
MESSAGE_OPTIONS: Final[tuple[tuple[str, int], ...]] = (
    ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
    ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
)

# The trailer in which gRPC carries a google.rpc.Status, details included.
_DETAILS_KEY: Final = "grpc-status-details-bin"

# The type URL of taskspec.v1.Problems in a google.protobuf.Any.
_PROBLEMS_TYPE_URL: Final = "type.googleapis.com/" + problems_pb2.Problems.DESCRIPTOR.full_name

# The bounds on the problems one status carries, so that its trailers stay
# well within the 8 KiB of metadata a gRPC C-core client accepts by default
# (the Go server keeps the same, so both answer alike): each problem's
# strings are cut to _PROBLEM_TEXT_BYTES of UTF-8, and problems are taken in
# order while the encoded taskspec.v1.Problems stays within
# _PROBLEMS_BYTES (the first always). The status message lists the same
# problems, then how many were left out. Only a hostile spec comes near.
_PROBLEM_TEXT_BYTES: Final = 512
_PROBLEMS_BYTES: Final = 2048

# gRPC's own refusal of a message over its limit, in C-core's words
# ("Received message larger than max (N vs. M)", "Sent message ...") and
# grpc-go's ("grpc: received message larger than max (N vs. M)", "grpc:
# trying to send message larger than max ..."), as a server's status or the
# client's own. It comes as RESOURCE_EXHAUSTED, which the service keeps for
# "the server is at its call limit, try again later".
_OVER_LIMIT = re.compile(
    r"(?i)\b(?:received|sent|send) message (?:after decompression )?"
    r"larger than max \((\d+) vs\. (\d+)\)"
)

# The threads a server keeps beyond its generator calls, so that
# ListLanguages, the health service and the refusal of a call beyond the
# limit always find one, even while every generator call hangs.
_SPARE_WORKERS: Final = 8

# The codes a generator may fail its call with (GeneratorError): its own
# caller's mistakes and its collaborators' outages. The Go server passes the
# same ones on.
_PASSED_CODES: Final = frozenset(
    {
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.FAILED_PRECONDITION,
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
    }
)

# A deadline further away than this is no deadline: grpc reports "none" as
# a time far in the future rather than as a missing value.
_NO_DEADLINE_SECONDS: Final = 10 * 365 * 24 * 3600.0

_log = logging.getLogger("taskspec.remote")


class RemoteError(TaskSpecError):
    """A call to a remote generator failed; ``code`` says how.

    ``code`` is the :class:`grpc.StatusCode` (``NOT_FOUND``,
    ``INVALID_ARGUMENT``, ``FAILED_PRECONDITION``, ``INTERNAL``,
    ``RESOURCE_EXHAUSTED`` (only the server at its call limit: a message
    over :data:`MAX_MESSAGE_BYTES` is ``FAILED_PRECONDITION``),
    ``DEADLINE_EXCEEDED``, ``CANCELLED``, ``UNAVAILABLE`` when no connection
    could be made, or the code a generator failed with, see
    :class:`GeneratorError`) and ``details`` the message, as sent, so a
    caller can tell its own mistakes from the generator's and from the
    network's. ``trailing_metadata`` is the call's trailing metadata, where a
    server puts richer error details (``grpc-status-details-bin``); empty
    when there was none. A status whose details carry problems is raised as
    the subclass :class:`RemoteValidationError`. It is a :class:`~taskspec.TaskSpecError`, so code
    that catches the package's errors catches these too; grpc's own
    exceptions never escape (the grpc error is kept as ``__cause__``).
    """

    code: grpc.StatusCode
    details: str
    trailing_metadata: tuple[tuple[str, str | bytes], ...]

    def __init__(
        self,
        code: grpc.StatusCode,
        details: str,
        trailing_metadata: tuple[tuple[str, str | bytes], ...] = (),
    ) -> None:
        self.code = code
        self.details = details
        self.trailing_metadata = trailing_metadata
        super().__init__(f"{code.name}: {details}")


class RemoteValidationError(RemoteError, ValidationError):
    """A call answered with the problems of a spec or a request.

    The server refused a generated spec that breaks the contract
    (``FAILED_PRECONDITION``: it fails validation or is for another
    language) or a request's bad options (``INVALID_ARGUMENT``), and sent
    the problems as status details (a ``taskspec.v1.Problems`` in
    ``grpc-status-details-bin``); or this client found such a spec in a
    server's answer itself. ``violations`` holds them, as
    :meth:`Violation.from_proto <taskspec.Violation.from_proto>` reads them:
    the same codes, field paths and messages as on the server.

    It is both a :class:`RemoteError` (``code``, ``details``, and ``str()``
    is ``"CODE: details"``, since the call failed) and a
    :class:`~taskspec.ValidationError`, so code that handles invalid specs
    handles one that came over the network too, as the Go client's error
    unwraps to a ``*ValidationError``.
    """

    def __init__(
        self,
        code: grpc.StatusCode,
        details: str,
        violations: Sequence[Violation],
        trailing_metadata: tuple[tuple[str, str | bytes], ...] = (),
    ) -> None:
        self.code = code
        self.details = details
        self.trailing_metadata = trailing_metadata
        self.violations = list(violations)
        # Neither base's __init__: RemoteError's would render one violation
        # of its text, ValidationError's the first problem without the call.
        Exception.__init__(self, self._render())

    def _render(self) -> str:
        return f"{self.code.name}: {self.details}"


class GeneratorError(TaskSpecError):
    """Raised by a served generator to fail its call with *code* and *message*.

    A generator raises it to tell its caller what went wrong, rather than
    ``INTERNAL``: ``NOT_FOUND`` (a ``template_id`` it does not have),
    ``INVALID_ARGUMENT`` (options it cannot honour), ``FAILED_PRECONDITION``,
    ``UNAVAILABLE`` (an outage of something it depends on) or
    ``DEADLINE_EXCEEDED``. The caller's :class:`RemoteError` (in Go, its
    ``*taskspec.RemoteError``) then has that code and *message*. Any other
    code is a failure of the generator, answered ``INTERNAL`` like any other
    exception. The Go equivalent is returning ``status.Error(code, message)``.

    A :class:`RemoteError` with one of those codes, raised by a
    :class:`RemoteGenerator` that the generator called, is passed on in the
    same way, as the Go server passes on a status error.
    """

    code: grpc.StatusCode
    message: str

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        if not isinstance(code, grpc.StatusCode):
            raise TypeError(f"code must be a grpc.StatusCode, got {type(code).__name__}")
        self.code = code
        self.message = message
        super().__init__(f"{code.name}: {message}")


class CallContext:
    """What a served generator can know about the call it is serving.

    A generator's ``generate(opts)`` has no room for a deadline, and most
    generators need none; a slow one calls :func:`current_call` and stops
    early once :attr:`cancelled` is true or :meth:`time_remaining` runs out,
    because nobody waits for its answer then. Work it keeps doing past that
    point is thrown away: the caller already has ``DEADLINE_EXCEEDED`` or
    ``CANCELLED``.
    """

    __slots__ = ("_context", "_deadline", "_ended")

    def __init__(self, context: grpc.ServicerContext, default_timeout: float | None = None) -> None:
        self._context = context
        self._ended = threading.Event()
        # The server's own deadline (time.monotonic()), for a call that came
        # without one of its caller's.
        self._deadline: float | None = None
        if default_timeout is not None and self._callers_remaining() is None:
            self._deadline = time.monotonic() + default_timeout
        if not context.add_callback(self._ended.set):
            self._ended.set()  # the call had already ended

    def _callers_remaining(self) -> float | None:
        remaining = self._context.time_remaining()
        if remaining is None or remaining > _NO_DEADLINE_SECONDS:
            return None
        return max(float(remaining), 0.0)

    def time_remaining(self) -> float | None:
        """Seconds left before the call's deadline (0 once it passed); None without one.

        The deadline is the caller's or, for a call that came without one,
        the server's default (``default_timeout`` of :func:`serve`).
        """
        if self._deadline is not None:
            return max(self._deadline - time.monotonic(), 0.0)
        return self._callers_remaining()

    @property
    def cancelled(self) -> bool:
        """Whether the call has ended (cancelled, past its deadline or the server stopped)."""
        return (
            self._ended.is_set()
            or not self._context.is_active()
            or (self._deadline is not None and time.monotonic() >= self._deadline)
        )

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the call ends or *timeout* seconds pass; return :attr:`cancelled`.

        A generator waiting on something else (a subprocess, a lock) can
        wait here in short slices instead of sleeping, and stop as soon as
        the caller is gone.
        """
        if self._deadline is not None:
            left = max(self._deadline - time.monotonic(), 0.0)
            timeout = left if timeout is None else min(timeout, left)
        return self._ended.wait(timeout) or self.cancelled


_CURRENT: contextvars.ContextVar[CallContext | None] = contextvars.ContextVar(
    "taskspec_remote_call", default=None
)


def current_call() -> CallContext | None:
    """The call the current thread's generator is serving, or None outside a served call.

    Set for the duration of ``generate`` when :func:`serve` calls it. A
    :class:`RemoteGenerator` used inside a served call passes the remaining
    time on as its own deadline, so a chain of servers shares one deadline.
    """
    return _CURRENT.get()


def _proto(language: Language) -> taskspec_pb2.Language:
    """The proto enum value of *language*.

    The message constructors' type hints take the enum or its proto name
    (``"LANGUAGE_GO"``), never the YAML spelling a :class:`Language` is, so
    the number is passed, typed as the enum.
    """
    return cast("taskspec_pb2.Language", language.to_proto())


def _language_name(number: int) -> str:
    try:
        return go_quote(Language.from_proto(number).value)
    except ValueError:
        return str(number)


def _spec_problems(
    spec: taskspec_pb2.TaskSpec, language: Language, who: str
) -> tuple[str, list[Violation]] | None:
    """Why *spec* may not be handed to a caller who asked for *language*, or None.

    The answer is the status message (*who* first) and the problems: every
    broken rule of the contract, or the language that is not the one asked
    for (TS103 on ``language``: the field's value is not the one value the
    call allows). Either is the generator's fault, and the same spec would
    come again: ``FAILED_PRECONDITION``, never a retry.
    """
    try:
        validate(spec)
    except ValidationError as err:
        kept, left = _bounded(err.violations)
        return f"{who} returned an invalid task spec: {_listed(kept, left)}", kept
    if spec.language != _proto(language):
        got, want = _language_name(spec.language), go_quote(language.value)
        return (
            f"{who} returned a task spec for language {got}, not {want}",
            [
                Violation(
                    "language",
                    f"language {got} is not {want}, the language asked for",
                    code=_DEFINED,
                )
            ],
        )
    return None


# TS103: an enum value missing or not one the call allows (the request's
# language, and the language of a generated spec).
_DEFINED: Final = code_of(problems_pb2.PROBLEM_CODE_DEFINED)


def _cut(text: str) -> str:
    """*text* cut to _PROBLEM_TEXT_BYTES of UTF-8, at a character's start."""
    data = text.encode("utf-8")
    if len(data) <= _PROBLEM_TEXT_BYTES:
        return text
    return data[:_PROBLEM_TEXT_BYTES].decode("utf-8", "ignore")


def _bounded(violations: Sequence[Violation]) -> tuple[list[Violation], int]:
    """The problems one status carries, each cut, and how many are left out.

    The Go server's statusProblems keeps the same ones: the encoded size of
    a taskspec.v1.Problems is the same in both languages.
    """
    kept: list[Violation] = []
    encoded = problems_pb2.Problems()
    for v in violations:
        cut = Violation(
            _cut(v.field_path), _cut(v.message), v.line, v.column, _cut(v.hint), v.code, v.severity
        )
        encoded.problems.append(cut.to_proto())
        if kept and encoded.ByteSize() > _PROBLEMS_BYTES:
            break
        kept.append(cut)
    return kept, len(violations) - len(kept)


def _listed(violations: Sequence[Violation], left: int) -> str:
    """The problems as a status message lists them: ``path: message; ...``."""
    listed = "; ".join(
        f"{v.field_path}: {v.message}" if v.field_path else v.message for v in violations
    )
    if left:
        listed += f" (and {left} more problem{'s' if left > 1 else ''})"
    return listed


def _status_details(code: grpc.StatusCode, message: str, violations: Sequence[Violation]) -> bytes:
    """The ``grpc-status-details-bin`` value of a status with *violations*.

    A ``google.rpc.Status`` with the call's own code and message (gRPC
    clients check that they agree) whose one detail is a
    ``taskspec.v1.Problems``.
    """
    rpc_status = status_pb2.Status(code=code.value[0], message=message)
    rpc_status.details.add().Pack(
        problems_pb2.Problems(problems=[v.to_proto() for v in violations])
    )
    encoded: bytes = rpc_status.SerializeToString()
    return encoded


def _abort_with_problems(
    context: grpc.ServicerContext,
    code: grpc.StatusCode,
    message: str,
    violations: Sequence[Violation],
) -> Never:
    """Fail the call with *code* and *message*, the problems as its status details."""
    context.set_trailing_metadata(((_DETAILS_KEY, _status_details(code, message, violations)),))
    context.abort(code, message)


def _problems_of(trailing: tuple[tuple[str, str | bytes], ...]) -> list[Violation]:
    """The problems a call's status details carry, or [] for none (or details unreadable)."""
    for key, value in trailing:
        if key != _DETAILS_KEY or not isinstance(value, bytes):
            continue
        rpc_status = status_pb2.Status()
        try:
            rpc_status.ParseFromString(value)
            for detail in rpc_status.details:
                if detail.type_url == _PROBLEMS_TYPE_URL:
                    problems = problems_pb2.Problems()
                    detail.Unpack(problems)
                    return [Violation.from_proto(p) for p in problems.problems]
        except DecodeError:
            return []
    return []


def _context_code(err: BaseException) -> grpc.StatusCode | None:
    """``DEADLINE_EXCEEDED`` or ``CANCELLED`` for an exception a timeout or cancellation caused.

    *err* and the exceptions it was raised ``from`` are looked at, as Go's
    ``errors.Is`` follows the errors an error wraps; None when none is one.
    """
    seen: set[int] = set()
    cause: BaseException | None = err
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, TimeoutError):
            return grpc.StatusCode.DEADLINE_EXCEEDED
        if isinstance(cause, futures.CancelledError):
            return grpc.StatusCode.CANCELLED
        if isinstance(cause, RemoteError) and cause.code in (
            grpc.StatusCode.DEADLINE_EXCEEDED,
            grpc.StatusCode.CANCELLED,
        ):
            return cause.code
        cause = cause.__cause__
    return None


class _GeneratorServicer:
    """The GeneratorService over a Registry.

    It duck-types the generated ``GeneratorServiceServicer`` rather than
    subclassing it, so that the untyped generated module stays out of the
    typed code. The registry is consulted on every call, so generators
    registered after :func:`serve` are served too.
    """

    def __init__(
        self,
        registry: Registry,
        *,
        max_concurrent_calls: int,
        default_timeout: float | None,
        logger: logging.Logger,
    ) -> None:
        self._registry = registry
        self._max_calls = max_concurrent_calls
        # One token per generator call in flight. A call that finds none is
        # refused rather than queued: generators that ignore cancellation
        # then hold at most this many threads, and the rest of the pool
        # answers ListLanguages and the health service.
        self._slots = threading.BoundedSemaphore(max_concurrent_calls)
        self._default_timeout = default_timeout
        self._log = logger

    def Generate(  # noqa: N802 - the RPC's name, as grpc dispatches it
        self, request: service_pb2.GenerateRequest, context: grpc.ServicerContext
    ) -> service_pb2.GenerateResponse:
        if not self._slots.acquire(blocking=False):
            context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"the server is running {self._max_calls} generator calls, its limit; "
                "try again later",
            )
        try:
            return self._generate(request, context)
        finally:
            self._slots.release()

    def _generate(
        self, request: service_pb2.GenerateRequest, context: grpc.ServicerContext
    ) -> service_pb2.GenerateResponse:
        number = request.language
        try:
            language = Language.from_proto(number)
        except ValueError:
            bad = (
                "language is required"
                if number == taskspec_pb2.LANGUAGE_UNSPECIFIED
                else f"language {number} is not defined in taskspec.v1.Language"
            )
            _abort_with_problems(
                context,
                grpc.StatusCode.INVALID_ARGUMENT,
                bad,
                [Violation("language", bad, code=_DEFINED)],
            )
        generator = self._registry.lookup(language)
        who = f"generator for language {go_quote(language.value)}"
        if generator is None:
            context.abort(grpc.StatusCode.NOT_FOUND, f"no {who}")
        call = CallContext(context, self._default_timeout)
        token = _CURRENT.set(call)
        try:
            spec = generator.generate(request.options)
        except BaseException as err:  # every call is answered, even after SystemExit
            self._abort_failed(context, call, who, err)
        finally:
            _CURRENT.reset(token)
        if not isinstance(spec, taskspec_pb2.TaskSpec):
            message = f"{who} returned {type(spec).__name__}, not a taskspec.v1.TaskSpec"
            self._log.error("%s", message)
            context.abort(grpc.StatusCode.INTERNAL, message)
        refused = _spec_problems(spec, language, who)
        if refused is not None:
            message, problems = refused
            self._log.error("%s", message)
            _abort_with_problems(context, grpc.StatusCode.FAILED_PRECONDITION, message, problems)
        return service_pb2.GenerateResponse(task_spec=spec)

    def _abort_failed(
        self, context: grpc.ServicerContext, call: CallContext, who: str, err: BaseException
    ) -> Never:
        """Answer a call whose generator raised *err*; always raises (grpc's abort)."""
        if call.cancelled:
            # Nobody waits for the answer any more; the caller already has
            # its own DEADLINE_EXCEEDED or CANCELLED (or, past the server's
            # default deadline, gets it now).
            if call.time_remaining() == 0:
                context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "context deadline exceeded")
            context.abort(grpc.StatusCode.CANCELLED, "context canceled")
        passed: tuple[grpc.StatusCode, str] | None = None
        if isinstance(err, GeneratorError):
            passed = (err.code, err.message)
        elif isinstance(err, RemoteError):
            passed = (err.code, err.details)
        if passed is not None and passed[0] in _PASSED_CODES:
            code, message = passed
            self._log.info("%s refused the call: %s: %s", who, code.name, message)
            if isinstance(err, RemoteValidationError):
                # A chain passes the problems on with the code.
                _abort_with_problems(context, code, message, err.violations)
            context.abort(code, message)
        context_code = _context_code(err)
        if context_code is not None:
            # A collaborator's call that timed out or was cancelled: the
            # generator's own deadline, not a bug in it.
            message = str(err) or type(err).__name__
            self._log.info("%s refused the call: %s: %s", who, context_code.name, message)
            context.abort(context_code, message)
        # The traceback is for the people running the server; the caller
        # gets the message only, since a traceback can leak paths and
        # source lines.
        self._log.error("%s failed", who, exc_info=err)
        text = str(err)
        reason = f"{type(err).__name__}: {text}" if text else type(err).__name__
        context.abort(grpc.StatusCode.INTERNAL, f"{who} failed: {reason}")

    def ListLanguages(  # noqa: N802 - the RPC's name, as grpc dispatches it
        self, request: service_pb2.ListLanguagesRequest, context: grpc.ServicerContext
    ) -> service_pb2.ListLanguagesResponse:
        return service_pb2.ListLanguagesResponse(
            languages=[_proto(language) for language in self._registry.languages()]
        )


class GeneratorServer:
    """A running GeneratorService, returned by :func:`serve`.

    Use it as a context manager, or call :meth:`stop`: the server's threads
    keep the process alive until it is stopped.
    """

    def __init__(
        self, server: grpc.Server, health_servicer: health.HealthServicer, host: str, port: int
    ) -> None:
        self._server = server
        self._health = health_servicer
        self._host = host
        self._port = port

    @property
    def port(self) -> int:
        """The port the server listens on (the one the system picked for port 0)."""
        return self._port

    @property
    def address(self) -> str:
        """``host:port`` as listened on, with the real port: what a client dials."""
        return f"{self._host}:{self._port}"

    def stop(self, grace: float | None = None) -> None:
        """Stop serving, and return once stopped.

        New calls are refused at once and the health service reports
        NOT_SERVING; calls in flight get *grace* seconds to finish and are
        then cancelled (their generators see :attr:`CallContext.cancelled`).
        ``None`` cancels them at once.
        """
        self._health.enter_graceful_shutdown()
        self._server.stop(grace).wait()

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        """Block until the server stops or *timeout* passes; return whether it stopped."""
        return self._server.wait_for_termination(timeout)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        # A short grace rather than none: the server then says goodbye to
        # its clients without an error code, which gRPC would log on a
        # connection a client has closed but not yet torn down.
        self.stop(EXIT_GRACE)

    def __repr__(self) -> str:
        return f"GeneratorServer(address={self.address!r})"


#: Seconds a server leaving a ``with`` block gives calls in flight to finish.
EXIT_GRACE: Final = 1.0


def serve(
    registry: Registry,
    address: str = DEFAULT_ADDRESS,
    *,
    max_concurrent_calls: int = DEFAULT_MAX_CONCURRENT_CALLS,
    default_timeout: float | None = None,
    logger: logging.Logger | None = None,
    max_workers: int | None = None,
) -> GeneratorServer:
    """Serve every generator in *registry* on *address*; return the running server.

    *address* is ``host:port``; port 0 lets the system pick one, which
    :attr:`GeneratorServer.port` reports. The default listens on loopback
    only: the service has no authentication, so exposing it beyond the
    machine is a deliberate choice (``0.0.0.0:PORT``). An address that
    cannot be listened on, one that another server already listens on
    included, raises :class:`RemoteError` (``UNAVAILABLE``): the port is
    never shared.

    The options are those of the Go server (``NewGeneratorServer``):

    - *max_concurrent_calls* generator calls run at once; a call beyond them
      is refused at once with ``RESOURCE_EXHAUSTED`` ("the server is running
      N generator calls, its limit; try again later") rather than queued, so
      that generators that ignore cancellation cannot wedge the server:
      ``ListLanguages`` and the health service always answer.
    - *default_timeout* (seconds) is the deadline of a call that arrives
      without one: its generator sees it through :func:`current_call`, and
      a generator that fails past it answers ``DEADLINE_EXCEEDED``. None,
      the default, sets none.
    - *logger* gets generator failures (with their tracebacks) and
      refusals; the default is the ``taskspec.remote`` logger.
    - *max_workers* is the size of the thread pool, more than
      *max_concurrent_calls*; the default keeps 8 threads beyond it.

    Messages up to :data:`MAX_MESSAGE_BYTES` are taken and sent, so that a
    spec of any valid size crosses. The standard gRPC health service
    (``grpc.health.v1.Health``) is served alongside, SERVING for ``""`` and
    :data:`SERVICE_NAME` until the server stops.
    """
    if isinstance(max_concurrent_calls, bool) or not isinstance(max_concurrent_calls, int):
        raise TaskSpecError(f"max_concurrent_calls must be an int, got {max_concurrent_calls!r}")
    if max_concurrent_calls < 1:
        raise TaskSpecError(f"max_concurrent_calls must be at least 1, got {max_concurrent_calls}")
    if max_workers is None:
        max_workers = max_concurrent_calls + _SPARE_WORKERS
    elif max_workers <= max_concurrent_calls:
        raise TaskSpecError(
            f"max_workers must be more than max_concurrent_calls ({max_concurrent_calls}), "
            f"so that ListLanguages and the health service always answer; got {max_workers}"
        )
    if default_timeout is not None:
        _check_timeout(default_timeout, "default_timeout")
    host, _, port_text = address.rpartition(":")
    # grpc itself would take port 70000 as 4464, and a missing host as "any".
    if (
        not host
        or not (port_text.isascii() and port_text.isdecimal())
        or not 0 <= int(port_text) <= 65535
    ):
        raise TaskSpecError(
            f"address must be HOST:PORT with a port from 0 to 65535, got {address!r}"
        )
    in_use = _address_in_use(host, int(port_text))
    if in_use is not None:
        raise RemoteError(grpc.StatusCode.UNAVAILABLE, f"cannot listen on {address}: {in_use}")
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="taskspec-serve"),
        # grpc sets SO_REUSEPORT by default, so a second server on a port in
        # use would start and split the calls with the first.
        options=[("grpc.so_reuseport", 0), *MESSAGE_OPTIONS],
    )
    servicer = _GeneratorServicer(
        registry,
        max_concurrent_calls=max_concurrent_calls,
        default_timeout=default_timeout,
        logger=logger if logger is not None else _log,
    )
    service_grpc.add_GeneratorServiceServicer_to_server(servicer, server)
    health_servicer = health.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as err:
        server.stop(None)
        raise RemoteError(
            grpc.StatusCode.UNAVAILABLE, f"cannot listen on {address}: {err}"
        ) from err
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    server.start()
    return GeneratorServer(server, health_servicer, host, port)


def _address_in_use(host: str, port: int) -> str | None:
    """Why *host*:*port* cannot be listened on because something listens there, or None.

    grpc reports a port in use only as "Failed to bind", with the reason in
    its own log; this says it plainly. Anything else (a host that does not
    resolve, port 0) is left to grpc to report.
    """
    if port == 0:
        return None
    try:
        infos = socket.getaddrinfo(
            host.removeprefix("[").removesuffix("]"),
            port,
            type=socket.SOCK_STREAM,
            flags=socket.AI_PASSIVE,
        )
    except OSError:
        return None
    for family, kind, proto, _, sockaddr in infos:
        with socket.socket(family, kind, proto) as probe:
            # As grpc binds: a port in TIME_WAIT is free, a listening one is not.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(sockaddr)
            except OSError as err:
                if err.errno == errno.EADDRINUSE:
                    return "the address is already in use (is another server listening on it?)"
    return None


def _rpc_error(err: grpc.RpcError) -> RemoteError:
    """The RemoteError for *err*, with its code and message as sent.

    (The message is never reworded: a generator's ``UNAVAILABLE`` reaches
    the caller as the generator wrote it. grpc's own words for a server it
    cannot reach already name the address.) A status whose details carry
    problems is a :class:`RemoteValidationError`. gRPC's refusal of a
    message over its limit is no ``RESOURCE_EXHAUSTED`` here, which would
    invite a retry that refuses the same message again: it is
    ``FAILED_PRECONDITION``, whichever side refused the message, with a
    message that names the limit.
    """
    if not isinstance(err, grpc.Call):
        return RemoteError(grpc.StatusCode.UNKNOWN, str(err))
    trailing = tuple((key, value) for key, value in err.trailing_metadata() or ())
    code, details = err.code(), err.details() or ""
    problems = _problems_of(trailing)
    if problems:
        return RemoteValidationError(code, details, problems, trailing)
    over = _OVER_LIMIT.search(details) if code is grpc.StatusCode.RESOURCE_EXHAUSTED else None
    if over is not None:
        return RemoteError(
            grpc.StatusCode.FAILED_PRECONDITION, _over_limit(int(over[1]), int(over[2])), trailing
        )
    return RemoteError(code, details, trailing)


def _over_limit(size: int, limit: int) -> str:
    """The words for a message of *size* bytes that gRPC refused at *limit*, as Go says them."""
    ours = (
        f" (the task spec document limit of {MAX_DOCUMENT_BYTES} bytes plus 64 KiB)"
        if limit == MAX_MESSAGE_BYTES
        else ""
    )
    return f"a message of {size} bytes is over the limit of {limit} bytes{ours}"


def _channel(target: str | grpc.Channel) -> tuple[grpc.Channel, str, bool]:
    """The channel for *target*, a name for messages, and whether the caller must close it."""
    if isinstance(target, str):
        return grpc.insecure_channel(target, options=MESSAGE_OPTIONS), target, True
    return target, "the channel's server", False


def _timeout(timeout: float | None) -> float | None:
    """*timeout*, shortened to what the served call (if any) has left."""
    call = _CURRENT.get()
    remaining = call.time_remaining() if call is not None else None
    if remaining is None:
        return timeout
    return remaining if timeout is None else min(timeout, remaining)


def _check_timeout(timeout: float | None, name: str = "timeout") -> None:
    if timeout is not None and not (
        isinstance(timeout, int | float) and timeout > 0 and math.isfinite(timeout)
    ):
        raise TaskSpecError(f"{name} must be a positive number of seconds, got {timeout!r}")


class RemoteGenerator:
    """A :class:`~taskspec.Generator` whose work is done by a GeneratorService server.

    *target* is the server's ``host:port`` (an insecure channel is opened
    and closed by :meth:`close`) or a ready :class:`grpc.Channel`, which
    stays the caller's to close. *language* is the one language asked for,
    as with any generator. *timeout* is each call's deadline in seconds,
    :data:`DEFAULT_TIMEOUT` (60) unless told otherwise, so that a server
    that never answers cannot hold the caller forever; None sets no
    deadline of its own. A call made while serving another is also bounded
    by that call's remaining time.

    :meth:`generate` returns a spec that passed validation on both ends and
    is for *language*; every failure raises :class:`RemoteError`, and a spec
    refused for its problems (by the server, or by this client) a
    :class:`RemoteValidationError`, which is also a
    :class:`~taskspec.ValidationError`. A channel of the caller's own should
    have :data:`MESSAGE_OPTIONS`, or gRPC refuses answers over 4 MiB.
    """

    def __init__(
        self,
        target: str | grpc.Channel,
        language: Language | str,
        *,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        if not Language.is_valid(language):
            raise TaskSpecError(f"remote generator for invalid language {go_quote(str(language))}")
        _check_timeout(timeout)
        self._language = Language(language)
        self._timeout = timeout
        self._channel, self._target, self._owns_channel = _channel(target)
        self._stub = service_grpc.GeneratorServiceStub(self._channel)

    @property
    def language(self) -> Language:
        """The language this generator asks the server for."""
        return self._language

    def generate(self, opts: taskspec_pb2.GenerateOptions) -> taskspec_pb2.TaskSpec:
        """One TaskSpec framed by *opts*, from the server; :class:`RemoteError` on failure."""
        if not isinstance(opts, taskspec_pb2.GenerateOptions):
            raise TaskSpecError(
                f"expected a taskspec.v1.GenerateOptions, got {type(opts).__name__}"
            )
        request = service_pb2.GenerateRequest(language=_proto(self._language), options=opts)
        timeout = _timeout(self._timeout)
        started = time.monotonic()
        try:
            response = self._stub.Generate(request, timeout=timeout)
        except grpc.RpcError as err:
            error = _rpc_error(err)
            if (
                error.code is grpc.StatusCode.CANCELLED
                and timeout is not None
                and time.monotonic() - started >= timeout
            ):
                # The server reset the stream at the deadline before this
                # side's own timer fired (a race a loaded machine shows):
                # nobody cancelled, the deadline passed.
                error = RemoteError(
                    grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded", error.trailing_metadata
                )
            raise error from err
        if not response.HasField("task_spec"):
            raise RemoteError(grpc.StatusCode.INTERNAL, f"{self._target} returned no task spec")
        spec: taskspec_pb2.TaskSpec = response.task_spec
        # The server validated the spec already; a server that does not keep
        # the contract must not get an invalid spec into this process either.
        refused = _spec_problems(spec, self._language, self._target)
        if refused is not None:
            raise RemoteValidationError(grpc.StatusCode.FAILED_PRECONDITION, *refused)
        return spec

    def close(self) -> None:
        """Close the channel, if this generator opened it."""
        if self._owns_channel:
            self._channel.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"RemoteGenerator({self._target!r}, {self._language.value!r})"


def list_languages(
    target: str | grpc.Channel, *, timeout: float | None = DEFAULT_TIMEOUT
) -> list[Language]:
    """The languages a GeneratorService server has generators for, sorted.

    *timeout* is the call's deadline in seconds, as for :class:`RemoteGenerator`.

    Languages this build does not know (a newer server's) are left out,
    since nothing here could ask for them. Failures raise :class:`RemoteError`.
    """
    _check_timeout(timeout)
    channel, _, owned = _channel(target)
    try:
        stub = service_grpc.GeneratorServiceStub(channel)
        response = stub.ListLanguages(service_pb2.ListLanguagesRequest(), timeout=_timeout(timeout))
    except grpc.RpcError as err:
        raise _rpc_error(err) from err
    finally:
        if owned:
            channel.close()
    known = []
    for number in response.languages:
        try:
            known.append(Language.from_proto(number))
        except ValueError:
            continue
    return sorted(known, key=lambda language: language.value)
