"""The rules of ``Validate``, as one table that every consumer reads.

The rules are declared in the proto, each on the field it checks, as the
field's ``(taskspec.v1.field).rules``: constraints of the kinds
``options.proto`` declares (``StringRules.not_blank``, ``Int64Rules.at_least``,
...), each with its bound and the Go package's exact message. This module
reads them from the descriptors into :data:`RULES`, in Validate's order: the
fields in a depth-first walk of TaskSpec by field number (the order of Go's
checks), a field's constraints in the declaration order of its rules
message, then the constraints of each item of a list. Each rule has:

* the field it checks, as the canonical YAML path (``generated_from.kind``);
* its kind, the constraint's full proto name, whose test, JSON Schema
  fragment and samples are :data:`taskspec._constraints.IMPLEMENTATIONS`';
* its bound, where the kind takes one, and its code (the kind's);
* the message, in Go's exact wording, written as Go's format string: its
  verbs (``%d``, ``%q``) take the offending value, then the bound;
* whether it applies to each item of a list rather than to the field;
* whether it applies only when the field is set (``FieldRules.ignore``'s
  ``IGNORE_IF_ZERO_VALUE``): a field holding its zero value, or left out,
  keeps it.

:func:`taskspec._validate.check` runs the table on every parse,
:mod:`taskspec._jsonschema` builds the schema from it (``make schema``), and
``tests/conformance/rule_cases.py`` exports cases from it to
``go/testdata/validate_rules.json``, which the Go library's tests run
against its ``Validate``, built from the same options. Each rule is checked
against its field at import, so a message whose verbs do not fit the rule
fails at once rather than at the first document.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Final

from taskspec._constraints import IMPLEMENTATIONS, Implementation
from taskspec._contract import constraint_kinds, field_contract, kind_fits, reachable_fields
from taskspec.bridge import _layout
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import options_pb2

__all__ = [
    "BY_FIELD",
    "CURRENT_TASK_SPEC_VERSION",
    "KIND_CODES",
    "RULES",
    "Rule",
    "field_info",
    "formatter",
    "getter",
    "passes",
    "shown_message",
    "when_set",
]

#: Each declared kind's code (``TS104``), by the kind's full proto name.
KIND_CODES: Final[Mapping[str, str]] = MappingProxyType(
    {kind.name: f"TS{kind.number:03d}" for kind in constraint_kinds()}
)
#: The kinds that take a bound.
_BOUNDED: Final = frozenset(kind.name for kind in constraint_kinds() if kind.bounded)


class Rule:
    """One rule of ``Validate``: a constraint of a kind, set on a field (or on its items).

    ``kind`` is the constraint's full proto name
    (``taskspec.v1.Int64Rules.at_least``), ``name`` its short one
    (``at_least``); ``bound`` is None for a kind without one; ``item`` says
    the rule applies to each item of the list at ``path``; ``ignore_zero``
    that it applies only when the field holds more than its zero value
    (never set on an item rule); ``code`` is the kind's catalogue code.
    """

    # A plain class rather than a dataclass: importing dataclasses (with
    # inspect, ast and dis) costs more than the rest of the validate path's
    # own modules. Rules are never changed after they are made.
    def __init__(
        self,
        path: str,
        kind: str,
        message: str,
        *,
        bound: int | None = None,
        item: bool = False,
        ignore_zero: bool = False,
    ) -> None:
        self.path = path
        self.kind = kind
        self.message = message
        self.bound = bound
        self.item = item
        self.ignore_zero = ignore_zero and not item
        self.name = kind.rsplit(".", 1)[-1]
        self.code = KIND_CODES.get(kind, "")

    def __repr__(self) -> str:
        item = ", item=True" if self.item else ""
        item += ", ignore_zero=True" if self.ignore_zero else ""
        return f"Rule(path={self.path!r}, kind={self.kind!r}{item}, message={self.message!r})"

    @property
    def implementation(self) -> Implementation:
        """The kind's implementation (:data:`taskspec._constraints.IMPLEMENTATIONS`)."""
        return IMPLEMENTATIONS[self.kind]

    def format(self, value: int | str) -> str:
        """The message for a field holding *value*, as Go's ``fmt.Sprintf`` writes it."""
        return formatter(self)(value)


def _from_rules(
    path: str, rules: Any, item: bool = False, ignore_zero: bool = False
) -> Iterator[Rule]:
    """The rules one rules message sets, in its declaration order, then its items'."""
    items: Any = None
    for fd in rules.DESCRIPTOR.fields:
        if not rules.HasField(fd.name):
            continue
        value = getattr(rules, fd.name)
        if fd.full_name not in KIND_CODES:
            items = value  # RepeatedRules.items: each item's, after the list's own
            continue
        bound = int(value.value) if fd.full_name in _BOUNDED else None
        yield Rule(
            path, fd.full_name, value.message, bound=bound, item=item, ignore_zero=ignore_zero
        )
    if items is not None:
        yield from _from_rules(path, items, item=True)


def _field_rules(contract: options_pb2.FieldContract, path: str) -> Iterator[Rule]:
    which = contract.rules.WhichOneof("type")
    if which is not None:
        ignore_zero = contract.rules.ignore == options_pb2.IGNORE_IF_ZERO_VALUE
        yield from _from_rules(path, getattr(contract.rules, which), ignore_zero=ignore_zero)


#: Validate's rules, in Validate's order (the order of Go's checks, and so of
#: the violations reported): every ``(taskspec.v1.field).rules`` reachable
#: from TaskSpec. Every other field accepts any value of its type.
RULES: Final[tuple[Rule, ...]] = tuple(
    rule
    for fd, path in reachable_fields()
    if field_contract(fd).HasField("rules")
    for rule in _field_rules(field_contract(fd), path)
)

#: The TaskSpec schema version this build reads and writes: the bound of
#: the ``equals`` rule on ``task_spec_version``.
CURRENT_TASK_SPEC_VERSION: Final = next(
    int(r.bound)
    for r in RULES
    if r.path == "task_spec_version" and r.name == "equals" and r.bound is not None
)


# -- resolving the table against the descriptors ---------------------------

#: A verb of a Go format string: ``%%``, or a letter with an optional
#: explicit argument index (``%[2]d``: the second argument, the bound).
_VERB = re.compile(r"%(?:\[(\d+)\])?(.)")

#: Stands for the offending value among a message's arguments.
_VALUE: Final = object()

#: How each Go verb formats its argument: ``%d`` an integer, ``%q`` a string.
_VERBS: Final[Mapping[str, Callable[[Any], str]]] = MappingProxyType(
    {"d": lambda v: str(int(v)), "q": go_quote}
)

#: The Go verb that shows the value in a message, by the kind of field a
#: rule checks: an integer's number, a string's text, an enum's spelling,
#: a list's length (an item rule's value is the item's text).
_VALUE_VERB: Final[Mapping[_layout.Kind, str]] = MappingProxyType(
    {
        _layout.Kind.INT: "d",
        _layout.Kind.STRING: "q",
        _layout.Kind.ENUM: "q",
        _layout.Kind.STRING_LIST: "d",
    }
)


@functools.cache
def formatter(rule: Rule) -> Callable[[Any], str]:
    """Go's ``fmt.Sprintf(rule.message, value, rule.bound)`` as a function of the value.

    The verbs the table uses (``%d``, ``%q``, ``%%``) take the value, then the
    bound; the bound is written in once, here, so a broken rule costs one
    ``str.format`` at most.
    """
    args = (_VALUE, rule.bound)
    pieces: list[str] = []
    value_verb: Callable[[Any], str] | None = None
    at = 0
    uses = iter(_uses(rule.message)[0])
    for match in _VERB.finditer(rule.message):
        pieces.append(rule.message[at : match.start()].replace("{", "{{").replace("}", "}}"))
        at = match.end()
        if match.group(2) == "%" and match.group(1) is None:
            pieces.append("%")
            continue
        index, letter = next(uses)
        arg = args[index]
        if arg is _VALUE:
            value_verb = _VERBS[letter]
            pieces.append("{0}")
        else:
            pieces.append(_VERBS[letter](arg).replace("{", "{{").replace("}", "}}"))
    pieces.append(rule.message[at:].replace("{", "{{").replace("}", "}}"))
    pattern = "".join(pieces)
    if value_verb is None:
        text = pattern.format()
        return lambda _value: text
    verb = value_verb
    return lambda value: pattern.format(verb(value))


def shown_message(rule: Rule) -> str:
    """*rule*'s message as a person reads it in a problem, for documentation.

    The bound is written in, and the offending value stands as a
    placeholder: ``N`` for a number, ``"…"`` for a text
    (``invalid language "…"``), never a Go verb.
    """
    args = (_VALUE, rule.bound)
    out: list[str] = []
    at = 0
    uses = iter(_uses(rule.message)[0])
    for match in _VERB.finditer(rule.message):
        out.append(rule.message[at : match.start()])
        at = match.end()
        if match.group(2) == "%" and match.group(1) is None:
            out.append("%")
            continue
        index, letter = next(uses)
        arg = args[index]
        if arg is _VALUE:
            out.append("N" if letter == "d" else '"\u2026"')
        else:
            out.append(_VERBS[letter](arg))
    out.append(rule.message[at:])
    return "".join(out)


def _uses(message: str) -> tuple[list[tuple[int, str]], bool]:
    """Each verb of *message* as (its argument's index from 0, its letter), as Go's fmt reads it.

    An explicit index (``%[2]d``) picks the argument, and the next verb
    without one takes the argument after it; the flag says whether any verb
    has an index (Go then does not complain of arguments left unused).
    """
    uses: list[tuple[int, str]] = []
    reordered = False
    arg = 0
    for index, letter in _VERB.findall(message):
        if letter == "%" and not index:
            continue
        if index:
            arg, reordered = int(index) - 1, True
        uses.append((arg, letter))
        arg += 1
    return uses, reordered


def field_info(path: str) -> _layout.FieldInfo:
    """The field a dotted YAML path names, through singular message fields from TaskSpec."""
    info = _layout.TASK_SPEC
    *parents, last = path.split(".")
    for name in parents:
        fi = info.by_name.get(name)
        if fi is None or fi.kind is not _layout.Kind.MESSAGE or fi.message is None:
            raise RuntimeError(f"rule path {path!r}: {name!r} is not a message field")
        info = fi.message
    fi = info.by_name.get(last)
    if fi is None:
        raise RuntimeError(f"rule path {path!r}: {info.full_name} has no field {last!r}")
    return fi


def _verify(rule: Rule) -> _layout.FieldInfo:
    """Resolve *rule* and check that its parts fit its field; raise RuntimeError if not."""
    fi = field_info(rule.path)
    if rule.kind not in IMPLEMENTATIONS or rule.kind not in KIND_CODES:
        raise RuntimeError(f"{rule.path}: {rule.kind} is not a declared, implemented kind")
    verb = "q" if rule.item else _VALUE_VERB.get(fi.kind)
    if verb is None or not kind_fits(fi.descriptor, rule.kind, rule.item):
        raise RuntimeError(f"{rule.path}: {rule.name} does not apply to a {fi.kind.value}")
    if (rule.bound is None) == (rule.kind in _BOUNDED):
        raise RuntimeError(f"{rule.path}: {rule.name} takes a bound if and only if it is a Bound")
    # The verbs take the value, then the bound: each may be left unshown, in
    # that order, or named by index in any order (``%[2]d ... %[1]d``).
    uses, reordered = _uses(rule.message)
    fits = all(
        (index == 0 and letter == verb) or (index == 1 and letter == "d" and rule.bound is not None)
        for index, letter in uses
    )
    if not fits or (not reordered and [i for i, _ in uses] != list(range(len(uses)))):
        verbs = [letter for _, letter in uses]
        raise RuntimeError(f"{rule.path}: message verbs {verbs} do not fit {rule.name}")
    return fi


def _by_field(rules: tuple[Rule, ...]) -> Mapping[str, tuple[Rule, ...]]:
    out: dict[str, list[Rule]] = {}
    for rule in rules:
        out.setdefault(_verify(rule).full_name, []).append(rule)
    return MappingProxyType({name: tuple(found) for name, found in out.items()})


#: Each field's rules, in Validate's order, by proto full name
#: (``taskspec.v1.GeneratedFrom.kind``).
BY_FIELD: Final[Mapping[str, tuple[Rule, ...]]] = _by_field(RULES)


def passes(rule: Rule) -> Callable[[Any], object]:
    """A fast test of a value under *rule*: truthy when the value keeps it.

    The value is the field's, or one item's for an item rule. Each test is
    C-level where one exists (see :mod:`taskspec._constraints`), because
    :func:`taskspec._validate.check` runs on every parse. An enum passes by
    number here; text a document held that spells no value is the caller's
    to look at. A rule that applies only when its field is set passes a
    falsy value (``""``, 0, UNSPECIFIED, no items): the zero value.
    """
    enum = None if rule.item else field_info(rule.path).enum
    test = rule.implementation.test(rule.bound, enum)
    return when_set(test) if rule.ignore_zero else test


def when_set(test: Callable[[Any], object]) -> Callable[[Any], object]:
    """*test* applied only to a value that is set: the zero value (falsy) passes.

    The zero value of every kind of field a rule checks is falsy in Python
    (``""``, 0, an enum's UNSPECIFIED, an empty list), as it is "unset" in
    the Go library's rules (no number, no text).
    """
    return lambda value: not value or test(value)


def getter(rule: Rule) -> Callable[[Any], Any]:
    """A C-level reader of the rule's field from a TaskSpec message."""
    return attrgetter(rule.path)
