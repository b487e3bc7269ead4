"""The server end of the GeneratorService: :func:`serve` offers a Registry over gRPC.

:func:`serve` checks the address and options, starts the servicer
(:mod:`taskspec._remote_servicer`) and the health service, and returns the
:class:`GeneratorServer` handle that stops it all. :mod:`taskspec.remote`
re-exports the public names; this module is private.
"""

from __future__ import annotations

import errno
import logging
import socket
from concurrent import futures
from types import TracebackType
from typing import Final, Self

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from taskspec._errors import TaskSpecError
from taskspec._registry import Registry
from taskspec._remote_call import _check_timeout
from taskspec._remote_servicer import Servicer
from taskspec._remote_status import MESSAGE_OPTIONS, RemoteError
from taskspec.v1 import generator_service_pb2 as service_pb2
from taskspec.v1 import generator_service_pb2_grpc as service_grpc

#: The full name of the service, as the health service reports it.
SERVICE_NAME: Final[str] = service_pb2.DESCRIPTOR.services_by_name["GeneratorService"].full_name

#: Where :func:`serve` listens unless told otherwise: loopback only, on a
#: port the operating system picks (see :attr:`GeneratorServer.port`).
DEFAULT_ADDRESS: Final = "127.0.0.1:0"

#: How many generator calls :func:`serve` runs at once unless told
#: otherwise; a call beyond them is refused with ``RESOURCE_EXHAUSTED``.
DEFAULT_MAX_CONCURRENT_CALLS: Final = 64

#: How many generators :func:`serve` lets run on after their calls were
#: answered, unless told otherwise; once that many run, a new call is refused
#: with ``RESOURCE_EXHAUSTED`` until one of them returns.
DEFAULT_MAX_ABANDONED_CALLS: Final = 64

# How long stop() waits, after gRPC has ended the calls, for their handlers
# to answer and to count the generators they leave running.
_HANDLERS_BOUND: Final = 2.0

# The threads a server keeps beyond its generator calls, so that
# ListLanguages, the health service and the refusal of a call beyond the
# limit always find one, even while every generator call hangs.
_SPARE_WORKERS: Final = 8

_log = logging.getLogger("taskspec.remote")


class GeneratorServer:
    """A running GeneratorService, returned by :func:`serve`.

    Use it as a context manager, or call :meth:`stop`: the server's threads
    keep the process alive until it is stopped. Generators still running
    when it stops do not: they run in daemon threads, and are abandoned.
    """

    def __init__(
        self,
        server: grpc.Server,
        health_servicer: health.HealthServicer,
        servicer: Servicer,
        host: str,
        port: int,
        *,
        logger: logging.Logger,
    ) -> None:
        self._server = server
        self._health = health_servicer
        self._servicer = servicer
        self._host = host
        self._port = port
        self._log = logger

    @property
    def port(self) -> int:
        """The port the server listens on (the one the system picked for port 0)."""
        return self._port

    @property
    def address(self) -> str:
        """``host:port`` as listened on, with the real port: what a client dials."""
        return f"{self._host}:{self._port}"

    @property
    def abandoned_calls(self) -> int:
        """Generators still running after their calls were answered.

        A call is answered at its deadline (the caller's, or the server's
        default), when its caller gives up, or when the server stops, whether
        or not its generator has returned; a generator that runs on is
        abandoned, and counts here until it returns. ``max_abandoned_calls``
        of :func:`serve` bounds them.
        """
        return self._servicer.abandoned

    def stop(self, grace: float | None = None) -> None:
        """Stop serving, and return once stopped, at most *grace* seconds later.

        New calls are refused at once and the health service reports
        NOT_SERVING; calls in flight get *grace* seconds to finish and are
        then ended: their callers get ``UNAVAILABLE`` and their generators
        see :attr:`CallContext.cancelled`. ``None`` ends them at once. A
        generator that runs on regardless is abandoned (logged with a
        warning, and counted by :attr:`abandoned_calls`): its daemon thread
        cannot keep the process alive.
        """
        self._health.enter_graceful_shutdown()
        self._servicer.stopping()
        self._server.stop(grace).wait()
        # gRPC has ended the calls; their handlers answer at once, and count
        # the generators they leave running.
        self._servicer.wait_answered(_HANDLERS_BOUND)
        abandoned = self._servicer.abandoned
        if abandoned:
            self._log.warning(
                "stopped with %d generator calls still running; they are abandoned", abandoned
            )

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
    max_abandoned_calls: int = DEFAULT_MAX_ABANDONED_CALLS,
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
      ``ListLanguages`` and the health service always answer. A call holds
      its slot until it is answered.
    - *max_abandoned_calls* generators may run on after their calls were
      answered (at the deadline, when the caller gave up, or when the server
      stopped: a generator that ignores :func:`current_call`); each is
      logged, and while that many run, a new call is refused with
      ``RESOURCE_EXHAUSTED`` ("the server has N generators still running
      after their calls were answered, its limit; try again later"). At most
      ``max_concurrent_calls + max_abandoned_calls`` generators run at once.
      The Go server's ``WithMaxAbandonedCalls`` is the same limit.
    - *default_timeout* (seconds) is the deadline of a call that arrives
      without one: its generator sees it through :func:`current_call`, and
      the call is answered ``DEADLINE_EXCEEDED`` at it, whether or not the
      generator has returned. None, the default, sets none.

    Every call is answered by its deadline: each generator runs in a daemon
    thread of the server's, never a gRPC worker, and a call whose deadline
    passes, whose caller gives up or whose server stops is answered then
    (see :meth:`GeneratorServer.stop`), its generator left to finish on its
    own and what it returns dropped.
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
    if isinstance(max_abandoned_calls, bool) or not isinstance(max_abandoned_calls, int):
        raise TaskSpecError(f"max_abandoned_calls must be an int, got {max_abandoned_calls!r}")
    if max_abandoned_calls < 1:
        raise TaskSpecError(f"max_abandoned_calls must be at least 1, got {max_abandoned_calls}")
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
    log = logger if logger is not None else _log
    servicer = Servicer(
        registry,
        max_concurrent_calls=max_concurrent_calls,
        max_abandoned_calls=max_abandoned_calls,
        default_timeout=default_timeout,
        logger=log,
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
    return GeneratorServer(server, health_servicer, servicer, host, port, logger=log)


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
