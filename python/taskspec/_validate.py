"""Validate: run the structural rules of the TaskSpec contract.

The rules, their order and their wording are the Go package's
(``TaskSpec.Validate``), because services on both sides must agree on which
sidecars are acceptable and tell people the same thing about the ones that
are not. They are listed once, in :data:`taskspec._rules.RULES`; this module
compiles that table into a tight loop, since :func:`check` runs on every
parse. Go stops at the first failure; this layer collects every failure in
Go's order, so the first one is exactly Go's message and the rest save a
person a round trip per mistake.

After the Go package's rules comes the contract's own (TS107): a spec whose
canonical YAML is over the document limit is not valid, since no reader
could read it back; it is measured only when a cheap bound on its size
says it could be.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from taskspec import _rules
from taskspec._codes import TOO_LARGE
from taskspec._errors import TaskSpecError, ValidationError, Violation, require_task_spec
from taskspec._forms_gen import MSG_TOO_LARGE_TOO_LARGE
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec._rules import CURRENT_TASK_SPEC_VERSION
from taskspec._suggest import suggest
from taskspec._words import render
from taskspec.bridge import _layout
from taskspec.bridge._fixes import replace_at
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import taskspec_pb2

__all__ = ["CURRENT_TASK_SPEC_VERSION", "check", "signal_keys", "validate"]

Position = tuple[int, int]

_NOWHERE: Final[Position] = (0, 0)
_NO_TEXT: Final[Mapping[str, str]] = {}


#: What reporting a broken rule needs: its path, the enum's spellings when
#: the field is an enum, Go's message as a function of the value, and the
#: code of the rule's kind (:data:`taskspec._rules.KIND_CODES`).
_Report = tuple[str, _layout.EnumInfo | None, Callable[[Any], str], str]
#: One rule compiled: its test (truthy when a value keeps it) and its report.
_Test = tuple[Callable[[Any], object], _Report]


def _compile(rule: _rules.Rule) -> _Test:
    fi = _rules.field_info(rule.path)
    enum = None if rule.item else fi.enum
    message = _rules.formatter(rule)
    if fi.kind is _layout.Kind.STRING_LIST and not rule.item:
        message = _by_length(message)  # a list's message shows its length
    return _rules.passes(rule), (rule.path, enum, message, rule.code)


def _by_length(message: Callable[[Any], str]) -> Callable[[Any], str]:
    return lambda value: message(len(value))


#: A compiled table: see :func:`_plan`.
Plan = tuple[tuple[Callable[[Any], Any], Callable[[Any], object], _Report, tuple[_Test, ...]], ...]


def _plan(rules: tuple[_rules.Rule, ...]) -> Plan:
    """The table in Go's order, compiled for the hot path.

    One entry per rule of a field itself: (read the field from a TaskSpec,
    truthy when its value keeps the rule, what a report needs, ()), so that
    a valid spec costs two C-level calls per rule; and one entry per list
    whose items have rules, after the list's own: (read the list, a test
    every list fails, so that its items are always looked at, its report,
    the item rules compiled), which are run item by item, each item's rules
    in order.
    """
    out: list[tuple[Callable[[Any], Any], Callable[[Any], object], _Report, list[_Test]]] = []
    items: dict[str, list[_Test]] = {}
    for rule in rules:
        test, report = _compile(rule)
        if not rule.item:
            out.append((_rules.getter(rule), test, report, []))
            continue
        if rule.path not in items:
            # A list's item rules come right after its own rules.
            items[rule.path] = []
            out.append((_rules.getter(rule), _never, report, items[rule.path]))
        items[rule.path].append((test, report))
    return tuple((read, test, report, tuple(tests)) for read, test, report, tests in out)


def _never(_value: object) -> bool:
    return False  # marks a list whose items are checked; never reported itself


_PLAN: Final = _plan(_rules.RULES)


def _enum_text(info: _layout.EnumInfo, number: int) -> str:
    """Go's text for an enum number: ``""`` for UNSPECIFIED, the digits of an undefined one."""
    spelled = info.to_string.get(number)
    return str(number) if spelled is None else spelled


def check(
    spec: taskspec_pb2.TaskSpec,
    raw_enums: Mapping[str, str] | None = None,
    positions: Mapping[str, Position] | None = None,
    *,
    canonical: bool = False,
    written: bytes | None = None,
    source: str = "",
) -> list[Violation]:
    """Every contract violation of *spec*, in Go's order (that of :data:`_rules.RULES`).

    ``raw_enums`` maps a field path to the enum text a document held when
    that text is not a known value (a proto enum cannot keep ``cobol``, so
    the decoder hands it over here); ``positions`` maps field paths to the
    (line, column) of their values, so violations of a parsed document say
    where to look. ``canonical`` says that *spec* was read from its own
    canonical YAML by the fast reader, which takes no text over the
    document limit: its canonical YAML is within the limit, and the size
    rule (TS107) is not worked out. ``written`` is that YAML when a writer
    holds it already, measured rather than written again. ``source``, the
    document's text as the positions count in, gives a misspelt enum value
    written plain its fix.
    """
    found = broken(_PLAN, spec, raw_enums, positions, source)
    too_large = None
    if written is not None:
        too_large = _size_problem(len(written))
    elif not canonical and _could_be_too_large(spec):
        too_large = _too_large(spec)
    if too_large is not None:
        found.append(too_large)
    return found


def _item_violations(
    value: Any, tests: tuple[_Test, ...], positions: Mapping[str, Position] | None
) -> list[Violation]:
    """The broken item rules of a list, item by item, each item's rules in order."""
    found: list[Violation] = []
    for i, item in enumerate(value):
        for passes, (path, _enum, message, code) in tests:
            if passes(item):
                continue
            where = f"{path}[{i}]"
            line, column = _NOWHERE
            if positions:
                line, column = positions.get(where) or positions.get(path, _NOWHERE)
            found.append(Violation(where, message(item), line, column, "", code))
    return found


def broken(
    plan: Plan,
    spec: taskspec_pb2.TaskSpec,
    raw_enums: Mapping[str, str] | None = None,
    positions: Mapping[str, Position] | None = None,
    source: str = "",
) -> list[Violation]:
    """The broken rules of *plan* (as :func:`_plan` compiles them) in *spec*, in order.

    With the document's *source*, a misspelt enum value written plain gets
    the fix that writes the likely value in its place.
    """
    raw = raw_enums or _NO_TEXT
    found: list[Violation] = []
    for read, passes, report, items in plan:
        value = read(spec)
        if passes(value) and not (raw and report[0] in raw):
            continue
        if items:
            found.extend(_item_violations(value, items, positions))
            continue
        path, enum, message, code = report
        hint = ""
        guess = None
        if enum is not None:
            text = raw.get(path)
            if text is None:
                value = _enum_text(enum, value)
            else:
                value = text
                # Only text from a document can be misspelled; the suggestion
                # is a hint because the message itself must stay Go's.
                guess = suggest(text, enum.from_string)
                if guess is not None:
                    hint = f"did you mean {go_quote(guess)}?"
        line, column = positions.get(path, _NOWHERE) if positions else _NOWHERE
        fix = replace_at(source, line, column, value, guess) if guess and source else None
        found.append(Violation(path, message(value), line, column, hint, code, fix=fix))
    return found


#: The most bytes of canonical YAML one byte of a spec's binary encoding can
#: become: an escape (``\x07`` for one byte), a line break and its
#: indentation in a block scalar (``a`` and a line break nested three levels
#: deep are 14 bytes), an empty list item's ``- ""`` for its two bytes. The
#: binary size bounds the strings' UTF-8 bytes and counts every list item
#: and map entry, and protobuf computes it in C.
_WORST_YAML_PER_BINARY_BYTE: Final = 16
#: Everything a spec's YAML has that its binary encoding does not count:
#: the keys of its fields and enum spellings.
_FIXED_BYTES: Final = 16_384


def _size_bound(spec: taskspec_pb2.TaskSpec) -> int:
    """A number *spec*'s canonical YAML is never longer than, from its binary size.

    Like the Go library's (``sizeBound``, ``go/docsize.go``), it only spares
    the writing of a spec far under the limit: the decision and the size in
    the message are always the exact length's, so the two libraries decide
    alike whatever their bounds.
    """
    return spec.ByteSize() * _WORST_YAML_PER_BINARY_BYTE + _FIXED_BYTES


def _could_be_too_large(spec: taskspec_pb2.TaskSpec) -> bool:
    """Whether *spec*'s canonical YAML could be over MAX_DOCUMENT_BYTES: a cheap upper bound.

    A spec of ordinary size, by far the common case, is never written out
    to be measured.
    """
    return _size_bound(spec) > MAX_DOCUMENT_BYTES


def _too_large(spec: taskspec_pb2.TaskSpec) -> Violation | None:
    """The TS107 problem of *spec* if its canonical YAML is over MAX_DOCUMENT_BYTES."""
    from taskspec.bridge._emit import marshal  # noqa: PLC0415 - only a huge spec needs it

    try:
        size = len(marshal(spec))
    except TaskSpecError:
        return None  # not writable at all (an undefined enum): a rule says so already
    return _size_problem(size)


def _size_problem(size: int) -> Violation | None:
    """The TS107 problem of a spec whose canonical YAML is *size* bytes, if over the limit."""
    if size <= MAX_DOCUMENT_BYTES:
        return None
    message = render(MSG_TOO_LARGE_TOO_LARGE, n=size, limit=MAX_DOCUMENT_BYTES)
    return Violation("", message, code=TOO_LARGE)


def validate(spec: taskspec_pb2.TaskSpec) -> None:
    """Check *spec* against the contract; raise :class:`ValidationError` if it fails.

    ``err.violations`` lists every broken rule in Go's order and ``str(err)``
    begins with the first one in Go's wording (less Go's ``eval: `` prefix).
    Like Go, it does not check that referenced files or symbols exist.
    """
    try:
        require_task_spec(spec)
    except TaskSpecError as err:
        raise ValidationError([Violation("", str(err))]) from None
    violations = check(spec)
    if violations:
        raise ValidationError(violations)


def signal_keys(spec: taskspec_pb2.TaskSpec) -> list[str]:
    """The difficulty-signal keys in Go's ``SignalKeys()`` order (byte order).

    Code-point order of Python strings equals the byte order of their UTF-8
    encoding, which is what Go's ``sort.Strings`` uses. This differs from the
    key order of the canonical YAML, which follows yaml.v3's own rules.
    """
    require_task_spec(spec)
    return sorted(spec.difficulty_signals)
