"""The rules of ``Validate``, as one table that every consumer reads.

The rules are declared in the proto, each on the field it checks, as the
field's ``(taskspec.v1.field).rule``: the check, its bound and the Go
package's exact message. This module reads them from the descriptors (in
the order of a depth-first walk of TaskSpec by field number, which is the
order of Go's checks) into :data:`RULES`, each with:

* the field it checks, as the canonical YAML path (``generated_from.kind``);
* the check, one of a few kinds (:class:`Check`) with an integer bound where
  the kind needs one;
* the message, in Go's exact wording, written as Go's format string: its
  verbs (``%d``, ``%q``) take the offending value, then the bound;
* what a JSON Schema can say about it (:class:`Keyword`), which follows
  from the check.

:func:`taskspec._validate.check` runs the table on every parse,
:mod:`taskspec._jsonschema` builds the schema from it (``make schema``), and
``tests/conformance/rule_cases.py`` exports cases from it to
``go/testdata/validate_rules.json``, which the Go library's tests run
against its ``Validate``, built from the same options. Each rule is checked
against its field at import, so a message whose verbs do not fit the check
fails at once rather than at the first document.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable, Mapping
from operator import attrgetter, methodcaller
from types import MappingProxyType
from typing import Any, Final

from taskspec._contract import field_contract, reachable_fields
from taskspec.bridge import _layout
from taskspec.bridge._gostr import _GO_SPACE, go_quote
from taskspec.v1 import options_pb2

__all__ = [
    "BY_FIELD",
    "CURRENT_TASK_SPEC_VERSION",
    "RULES",
    "Check",
    "Keyword",
    "Rule",
    "field_info",
    "formatter",
    "getter",
    "passes",
]


class Check(enum.Enum):
    """What a rule demands of its field's value (Go's zero value when the key is missing)."""

    #: An integer equal to the bound.
    EQUALS = "equals"
    #: An integer no smaller than the bound.
    AT_LEAST = "at least"
    #: A string with a character that is not white space to Go (``strings.TrimSpace``).
    NOT_BLANK = "not blank"
    #: An enum holding one of its defined values; UNSPECIFIED (``""``) is not one.
    DEFINED = "defined"
    #: A list with at least one item.
    NOT_EMPTY = "not empty"


class Keyword(enum.Enum):
    """What the JSON Schema says about a field on a rule's behalf."""

    #: The key must be present and its value non-empty: a string not ``""``,
    #: a list not ``[]`` (a missing key decodes to that zero value).
    REQUIRED = "required"
    #: ``pattern``: at least one character that is not Go white space.
    NOT_BLANK = "pattern"
    #: ``const``: exactly the rule's bound.
    CONST = "const"
    #: ``minimum``: at least the rule's bound.
    MINIMUM = "minimum"
    #: ``$ref`` to the enum's defined values, which leave out UNSPECIFIED.
    ENUM = "enum"


class Rule:
    """One rule of ``Validate``: a field, a check, Go's message and its schema form.

    ``schema`` lists what the JSON Schema says for the rule; a rule the
    schema cannot express has an empty ``schema`` and gives the reason in
    ``not_in_schema``, which the schema's documentation lists.
    """

    # A plain class rather than a dataclass: importing dataclasses (with
    # inspect, ast and dis) costs more than the rest of the validate path's
    # own modules. Rules are never changed after they are made.
    def __init__(
        self,
        path: str,
        check: Check,
        message: str,
        *,
        bound: int | None = None,
        schema: frozenset[Keyword] = frozenset(),
        not_in_schema: str = "",
    ) -> None:
        self.path = path
        self.check = check
        self.message = message
        self.bound = bound
        self.schema = schema
        self.not_in_schema = not_in_schema

    def __repr__(self) -> str:
        return f"Rule(path={self.path!r}, check={self.check}, message={self.message!r})"

    def format(self, value: int | str) -> str:
        """The message for a field holding *value*, as Go's ``fmt.Sprintf`` writes it."""
        return formatter(self)(value)


_REQUIRED: Final = Keyword.REQUIRED
_NOT_BLANK: Final = Keyword.NOT_BLANK
_CONST: Final = Keyword.CONST
_MINIMUM: Final = Keyword.MINIMUM
_ENUM: Final = Keyword.ENUM

#: The schema keyword each check is said with, besides ``required``.
_CHECK_KEYWORD: Final[Mapping[Check, Keyword | None]] = MappingProxyType(
    {
        Check.EQUALS: _CONST,
        Check.AT_LEAST: _MINIMUM,
        Check.NOT_BLANK: _NOT_BLANK,
        Check.DEFINED: _ENUM,
        Check.NOT_EMPTY: None,
    }
)


def _zero_fails(check: Check, bound: int | None) -> bool:
    """Whether a field the document leaves out (its zero value) breaks the rule."""
    if check is Check.EQUALS:
        return bound != 0
    if check is Check.AT_LEAST:
        return bound is not None and bound > 0
    return True  # "" is blank, UNSPECIFIED is not defined, [] is empty


def _from_option(path: str, option: options_pb2.Rule) -> Rule:
    check = Check[options_pb2.Check.Name(option.check).removeprefix("CHECK_")]
    bound = int(option.bound) if option.HasField("bound") else None
    keywords = {k for k in (_CHECK_KEYWORD[check],) if k is not None}
    if _zero_fails(check, bound):
        keywords.add(_REQUIRED)
    return Rule(path, check, option.message, bound=bound, schema=frozenset(keywords))


#: Validate's rules, in Validate's order (the order of Go's checks, and so of
#: the violations reported): every ``(taskspec.v1.field).rule`` reachable
#: from TaskSpec. Every other field accepts any value of its type.
RULES: Final[tuple[Rule, ...]] = tuple(
    _from_option(path, field_contract(fd).rule)
    for fd, path in reachable_fields()
    if field_contract(fd).HasField("rule")
)

#: The TaskSpec schema version this build reads and writes: the bound of
#: the rule on ``task_spec_version``.
CURRENT_TASK_SPEC_VERSION: Final = next(
    int(r.bound) for r in RULES if r.path == "task_spec_version" and r.bound is not None
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

#: The field kind each check applies to, and the Go verb that can show its
#: value in the message (None: the message cannot show it).
_FITS: Final[Mapping[Check, tuple[_layout.Kind, str | None]]] = MappingProxyType(
    {
        Check.EQUALS: (_layout.Kind.INT, "d"),
        Check.AT_LEAST: (_layout.Kind.INT, "d"),
        Check.NOT_BLANK: (_layout.Kind.STRING, "q"),
        Check.DEFINED: (_layout.Kind.ENUM, "q"),
        Check.NOT_EMPTY: (_layout.Kind.STRING_LIST, None),
    }
)

#: The schema keywords each field kind can carry.
_KEYWORDS: Final[Mapping[_layout.Kind, frozenset[Keyword]]] = MappingProxyType(
    {
        _layout.Kind.INT: frozenset({_REQUIRED, _CONST, _MINIMUM}),
        _layout.Kind.STRING: frozenset({_REQUIRED, _NOT_BLANK}),
        _layout.Kind.ENUM: frozenset({_REQUIRED, _ENUM}),
        _layout.Kind.STRING_LIST: frozenset({_REQUIRED}),
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
    kind, verb = _FITS[rule.check]
    if fi.kind is not kind:
        raise RuntimeError(f"{rule.path}: {rule.check.value} does not apply to a {fi.kind.value}")
    if (rule.bound is None) == (rule.check in (Check.EQUALS, Check.AT_LEAST)):
        raise RuntimeError(f"{rule.path}: a bound goes with EQUALS and AT_LEAST only")
    # The verbs take the value, then the bound: each may be left unshown, in
    # that order, or named by index in any order (``%[2]d ... %[1]d``).
    uses, reordered = _uses(rule.message)
    fits = all(
        (index == 0 and letter == verb) or (index == 1 and letter == "d" and rule.bound is not None)
        for index, letter in uses
    )
    if not fits or (not reordered and [i for i, _ in uses] != list(range(len(uses)))):
        verbs = [letter for _, letter in uses]
        raise RuntimeError(f"{rule.path}: message verbs {verbs} do not fit {rule.check.value}")
    if bool(rule.schema) == bool(rule.not_in_schema):
        raise RuntimeError(f"{rule.path}: give either schema keywords or not_in_schema")
    extra = rule.schema - _KEYWORDS[kind]
    if extra:
        raise RuntimeError(f"{rule.path}: no {sorted(k.value for k in extra)} for a {kind.value}")
    return fi


#: Each rule's field, by proto full name (``taskspec.v1.GeneratedFrom.kind``).
BY_FIELD: Final[Mapping[str, Rule]] = MappingProxyType(
    {_verify(rule).full_name: rule for rule in RULES}
)
if len(BY_FIELD) != len(RULES):
    raise RuntimeError("two rules name the same field")


def passes(rule: Rule) -> Callable[[Any], object]:
    """A fast test of a field's value under *rule*: truthy when the value passes.

    Each is a C-level callable (a bound method, ``len``, a method caller),
    because :func:`taskspec._validate.check` runs on every parse. An enum
    passes by number here; text a document held that spells no value is the
    caller's to look at.
    """
    if rule.check is Check.EQUALS:
        assert rule.bound is not None
        return rule.bound.__eq__
    if rule.check is Check.AT_LEAST:
        assert rule.bound is not None
        return rule.bound.__le__
    if rule.check is Check.NOT_BLANK:
        return methodcaller("strip", _GO_SPACE)
    if rule.check is Check.NOT_EMPTY:
        return len
    enum_info = field_info(rule.path).enum
    assert enum_info is not None
    return frozenset(n for n, text in enum_info.to_string.items() if text).__contains__


def getter(rule: Rule) -> Callable[[Any], Any]:
    """A C-level reader of the rule's field from a TaskSpec message."""
    return attrgetter(rule.path)
