"""Cases that pin a ``Validate`` to the rule table, for the Go library's tests.

The Go library's ``Validate`` is written by hand; the rules it must follow
are listed once, in :data:`taskspec._rules.RULES`. This module turns that
table into documents (a valid base and edits of it) with the violations each
must give, in Go's order and words, and writes them to
``go/testdata/validate_rules.json``. ``go/rules_test.go`` runs them through
the Go library; ``tests/test_rules.py`` runs them through this one and fails
when the committed file is not what the table generates.

Usage, from the repository root, after changing the table::

    make vectors
"""

from __future__ import annotations

import copy
import functools
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any, Final

import yaml

import taskspec
from taskspec import _rules
from taskspec._constraints import IMPLEMENTATIONS
from taskspec._contract import constraint_kinds
from taskspec._limits import INT64_MAX, INT64_MIN
from taskspec.bridge import _layout
from taskspec.v1 import taskspec_pb2
from tests.conformance.paths import ROOT

__all__ = [
    "BASE",
    "MISSING",
    "OUTPUT",
    "base_document",
    "constraint_samples",
    "document",
    "holds",
    "main",
    "render",
    "rule_cases",
]


#: The committed cases, which the Go library's tests read.
OUTPUT = ROOT / "go" / "testdata" / "validate_rules.json"

#: The valid document every case edits: it sets every field.
BASE = ROOT / "examples" / "go.taskspec.yaml"

Path_ = tuple[str | int, ...]


class _Missing:
    """The key left out, which Go decodes as the zero value."""

    def __repr__(self) -> str:
        return "missing"


MISSING: Final = _Missing()

#: Go's zero value of each kind a rule can check: what a missing key holds.
_ZERO: Final[dict[_layout.Kind, Any]] = {
    _layout.Kind.INT: 0,
    _layout.Kind.STRING: "",
    _layout.Kind.ENUM: "",
    _layout.Kind.STRING_LIST: [],
}

#: The enum whose spellings the cross-language samples of an enum kind use.
SAMPLE_ENUM: Final = _layout.enum_info(taskspec_pb2.Language.DESCRIPTOR)


def holds(
    kind: str,
    bound: int | None,
    value: Any,
    enum: _layout.EnumInfo | None = None,
    *,
    when_set: bool = False,
) -> bool:
    """Whether *value* (JSON data: an enum's as its spelling) keeps a constraint of *kind*.

    With *when_set*, the constraint applies only when the field is set
    (``FieldRules.ignore``), as the library's rules run it.
    """
    if enum is not None:
        number = enum.from_string.get(value)
        if number is None or enum.to_string.get(number) != value:
            return False  # text that spells no value breaks it, as a document's does
        value = number
    test = IMPLEMENTATIONS[kind].test(bound, enum)
    return bool((_rules.when_set(test) if when_set else test)(value))


def _enum(rule: _rules.Rule) -> _layout.EnumInfo | None:
    return None if rule.item else _rules.field_info(rule.path).enum


def _rule_samples(rule: _rules.Rule) -> tuple[list[Any], list[Any]]:
    """(values that break *rule*, values that keep it), from its kind's implementation.

    The key left out (its zero value) leads the values that break it, or
    those that keep it.
    """
    enum = _enum(rule)
    bad, good = rule.implementation.samples(rule.bound, enum)
    zero = _ZERO[_rules.field_info(rule.path).kind]
    if rule.item:
        return bad, good
    if rule.ignore_zero:  # the zero value keeps it, written or left out
        return [v for v in bad if v != zero], [
            MISSING,
            *good,
            *([zero] if zero not in good else []),
        ]
    if holds(rule.kind, rule.bound, zero, enum):
        return list(bad), [MISSING, *good]
    return [MISSING, *bad], list(good)


def _field_value(rule: _rules.Rule, value: Any) -> Any:
    """The value a rule's sample gives its field: an item rule's sample is the list's one item."""
    return [value] if rule.item else value


def _free_samples(fi: _layout.FieldInfo) -> list[Any]:
    """Values of a field no rule checks, odd ones included: each must be accepted."""
    kind = fi.kind
    if kind is _layout.Kind.STRING:
        return [MISSING, "", " \t\n"]
    if kind is _layout.Kind.INT:
        return [MISSING, 0, -1, INT64_MIN, INT64_MAX]
    if kind is _layout.Kind.STRING_LIST:
        return [MISSING, [], [""]]
    if kind is _layout.Kind.INT_MAP:
        return [MISSING, {}, {"": INT64_MIN, " ": -1}]
    if kind is _layout.Kind.MESSAGE_LIST:
        return [MISSING, [], [{}]]
    if kind is _layout.Kind.MESSAGE:
        # A value struct left out is its zero value, which breaks the rules of
        # its fields; only a pointer can be left out or empty freely.
        return [MISSING, {}] if fi.pointer else []
    raise RuntimeError(f"{fi.full_name}: no rule, and no free samples for a {kind.value}")


def _leaves(
    info: _layout.MessageInfo, prefix: Path_ = ()
) -> Iterator[tuple[Path_, _layout.FieldInfo]]:
    """Every field of the base document with its path (the first list item stands for all)."""
    for fi in info.fields:
        path = (*prefix, fi.name)
        yield path, fi
        if fi.message is not None:
            yield from _leaves(fi.message, path if fi.kind is _layout.Kind.MESSAGE else (*path, 0))


def _edit(path: Path_, value: Any) -> dict[str, Any]:
    """The edit that gives the key at *path* *value* (or leaves it out).

    A key under an optional message the base leaves out (a pointer, say
    ``verification.resources``) is set by adding that message, holding only
    the key; left out, the message stays out.
    """
    node: Any = _base()
    for i, step in enumerate(path[:-1]):
        if isinstance(node, dict) and step not in node:
            outer = path[: i + 1]
            if value is MISSING:
                return {"path": list(outer), "delete": True}
            for inner in reversed(path[i + 1 :]):
                value = {inner: value}
            return {"path": list(outer), "value": value}
        node = node[step]
    if value is MISSING:
        return {"path": list(path), "delete": True}
    return {"path": list(path), "value": value}


def _merged(edits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """*edits* with those that add the same message to the base made one, holding every key."""
    out: list[dict[str, Any]] = []
    added: dict[tuple[Any, ...], dict[str, Any]] = {}
    for edit in edits:
        value = edit.get("value")
        key = tuple(edit["path"])
        if isinstance(value, dict) and key in added:
            _deep_update(added[key], value)
            continue
        if isinstance(value, dict):
            added[key] = copy.deepcopy(value)
            out.append({"path": edit["path"], "value": added[key]})
            continue
        out.append(edit)
    return out


def _deep_update(target: dict[str, Any], more: dict[str, Any]) -> None:
    for k, v in more.items():
        if isinstance(v, dict) and isinstance(target.get(k), dict):
            _deep_update(target[k], v)
        else:
            target[k] = v


@functools.cache
def _base() -> dict[str, Any]:
    return base_document()


def _case(
    name: str, edits: list[dict[str, Any]], violations: list[tuple[str, str, str]]
) -> dict[str, Any]:
    return {
        "name": name,
        "edits": edits,
        "violations": [{"path": p, "message": m, "code": c} for p, m, c in violations],
    }


def _label(path: Path_, value: Any) -> str:
    where = ".".join(str(p) for p in path)
    if value is MISSING:
        return f"{where} missing"
    return f"{where} = {json.dumps(value)}"


def _argument(value: Any) -> int | str:
    """A value as its message shows it: a list by its length."""
    return value if isinstance(value, (int, str)) else len(value)


def _expected(rules: tuple[_rules.Rule, ...], value: Any) -> list[tuple[str, str, str]]:
    """The violations a field under *rules* holding *value* gives: paths, Go's messages, codes."""
    first = rules[0]
    if value is MISSING:
        value = _ZERO[_rules.field_info(first.path).kind]
    found: list[tuple[str, str, str]] = []
    for rule in rules:
        if rule.ignore_zero and value == _ZERO[_rules.field_info(rule.path).kind]:
            continue
        if not rule.item and not holds(rule.kind, rule.bound, value, _enum(rule)):
            found.append((rule.path, rule.format(_argument(value)), rule.code))
    for i, item in enumerate(value if isinstance(value, list) else []):
        for rule in rules:
            if rule.item and not holds(rule.kind, rule.bound, item):
                found.append((f"{rule.path}[{i}]", rule.format(item), rule.code))
    return found


def _field_rules() -> list[tuple[_rules.Rule, ...]]:
    """The rules of each field with rules, in Validate's order."""
    return [rules for rules in _rules.BY_FIELD.values()]


def constraint_samples() -> list[dict[str, Any]]:
    """For every declared kind, samples from its implementation, for Go's to agree with.

    Each is the kind, its bound (left out for a kind without one), a value
    (a string, an integer, a list of strings, or a spelling of
    taskspec.v1.Language for an enum kind) and whether the value breaks it.
    Then the same samples and the kind's zero value again with ``when_set``:
    whether they break it when it applies only to a field that is set
    (``FieldRules.ignore``: the zero value never does).
    """
    out: list[dict[str, Any]] = []
    for kind in constraint_kinds():
        impl = IMPLEMENTATIONS[kind.name]
        enum = SAMPLE_ENUM if kind.name.rsplit(".", 2)[-2] == "EnumRules" else None
        for bound in impl.bounds if kind.bounded else (None,):
            bad, good = impl.samples(bound, enum)
            for value, breaks in [(v, True) for v in bad] + [(v, False) for v in good]:
                if holds(kind.name, bound, value, enum) == breaks:
                    raise SystemExit(f"{kind.name} ({bound}): its test disagrees on {value!r}")
                entry: dict[str, Any] = {"kind": kind.name}
                if bound is not None:
                    entry["bound"] = bound
                entry.update({"value": value, "breaks": breaks})
                out.append(entry)
            zero = _ZERO[_KIND_OF[kind.name.rsplit(".", 2)[-2]]]
            for value in [zero, *bad, *good]:
                entry = {"kind": kind.name}
                if bound is not None:
                    entry["bound"] = bound
                breaks = not holds(kind.name, bound, value, enum, when_set=True)
                entry.update({"value": value, "breaks": breaks, "when_set": True})
                out.append(entry)
    return out


#: The kind of field each rules message constrains, by the message's name.
_KIND_OF: Final[dict[str, _layout.Kind]] = {
    "StringRules": _layout.Kind.STRING,
    "Int64Rules": _layout.Kind.INT,
    "EnumRules": _layout.Kind.ENUM,
    "RepeatedRules": _layout.Kind.STRING_LIST,
}


def base_document() -> dict[str, Any]:
    """The data of :data:`BASE`, checked to be what taskspec reads from the file."""
    text = BASE.read_bytes()
    data: dict[str, Any] = yaml.safe_load(text)
    if taskspec.parse_task_spec(json.dumps(data)) != taskspec.parse_task_spec(text):
        raise SystemExit(f"{BASE}: a YAML 1.1 reader does not see what taskspec sees")
    return data


def rule_cases() -> dict[str, Any]:
    """Cases that pin a Validate to the rule table, as JSON data.

    ``base`` is a valid document; each case lists edits of it (``path`` to a
    key, then ``value`` to set or ``delete``) and the violations the edited
    document gives, as (field path, Go's message) in Go's order. Documents
    are JSON, which every YAML reader reads. The cases: the base itself;
    each rule broken, and kept, by the values that bound its check; every
    field no rule checks, left out and set to odd values (nothing else is
    checked); every rule broken at once; and every key left out.
    """
    cases = [_case("valid base", [], [])]
    fields = _field_rules()
    for rules in fields:
        path: Path_ = tuple(rules[0].path.split("."))
        for rule in rules:
            bad, good = _rule_samples(rule)
            for value in bad + good:
                field = _field_value(rule, value)
                cases.append(
                    _case(_label(path, field), [_edit(path, field)], _expected(rules, field))
                )
    for path, fi in _leaves(_layout.TASK_SPEC):
        if fi.full_name not in _rules.BY_FIELD:
            for value in _free_samples(fi):
                cases.append(_case(_label(path, value), [_edit(path, value)], []))
    # Each field's last rule's last, most unusual, breaking value; "every key
    # missing" has the zero values.
    broken = [(rules, _field_value(rules[-1], _rule_samples(rules[-1])[0][-1])) for rules in fields]
    cases.append(
        _case(
            "every rule broken",
            _merged([_edit(tuple(rules[0].path.split(".")), value) for rules, value in broken]),
            [v for rules, value in broken for v in _expected(rules, value)],
        )
    )
    base = base_document()
    cases.append(
        _case(
            "every key missing",
            [_edit((key,), MISSING) for key in base],
            [v for rules in fields for v in _expected(rules, MISSING)],
        )
    )
    return {
        "$comment": (
            "Generated from the rule table (python/taskspec/_rules.py) and the constraints'"
            " implementations (python/taskspec/_constraints.py) by `make vectors`; do not edit."
        ),
        "rules": [_rule_entry(r) for r in _rules.RULES],
        "base": base,
        "cases": cases,
        "constraints": constraint_samples(),
    }


def _rule_entry(rule: _rules.Rule) -> dict[str, Any]:
    entry: dict[str, Any] = {"path": rule.path, "message": rule.message}
    if rule.item:
        entry["item"] = True
    return entry


def document(cases: dict[str, Any], case: dict[str, Any]) -> str:
    """The JSON document of *case*: the cases' ``base`` with the case's edits made."""
    doc = copy.deepcopy(cases["base"])
    for edit in case["edits"]:
        *parents, last = edit["path"]
        target = doc
        for step in parents:
            target = target[step]
        if isinstance(target, list):
            assert last < len(target)
        # A key the base leaves out (an optional field) is set by adding it;
        # leaving it out again changes nothing.
        if edit.get("delete") and isinstance(target, dict):
            target.pop(last, None)
        elif edit.get("delete"):
            del target[last]
        else:
            target[last] = edit["value"]
    return json.dumps(doc)


def render() -> bytes:
    """The committed bytes of :data:`OUTPUT`: ASCII JSON, 1-space indent, a final newline."""
    return (json.dumps(rule_cases(), indent=1) + "\n").encode()


def main(argv: Sequence[str] | None = None) -> int:
    """Write :data:`OUTPUT`, or with ``--check`` fail if it is not what the table generates."""
    args = list(sys.argv[1:] if argv is None else argv)
    data = render()
    if args == ["--check"]:
        if OUTPUT.read_bytes() != data:
            print(f"{OUTPUT.relative_to(ROOT)} is out of date: run make vectors")
            return 1
        return 0
    if args:
        print("usage: python -m tests.conformance.rule_cases [--check]", file=sys.stderr)
        return 2
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_bytes(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
