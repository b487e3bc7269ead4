"""The call a served generator is serving: its deadline and cancellation, for both ends.

The server (:mod:`taskspec._remote_server`) sets a :class:`CallContext` for
the duration of each generator call; the generator reads it through
:func:`current_call`; and a :class:`~taskspec.remote.RemoteGenerator`
(:mod:`taskspec._remote_client`) used inside a served call takes the call's
remaining time as its own deadline, so that a chain of servers shares one
deadline. It is a module of its own so that the client reads the call
without importing the server. The one check of a timeout argument, which
:func:`~taskspec.remote.serve` and the client both make, is here too.
:mod:`taskspec.remote` re-exports the public names; this module is private.
"""

from __future__ import annotations

import contextvars
import math
import threading
import time
from typing import Final

import grpc

from taskspec._errors import TaskSpecError

# A deadline further away than this is no deadline: grpc reports "none" as
# a time far in the future rather than as a missing value.
_NO_DEADLINE_SECONDS: Final = 10 * 365 * 24 * 3600.0


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


def _check_timeout(timeout: float | None, name: str = "timeout") -> None:
    if timeout is not None and not (
        isinstance(timeout, int | float) and timeout > 0 and math.isfinite(timeout)
    ):
        raise TaskSpecError(f"{name} must be a positive number of seconds, got {timeout!r}")
