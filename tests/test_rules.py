"""The rule table: pinned to the proto, run by this library, exported to the Go library.

:data:`taskspec._rules.RULES` is hand listed because the proto carries no
validation annotations. These tests tie it to the descriptors (every path
names a real field; every field the proto documents as required, and every
enum, has a rule) and to the cases in ``go/testdata/validate_rules.json``,
which ``go/rules_test.go`` runs against the Go library: the committed file
must be what the table generates (:mod:`tests.conformance.rule_cases`), and
this library must give every case's violations exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import taskspec
from taskspec import _jsonschema, _rules, _validate
from taskspec._constraints import ZERO
from taskspec._contract import constraint_kinds
from taskspec._rules import Rule
from taskspec.bridge import _decode, _layout
from taskspec.v1 import taskspec_pb2
from tests.conformance import rule_cases

ROOT = Path(__file__).resolve().parent.parent
CASES: dict[str, Any] = json.loads(rule_cases.OUTPUT.read_bytes())

#: Fields the proto documents as required that Validate does not check, each
#: with the reason. Go's Validate checks every one today.
EXEMPT: dict[str, str] = {}


def _fields(
    info: _layout.MessageInfo = _layout.TASK_SPEC,
) -> list[_layout.FieldInfo]:
    """Every field reachable from TaskSpec."""
    out: list[_layout.FieldInfo] = []
    for fi in info.fields:
        out.append(fi)
        if fi.message is not None:
            out.extend(_fields(fi.message))
    return out


FIELDS = _fields()


# -- the table is the proto's ------------------------------------------------


def test_every_rule_path_names_a_real_field() -> None:
    pool = taskspec_pb2.DESCRIPTOR.pool
    assert sum(len(rules) for rules in _rules.BY_FIELD.values()) == len(_rules.RULES)
    for full_name, rules in _rules.BY_FIELD.items():
        fd = pool.FindFieldByName(full_name)
        for rule in rules:
            assert fd.name == rule.path.rsplit(".", 1)[-1]
            assert _rules.field_info(rule.path).descriptor is fd
    assert set(_rules.BY_FIELD) <= {fi.full_name for fi in FIELDS}


def test_a_field_s_rules_are_together_in_the_table() -> None:
    """BY_FIELD keeps the table's order: the fields in Validate's, each field's rules in its."""
    assert [r for rules in _rules.BY_FIELD.values() for r in rules] == list(_rules.RULES)


def test_every_enum_field_has_a_defined_rule() -> None:
    """UNSPECIFIED is never valid in a TaskSpec, so every enum field is checked."""
    enums = {fi.full_name for fi in FIELDS if fi.kind is _layout.Kind.ENUM}
    assert enums
    for name in enums:
        assert any(r.name == "defined" for r in _rules.BY_FIELD[name]), name


def _required(full_name: str) -> bool:
    """Whether the field's zero value (the key left out) breaks one of its rules."""
    rules = _rules.BY_FIELD.get(full_name, ())
    return any(not r.item and not _rules.passes(r)(ZERO[r.kind.split(".")[2]]) for r in rules)


def test_rules_follow_the_proto_field_order_within_each_message() -> None:
    """Go checks in struct order, which is field-number order: the table keeps it."""
    numbers = [
        tuple(
            _rules.field_info(".".join(rule.path.split(".")[: i + 1])).number
            for i in range(rule.path.count(".") + 1)
        )
        for rule in _rules.RULES
    ]
    assert numbers == sorted(numbers)


def _comments() -> dict[str, str]:
    """Each field's proto doc comment, by full name.

    They are read from the committed JSON Schema, whose descriptions are the
    proto's comments (``make checkschema`` keeps them current), so no buf
    run is needed; the schema's ``required`` lists, which come from the
    table, are not looked at.
    """
    schema = json.loads((ROOT / "schema" / _jsonschema.FILENAME).read_bytes())
    out: dict[str, str] = {}
    for message in [schema, *schema["$defs"].values()]:
        for name, prop in message.get("properties", {}).items():
            out[f"{message['title']}.{name}"] = prop.get("description", "")
    return out


@pytest.fixture(scope="module")
def comments() -> dict[str, str]:
    found = _comments()
    assert {fi.full_name for fi in FIELDS} <= found.keys()
    return found


def test_every_field_the_proto_calls_required_has_a_rule(comments: dict[str, str]) -> None:
    required = {fi.full_name for fi in FIELDS if "Required" in comments.get(fi.full_name, "")}
    assert len(required) >= 5
    assert not EXEMPT.keys() & _rules.BY_FIELD.keys()
    for name in sorted(required - EXEMPT.keys()):
        assert _required(name), name


def test_every_rule_is_documented_on_its_field(comments: dict[str, str]) -> None:
    """The proto says what Validate demands, so a reader of the proto alone knows the rules.

    The words are free (CONTRIBUTING.md): a field with rules has a comment,
    and it says "Required" only when the field's zero value (the key left
    out) breaks one of its rules, as the schema's ``required`` does.
    """
    for name in _rules.BY_FIELD:
        text = comments[name]
        assert text.strip(), f"{name}: say in its comment what its rules demand"
        if not _required(name):
            assert "Required" not in text, name


# -- the table is checked when it is read ------------------------------------


P = "taskspec.v1."
NOT_BLANK = P + "StringRules.not_blank"
EQUALS = P + "Int64Rules.equals"
AT_LEAST = P + "Int64Rules.at_least"
DEFINED = P + "EnumRules.defined"
NOT_EMPTY = P + "RepeatedRules.not_empty"
MIN_ITEMS = P + "RepeatedRules.min_items"


@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        (Rule("nope", NOT_BLANK, "x"), "no field"),
        (Rule("task_id.x", NOT_BLANK, "x"), "not a message field"),
        (Rule("task_id", NOT_EMPTY, "x"), "does not apply"),
        (Rule("task_id", NOT_BLANK, "x", item=True), "does not apply"),
        (Rule("verification.test_cmd", EQUALS, "x", bound=1, item=True), "does not apply"),
        (Rule("task_id", P + "StringRules.no_such", "x"), "not a declared, implemented kind"),
        (Rule("task_id", NOT_BLANK, "x", bound=3), "a bound"),
        (Rule("task_spec_version", EQUALS, "x"), "a bound"),
        (Rule("task_id", NOT_BLANK, "%d"), "verbs"),
        (Rule("task_id", NOT_BLANK, "x %q %q"), "verbs"),
        (Rule("task_id", NOT_BLANK, "x %[2]d"), "verbs"),
        (Rule("task_spec_version", EQUALS, "%[3]d", bound=1), "verbs"),
        (Rule("task_spec_version", EQUALS, "%[2]q", bound=1), "verbs"),
        (Rule("verification.test_cmd", NOT_EMPTY, "%q"), "verbs"),
        (Rule("verification.test_cmd", MIN_ITEMS, "%d", bound=1, item=True), "does not apply"),
        (Rule("verification.test_cmd", NOT_BLANK, "%d", item=True), "verbs"),
    ],
)
def test_a_rule_that_does_not_fit_its_field_is_refused(rule: Rule, problem: str) -> None:
    with pytest.raises(RuntimeError, match=problem):
        _rules._verify(rule)


def test_messages_are_go_format_strings() -> None:
    assert Rule("x", EQUALS, "%d is 100%% of v%d", bound=7).format(7) == "7 is 100% of v7"
    assert Rule("x", AT_LEAST, "got %d, want %d", bound=-3).format(-9) == "got -9, want -3"
    assert Rule("x", AT_LEAST, "{%d} >= {%d}", bound=0).format(5) == "{5} >= {0}"
    assert Rule("x", NOT_EMPTY, "{x} is 100%% required").format(0) == "{x} is 100% required"
    # Go's explicit argument indexes: the bound may come first, or alone.
    at_most = Rule("x", AT_LEAST, "at most %[2]d, got %[1]d (%[1]d)", bound=86400)
    assert at_most.format(90000) == "at most 86400, got 90000 (90000)"
    assert Rule("x", AT_LEAST, "limit %[2]d", bound=3).format(1) == "limit 3"
    assert Rule("x", DEFINED, "invalid x %q").format("\u00e9\t\x01\u00a0") == (
        'invalid x "é\\t\\x01\\u00a0"'
    )


# -- the cases the Go library runs ---------------------------------------------


def test_committed_cases_are_what_the_table_generates() -> None:
    committed = rule_cases.OUTPUT.read_bytes()
    assert committed == rule_cases.render(), "run `make vectors`, review the diff"
    assert rule_cases.main(["--check"]) == 0


def test_cases_list_the_table_in_order() -> None:
    assert CASES["rules"] == [rule_cases._rule_entry(r) for r in _rules.RULES]


def test_cases_list_every_declared_kind_s_samples() -> None:
    assert CASES["constraints"] == rule_cases.constraint_samples()
    assert {c["kind"] for c in CASES["constraints"]} == {k.name for k in constraint_kinds()}


def _document(case: dict[str, Any]) -> str:
    return rule_cases.document(CASES, case)


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_case_gives_its_violations_here(case: dict[str, Any]) -> None:
    doc = _document(case)
    want = [(v["path"], v["message"], v["code"]) for v in case["violations"]]
    try:
        taskspec.parse_task_spec(doc)
        got: list[tuple[str, str, str]] = []
    except taskspec.ValidationError as err:
        got = [(v.field_path, v.message, v.code) for v in err.violations]
        assert str(err).startswith(want[0][1])
    assert got == want
    # The message path too: a decoded spec without the text a document held.
    decoded = _decode.decode(doc)
    if not decoded.raw_enums:
        assert [(v.field_path, v.message, v.code) for v in _validate.check(decoded.spec)] == want


def test_cases_cover_every_rule_and_every_free_field() -> None:
    names = [c["name"] for c in CASES["cases"]]
    broken = {v["path"].split("[")[0] for c in CASES["cases"] for v in c["violations"]}
    assert broken == {r.path for r in _rules.RULES}
    for fi in FIELDS:
        if fi.full_name not in _rules.BY_FIELD and not (
            fi.kind is _layout.Kind.MESSAGE and not fi.pointer
        ):
            assert any(f".{fi.name} missing" in f".{n}" for n in names), fi.full_name
    assert {"valid base", "every rule broken", "every key missing"} <= set(names)
