"""The Go library (module ``go/``) against the Python library, on the same inputs.

Both libraries promise the Go package's behaviour, and each is tested
against the recorded vectors on its own (``go test`` in ``go/``, and
``test_conformance.py`` here). This module holds them against each other,
live, through the consumer's ``lib_*`` requests: on every conformance
vector they must accept and reject the same documents, decode the same
message, write the same bytes and report the same violations, with the same
field paths, messages and positions.
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

import taskspec
from taskspec import DecodeError, TaskSpec, TaskSpecError, ValidationError
from taskspec.v1 import taskspec_pb2
from tests.conformance.gobridge import GoConsumer, GoResult, spec_to_json
from tests.conformance.specs import order_is_total
from tests.strategies import HARD_STRINGS, generated_corpus
from tests.vectors import (
    CLASSES,
    Vector,
    budget_refusals,
    first_difference,
    load,
    stricter,
)

GO_PREFIX = "eval: "


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _binpb(spec: TaskSpec) -> str:
    return _b64(spec.SerializeToString(deterministic=True))


def _all_vectors() -> list[Vector]:
    return [v for kind in CLASSES for v in load(kind)]


def _violations(res: GoResult) -> list[tuple[str, str, int, int]]:
    return [(v["field_path"], v["message"], v["line"], v["column"]) for v in res["violations"]]


def _python(data: bytes) -> TaskSpec | TaskSpecError:
    try:
        return taskspec.parse_task_spec(data)
    except TaskSpecError as err:
        return err


def _report(failures: Sequence[str], count: int) -> None:
    shown = "\n  ".join(failures[:25])
    assert not failures, f"{len(failures)} of {count} cases differ:\n  {shown}"


def test_both_libraries_accept_reject_decode_and_write_every_vector_alike(
    go: GoConsumer,
) -> None:
    vectors = _all_vectors()
    results = go.batch([{"op": "lib_parse", "yaml_b64": _b64(v.data)} for v in vectors])
    failures: list[str] = []
    kinds: set[str] = set()
    for v, res in zip(vectors, results, strict=True):
        ours = _python(v.data)
        why = _compare_parse(v, ours, res)
        if why:
            failures.append(f"{v.name} ({v.note}): {why}")
        kinds.add(res.get("error_kind", "ok"))
    _report(failures, len(vectors))
    assert len(vectors) > 1000
    assert kinds == {"ok", "decode", "strict", "validate"}, kinds


def _compare_parse(v: Vector, ours: TaskSpec | TaskSpecError, res: GoResult) -> str | None:
    if isinstance(ours, TaskSpec):
        if not res["ok"]:
            return f"Python accepts, Go rejects: {res['error']}"
        if TaskSpec.FromString(base64.b64decode(res["binpb_b64"])) != ours:
            return "Go decodes a different message"
        want = taskspec.marshal_yaml(ours)
        return None if res["yaml"] == want else first_difference(want, res["yaml"])
    if res["ok"]:
        return f"Go accepts, Python rejects: {ours}"
    if isinstance(ours, ValidationError):
        if res["error_kind"] != "validate":
            return f"Python fails Validate ({ours}), Go fails decoding: {res['error']}"
        mine = [(x.field_path, x.message, x.line, x.column) for x in ours.violations]
        if _violations(res) != mine:
            return f"violations differ: Go {_violations(res)}, Python {mine}"
        if res["error"] != GO_PREFIX + ours.violations[0].message:
            return f"Go's error {res['error']!r} is not the first violation"
        return None
    assert isinstance(ours, DecodeError)
    if res["error_kind"] == "validate":
        return f"Python fails decoding ({ours}), Go fails Validate: {res['error']}"
    budget = budget_refusals().get(v.name)
    if budget is not None:
        # Past a shared budget: refused before the Go package's decoder would
        # run, with the budget's refusal, the same in both libraries.
        got = (res.get("violations") or [{}])[0]
        expected = {
            "field_path": budget["field_path"],
            "message": budget["reason"],
            "line": budget["line"],
        }
        return None if {k: got.get(k) for k in expected} == expected else f"refused with {got}"
    if (
        v.kind == "rejected"
        and v.meta["go_stage"] == "decode"
        and res["error"] != v.meta["go_error"]
    ):
        return f"Go library's error {res['error']!r} is not the Go package's {v.meta['go_error']!r}"
    listed = v.name in stricter()
    if (res["error_kind"] == "strict") != listed:
        # Refusing what the Go package accepts is for the listed cases only;
        # everything else the Go package itself rejects, with its message.
        return f"error kind {res['error_kind']} for {'a listed' if listed else 'an unlisted'} case"
    return None


def _hard_specs() -> Iterable[TaskSpec]:
    """Specs with each hard string in every position the writer lays out differently."""
    for s in HARD_STRINGS:
        spec = TaskSpec(
            task_spec_version=1,
            task_id=s,
            language=taskspec_pb2.LANGUAGE_GO,
            difficulty=taskspec_pb2.DIFFICULTY_HARD,
            prompt=s,
        )
        spec.difficulty_signals.update({s: 1, "a10": 2, "a9": 3})
        spec.generated_from.kind = taskspec_pb2.GENERATED_KIND_KG_TEMPLATE
        spec.generated_from.template_id = s
        spec.generated_from.kg_query.intent = s
        spec.generated_from.kg_query.seed_symbol = s
        spec.solution_artifacts.add(path=s, role=s)
        spec.verification.build_cmd.extend([s])
        spec.verification.test_cmd.extend([s, "x"])
        spec.verification.timeout_seconds = 7
        yield spec
    for key in ("<<", "\tx\ny", " x\ny", "\nx", "~", "", "1"):
        spec = TaskSpec(task_spec_version=1, task_id="t", prompt="p")
        spec.difficulty_signals[key] = 5
        yield spec
    # A string the Go library fixes the literal header of (it starts with a
    # space, a line break or a tab) that ends in LS or PS: yaml.v3 then writes
    # no line break after the block, both before the next key and at the end.
    for s in ("\n0\u2028", " a\nb\u2029", "\tx\ny\u2028", "\n\u2028x\u2029"):
        for timeout in (0, 9):
            spec = TaskSpec(task_spec_version=1, task_id="t", prompt="p")
            spec.verification.test_cmd.append(s)
            spec.verification.timeout_seconds = timeout
            yield spec
    # A multi-line key whose content has an empty line, before the keys that
    # yaml.v3 writes unreadably: the fixes must reach past the empty line.
    for keys in (("\n", "<<"), ("a\n\nb", "\tx\ny"), ("\n\n", "<<", "\tq\nz", "a")):
        spec = TaskSpec(task_spec_version=1, task_id="t", prompt="p")
        spec.difficulty_signals.update(dict.fromkeys(keys, 7))
        yield spec


def _marshal_failures(go: GoConsumer, specs: Sequence[TaskSpec], *, ordered: bool) -> list[str]:
    """Where the Go library's MarshalYAML fails or writes other bytes than Python.

    With *ordered*, specs whose signal keys yaml.v3 itself orders
    differently from run to run are left out of the byte comparison.
    """
    results = go.batch([{"op": "lib_marshal", "binpb_b64": _binpb(s)} for s in specs])
    failures = []
    for spec, res in zip(specs, results, strict=True):
        want = taskspec.marshal_yaml(spec)
        if not res["ok"]:
            failures.append(f"{spec_to_json(spec)}: Go fails: {res['error']}")
        elif ordered and not order_is_total(spec.difficulty_signals):
            continue
        elif res["yaml"] != want:
            failures.append(f"{spec_to_json(spec)}: {first_difference(want, res['yaml'])}")
    return failures


def test_both_libraries_write_the_same_bytes(go: GoConsumer) -> None:
    specs = [v.spec() for kind in ("canonical", "roundtrip_bugs") for v in load(kind)]
    specs += list(_hard_specs())
    _report(_marshal_failures(go, specs, ordered=False), len(specs))


def test_both_libraries_write_the_same_bytes_for_generated_specs(go: GoConsumer) -> None:
    specs = generated_corpus()
    _report(_marshal_failures(go, specs, ordered=True), len(specs))


def _invalid_specs() -> list[TaskSpec]:
    base = load("canonical")[0].spec()
    out = [TaskSpec(), TaskSpec(task_spec_version=99)]
    for mutate in (
        lambda s: setattr(s, "task_id", " \t\u3000"),
        lambda s: setattr(s, "task_id", "\x1c"),  # not space to Go, so valid
        lambda s: setattr(s, "language", 7),
        lambda s: setattr(s, "difficulty", -1),
        lambda s: setattr(s.generated_from, "kind", 0),
        lambda s: setattr(s, "prompt", "\n\t "),
        lambda s: s.verification.ClearField("test_cmd"),
        lambda s: setattr(s.verification, "timeout_seconds", -(2**63)),
        lambda s: s.ClearField("verification"),
    ):
        spec = TaskSpec()
        spec.CopyFrom(base)
        mutate(spec)
        out.append(spec)
    return out


def test_both_libraries_report_the_same_violations(go: GoConsumer) -> None:
    specs = _invalid_specs()
    results = go.batch([{"op": "lib_validate", "binpb_b64": _binpb(s)} for s in specs])
    for spec, res in zip(specs, results, strict=True):
        assert res["ok"], res
        try:
            taskspec.validate(spec)
        except ValidationError as err:
            mine = [(v.field_path, v.message, 0, 0) for v in err.violations]
            assert _violations(res) == mine, spec
            assert res["validate_error"] == GO_PREFIX + err.violations[0].message
        else:
            assert res["violations"] == [] and res["validate_error"] == "", spec


@pytest.mark.parametrize(
    ("field", "number", "enum"),
    [("language", 7, "Language"), ("difficulty", 9, "Difficulty")],
)
def test_both_libraries_refuse_to_write_an_undefined_enum_number(
    go: GoConsumer, field: str, number: int, enum: str
) -> None:
    spec = load("canonical")[0].spec()
    setattr(spec, field, number)
    res = go.request(op="lib_marshal", binpb_b64=_binpb(spec))
    with pytest.raises(TaskSpecError) as err:
        taskspec.marshal_yaml(spec)
    assert not res["ok"]
    assert res["error"] == GO_PREFIX + str(err.value)
    assert res["error"] == (
        f"eval: {field}: enum value {number} is not defined in taskspec.v1.{enum}"
        " and cannot be written as YAML"
    )


def test_request_errors_are_reported_not_fatal(go: GoConsumer) -> None:
    bad: list[dict[str, Any]] = [
        {"op": "lib_parse"},
        {"op": "lib_marshal", "binpb_b64": "!!"},
        {"op": "lib_validate", "binpb_b64": _b64(b"\xff\xff")},
    ]
    results = go.batch(bad)
    assert [r["ok"] for r in results] == [False, False, False]
    assert all(r["error"].startswith("request: ") for r in results), results


def test_both_libraries_locate_an_unknown_key_alike(go: GoConsumer) -> None:
    """Path, line, column and "did you mean" of Python's DecodeError and Go's *DecodeError."""
    checked = 0
    for v in _all_vectors():
        ours = _python(v.data)
        if not isinstance(ours, DecodeError) or "unknown field" not in ours.violations[0].message:
            continue
        res = go.request(op="lib_parse", yaml_b64=_b64(v.data))
        (theirs,) = res["violations"]
        mine = ours.violations[0]
        assert (mine.field_path, mine.line, mine.column, mine.hint or "") == (
            theirs["field_path"],
            theirs["line"],
            theirs["column"],
            theirs.get("hint", ""),
        ), v.name
        checked += 1
    assert checked >= 10


def _over_the_limits() -> dict[str, TaskSpec]:
    """Valid specs whose YAML a reader refuses: too many nodes, too many bytes."""
    base = load("canonical")[0].spec()
    many = TaskSpec()
    many.CopyFrom(base)
    many.difficulty_signals.update({f"s{i}": i for i in range(60_000)})
    large = TaskSpec()
    large.CopyFrom(base)
    large.prompt = "x" * (17 * 1024 * 1024)
    return {"60,000 signals": many, "a 17 MiB prompt": large}


@pytest.mark.parametrize("case", ["60,000 signals", "a 17 MiB prompt"])
def test_both_libraries_refuse_to_save_what_a_reader_refuses_alike(
    go: GoConsumer, tmp_path: Path, case: str
) -> None:
    spec = _over_the_limits()[case]
    with pytest.raises(TaskSpecError) as info:
        taskspec.save(tmp_path / "py.taskspec.yaml", spec)
    res = go.request(op="lib_save", binpb_b64=_binpb(spec), path=str(tmp_path / "go.taskspec.yaml"))
    assert not res["ok"]
    (theirs,) = res["violations"]
    ours = info.value.violations[0]
    assert (ours.field_path, ours.message) == (theirs["field_path"], theirs["message"])
    assert res["error"] == GO_PREFIX + ours.message
    assert not list(tmp_path.iterdir())
