"""The mapping between errors and gRPC status codes, shared by both ends of the GeneratorService.

On the server, a generator's failure or a spec that breaks the contract
becomes a status: a code, a message and, for problems, a
``taskspec.v1.Problems`` in the ``grpc-status-details-bin`` trailer. On the
client, a status becomes a :class:`RemoteError` or a
:class:`RemoteValidationError`. Both directions live here, with the
exceptions, the message limits and the check of a generated spec that both
ends run, so that what the server sends and what the client reads cannot
drift apart, and so that the codes and bounds the Go side keeps alike are in
one place. :mod:`taskspec.remote` re-exports the public names and states the
status-code contract; this module is private.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from concurrent import futures
from typing import Final, Never, cast

import grpc
from google.protobuf.message import DecodeError
from google.rpc import status_pb2

from taskspec._api import validate
from taskspec._codes import code_of
from taskspec._enums import Language
from taskspec._errors import TaskSpecError, ValidationError, Violation, and_more
from taskspec._forms_gen import (
    MSG_DEFINED_NOT_ASKED,
    SERVICE_INVALID_SPEC,
    SERVICE_OVER_LIMIT,
    SERVICE_OVER_OUR_LIMIT,
    SERVICE_WRONG_LANGUAGE,
)
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec._words import render
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import problems_pb2, taskspec_pb2

#: The largest message a GeneratorService server or client of taskspec.remote
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
        return render(SERVICE_INVALID_SPEC, who=who, problems=_listed(kept, left)), kept
    if spec.language != _proto(language):
        got, want = _language_name(spec.language), go_quote(language.value)
        return (
            render(SERVICE_WRONG_LANGUAGE, who=who, got=got, want=want),
            [
                Violation(
                    "language",
                    render(MSG_DEFINED_NOT_ASKED, value=got, want=want),
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
    return listed + and_more(left)


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
    if limit == MAX_MESSAGE_BYTES:
        return render(SERVICE_OVER_OUR_LIMIT, size=size, limit=limit, document=MAX_DOCUMENT_BYTES)
    return render(SERVICE_OVER_LIMIT, size=size, limit=limit)
