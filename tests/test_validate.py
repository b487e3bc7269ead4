"""Validate: every rule and message of CONTRACT.md, in Go's order, checked against Go."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import taskspec
from taskspec import TaskSpec, ValidationError, _rules
from tests.conformance.gobridge import GoConsumer, spec_to_json
from tests.helpers import VALID_DOC, check_invalid, set_field, valid_spec

Mutation = Callable[[TaskSpec], None]


def _set(path: str, value: object) -> Mutation:
    def apply(spec: TaskSpec) -> None:
        set_field(spec, path, value)

    return apply


# (id, mutation, field path, message exactly as Go's Validate words it without "eval: ")
RULES: list[tuple[str, Mutation, str, str]] = [
    (
        "version-0",
        _set("task_spec_version", 0),
        "task_spec_version",
        "unsupported task_spec_version 0 (this build produces v1)",
    ),
    (
        "version-99",
        _set("task_spec_version", 99),
        "task_spec_version",
        "unsupported task_spec_version 99 (this build produces v1)",
    ),
    (
        "version-negative",
        _set("task_spec_version", -1),
        "task_spec_version",
        "unsupported task_spec_version -1 (this build produces v1)",
    ),
    ("task-id-empty", _set("task_id", ""), "task_id", "task_id is required"),
    ("task-id-blank", _set("task_id", " \t\n\u00a0\u3000"), "task_id", "task_id is required"),
    ("language-unspecified", _set("language", 0), "language", 'invalid language ""'),
    ("language-undefined-number", _set("language", 7), "language", 'invalid language "7"'),
    ("difficulty-unspecified", _set("difficulty", 0), "difficulty", 'invalid difficulty ""'),
    (
        "kind-unspecified",
        _set("generated_from.kind", 0),
        "generated_from.kind",
        'invalid generated_from.kind ""',
    ),
    ("prompt-empty", _set("prompt", ""), "prompt", "prompt is required"),
    ("prompt-blank", _set("prompt", "\n\t "), "prompt", "prompt is required"),
    (
        "test-cmd-empty",
        _set("verification.test_cmd", []),
        "verification.test_cmd",
        "verification.test_cmd is required",
    ),
    (
        "timeout-negative",
        _set("verification.timeout_seconds", -5),
        "verification.timeout_seconds",
        "verification.timeout_seconds must be non-negative, got -5",
    ),
]


def test_every_rule_here_is_in_the_table_in_its_order() -> None:
    """RULES above is the oracle, written from CONTRACT.md: every rule it names is in
    the table, in its order. A rule the proto adds since is pinned by the rule cases
    (tests/test_rules.py), which are generated from the table."""
    paths = list(dict.fromkeys(r[2] for r in RULES))
    table = list(dict.fromkeys(rule.path for rule in _rules.RULES))
    assert [p for p in table if p in paths] == paths
    assert len(paths) >= 8


@pytest.mark.parametrize(
    ("mutate", "path", "message"), [r[1:] for r in RULES], ids=[r[0] for r in RULES]
)
def test_each_rule(mutate: Mutation, path: str, message: str) -> None:
    spec = valid_spec()
    mutate(spec)
    with pytest.raises(ValidationError) as info:
        taskspec.validate(spec)
    err = info.value
    assert str(err) == message
    assert [(v.field_path, v.message) for v in err.violations] == [(path, message)]


@pytest.mark.parametrize(
    ("mutate", "path", "message"),
    [r[1:] for r in RULES if "undefined-number" not in r[0]],
    ids=[r[0] for r in RULES if "undefined-number" not in r[0]],
)
def test_each_rule_matches_go(go: GoConsumer, mutate: Mutation, path: str, message: str) -> None:
    spec = valid_spec()
    mutate(spec)
    res = go.validate(spec)
    assert res == {"ok": False, "error": f"eval: {message}"}


def test_valid_spec_passes_on_both_sides(go: GoConsumer) -> None:
    spec = valid_spec()
    taskspec.validate(spec)
    assert go.validate(spec) == {"ok": True}


def test_violations_are_collected_in_go_order() -> None:
    with pytest.raises(ValidationError) as info:
        taskspec.validate(TaskSpec())
    err = info.value
    assert [v.field_path for v in err.violations] == [
        "task_spec_version",
        "task_id",
        "language",
        "difficulty",
        "generated_from.kind",
        "prompt",
        "verification.test_cmd",
    ]
    assert str(err).startswith("unsupported task_spec_version 0 (this build produces v1)")
    assert "(and 6 more problems)" in str(err)


def test_first_violation_is_what_go_reports(go: GoConsumer) -> None:
    spec = TaskSpec(task_spec_version=1, task_id="t")
    spec.verification.timeout_seconds = -1
    with pytest.raises(ValidationError) as info:
        taskspec.validate(spec)
    err = info.value
    res = go.validate(spec)
    assert res["error"] == "eval: " + err.violations[0].message
    assert err.violations[-1].message == "verification.timeout_seconds must be non-negative, got -1"


def test_nothing_else_is_checked() -> None:
    spec = valid_spec()
    spec.solution_artifacts.add(path="", role="")
    spec.generated_from.kg_query.Clear()
    spec.generated_from.kg_query.SetInParent()
    spec.verification.timeout_seconds = 0
    del spec.verification.build_cmd[:]
    spec.difficulty_signals.clear()
    taskspec.validate(spec)


def test_go_trim_space_keeps_information_separators() -> None:
    # Python's str.strip() removes U+001C..U+001F; Go's strings.TrimSpace keeps them.
    spec = valid_spec()
    spec.task_id = "\x1c"
    taskspec.validate(spec)


def test_go_quoting_of_invalid_enum_text() -> None:
    doc = VALID_DOC.replace(b"language: go", b'language: "g\\to\\u00e9\\u00a0\\x01"')
    check_invalid(
        doc, ValidationError, path="language", message='invalid language "g\\toé\\u00a0\\x01"'
    )


def test_validate_rejects_non_spec() -> None:
    with pytest.raises(ValidationError, match=r"expected a taskspec\.v1\.TaskSpec"):
        taskspec.validate("task_spec_version: 1")  # type: ignore[arg-type]


def test_signal_keys_use_byte_order(go: GoConsumer) -> None:
    spec = valid_spec()
    spec.difficulty_signals.clear()
    for key in ["a10", "a9", "B", "b", "_x", "é", "10", "9", ""]:
        spec.difficulty_signals[key] = 1
    keys = taskspec.signal_keys(spec)
    assert keys == ["", "10", "9", "B", "_x", "a10", "a9", "b", "é"]
    assert go.request(op="signal_keys", spec=spec_to_json(spec))["keys"] == keys
