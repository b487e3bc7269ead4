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
  the schema does not define;
- ``NOT_FOUND``: no generator is served for the language;
- ``INTERNAL``: the generator raised (the message carries the exception's
  type and message, never its traceback, which is logged on the server), or
  returned something that is not a valid TaskSpec for the language (the
  message lists the violations; the spec is never passed on);
- ``DEADLINE_EXCEEDED`` and ``CANCELLED``: the call's deadline passed, or
  the caller gave up, first. A served generator sees the deadline and the
  cancellation through :func:`current_call`.

This module needs the optional ``grpc`` extra (``pip install
'taskspec[grpc]'``): grpcio and grpcio-health-checking. ``import taskspec``
never imports it, so the rest of the package works without grpc.
"""

from __future__ import annotations

import contextvars
import logging
import threading
from concurrent import futures
from types import TracebackType
from typing import Final, Self, cast

try:
    import grpc
    from grpc_health.v1 import health, health_pb2, health_pb2_grpc
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"taskspec.remote needs the grpc extra: pip install 'taskspec[grpc]' ({err})"
    ) from err

from taskspec._api import validate
from taskspec._enums import Language
from taskspec._errors import TaskSpecError, ValidationError
from taskspec._registry import Registry
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import generator_service_pb2 as service_pb2
from taskspec.v1 import generator_service_pb2_grpc as service_grpc
from taskspec.v1 import taskspec_pb2

__all__ = [
    "DEFAULT_ADDRESS",
    "SERVICE_NAME",
    "CallContext",
    "GeneratorServer",
    "RemoteError",
    "RemoteGenerator",
    "current_call",
    "list_languages",
    "serve",
]

#: The full name of the service, as the health service reports it.
SERVICE_NAME: Final[str] = service_pb2.DESCRIPTOR.services_by_name["GeneratorService"].full_name

#: Where :func:`serve` listens unless told otherwise: loopback only, on a
#: port the operating system picks (see :attr:`GeneratorServer.port`).
DEFAULT_ADDRESS: Final = "127.0.0.1:0"

# A deadline further away than this is no deadline: grpc reports "none" as
# a time far in the future rather than as a missing value.
_NO_DEADLINE_SECONDS: Final = 10 * 365 * 24 * 3600.0

_log = logging.getLogger("taskspec.remote")


class RemoteError(TaskSpecError):
    """A call to a remote generator failed; ``code`` says how.

    ``code`` is the :class:`grpc.StatusCode` (``NOT_FOUND``,
    ``INVALID_ARGUMENT``, ``INTERNAL``, ``DEADLINE_EXCEEDED``,
    ``CANCELLED``, ``UNAVAILABLE`` when no connection could be made, ...)
    and ``details`` the server's message, so a caller can tell its own
    mistakes from the generator's and from the network's. It is a
    :class:`~taskspec.TaskSpecError`, so code that catches the package's
    errors catches these too; grpc's own exceptions never escape.
    """

    code: grpc.StatusCode
    details: str

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        self.code = code
        self.details = details
        super().__init__(f"{code.name}: {details}")


class CallContext:
    """What a served generator can know about the call it is serving.

    A generator's ``generate(opts)`` has no room for a deadline, and most
    generators need none; a slow one calls :func:`current_call` and stops
    early once :attr:`cancelled` is true or :meth:`time_remaining` runs out,
    because nobody waits for its answer then. Work it keeps doing past that
    point is thrown away: the caller already has ``DEADLINE_EXCEEDED`` or
    ``CANCELLED``.
    """

    __slots__ = ("_context", "_ended")

    def __init__(self, context: grpc.ServicerContext) -> None:
        self._context = context
        self._ended = threading.Event()
        if not context.add_callback(self._ended.set):
            self._ended.set()  # the call had already ended

    def time_remaining(self) -> float | None:
        """Seconds left before the caller's deadline (0 once it passed); None without one."""
        remaining = self._context.time_remaining()
        if remaining is None or remaining > _NO_DEADLINE_SECONDS:
            return None
        return max(float(remaining), 0.0)

    @property
    def cancelled(self) -> bool:
        """Whether the call has ended (cancelled, past its deadline or the server stopped)."""
        return self._ended.is_set() or not self._context.is_active()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the call ends or *timeout* seconds pass; return :attr:`cancelled`.

        A generator waiting on something else (a subprocess, a lock) can
        wait here in short slices instead of sleeping, and stop as soon as
        the caller is gone.
        """
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


def _spec_problem(spec: object, language: Language) -> str | None:
    """Why *spec* may not be handed to a caller who asked for *language*, or None."""
    if not isinstance(spec, taskspec_pb2.TaskSpec):
        return f"returned {type(spec).__name__}, not a taskspec.v1.TaskSpec"
    try:
        validate(spec)
    except ValidationError as err:
        listed = "; ".join(
            f"{v.field_path}: {v.message}" if v.field_path else v.message for v in err.violations
        )
        return f"returned an invalid task spec: {listed}"
    if spec.language != _proto(language):
        return (
            f"returned a task spec for language {_language_name(spec.language)}, "
            f"not {go_quote(language.value)}"
        )
    return None


class _GeneratorServicer:
    """The GeneratorService over a Registry.

    It duck-types the generated ``GeneratorServiceServicer`` rather than
    subclassing it, so that the untyped generated module stays out of the
    typed code. The registry is consulted on every call, so generators
    registered after :func:`serve` are served too.
    """

    def __init__(self, registry: Registry) -> None:
        self._registry = registry

    def Generate(  # noqa: N802 - the RPC's name, as grpc dispatches it
        self, request: service_pb2.GenerateRequest, context: grpc.ServicerContext
    ) -> service_pb2.GenerateResponse:
        number = request.language
        if number == taskspec_pb2.LANGUAGE_UNSPECIFIED:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "language is required")
        try:
            language = Language.from_proto(number)
        except ValueError:
            context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"language {number} is not defined in taskspec.v1.Language",
            )
        generator = self._registry.lookup(language)
        who = f"generator for language {go_quote(language.value)}"
        if generator is None:
            context.abort(grpc.StatusCode.NOT_FOUND, f"no {who}")
        token = _CURRENT.set(CallContext(context))
        try:
            spec = generator.generate(request.options)
        except Exception as err:
            # The traceback is for the people running the server; the caller
            # gets the message only, since a traceback can leak paths and
            # source lines.
            _log.error("%s failed", who, exc_info=err)
            context.abort(grpc.StatusCode.INTERNAL, f"{who} failed: {type(err).__name__}: {err}")
        finally:
            _CURRENT.reset(token)
        problem = _spec_problem(spec, language)
        if problem is not None:
            _log.error("%s %s", who, problem)
            context.abort(grpc.StatusCode.INTERNAL, f"{who} {problem}")
        return service_pb2.GenerateResponse(task_spec=spec)

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
        self.stop(None)

    def __repr__(self) -> str:
        return f"GeneratorServer(address={self.address!r})"


def serve(
    registry: Registry, address: str = DEFAULT_ADDRESS, *, max_workers: int = 16
) -> GeneratorServer:
    """Serve every generator in *registry* on *address*; return the running server.

    *address* is ``host:port``; port 0 lets the system pick one, which
    :attr:`GeneratorServer.port` reports. The default listens on loopback
    only: the service has no authentication, so exposing it beyond the
    machine is a deliberate choice (``0.0.0.0:PORT``). *max_workers*
    generators run at once; further calls wait for a free worker rather
    than fail.

    The standard gRPC health service (``grpc.health.v1.Health``) is served
    alongside, SERVING for ``""`` and :data:`SERVICE_NAME` until the
    server stops. An address that cannot be listened on raises
    :class:`RemoteError` (``UNAVAILABLE``).
    """
    if max_workers < 1:
        raise TaskSpecError(f"max_workers must be at least 1, got {max_workers}")
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
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="taskspec-serve")
    )
    service_grpc.add_GeneratorServiceServicer_to_server(_GeneratorServicer(registry), server)
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


def _rpc_error(err: grpc.RpcError, target: str) -> RemoteError:
    code = err.code() if isinstance(err, grpc.Call) else grpc.StatusCode.UNKNOWN
    details = (err.details() if isinstance(err, grpc.Call) else None) or str(err)
    if code is grpc.StatusCode.UNAVAILABLE:
        details = f"{target}: {details}"
    return RemoteError(code, details)


def _channel(target: str | grpc.Channel) -> tuple[grpc.Channel, str, bool]:
    """The channel for *target*, a name for messages, and whether the caller must close it."""
    if isinstance(target, str):
        return grpc.insecure_channel(target), target, True
    return target, "the channel's server", False


def _timeout(timeout: float | None) -> float | None:
    """*timeout*, shortened to what the served call (if any) has left."""
    call = _CURRENT.get()
    remaining = call.time_remaining() if call is not None else None
    if remaining is None:
        return timeout
    return remaining if timeout is None else min(timeout, remaining)


def _check_timeout(timeout: float | None) -> None:
    if timeout is not None and not timeout > 0:
        raise TaskSpecError(f"timeout must be a positive number of seconds, got {timeout!r}")


class RemoteGenerator:
    """A :class:`~taskspec.Generator` whose work is done by a GeneratorService server.

    *target* is the server's ``host:port`` (an insecure channel is opened
    and closed by :meth:`close`) or a ready :class:`grpc.Channel`, which
    stays the caller's to close. *language* is the one language asked for,
    as with any generator. *timeout* is each call's deadline in seconds
    (None: no deadline of its own, though a call made while serving another
    inherits that call's remaining time).

    :meth:`generate` returns a spec that passed validation on both ends and
    is for *language*; every failure raises :class:`RemoteError`.
    """

    def __init__(
        self,
        target: str | grpc.Channel,
        language: Language | str,
        *,
        timeout: float | None = None,
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
        try:
            response = self._stub.Generate(request, timeout=_timeout(self._timeout))
        except grpc.RpcError as err:
            raise _rpc_error(err, self._target) from err
        # The server validated the spec already; a server that does not keep
        # the contract must not get an invalid spec into this process either.
        problem = (
            _spec_problem(response.task_spec, self._language)
            if response.HasField("task_spec")
            else "returned no task spec"
        )
        if problem is not None:
            raise RemoteError(grpc.StatusCode.INTERNAL, f"{self._target} {problem}")
        spec: taskspec_pb2.TaskSpec = response.task_spec
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


def list_languages(target: str | grpc.Channel, *, timeout: float | None = None) -> list[Language]:
    """The languages a GeneratorService server has generators for, sorted.

    Languages this build does not know (a newer server's) are left out,
    since nothing here could ask for them. Failures raise :class:`RemoteError`.
    """
    _check_timeout(timeout)
    channel, name, owned = _channel(target)
    try:
        stub = service_grpc.GeneratorServiceStub(channel)
        response = stub.ListLanguages(service_pb2.ListLanguagesRequest(), timeout=_timeout(timeout))
    except grpc.RpcError as err:
        raise _rpc_error(err, name) from err
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
