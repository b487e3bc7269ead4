"""The one exception family of taskspec.

A bad document or message makes every public function raise a subclass of
:class:`TaskSpecError` and nothing else, whatever is wrong with it (malformed
or hostile YAML, non-UTF-8, an over-long integer, an out-of-range escape),
so a caller catches one type. Problems reaching a file are not about the
document: :func:`taskspec.load` and :func:`taskspec.save` let
:class:`OSError` through, as any file function does. Problems are reported as structured
:class:`Violation` records (field path, message, and the YAML position when
the problem came from a document), because a person fixing a sidecar needs
to know *where* as much as *what*.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NoReturn

from taskspec._codes import ENCODING, ERROR, LIMIT, WARNING
from taskspec._forms_gen import MSG_ENCODING_LONE_SURROGATE_INPUT, MSG_LIMIT_BYTES
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec._words import render
from taskspec.v1 import problems_pb2, taskspec_pb2

__all__ = [
    "DecodeError",
    "Fix",
    "InvalidDocumentError",
    "TaskSpecError",
    "ValidationError",
    "Violation",
    "require_document",
    "require_task_spec",
]


class _Frozen:
    """A value of slots that cannot change, compared, hashed and pickled by its fields.

    Written out rather than made with dataclasses, whose import (with
    inspect, ast and dis) costs more than the rest of the validate path's
    own modules. A subclass sets its slots with ``object.__setattr__`` and
    gives :meth:`_fields`, its fields in the order its constructor takes
    them.
    """

    __slots__ = ()

    def _fields(self) -> tuple[Any, ...]:
        raise NotImplementedError

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __reduce__(self) -> tuple[type[_Frozen], tuple[Any, ...]]:
        return (self.__class__, self._fields())


class Fix(_Frozen):
    """One safe edit that fixes a problem: the contract's ``taskspec.v1.Fix``.

    ``text`` replaces the characters from (``start_line``, ``start_column``)
    up to, not including, (``end_line``, ``end_column``). Positions are as
    editors count them: 1-based lines broken at ``\\n``, ``\\r\\n`` and
    ``\\r`` only, 1-based columns counted in characters (code points).
    """

    __slots__ = ("end_column", "end_line", "start_column", "start_line", "text")
    __match_args__ = ("text", "start_line", "start_column", "end_line", "end_column")

    text: str
    start_line: int
    start_column: int
    end_line: int
    end_column: int

    def __init__(
        self, text: str, start_line: int, start_column: int, end_line: int, end_column: int
    ) -> None:
        init = object.__setattr__
        init(self, "text", text)
        init(self, "start_line", start_line)
        init(self, "start_column", start_column)
        init(self, "end_line", end_line)
        init(self, "end_column", end_column)

    def _fields(self) -> tuple[str, int, int, int, int]:
        return (self.text, self.start_line, self.start_column, self.end_line, self.end_column)

    def __repr__(self) -> str:
        return (
            f"Fix(text={self.text!r}, start_line={self.start_line!r},"
            f" start_column={self.start_column!r}, end_line={self.end_line!r},"
            f" end_column={self.end_column!r})"
        )

    def to_proto(self) -> problems_pb2.Fix:
        """This fix as the contract's ``taskspec.v1.Fix`` message."""
        return problems_pb2.Fix(
            text=self.text,
            start_line=self.start_line,
            start_column=self.start_column,
            end_line=self.end_line,
            end_column=self.end_column,
        )

    def to_dict(self) -> dict[str, str | int]:
        """This fix as the CLI's JSON writes it."""
        return {
            "text": self.text,
            "start_line": self.start_line,
            "start_column": self.start_column,
            "end_line": self.end_line,
            "end_column": self.end_column,
        }


class Violation(_Frozen):
    """One problem with one field: the contract's Problem model in Python.

    ``field_path`` uses the canonical YAML keys joined by dots, with list
    indices in brackets (``verification.test_cmd[2]``); it is empty for a
    problem with the document as a whole. ``line`` and ``column`` are
    1-based positions in the YAML source, or 0 when there is no position (a
    message that never had a source). ``message`` is what is wrong, in the
    catalogue's words (a broken rule's is the Go package's) and never holds
    the hint; ``hint`` is how to fix it ("did you mean ..."), or "".
    ``fix`` is the one safe edit that fixes it, when there is one (the
    hint's suggestion as data: see :class:`Fix` and
    :func:`taskspec.apply_fixes`), else None.
    ``code`` is the kind of problem, a code of the catalogue
    (:data:`taskspec._codes.CATALOGUE`; ``TS001``: unknown key), or "" when
    none applies; ``severity`` is ``"error"`` or ``"warning"``. Every field
    takes part in comparing violations: the Go library's carry the same
    fields, so the two compare whole.
    """

    __slots__ = ("code", "column", "field_path", "fix", "hint", "line", "message", "severity")
    __match_args__ = (
        "field_path",
        "message",
        "line",
        "column",
        "hint",
        "code",
        "severity",
        "fix",
    )

    field_path: str
    message: str
    line: int
    column: int
    hint: str
    code: str
    severity: str
    fix: Fix | None

    def __init__(  # noqa: PLR0917 - the positional signature the dataclass had
        self,
        field_path: str,
        message: str,
        line: int = 0,
        column: int = 0,
        hint: str = "",
        code: str = "",
        severity: str = ERROR,
        fix: Fix | None = None,
    ) -> None:
        init = object.__setattr__
        init(self, "field_path", field_path)
        init(self, "message", message)
        init(self, "line", line)
        init(self, "column", column)
        init(self, "hint", hint)
        init(self, "code", code)
        init(self, "severity", severity)
        init(self, "fix", fix)

    def _fields(self) -> tuple[str, str, int, int, str, str, str, Fix | None]:
        return (
            self.field_path,
            self.message,
            self.line,
            self.column,
            self.hint,
            self.code,
            self.severity,
            self.fix,
        )

    def __repr__(self) -> str:
        return (
            f"Violation(field_path={self.field_path!r}, message={self.message!r},"
            f" line={self.line!r}, column={self.column!r}, hint={self.hint!r},"
            f" code={self.code!r}, severity={self.severity!r}"
            + (f", fix={self.fix!r})" if self.fix is not None else ")")
        )

    def _moved(self, line: int, column: int) -> Violation:
        """The same violation at another position."""
        return Violation(
            self.field_path,
            self.message,
            line,
            column,
            self.hint,
            self.code,
            self.severity,
            self.fix,
        )

    def _with(
        self,
        *,
        hint: str | None = None,
        severity: str | None = None,
        fix: Fix | None = None,
    ) -> Violation:
        """The same violation with another hint, severity or fix."""
        return Violation(
            self.field_path,
            self.message,
            self.line,
            self.column,
            self.hint if hint is None else hint,
            self.code,
            self.severity if severity is None else severity,
            self.fix if fix is None else fix,
        )

    def __str__(self) -> str:
        """``line L, column C: message; hint``, the position left out when 0, the hint when ""."""
        where = f"line {self.line}, column {self.column}: " if self.line else ""
        hint = f"; {self.hint}" if self.hint else ""
        return f"{where}{self.message}{hint}"

    def to_proto(self) -> problems_pb2.Problem:
        """This violation as the contract's ``taskspec.v1.Problem`` message."""
        return problems_pb2.Problem(
            code=self.code,
            field_path=self.field_path,
            line=self.line,
            column=self.column,
            message=self.message,
            hint=self.hint,
            severity=_SEVERITY_NUMBER.get(self.severity, problems_pb2.SEVERITY_UNSPECIFIED),
            fix=self.fix.to_proto() if self.fix is not None else None,
        )

    @classmethod
    def from_proto(cls, p: problems_pb2.Problem) -> Violation:
        """The violation a ``taskspec.v1.Problem`` carries (an unset severity reads as error)."""
        return cls(
            p.field_path,
            p.message,
            p.line,
            p.column,
            p.hint,
            p.code,
            WARNING if p.severity == problems_pb2.SEVERITY_WARNING else ERROR,
            Fix(
                p.fix.text,
                p.fix.start_line,
                p.fix.start_column,
                p.fix.end_line,
                p.fix.end_column,
            )
            if p.HasField("fix")
            else None,
        )


_SEVERITY_NUMBER: Final = {
    ERROR: problems_pb2.SEVERITY_ERROR,
    WARNING: problems_pb2.SEVERITY_WARNING,
}


class TaskSpecError(ValueError):
    """Base of every error taskspec raises.

    It subclasses :class:`ValueError` because every failure it reports is
    about a bad value (a document or a message), never about the
    environment; I/O problems are :class:`OSError`, not this.
    """

    violations: list[Violation]

    def __init__(self, violations: Sequence[Violation] | str) -> None:
        if isinstance(violations, str):
            violations = [Violation("", violations)]
        self.violations = list(violations)
        super().__init__(self._render())

    def _render(self) -> str:
        if not self.violations:
            return "invalid task spec"
        return str(self.violations[0]) + and_more(len(self.violations) - 1)

    @property
    def line(self) -> int:
        """Line of the first violation (1-based), or 0 when unknown."""
        return self.violations[0].line if self.violations else 0

    @property
    def column(self) -> int:
        """Column of the first violation (1-based), or 0 when unknown."""
        return self.violations[0].column if self.violations else 0

    @property
    def field_path(self) -> str:
        """Field path of the first violation, or "" for the whole document."""
        return self.violations[0].field_path if self.violations else ""


class DecodeError(TaskSpecError):
    """The bytes are not a well-formed TaskSpec document.

    Raised for malformed or hostile YAML, non-UTF-8 input, unknown or
    duplicate keys and values of the wrong type. ``violations`` holds every
    problem of the document (see :func:`taskspec.check`): the one the fast
    reader stopped at first, so that ``str(err)`` names it, then the others
    in document order, broken rules and warnings among them. ``str(err)``
    is the first and ``" (and N more problems)"`` when there are more. A
    document that also breaks a rule raises :class:`InvalidDocumentError`,
    a DecodeError that is a :class:`ValidationError` too.
    """


class ValidationError(TaskSpecError):
    """The TaskSpec is well-formed but breaks a contract rule.

    ``violations`` lists every broken rule, the first the one Go's
    ``Validate`` returns, so ``str(err)`` begins with exactly the Go
    library's message (without its ``taskspec: `` prefix), with no position
    and no hint, and ends with ``" (and N more problems)"`` when there are
    more. A parsed document's warnings follow its broken rules. A document
    that also has a decode problem raises :class:`InvalidDocumentError`,
    which is a ValidationError too.
    """

    def _render(self) -> str:
        # Validation messages carry no position prefix: the first line must
        # equal Go's Validate message, whatever the source of the spec.
        if not self.violations:
            return "invalid task spec"
        return self.violations[0].message + and_more(len(self.violations) - 1)


class InvalidDocumentError(DecodeError, ValidationError):
    """A document with problems of both kinds: one that cannot be read, and a broken rule.

    One mistake raises an error of the same type whatever else is wrong
    with the document: an unknown key, a duplicate key or a value of the
    wrong type makes it a :class:`DecodeError`, and a broken rule (an
    invalid language, a missing ``task_id``) a :class:`ValidationError`. A
    document with both raises this class, which is both, so that
    ``except ValidationError`` catches a bad language whether or not a typo
    sits beside it. ``violations`` holds every problem, the first a decode
    problem, and ``str()`` is a :class:`DecodeError`'s. The Go library's
    ``*DecodeError`` is found as a ``*ValidationError`` by ``errors.As`` in
    the same case.
    """

    _render = TaskSpecError._render


def and_more(more: int) -> str:
    """What an error's text adds after its first problem when it holds *more* others.

    ``" (and 1 more problem)"``, ``" (and 5 more problems)"``, or ``""`` for
    none: the words of the Go library's errors and of both libraries'
    GeneratorService statuses.
    """
    if more <= 0:
        return ""
    return f" (and {more} more problem{'s' if more > 1 else ''})"


def require_task_spec(spec: object) -> None:
    """Raise :class:`TaskSpecError` unless *spec* is a ``taskspec.v1.TaskSpec``.

    Every public function that takes a message checks it first, so that a
    wrong argument (a dict, another message type) is reported in this
    family's terms rather than as a protobuf ``AttributeError`` deep inside.
    """
    if not isinstance(spec, taskspec_pb2.TaskSpec):
        raise TaskSpecError(f"expected a taskspec.v1.TaskSpec, got {type(spec).__name__}")


def require_document(data: object) -> bytes:
    """*data* as a document's bytes, or :class:`DecodeError` if it cannot be one.

    Every reader (YAML, JSON, binary) takes its input through here, so a
    wrong type, text that cannot be written as UTF-8 (a lone surrogate) and
    a document over :data:`~taskspec._limits.MAX_DOCUMENT_BYTES` are refused
    the same way whatever the format. Text is measured as its UTF-8 bytes.
    """
    if isinstance(data, str):
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError as err:
            message = render(MSG_ENCODING_LONE_SURROGATE_INPUT, n=err.start)
            raise DecodeError([Violation("", message, code=ENCODING)]) from None
    elif isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
    else:
        raise DecodeError(f"expected bytes or str, got {type(data).__name__}")
    if len(raw) > MAX_DOCUMENT_BYTES:
        message = render(MSG_LIMIT_BYTES, n=MAX_DOCUMENT_BYTES)
        raise DecodeError([Violation("", message, code=LIMIT)])
    return raw
