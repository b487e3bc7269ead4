"""Python's one implementation of each kind of constraint of the contract.

``proto/taskspec/v1/options.proto`` declares the kinds of constraint a field
may carry: each field of ``StringRules``, ``Int64Rules``, ``EnumRules`` and
``RepeatedRules`` of type ``Demand`` or ``Bound`` is one, named by its full
proto name (``taskspec.v1.StringRules.max_len``). This module gives each
kind, under that name, everything Python needs of it:

* the test: given the bound (None for a ``Demand``) and the enum of the
  field (for an enum kind), a fast callable that is truthy when a value
  keeps the constraint. Each is C-level where one exists (a bound method,
  ``len``, a method caller, a compiled pattern's ``fullmatch``), because
  :func:`taskspec._validate.check` runs on every parse. Lengths count
  characters (code points), as Go's ``utf8.RuneCountInString`` does;
* the JSON Schema fragment it is said with, given the bound;
* sample values that break it and values that keep it, given the bound,
  for the rule cases both languages run (``tests/conformance/rule_cases.py``);
* what an editor's hover says of it.

:mod:`taskspec._contract` refuses, at import, a kind ``options.proto``
declares that has no entry here, and an entry for a kind it does not
declare, so a new kind is declared in the proto and implemented here (and
in ``go/constraints.go``), and nothing else needs an edit.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Mapping
from operator import methodcaller
from types import MappingProxyType
from typing import Any, Final

from taskspec._values import INT64_MAX, INT64_MIN, EnumInfo
from taskspec.bridge._gostr import _GO_SPACE

__all__ = [
    "IMPLEMENTATIONS",
    "NOT_BLANK_PATTERN",
    "ZERO",
    "Implementation",
    "always",
    "never",
    "zero_breaks",
]

#: A value no field holds, to build C-level tests that always or never pass.
always: Final[Callable[[Any], object]] = functools.partial(operator.is_not, None)
never: Final[Callable[[Any], object]] = functools.partial(operator.is_, None)


def _not_blank_pattern() -> str:
    """A regex that matches a string holding at least one non-white-space character.

    The white space is Go's (``unicode.IsSpace``), not the regex engine's
    ``\\s``, which differs (it has U+FEFF and lacks U+0085). It is written
    with ``\\uXXXX`` escapes, which ECMA-262, Java and Python all read, and
    anchored at both ends with ``[\\s\\S]*`` in between so that engines which
    match the whole string (some IDEs do) and engines which search (the JSON
    Schema rule) agree, across line breaks too. The two character classes
    are disjoint, so matching takes linear time.
    """
    codes = sorted({ord(ch) for ch in _GO_SPACE})
    runs: list[list[int]] = []
    for code in codes:
        if runs and runs[-1][1] == code - 1:
            runs[-1][1] = code
        else:
            runs.append([code, code])
    space = "".join(f"\\u{lo:04x}" if lo == hi else f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in runs)
    return f"^[{space}]*[^{space}][\\s\\S]*$"


#: The ``pattern`` of a string that must not be blank after trimming.
NOT_BLANK_PATTERN: Final = _not_blank_pattern()

Test = Callable[[int | None, EnumInfo | None], Callable[[Any], object]]
Schema = Callable[[int | None, str | None], dict[str, Any]]
Samples = Callable[[int | None, EnumInfo | None], tuple[list[Any], list[Any]]]


class Implementation:
    """One kind's implementation: its test, schema fragment, samples and hover text.

    ``test(bound, enum)``: a fast callable, truthy when a value keeps the
    constraint (an enum's value is its number). ``schema(bound, enum_ref)``:
    the JSON Schema keywords that say it (``enum_ref`` is the ``$ref`` of
    the field's enum). ``samples(bound, enum)``: (values that break it,
    values that keep it), as JSON data (an enum's as its spelling).
    ``says(bound)``: a few words of what it demands. ``bounds``: the bounds
    the cross-language samples use (``(None,)`` for a kind with none).
    """

    __slots__ = ("bounds", "kind", "samples", "says", "schema", "test")

    def __init__(
        self,
        kind: str,
        test: Test,
        schema: Schema,
        samples: Samples,
        *,
        says: Callable[[int | None], str],
        bounds: tuple[int | None, ...] = (None,),
    ) -> None:
        self.kind = kind
        self.test = test
        self.schema = schema
        self.samples = samples
        self.says = says
        self.bounds = bounds

    def __repr__(self) -> str:
        return f"Implementation({self.kind})"


def _b(bound: int | None) -> int:
    if bound is None:
        raise ValueError("this kind of constraint needs a bound")
    return bound


def _ints(*values: int) -> list[int]:
    """*values* within int64, each once, in order."""
    out: list[int] = []
    for v in values:
        if INT64_MIN <= v <= INT64_MAX and v not in out:
            out.append(v)
    return out


def _unique(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


# -- StringRules -------------------------------------------------------------


def _min_len_test(bound: int | None, _enum: EnumInfo | None) -> Callable[[Any], object]:
    b = _b(bound)
    if b <= 0:
        return always
    # The b-th character, "" when the string is shorter: a C-level slice.
    return operator.itemgetter(slice(b - 1, b))


def _max_len_test(bound: int | None, _enum: EnumInfo | None) -> Callable[[Any], object]:
    b = _b(bound)
    if b < 0:
        return never
    if b >= 1 << 31:
        return always  # beyond what a pattern can count, and any document can hold
    return re.compile(f"(?s).{{0,{b}}}").fullmatch


def _min_len_samples(bound: int | None, _enum: EnumInfo | None) -> tuple[list[Any], list[Any]]:
    b = _b(bound)
    # "é" * (b - 1) has more bytes than b: only a count of characters breaks it.
    bad = [n * ch for n in (b - 1,) if n >= 0 for ch in ("x", "\u00e9")]
    good = [n * ch for n in (max(b, 0), max(b, 0) + 1) for ch in ("x", "\u00e9")]
    return _unique(bad), _unique(good)


def _max_len_samples(bound: int | None, _enum: EnumInfo | None) -> tuple[list[Any], list[Any]]:
    b = _b(bound)
    bad = [n * ch for n in (max(b + 1, 0),) for ch in ("x", "\u00e9")]
    # "é" * b has more bytes than b: only a count of characters keeps it.
    good = [n * ch for n in (b, b - 1) if n >= 0 for ch in ("x", "\u00e9")]
    return _unique(bad), _unique(good)


# -- Int64Rules --------------------------------------------------------------


def _equals_samples(bound: int | None, _enum: EnumInfo | None) -> tuple[list[Any], list[Any]]:
    b = _b(bound)
    return [v for v in _ints(b - 1, b + 1, INT64_MIN, INT64_MAX) if v != b], [b]


def _at_least_samples(bound: int | None, _enum: EnumInfo | None) -> tuple[list[Any], list[Any]]:
    b = _b(bound)
    return [v for v in _ints(b - 1, INT64_MIN) if v < b], _ints(b, INT64_MAX)


def _at_most_samples(bound: int | None, _enum: EnumInfo | None) -> tuple[list[Any], list[Any]]:
    b = _b(bound)
    return [v for v in _ints(b + 1, INT64_MAX) if v > b], _ints(b, INT64_MIN)


# -- EnumRules ---------------------------------------------------------------


def _defined_test(_bound: int | None, enum: EnumInfo | None) -> Callable[[Any], object]:
    if enum is None:
        raise ValueError("EnumRules.defined needs the field's enum")
    return frozenset(n for n, text in enum.to_string.items() if text).__contains__


def _defined_samples(_bound: int | None, enum: EnumInfo | None) -> tuple[list[Any], list[Any]]:
    if enum is None:
        raise ValueError("EnumRules.defined needs the field's enum")
    defined = [text for _, text in sorted(enum.to_string.items()) if text]
    return ["", defined[0].upper(), "\u00e9\t\x01\u00a0"], defined


# -- RepeatedRules -----------------------------------------------------------


def _min_items_test(bound: int | None, _enum: EnumInfo | None) -> Callable[[Any], object]:
    b = _b(bound)
    if b <= 0:
        return always
    return operator.itemgetter(slice(b - 1, b))


def _max_items_test(bound: int | None, _enum: EnumInfo | None) -> Callable[[Any], object]:
    b = _b(bound)
    return lambda value: len(value) <= b


def _min_items_samples(bound: int | None, _enum: EnumInfo | None) -> tuple[list[Any], list[Any]]:
    b = _b(bound)
    bad = [n * [""] for n in (b - 1,) if n >= 0]
    return bad, _unique([n * ["x"] for n in (max(b, 0), max(b, 0) + 1)])


def _max_items_samples(bound: int | None, _enum: EnumInfo | None) -> tuple[list[Any], list[Any]]:
    b = _b(bound)
    return [max(b + 1, 0) * ["x"]], _unique([n * [""] for n in (b, b - 1) if n >= 0])


_PREFIX: Final = "taskspec.v1."

_LENGTHS: Final = (0, 1, 3)
_INTEGERS: Final = (-1, 0, 1, 3)

#: Each kind's implementation, by the kind's full proto name.
IMPLEMENTATIONS: Final[Mapping[str, Implementation]] = MappingProxyType(
    {
        impl.kind: impl
        for impl in (
            Implementation(
                _PREFIX + "StringRules.not_blank",
                lambda _b, _e: methodcaller("strip", _GO_SPACE),
                lambda _b, _r: {"pattern": NOT_BLANK_PATTERN},
                # U+001C and U+FEFF are not white space to Go, though Python strips the first.
                lambda _b, _e: (["", _GO_SPACE], ["\x1c", "\ufeff", " x\t"]),
                says=lambda _b: "must not be blank",
            ),
            Implementation(
                _PREFIX + "StringRules.min_len",
                _min_len_test,
                lambda b, _r: {"minLength": _b(b)},
                _min_len_samples,
                says=lambda b: f"must have at least {b} characters",
                bounds=_LENGTHS,
            ),
            Implementation(
                _PREFIX + "StringRules.max_len",
                _max_len_test,
                lambda b, _r: {"maxLength": _b(b)},
                _max_len_samples,
                says=lambda b: f"must have at most {b} characters",
                bounds=_LENGTHS,
            ),
            Implementation(
                _PREFIX + "Int64Rules.equals",
                lambda b, _e: _b(b).__eq__,
                lambda b, _r: {"const": _b(b)},
                _equals_samples,
                says=lambda b: f"must equal {b}",
                bounds=_INTEGERS,
            ),
            Implementation(
                _PREFIX + "Int64Rules.at_least",
                lambda b, _e: _b(b).__le__,
                lambda b, _r: {"minimum": _b(b)},
                _at_least_samples,
                says=lambda b: f"must be at least {b}",
                bounds=_INTEGERS,
            ),
            Implementation(
                _PREFIX + "Int64Rules.at_most",
                lambda b, _e: _b(b).__ge__,
                lambda b, _r: {"maximum": _b(b)},
                _at_most_samples,
                says=lambda b: f"must be at most {b}",
                bounds=_INTEGERS,
            ),
            Implementation(
                _PREFIX + "EnumRules.defined",
                _defined_test,
                lambda _b, ref: {"$ref": ref} if ref else {},
                _defined_samples,
                says=lambda _b: "must be one of its values",
            ),
            Implementation(
                _PREFIX + "RepeatedRules.not_empty",
                lambda _b, _e: len,
                lambda _b, _r: {"minItems": 1},
                lambda _b, _e: ([[]], [[""]]),
                says=lambda _b: "must not be empty",
            ),
            Implementation(
                _PREFIX + "RepeatedRules.min_items",
                _min_items_test,
                lambda b, _r: {"minItems": _b(b)},
                _min_items_samples,
                says=lambda b: f"must have at least {b} items",
                bounds=_LENGTHS,
            ),
            Implementation(
                _PREFIX + "RepeatedRules.max_items",
                _max_items_test,
                lambda b, _r: {"maxItems": _b(b)},
                _max_items_samples,
                says=lambda b: f"must have at most {b} items",
                bounds=_LENGTHS,
            ),
        )
    }
)


#: Go's zero value of what each rules message constrains, which a key left
#: out of a document holds: an enum's is its number 0, UNSPECIFIED, which is
#: never one of its values.
ZERO: Final[Mapping[str, Any]] = MappingProxyType(
    {"StringRules": "", "Int64Rules": 0, "EnumRules": 0, "RepeatedRules": ()}
)


def zero_breaks(kind: str, bound: int | None) -> bool:
    """Whether a field left out of a document (its zero value) breaks a constraint of *kind*.

    The JSON Schema makes such a field's key required, and ``make
    breaking`` refuses such a constraint on a new field, since every
    document written before it would become invalid.
    """
    rules_message = kind.removeprefix(_PREFIX).partition(".")[0]
    enum = EnumInfo("", "", {0: ""}, {"": 0}) if rules_message == "EnumRules" else None
    return not IMPLEMENTATIONS[kind].test(bound, enum)(ZERO[rules_message])
