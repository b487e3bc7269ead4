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
  generator calls (``max_concurrent_calls`` of :func:`serve`), or, on a
  Python server, its limit of generators still running after their calls
  were answered (``max_abandoned_calls``): the one code that invites a
  retry later;
- ``INTERNAL``: the generator raised anything else, ``SystemExit`` and
  ``KeyboardInterrupt`` included (the message carries the exception's type
  and message, never its traceback, which is logged on the server), or
  returned no TaskSpec at all;
- ``DEADLINE_EXCEEDED`` and ``CANCELLED``: the call's deadline passed, or
  the caller gave up, first. The answer comes then, whether or not the
  generator has returned. A served generator sees the deadline and the
  cancellation through :func:`current_call`;
- ``UNAVAILABLE``: the server stopped, and the call was still running
  after the grace period :meth:`GeneratorServer.stop` gave it.

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

The code lives in private modules, one concern each; this module is the
public face and re-exports their public names:

- ``taskspec._remote_status``: the mapping between errors and status codes
  that both ends share: :class:`RemoteError`, :class:`RemoteValidationError`,
  :class:`GeneratorError`, the problems as status details and their bounds,
  the message limits (:data:`MAX_MESSAGE_BYTES`, :data:`MESSAGE_OPTIONS`) and
  the check of a generated spec that both ends run;
- ``taskspec._remote_call``: :class:`CallContext` and :func:`current_call`,
  the served call's deadline and cancellation, which the server sets and a
  client inside a served call passes on;
- ``taskspec._remote_client``: :class:`RemoteGenerator`,
  :func:`list_languages` and :data:`DEFAULT_TIMEOUT`;
- ``taskspec._remote_server``: :func:`serve`, :class:`GeneratorServer`, the
  servicer behind it, :data:`SERVICE_NAME`, :data:`DEFAULT_ADDRESS` and
  :data:`DEFAULT_MAX_CONCURRENT_CALLS` and
  :data:`DEFAULT_MAX_ABANDONED_CALLS`.

This module needs the optional ``grpc`` extra (``pip install
'taskspec[grpc]'``): grpcio, grpcio-health-checking and
googleapis-common-protos (for ``google.rpc.Status``). ``import taskspec``
never imports it, so the rest of the package works without grpc.
"""

from __future__ import annotations

# The extra is checked here, before the modules that use it are imported, so
# that any missing piece of it says what to install.
try:
    import grpc  # noqa: F401
    from google.rpc import status_pb2  # noqa: F401
    from grpc_health.v1 import health, health_pb2, health_pb2_grpc  # noqa: F401
except ImportError as err:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"taskspec.remote needs the grpc extra: pip install 'taskspec[grpc]' ({err})"
    ) from err

from taskspec._remote_call import CallContext, current_call
from taskspec._remote_client import DEFAULT_TIMEOUT, RemoteGenerator, list_languages
from taskspec._remote_server import (
    DEFAULT_ADDRESS,
    DEFAULT_MAX_ABANDONED_CALLS,
    DEFAULT_MAX_CONCURRENT_CALLS,
    EXIT_GRACE,  # noqa: F401 - public before the split, though never in __all__
    SERVICE_NAME,
    GeneratorServer,
    serve,
)
from taskspec._remote_status import (
    MAX_MESSAGE_BYTES,
    MESSAGE_OPTIONS,
    GeneratorError,
    RemoteError,
    RemoteValidationError,
)

__all__ = [
    "DEFAULT_ADDRESS",
    "DEFAULT_MAX_ABANDONED_CALLS",
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
