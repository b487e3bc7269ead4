"""The catalogue of problems, read from ``proto/taskspec/v1/problems.proto``.

A code names what kind of problem a :class:`~taskspec.Violation` reports,
so that CI, editors and scripts can count, filter or silence problems
without matching on messages. The catalogue (every code, its title,
severity, message and hint forms, and its explanation with an example) is
declared once, as the values of the ``taskspec.v1.ProblemCode`` enum and
their ``(taskspec.v1.problem)`` options; this module only reads it, so a new
code is one edit to the proto. Value N is code ``TS`` + N in three digits.

The ``TS1xx`` codes of the kinds of constraint added after v1's first
release are not ProblemCode values: each kind declares its own entry in
``options.proto`` (``(taskspec.v1.constraint).problem``), and the catalogue
holds it by the kind's code, named as the constraint is (``max_len``).

``TS0xx`` are documents that cannot be read as a TaskSpec, ``TS1xx``
broken contract rules (``Validate``'s, one code per kind of constraint),
``TS2xx`` what ``taskspec fmt`` refuses, ``TS3xx`` warnings about a valid
spec, and ``TS9xx`` problems with the file rather than its content.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from taskspec._contract import constraint_kinds
from taskspec.v1 import problems_pb2

__all__ = [
    "ANCHOR_ALIAS_TAG",
    "ARTIFACT_PATH",
    "BAD_ESCAPE",
    "BINARY_SYNTAX",
    "BLOCK_SCALAR_HEADER",
    "CANNOT_START_VALUE",
    "CATALOGUE",
    "CODES",
    "COMMENT",
    "COMMENT_IN_VALUE",
    "CONTROL_CHARACTER",
    "DIRECTIVE",
    "DUPLICATE_KEY",
    "ENCODING",
    "ERROR",
    "INDENTATION",
    "INTERNAL",
    "JSON_SYNTAX",
    "LIMIT",
    "MAPPING_VALUE",
    "NOT_READABLE",
    "PROMPT_HAS_COMMAND",
    "RAW_LINE_BREAK",
    "SYNTAX",
    "TAB_INDENT",
    "TOO_LARGE",
    "UNCHANGED",
    "UNCLOSED_FLOW",
    "UNCLOSED_QUOTE",
    "UNKNOWN_KEY",
    "UNREADABLE_CODES",
    "UNSUPPORTED",
    "WARNING",
    "WRONG_TYPE",
    "YAML_BYTE_ORDER_MARK",
    "YAML_LINE_BREAK",
    "Kind",
    "code_of",
    "explain",
]

#: A problem's severity, as the CLI's JSON and :class:`~taskspec.Violation` spell it.
ERROR: Final = "error"
WARNING: Final = "warning"

_ENUM: Final[Any] = problems_pb2.ProblemCode.DESCRIPTOR
_EXT: Final[Any] = problems_pb2.problem
_PREFIX: Final = "PROBLEM_CODE_"
_SEVERITY: Final[Mapping[int, str]] = {
    problems_pb2.SEVERITY_ERROR: ERROR,
    problems_pb2.SEVERITY_WARNING: WARNING,
}


def code_of(number: int) -> str:
    """The code of ProblemCode value *number*: ``1`` is ``"TS001"``."""
    return f"TS{number:03d}"


class Kind:
    """One entry of the catalogue: a ProblemCode value or a constraint kind, and its options."""

    __slots__ = (
        "code",
        "example",
        "explanation",
        "fixed",
        "hint_forms",
        "hints",
        "message_forms",
        "messages",
        "name",
        "reasons",
        "severity",
        "stage",
        "title",
    )

    def __init__(self, number: int, name: str, kind: Any) -> None:
        self.code: str = code_of(number)
        #: The value's name without its prefix, lower case (``"unknown_key"``),
        #: or the constraint's field name (``"max_len"``).
        self.name: str = name
        self.title: str = kind.title
        self.severity: str = _SEVERITY.get(kind.severity, "")
        self.stage: str = kind.stage
        #: Every form of its message, by id, in the catalogue's order.
        self.message_forms: Mapping[str, str] = MappingProxyType(
            {f.id: f.text for f in kind.message_forms}
        )
        #: Every form of its hint, by id.
        self.hint_forms: Mapping[str, str] = MappingProxyType(
            {f.id: f.text for f in kind.hint_forms}
        )
        #: The sentences its messages' {reason} is filled in with, by id.
        self.reasons: Mapping[str, str] = MappingProxyType({f.id: f.text for f in kind.reasons})
        self.messages: tuple[str, ...] = tuple(self.message_forms.values())
        self.hints: tuple[str, ...] = tuple(self.hint_forms.values())
        self.explanation: str = kind.explanation
        self.example: str = kind.example
        self.fixed: str = kind.fixed

    def __repr__(self) -> str:
        return f"Kind({self.code} {self.name}: {self.title})"


def _entries() -> list[Kind]:
    """Every ProblemCode value's entry and every constraint kind's own, by number."""
    found: dict[int, Kind] = {
        v.number: Kind(
            v.number, v.name.removeprefix(_PREFIX).lower(), v.GetOptions().Extensions[_EXT]
        )
        for v in _ENUM.values
        if v.number != problems_pb2.PROBLEM_CODE_UNSPECIFIED
    }
    for declared in constraint_kinds():
        if declared.problem is not None and declared.number not in found:
            found[declared.number] = Kind(declared.number, declared.field.name, declared.problem)
    return [found[number] for number in sorted(found)]


#: Every kind of problem, by code, in code order: the ProblemCode values and
#: the constraint kinds that declare their own entry.
CATALOGUE: Final[Mapping[str, Kind]] = MappingProxyType({k.code: k for k in _entries()})

#: Every code with its title (the table of docs/contract.md).
CODES: Final[Mapping[str, str]] = MappingProxyType({c: k.title for c, k in CATALOGUE.items()})


def _code(name: str) -> str:
    return code_of(_ENUM.values_by_name[_PREFIX + name].number)


UNKNOWN_KEY: Final = _code("UNKNOWN_KEY")
DUPLICATE_KEY: Final = _code("DUPLICATE_KEY")
WRONG_TYPE: Final = _code("WRONG_TYPE")
UNSUPPORTED: Final = _code("UNSUPPORTED")
SYNTAX: Final = _code("SYNTAX")
LIMIT: Final = _code("LIMIT")
COMMENT: Final = _code("COMMENT")
ARTIFACT_PATH: Final = _code("ARTIFACT_PATH")
NOT_READABLE: Final = _code("NOT_READABLE")
UNCHANGED: Final = _code("UNCHANGED")
INTERNAL: Final = _code("INTERNAL")
UNSUPPORTED_FORMAT: Final = _code("UNSUPPORTED_FORMAT")
ENCODING: Final = _code("ENCODING")
CONTROL_CHARACTER: Final = _code("CONTROL_CHARACTER")
TAB_INDENT: Final = _code("TAB_INDENT")
CANNOT_START_VALUE: Final = _code("CANNOT_START_VALUE")
UNCLOSED_QUOTE: Final = _code("UNCLOSED_QUOTE")
UNCLOSED_FLOW: Final = _code("UNCLOSED_FLOW")
MAPPING_VALUE: Final = _code("MAPPING_VALUE")
INDENTATION: Final = _code("INDENTATION")
BAD_ESCAPE: Final = _code("BAD_ESCAPE")
BLOCK_SCALAR_HEADER: Final = _code("BLOCK_SCALAR_HEADER")
DIRECTIVE: Final = _code("DIRECTIVE")
ANCHOR_ALIAS_TAG: Final = _code("ANCHOR_ALIAS_TAG")
JSON_SYNTAX: Final = _code("JSON_SYNTAX")
BINARY_SYNTAX: Final = _code("BINARY_SYNTAX")
TOO_LARGE: Final = _code("TOO_LARGE")
YAML_LINE_BREAK: Final = _code("YAML_LINE_BREAK")
RAW_LINE_BREAK: Final = _code("RAW_LINE_BREAK")
PROMPT_HAS_COMMAND: Final = _code("PROMPT_HAS_COMMAND")
COMMENT_IN_VALUE: Final = _code("COMMENT_IN_VALUE")
YAML_BYTE_ORDER_MARK: Final = _code("YAML_BYTE_ORDER_MARK")

#: The codes of YAML that cannot be read at all, reported alone.
UNREADABLE_CODES: Final = frozenset(
    {
        SYNTAX,
        ENCODING,
        CONTROL_CHARACTER,
        LIMIT,
        TAB_INDENT,
        CANNOT_START_VALUE,
        UNCLOSED_QUOTE,
        UNCLOSED_FLOW,
        MAPPING_VALUE,
        INDENTATION,
        BAD_ESCAPE,
        BLOCK_SCALAR_HEADER,
        DIRECTIVE,
        ANCHOR_ALIAS_TAG,
    }
)


def explain(code: str) -> str:
    """The explanation of *code*, as ``taskspec explain`` prints it.

    Raises :class:`KeyError` for a code the catalogue does not have.
    """
    kind = CATALOGUE[code.upper()]
    parts = [
        f"{kind.code} ({kind.name}): {kind.title}",
        f"Severity: {kind.severity}. Reported by: {kind.stage}.",
        "",
        kind.explanation,
        "",
        "Messages:",
        *(f"    {m}" for m in kind.messages),
    ]
    if kind.hints:
        parts += ["", "Hints:", *(f"    {h}" for h in kind.hints)]
    if kind.reasons:
        parts += ["", "Reasons:", *(f"    {r}" for r in kind.reasons.values())]
    parts += ["", "Example:", *_indented(kind.example), "", "Fixed:", *_indented(kind.fixed)]
    return "\n".join(parts) + "\n"


def _indented(text: str) -> list[str]:
    return [f"    {line}" if line else "" for line in text.rstrip("\n").split("\n")]
