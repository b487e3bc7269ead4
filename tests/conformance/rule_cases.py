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

import json
import sys
from collections.abc import Iterator, Sequence
from typing import Any, Final

import yaml

import taskspec
from taskspec import _rules
from taskspec._limits import INT64_MAX, INT64_MIN
from taskspec.bridge import _layout
from taskspec.bridge._gostr import _GO_SPACE
from tests.conformance.paths import ROOT

__all__ = ["BASE", "MISSING", "OUTPUT", "base_document", "main", "render", "rule_cases"]


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


def _rule_samples(rule: _rules.Rule) -> tuple[list[Any], list[Any]]:
    """(values that break *rule*, values that keep it), by the kind of its check."""
    fi = _rules.field_info(rule.path)
    zero = _ZERO[fi.kind]
    check, bound = rule.check, rule.bound
    if check is _rules.Check.EQUALS:
        assert bound is not None
        bad = [v for v in (bound - 1, bound + 1, INT64_MIN, INT64_MAX) if v != bound]
        return ([MISSING] if zero != bound else []) + bad, [bound]
    if check is _rules.Check.AT_LEAST:
        assert bound is not None
        if zero < bound:
            return [MISSING, bound - 1, INT64_MIN], [bound, INT64_MAX]
        return [bound - 1, INT64_MIN], [MISSING, bound, INT64_MAX]
    if check is _rules.Check.NOT_BLANK:
        # U+001C and U+FEFF are not white space to Go, though Python strips the first.
        return [MISSING, "", _GO_SPACE], ["\x1c", "\ufeff", " x\t"]
    if check is _rules.Check.DEFINED:
        assert fi.enum is not None
        defined = [text for _, text in sorted(fi.enum.to_string.items()) if text]
        return [MISSING, "", defined[0].upper(), "\u00e9\t\x01\u00a0"], defined
    assert check is _rules.Check.NOT_EMPTY
    return [MISSING, []], [[""]]


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
    if value is MISSING:
        return {"path": list(path), "delete": True}
    return {"path": list(path), "value": value}


def _case(
    name: str, edits: list[dict[str, Any]], violations: list[tuple[str, str]]
) -> dict[str, Any]:
    return {
        "name": name,
        "edits": edits,
        "violations": [{"path": p, "message": m} for p, m in violations],
    }


def _label(path: Path_, value: Any) -> str:
    where = ".".join(str(p) for p in path)
    if value is MISSING:
        return f"{where} missing"
    return f"{where} = {json.dumps(value)}"


def _expected(rule: _rules.Rule, value: Any) -> tuple[str, str]:
    """The violation a value breaking *rule* gives: its path and Go's message."""
    if value is MISSING:
        value = _ZERO[_rules.field_info(rule.path).kind]
    return rule.path, rule.format(value if isinstance(value, (int, str)) else len(value))


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
    for rule in _rules.RULES:
        path: Path_ = tuple(rule.path.split("."))
        bad, good = _rule_samples(rule)
        for value in bad:
            cases.append(_case(_label(path, value), [_edit(path, value)], [_expected(rule, value)]))
        for value in good:
            cases.append(_case(_label(path, value), [_edit(path, value)], []))
    for path, fi in _leaves(_layout.TASK_SPEC):
        if fi.full_name not in _rules.BY_FIELD:
            for value in _free_samples(fi):
                cases.append(_case(_label(path, value), [_edit(path, value)], []))
    # Each rule's last, most unusual, breaking value; "every key missing" has the zero values.
    broken = [(rule, _rule_samples(rule)[0][-1]) for rule in _rules.RULES]
    cases.append(
        _case(
            "every rule broken",
            [_edit(tuple(rule.path.split(".")), value) for rule, value in broken],
            [_expected(rule, value) for rule, value in broken],
        )
    )
    base = base_document()
    cases.append(
        _case(
            "every key missing",
            [_edit((key,), MISSING) for key in base],
            [_expected(r, MISSING) for r in _rules.RULES if MISSING in _rule_samples(r)[0]],
        )
    )
    return {
        "$comment": (
            "Generated from the rule table (python/taskspec/_rules.py) by"
            " `make vectors`; do not edit."
        ),
        "rules": [{"path": r.path, "message": r.message} for r in _rules.RULES],
        "base": base,
        "cases": cases,
    }


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
