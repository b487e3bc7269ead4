"""The client end of the GeneratorService: :class:`RemoteGenerator` and :func:`list_languages`.

Everything that calls a server lives here: the channel it opens (with
:data:`~taskspec.remote.MESSAGE_OPTIONS`), each call's deadline (its own
:data:`DEFAULT_TIMEOUT`, shortened to what a served call has left, see
:mod:`taskspec._remote_call`), and the check of the spec a server returns,
so that a server that does not keep the contract cannot get an invalid spec
into this process. A failed call's status becomes an exception through
:mod:`taskspec._remote_status`, the mapping the server uses the other way.
:mod:`taskspec.remote` re-exports the public names; this module is private.
"""

from __future__ import annotations

import time
from types import TracebackType
from typing import Final, Self

import grpc

from taskspec._enums import Language
from taskspec._errors import TaskSpecError
from taskspec._forms_gen import SERVICE_NO_SPEC
from taskspec._remote_call import _CURRENT, _check_timeout
from taskspec._remote_status import (
    MESSAGE_OPTIONS,
    RemoteError,
    RemoteValidationError,
    _proto,
    _rpc_error,
    _spec_problems,
)
from taskspec._words import render
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import generator_service_pb2 as service_pb2
from taskspec.v1 import generator_service_pb2_grpc as service_grpc
from taskspec.v1 import taskspec_pb2

#: The deadline, in seconds, of a :class:`RemoteGenerator` call or a
#: :func:`list_languages` call unless told otherwise.
DEFAULT_TIMEOUT: Final = 60.0


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
            raise RemoteError(grpc.StatusCode.INTERNAL, render(SERVICE_NO_SPEC, who=self._target))
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
