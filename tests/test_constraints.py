"""Each kind of constraint's Python implementation, on rules built here.

Today's contract uses only v1's five kinds; the others (``min_len``,
``max_len``, ``at_most``, ``min_items``, ``max_items``) and item rules are
pinned here on rules made directly from ``options.proto``'s messages, run by
the same compiled plan ``Validate`` runs, so that no change to
``taskspec.proto`` is needed to test them. Their codes: TS108 min_len,
TS109 max_len, TS110 at_most, TS111 min_items, TS112 max_items.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from taskspec import TaskSpec, _jsonschema, _rules, _validate
from taskspec._constraints import IMPLEMENTATIONS, NOT_BLANK_PATTERN
from taskspec._contract import constraint_kinds
from taskspec.v1 import options_pb2
from tests.conformance import rule_cases
from tests.helpers import set_field, valid_spec

P = "taskspec.v1."

Broken = tuple[str, str, str]


def _rules_of(path: str, rules: Any) -> tuple[_rules.Rule, ...]:
    """The rules a rules message sets on *path*, as the table reads them from the proto."""
    return tuple(_rules._from_rules(path, rules))


def _spec(path: str, value: Any) -> TaskSpec:
    spec = valid_spec()
    set_field(spec, path, value)
    return spec


def _broken(
    rules: tuple[_rules.Rule, ...],
    path: str,
    value: Any,
    positions: dict[str, tuple[int, int]] | None = None,
) -> list[Broken]:
    _rules._by_field(rules)  # the fit checks of the table
    found = _validate.broken(_validate._plan(rules), _spec(path, value), None, positions)
    return [(v.field_path, v.message, v.code) for v in found]


def check_valid(rules: tuple[_rules.Rule, ...], path: str, value: Any) -> None:
    """Assert *value* at *path* keeps every one of *rules*."""
    assert _broken(rules, path, value) == [], value


def check_invalid(rules: tuple[_rules.Rule, ...], path: str, value: Any, *expected: Broken) -> None:
    """Assert *value* at *path* breaks *rules* exactly as *expected*, in order."""
    assert _broken(rules, path, value) == list(expected), value


def _string(**constraints: Any) -> tuple[_rules.Rule, ...]:
    return _rules_of("task_id", options_pb2.StringRules(**constraints))


def _int(**constraints: Any) -> tuple[_rules.Rule, ...]:
    return _rules_of("verification.timeout_seconds", options_pb2.Int64Rules(**constraints))


def _list(**constraints: Any) -> tuple[_rules.Rule, ...]:
    return _rules_of("verification.test_cmd", options_pb2.RepeatedRules(**constraints))


def _bound(value: int, message: str) -> options_pb2.Bound:
    return options_pb2.Bound(value=value, message=message)


def _demand(message: str) -> options_pb2.Demand:
    return options_pb2.Demand(message=message)


def test_the_new_kinds_have_their_declared_codes() -> None:
    codes = {kind.name: f"TS{kind.number:03d}" for kind in constraint_kinds()}
    assert codes == dict(_rules.KIND_CODES)
    assert {name: codes[P + name] for name in ("StringRules.min_len", "StringRules.max_len")} == {
        "StringRules.min_len": "TS108",
        "StringRules.max_len": "TS109",
    }
    assert codes[P + "Int64Rules.at_most"] == "TS110"
    assert codes[P + "RepeatedRules.min_items"] == "TS111"
    assert codes[P + "RepeatedRules.max_items"] == "TS112"


def test_min_len_counts_characters_not_bytes() -> None:
    rules = _string(min_len=_bound(3, "task_id %q is shorter than %d characters"))
    check_invalid(
        rules, "task_id", "ab", ("task_id", 'task_id "ab" is shorter than 3 characters', "TS108")
    )
    check_valid(rules, "task_id", "abc")
    check_valid(rules, "task_id", "abcd")
    # Four bytes, two characters: too short.
    check_invalid(
        rules,
        "task_id",
        "\u00e9\u00e9",
        ("task_id", 'task_id "\u00e9\u00e9" is shorter than 3 characters', "TS108"),
    )
    check_valid(rules, "task_id", "\U0001f600\u00e9x")


def test_max_len_counts_characters_not_bytes() -> None:
    rules = _string(max_len=_bound(3, "at most %[2]d characters, got %[1]q"))
    check_valid(rules, "task_id", "abc")
    check_valid(rules, "task_id", "")
    check_invalid(
        rules, "task_id", "abcd", ("task_id", 'at most 3 characters, got "abcd"', "TS109")
    )
    # Six bytes, three characters: short enough.
    check_valid(rules, "task_id", "\u00e9\u00e9\u00e9")
    check_valid(rules, "task_id", "\U0001f600\U0001f600\U0001f600")
    check_invalid(
        rules,
        "task_id",
        "\U0001f600" * 4,
        ("task_id", 'at most 3 characters, got "' + "\U0001f600" * 4 + '"', "TS109"),
    )


def test_at_most_and_its_neighbours() -> None:
    rules = _int(
        at_most=_bound(3600, "verification.timeout_seconds must be at most %[2]d, got %[1]d")
    )
    check_valid(rules, "verification.timeout_seconds", 3600)
    check_valid(rules, "verification.timeout_seconds", 3599)
    check_valid(rules, "verification.timeout_seconds", -(1 << 63))
    for value in (3601, (1 << 63) - 1):
        check_invalid(
            rules,
            "verification.timeout_seconds",
            value,
            (
                "verification.timeout_seconds",
                f"verification.timeout_seconds must be at most 3600, got {value}",
                "TS110",
            ),
        )


def test_min_items_and_max_items_show_the_length() -> None:
    rules = _list(
        min_items=_bound(2, "test_cmd needs %[2]d items, has %[1]d"),
        max_items=_bound(3, "test_cmd has %d items, more than %d"),
    )
    path = "verification.test_cmd"
    check_invalid(rules, path, ["go"], (path, "test_cmd needs 2 items, has 1", "TS111"))
    check_valid(rules, path, ["go", "test"])
    check_valid(rules, path, ["go", "test", "./..."])
    check_invalid(
        rules,
        path,
        ["go", "test", "-v", "./..."],
        (path, "test_cmd has 4 items, more than 3", "TS112"),
    )


def test_several_constraints_on_one_field_are_reported_in_declaration_order() -> None:
    # Written in another order: the table follows StringRules' declaration.
    rules = _string(
        max_len=_bound(0, "too long: %q"),
        min_len=_bound(2, "too short: %q"),
        not_blank=_demand("task_id is required"),
    )
    assert [r.name for r in rules] == ["not_blank", "min_len", "max_len"]
    check_invalid(
        rules,
        "task_id",
        " ",
        ("task_id", "task_id is required", "TS101"),
        ("task_id", 'too short: " "', "TS108"),
        ("task_id", 'too long: " "', "TS109"),
    )
    ints = _int(
        at_most=_bound(-1, "above %d"), equals=_bound(5, "not %d"), at_least=_bound(1, "below %d")
    )
    assert [r.name for r in ints] == ["equals", "at_least", "at_most"]
    check_invalid(
        ints,
        "verification.timeout_seconds",
        0,
        ("verification.timeout_seconds", "not 0", "TS105"),
        ("verification.timeout_seconds", "below 0", "TS104"),
        ("verification.timeout_seconds", "above 0", "TS110"),
    )


def test_item_rules_report_each_breaking_item_at_its_path() -> None:
    rules = _list(
        not_empty=_demand("verification.test_cmd is required"),
        max_items=_bound(3, "at most %[2]d arguments, got %[1]d"),
        items=options_pb2.StringRules(
            not_blank=_demand("blank argument %q"), max_len=_bound(4, "argument %q is too long")
        ),
    )
    assert [(r.name, r.item) for r in rules] == [
        ("not_empty", False),
        ("max_items", False),
        ("not_blank", True),
        ("max_len", True),
    ]
    path = "verification.test_cmd"
    check_valid(rules, path, ["go", "test"])
    # The list's own constraints first, then item by item, each item's in order.
    check_invalid(
        rules,
        path,
        ["make", " ", "tests", ""],
        (path, "at most 3 arguments, got 4", "TS112"),
        (f"{path}[1]", 'blank argument " "', "TS101"),
        (f"{path}[2]", 'argument "tests" is too long', "TS109"),
        (f"{path}[3]", 'blank argument ""', "TS101"),
    )
    check_invalid(rules, path, [], (path, "verification.test_cmd is required", "TS102"))
    check_invalid(
        rules,
        path,
        ["\u00e9\u00e9\u00e9\u00e9\u00e9"],
        (f"{path}[0]", 'argument "\u00e9\u00e9\u00e9\u00e9\u00e9" is too long', "TS109"),
    )


def test_an_item_violation_is_at_the_item_s_position_or_else_the_list_s() -> None:
    rules = _list(items=options_pb2.StringRules(not_blank=_demand("blank argument %q")))
    path = "verification.test_cmd"
    plan = _validate._plan(rules)
    spec = _spec(path, ["go", "", ""])
    positions = {path: (7, 5), f"{path}[2]": (9, 11)}
    found = _validate.broken(plan, spec, None, positions)
    assert [(v.field_path, v.line, v.column) for v in found] == [
        (f"{path}[1]", 7, 5),
        (f"{path}[2]", 9, 11),
    ]


def test_a_rule_that_does_not_fit_is_refused() -> None:
    with pytest.raises(RuntimeError, match="does not apply"):
        _rules._by_field(_rules_of("task_id", options_pb2.RepeatedRules(min_items=_bound(1, "x"))))
    with pytest.raises(RuntimeError, match="verbs"):
        _rules._by_field(_string(not_blank=_demand("%d")))
    with pytest.raises(RuntimeError, match="verbs"):
        _rules._by_field(_string(not_blank=_demand("%[2]d")))
    with pytest.raises(RuntimeError, match="verbs"):
        _rules._by_field(_list(min_items=_bound(1, "%q")))
    with pytest.raises(RuntimeError, match="verbs"):
        _rules._by_field(_list(items=options_pb2.StringRules(min_len=_bound(1, "%d"))))


@pytest.mark.parametrize("kind", sorted(IMPLEMENTATIONS))
def test_every_kind_s_samples_agree_with_its_test(kind: str) -> None:
    impl = IMPLEMENTATIONS[kind]
    enum = rule_cases.SAMPLE_ENUM if ".EnumRules." in kind else None
    breaking = 0
    for bound in impl.bounds:
        bad, good = impl.samples(bound, enum)
        assert good, (kind, bound)
        breaking += len(bad)
        for value in bad:
            assert not rule_cases.holds(kind, bound, value, enum), (kind, bound, value)
        for value in good:
            assert rule_cases.holds(kind, bound, value, enum), (kind, bound, value)
    assert breaking, kind


def test_the_cross_language_samples_cover_every_kind() -> None:
    samples = rule_cases.constraint_samples()
    assert {s["kind"] for s in samples} == {k.name for k in constraint_kinds()}
    for kind in {s["kind"] for s in samples}:
        assert {s["breaks"] for s in samples if s["kind"] == kind} == {True, False}, kind
    bounded = {k.name for k in constraint_kinds() if k.bounded}
    assert all(("bound" in s) == (s["kind"] in bounded) for s in samples)


def test_the_schema_fragments() -> None:
    def said(name: str, bound: int | None = None) -> dict[str, Any]:
        return IMPLEMENTATIONS[P + name].schema(bound, "#/$defs/language")

    assert said("StringRules.not_blank") == {"pattern": NOT_BLANK_PATTERN}
    assert said("StringRules.min_len", 2) == {"minLength": 2}
    assert said("StringRules.max_len", 3) == {"maxLength": 3}
    assert said("Int64Rules.equals", 1) == {"const": 1}
    assert said("Int64Rules.at_least", 0) == {"minimum": 0}
    assert said("Int64Rules.at_most", 9) == {"maximum": 9}
    assert said("EnumRules.defined") == {"$ref": "#/$defs/language"}
    assert said("RepeatedRules.not_empty") == {"minItems": 1}
    assert said("RepeatedRules.min_items", 2) == {"minItems": 2}
    assert said("RepeatedRules.max_items", 4) == {"maxItems": 4}
    items = _jsonschema._string(
        "x", {"pattern": NOT_BLANK_PATTERN, "maxLength": 4}, "blank argument %q", item=True
    )
    assert items == {"type": "string", "pattern": NOT_BLANK_PATTERN, "maxLength": 4}


def test_the_int64_range_is_written_once() -> None:
    """The range has one home, a leaf (``_values``) that the contract and the bridge both use."""
    from taskspec import _limits, _values  # noqa: PLC0415

    spelt = re.compile(r"1 << 63|2 ?\*\* ?63 - 1|-\(2 ?\*\* ?63\)")
    package = Path(_values.__file__).parent
    homes = [p.name for p in package.rglob("*.py") if spelt.search(p.read_text(encoding="utf-8"))]
    assert homes == ["_values.py"]
    assert _limits.INT64_MIN is _values.INT64_MIN
