"""The servicer of the GeneratorService: each call run, bounded and answered.

:class:`Servicer` answers ``Generate`` and ``ListLanguages`` from a Registry,
within the limits on calls in flight and on generators left running past
their answers (a call beyond either is refused, never queued). Each generator
runs in a daemon thread of the server's own, never in one of gRPC's workers,
which answers at the call's deadline (the caller's, or the server's default),
when the caller gives up or when the server stops. A generator that runs on
is abandoned: counted, logged to ``taskspec.remote``, its result dropped, and
unable to keep the process alive. Failures are answered as
:mod:`taskspec._remote_status` maps them.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Final, Never

import grpc

from taskspec._enums import Language
from taskspec._errors import Violation
from taskspec._forms_gen import (
    SERVICE_BUSY_CALLS,
    SERVICE_BUSY_GENERATORS,
    SERVICE_LANGUAGE_REQUIRED,
    SERVICE_LANGUAGE_UNDEFINED,
)
from taskspec._registry import Generator, Registry
from taskspec._remote_call import _CURRENT, CallContext
from taskspec._remote_status import (
    _DEFINED,
    _PASSED_CODES,
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
from taskspec.v1 import taskspec_pb2

# How long a call that has ended waits for its generator to return before
# answering without it: long enough for one that watches current_call() to
# stop and be answered with its own result.
_SETTLE: Final = 0.05

# How long a thread that ran a generator waits for the next before it ends.
_IDLE_SECONDS: Final = 60.0

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


class Servicer:
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
