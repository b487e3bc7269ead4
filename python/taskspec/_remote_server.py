"""The server end of the GeneratorService: :func:`serve` offers a Registry over gRPC.

Everything that answers calls lives here: the servicer that runs a
Registry's generators for ``Generate`` and lists its languages for
``ListLanguages``, the limits on generator calls in flight and on generators
left running past their calls' answers (a call beyond either is refused,
never queued), the health service, the checks of the address and options,
and the :class:`GeneratorServer` handle that stops it all.

Each generator runs in a daemon thread of the server's own, never in one
of gRPC's workers: the gRPC worker handling the call waits for it only
until the call's deadline (the caller's, or the server's default), the
caller giving up or the server stopping, and then answers. A generator that
ignores its call and runs on is abandoned: counted, logged, its result
dropped, and unable to keep the process alive. What a
generator's failure or a broken spec is answered with comes from
:mod:`taskspec._remote_status`, the mapping the client reads statuses back
with; each call's deadline and cancellation are a
:class:`~taskspec.remote.CallContext` (:mod:`taskspec._remote_call`).
Failures are logged to the ``taskspec.remote`` logger, the public module's
name. :mod:`taskspec.remote` re-exports the public names; this module is
private.
"""

from __future__ import annotations

import errno
import logging
import queue
import socket
import threading
import time
from collections.abc import Callable
from concurrent import futures
from types import TracebackType
from typing import Final, Never, Self

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from taskspec._enums import Language
from taskspec._errors import TaskSpecError, Violation
from taskspec._forms_gen import (
    SERVICE_BUSY_CALLS,
    SERVICE_BUSY_GENERATORS,
    SERVICE_LANGUAGE_REQUIRED,
    SERVICE_LANGUAGE_UNDEFINED,
)
from taskspec._registry import Generator, Registry
from taskspec._remote_call import _CURRENT, CallContext, _check_timeout
from taskspec._remote_status import (
    _DEFINED,
    _PASSED_CODES,
    MESSAGE_OPTIONS,
    GeneratorError,
    RemoteError,
    RemoteValidationError,
    _abort_with_problems,
    _context_code,
    _proto,
    _spec_problems,
)
from taskspec._words import render
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import generator_service_pb2 as service_pb2
from taskspec.v1 import generator_service_pb2_grpc as service_grpc
from taskspec.v1 import taskspec_pb2

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


# How long a call that has ended waits for its generator to return before
# answering without it: long enough for one that watches current_call() to
# stop and be answered with its own result.
_SETTLE: Final = 0.05

# How long a thread that ran a generator waits for the next before it ends.
_IDLE_SECONDS: Final = 60.0

# How long stop() waits, after gRPC has ended the calls, for their handlers
# to answer and to count the generators they leave running.
_HANDLERS_BOUND: Final = 2.0

# The threads a server keeps beyond its generator calls, so that
# ListLanguages, the health service and the refusal of a call beyond the
# limit always find one, even while every generator call hangs.
_SPARE_WORKERS: Final = 8

_log = logging.getLogger("taskspec.remote")


class _Run:
    """One call's generator, run by one of the server's :class:`_Workers`.

    The worker sets :func:`current_call` for the generator and reports the
    return to the servicer, which owns :attr:`done` and :attr:`abandoned`
    under its lock.
    """

    __slots__ = (
        "_call",
        "_finished",
        "_generator",
        "_options",
        "abandoned",
        "done",
        "error",
        "returned",
        "spec",
        "wake",
        "who",
    )

    def __init__(
        self,
        generator: Generator,
        options: taskspec_pb2.GenerateOptions,
        call: CallContext,
        finished: Callable[[_Run], None],
        *,
        who: str,
    ) -> None:
        self._generator = generator
        self._options = options
        self._call = call
        self._finished = finished
        self.who = who
        self.wake = threading.Event()
        self.returned = threading.Event()
        self.done = False
        #: When the call was answered without the generator's result
        #: (time.monotonic()), or None.
        self.abandoned: float | None = None
        self.spec: object = None
        self.error: BaseException | None = None

    def generate(self) -> None:
        """Run the generator, keeping what it returns or raises."""
        token = _CURRENT.set(self._call)
        try:
            self.spec = self._generator.generate(self._options)
        except BaseException as err:  # every call is answered, even after SystemExit
            self.error = err
        finally:
            _CURRENT.reset(token)

    def finish(self) -> None:
        """Report the return, once the thread that ran it is free for the next call."""
        self._finished(self)


class _Workers:
    """The daemon threads that run a server's generators, kept for the next call.

    Daemon threads, so that a generator which never returns cannot keep the
    process alive after the server stops, as one of gRPC's workers (joined at
    the interpreter's exit) would. A call takes an idle thread, or starts one
    when none is idle (the servicer's limits bound how many run); a thread
    left idle for :data:`_IDLE_SECONDS` ends.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: list[queue.SimpleQueue[_Run]] = []

    def run(self, job: _Run) -> None:
        """Run *job* in a thread of its own; raises RuntimeError if none can start."""
        with self._lock:
            inbox = self._idle.pop() if self._idle else None
        if inbox is not None:
            inbox.put(job)
            return
        inbox = queue.SimpleQueue()
        threading.Thread(
            target=self._work, args=(inbox, job), name="taskspec-generate", daemon=True
        ).start()

    def _work(self, inbox: queue.SimpleQueue[_Run], job: _Run) -> None:
        while True:
            job.generate()
            with self._lock:
                self._idle.append(inbox)
            # Reported once idle, so that the call after it finds this thread.
            job.finish()
            try:
                job = inbox.get(timeout=_IDLE_SECONDS)
            except queue.Empty:
                with self._lock:
                    if inbox in self._idle:
                        self._idle.remove(inbox)
                        return
                # run() took this thread just as it timed out: its job comes.
                job = inbox.get()


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
        max_abandoned_calls: int,
        default_timeout: float | None,
        logger: logging.Logger,
    ) -> None:
        self._registry = registry
        self._max_calls = max_concurrent_calls
        self._max_abandoned = max_abandoned_calls
        self._default_timeout = default_timeout
        self._log = logger
        # Under the lock: the calls not yet answered, each holding a slot,
        # and the generators still running after their calls were answered.
        # A call that finds either at its limit is refused rather than
        # queued: generators that ignore cancellation then hold at most
        # max_concurrent_calls + max_abandoned_calls threads, and the
        # gRPC workers beyond the slots answer ListLanguages and the health
        # service.
        self._workers = _Workers()
        self._lock = threading.Condition()
        self._in_flight = 0
        self._abandoned = 0
        self._stopping = False

    @property
    def abandoned(self) -> int:
        """Generators still running after their calls were answered."""
        with self._lock:
            return self._abandoned

    def stopping(self) -> None:
        """Note that the server stops: calls it ends from now on were ended by the stop."""
        with self._lock:
            self._stopping = True

    def wait_answered(self, timeout: float) -> bool:
        """Wait at most *timeout* seconds until every call is answered; return whether."""
        with self._lock:
            return self._lock.wait_for(lambda: self._in_flight == 0, timeout)

    def Generate(  # noqa: N802 - the RPC's name, as grpc dispatches it
        self, request: service_pb2.GenerateRequest, context: grpc.ServicerContext
    ) -> service_pb2.GenerateResponse:
        refusal = None
        with self._lock:
            if self._in_flight >= self._max_calls:
                refusal = render(SERVICE_BUSY_CALLS, n=self._max_calls)
            elif self._abandoned >= self._max_abandoned:
                refusal = render(SERVICE_BUSY_GENERATORS, n=self._max_abandoned)
            else:
                self._in_flight += 1
        if refusal is not None:
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, refusal)
        try:
            return self._generate(request, context)
        finally:
            # The slot is free once the call is answered, whether or not its
            # generator has returned (one still running is counted apart).
            with self._lock:
                self._in_flight -= 1
                self._lock.notify_all()

    def _generate(
        self, request: service_pb2.GenerateRequest, context: grpc.ServicerContext
    ) -> service_pb2.GenerateResponse:
        number = request.language
        try:
            language = Language.from_proto(number)
        except ValueError:
            bad = (
                render(SERVICE_LANGUAGE_REQUIRED)
                if number == taskspec_pb2.LANGUAGE_UNSPECIFIED
                else render(SERVICE_LANGUAGE_UNDEFINED, n=number)
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
        run = _Run(generator, request.options, call, self._finished, who=who)
        # Woken by the generator's return or by the call's end: cancelled
        # by its caller, past the caller's deadline, or ended by a stop.
        if not context.add_callback(run.wake.set):
            run.wake.set()
        try:
            self._workers.run(run)
        except RuntimeError as err:  # the system has no thread left for it
            self._log.error("%s could not start: %s", who, err)
            context.abort(grpc.StatusCode.UNAVAILABLE, f"{who} could not start: {err}")
        # Past the server's default deadline time_remaining() is 0, and the
        # wait returns at once; None (no deadline at all) waits for an end.
        if not run.wake.wait(call.time_remaining()) or not run.returned.is_set():
            # A generator that watches its call stops about now: give it a
            # moment, so that only one that ignores its call is abandoned.
            run.returned.wait(_SETTLE)
        abandoned = 0
        with self._lock:
            if not run.done:
                run.abandoned = time.monotonic()
                self._abandoned += 1
                abandoned = self._abandoned
            stopping = self._stopping
        error = run.error
        if abandoned or (error is None and call.cancelled):
            # Answered at the call's end, even if a spec came a moment later.
            self._answer_ended(context, call, who, abandoned, stopping=stopping)
        if error is not None:
            self._abort_failed(context, call, who, error)
        spec = run.spec
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

    def _answer_ended(
        self,
        context: grpc.ServicerContext,
        call: CallContext,
        who: str,
        abandoned: int,
        *,
        stopping: bool,
    ) -> Never:
        """Answer a call that ended first; always raises (grpc's abort).

        *abandoned* is how many generators run on after their calls were
        answered, this call's included; 0 if this one has returned.
        """
        if call.time_remaining() == 0:
            code, message, why = (
                grpc.StatusCode.DEADLINE_EXCEEDED,
                "context deadline exceeded",
                "its deadline passed",
            )
        elif stopping:
            # (grpc has ended the call already: its caller gets UNAVAILABLE)
            code, message, why = (
                grpc.StatusCode.UNAVAILABLE,
                "the server is stopping",
                "the server stopped",
            )
        else:
            code, message, why = (
                grpc.StatusCode.CANCELLED,
                "context canceled",
                "its caller gave up",
            )
        if not abandoned:
            context.abort(code, message)
        self._log.warning(
            "%s is still running after its call was answered %s (%s); it is abandoned, "
            "%d of at most %d",
            who,
            code.name,
            why,
            abandoned,
            self._max_abandoned,
        )
        context.abort(code, message)

    def _finished(self, run: _Run) -> None:
        """Record that *run*'s generator returned; the generator's thread calls it."""
        with self._lock:
            run.done = True
            answered = run.abandoned
            if answered is not None:
                self._abandoned -= 1
                left = self._abandoned
        run.returned.set()
        run.wake.set()
        if answered is not None:
            self._log.info(
                "%s returned %.1f s after its call was answered; what it returned is dropped "
                "(%d abandoned still running)",
                run.who,
                time.monotonic() - answered,
                left,
            )

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
    keep the process alive until it is stopped. Generators still running
    when it stops do not: they run in daemon threads, and are abandoned.
    """

    def __init__(
        self,
        server: grpc.Server,
        health_servicer: health.HealthServicer,
        servicer: _GeneratorServicer,
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
    servicer = _GeneratorServicer(
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
