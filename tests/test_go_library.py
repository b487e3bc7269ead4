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
import json
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taskspec
from taskspec import DecodeError, TaskSpec, TaskSpecError, ValidationError
from taskspec._limits import MAX_DOCUMENT_BYTES
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

GO_PREFIX = "taskspec: "
GO_DECODE_PREFIX = "taskspec: decode task spec: "
#: The codes of YAML syntax problems (docs/problems.md).
SYNTAX_CODES = frozenset({"TS005", *(f"TS{n:03d}" for n in range(8, 20))})


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
    if isinstance(ours, ValidationError) and not isinstance(ours, DecodeError):
        if res["error_kind"] != "validate":
            return f"Python fails Validate ({ours}), Go fails decoding: {res['error']}"
        mine = [(x.field_path, x.message, x.line, x.column) for x in ours.violations]
        if _violations(res) != mine:
            return f"violations differ: Go {_violations(res)}, Python {mine}"
        if res["error"] != GO_PREFIX + str(ours):
            return f"Go's error {res['error']!r} is not Python's {str(ours)!r}"
        return None
    assert isinstance(ours, DecodeError)
    if res["error_kind"] == "validate":
        return f"Python fails decoding ({ours}), Go fails Validate: {res['error']}"
    budget = budget_refusals().get(v.name)
    if budget is not None:
        # Past a shared budget: refused before the Go package's decoder would
        # run, with the budget's refusal, the same in both libraries.
        refusal = (res.get("violations") or [{}])[0]
        expected = {
            "field_path": budget["field_path"],
            "message": budget["reason"],
            "line": budget["line"],
        }
        return (
            None if {k: refusal.get(k) for k in expected} == expected else f"refused with {refusal}"
        )
    # The words are the contract's (docs/problems.md): the Go library's
    # error is the Go package's prefix and Python's first problem, but for a
    # YAML syntax problem, where the parsers may stop at different places
    # and only "both refuse with a syntax code" is agreed.
    first = ours.violations[0]
    go_code = (res.get("violations") or [{}])[0].get("code", "")
    if first.code in SYNTAX_CODES or go_code in SYNTAX_CODES:
        if not (first.code in SYNTAX_CODES and go_code in SYNTAX_CODES):
            return (
                f"syntax codes differ: Go {go_code} {res['error']!r}, Python {first.code} {first}"
            )
    elif res["error"] != GO_DECODE_PREFIX + str(ours):
        return f"Go library's error {res['error']!r} is not Python's {str(ours)!r}"
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
            assert res["validate_error"] == GO_PREFIX + str(err)
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
        f"taskspec: {field}: enum value {number} is not defined in taskspec.v1.{enum}"
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


# -- JSON and binary protobuf: the same bytes, the same refusals ---------------


def _format_specs() -> list[TaskSpec]:
    """Every vector spec, the hard strings in every position, and the corners of proto3 JSON."""
    specs = [v.spec() for kind in ("canonical", "roundtrip_bugs") for v in load(kind)]
    specs += list(_hard_specs())
    specs += _invalid_specs()
    extremes = TaskSpec(task_spec_version=2**63 - 1, task_id="\x00\x1f\x7f\u2028\U0001f600")
    extremes.difficulty_signals.update({"min": -(2**63), "max": 2**63 - 1, "": 0, "é": 1, "Z": 2})
    extremes.verification.timeout_seconds = -(2**63)
    extremes.generated_from.kg_query.SetInParent()
    extremes.solution_artifacts.add()
    undefined = TaskSpec()
    undefined.language = 99  # type: ignore[assignment]
    undefined.difficulty = -1  # type: ignore[assignment]
    specs += [extremes, undefined]
    empty_from = TaskSpec()
    empty_from.generated_from.SetInParent()
    specs.append(empty_from)
    return specs


@pytest.mark.parametrize(
    ("op", "python"),
    [("lib_marshal_json", taskspec.marshal_json), ("lib_marshal_binpb", taskspec.marshal_binpb)],
)
def test_both_libraries_write_the_same_json_and_binpb(go: GoConsumer, op: str, python: Any) -> None:
    specs = _format_specs() + list(generated_corpus())
    results = go.batch([{"op": op, "binpb_b64": _binpb(s)} for s in specs])
    failures = []
    for spec, res in zip(specs, results, strict=True):
        want = python(spec)
        if not res["ok"]:
            failures.append(f"{spec_to_json(spec)}: Go fails: {res['error']}")
        elif (got := base64.b64decode(res["data_b64"])) != want:
            failures.append(f"{spec_to_json(spec)}: {first_difference(want, got)}")
    _report(failures, len(specs))
    assert len(specs) > 500


def _convert_python(data: bytes, source: str, target: str) -> bytes | TaskSpecError:
    try:
        return taskspec.convert(data, source, target)
    except TaskSpecError as err:
        return err


def _compare_convert(data: bytes, source: str, target: str, res: GoResult) -> str | None:
    """Why Go's Convert and Python's convert disagree on *data*, or None."""
    ours = _convert_python(data, source, target)
    if isinstance(ours, bytes):
        if not res["ok"]:
            return f"Python converts, Go fails: {res['error']}"
        got = base64.b64decode(res["data_b64"])
        return None if got == ours else first_difference(ours, got)
    if res["ok"]:
        return f"Go converts, Python fails: {ours}"
    if isinstance(ours, ValidationError) and not isinstance(ours, DecodeError):
        if res["error_kind"] != "validate":
            return f"Python fails Validate ({ours}), Go: {res['error']}"
        mine = [(x.field_path, x.message, x.line, x.column) for x in ours.violations]
        return None if _violations(res) == mine else f"violations differ: {_violations(res)}"
    if source == "yaml":  # ParseYAML's refusals are compared on every vector above
        return None if res["error_kind"] == "decode" else f"Go: {res['error']}"
    v = ours.violations[0]
    where = (v.field_path, v.line, v.column)
    theirs = res["violations"][0] if res.get("violations") else {}
    located = (theirs.get("field_path"), theirs.get("line"), theirs.get("column"))
    # Both errors render the first problem and count the others alike.
    if res["error"] != GO_PREFIX + str(ours):
        return f"Go says {res['error']!r}, Python {str(ours)!r}"
    return None if located == where else f"Go locates it at {located}, Python at {where}"


def test_both_libraries_convert_every_vector_between_every_format(go: GoConsumer) -> None:
    """Every vector, in every format, converted to every format: the same bytes or refusal."""
    cases: list[tuple[bytes, str, str]] = []
    for v in _all_vectors():
        cases += [(v.data, "yaml", target) for target in ("yaml", "json", "binpb")]
        spec = _python(v.data)
        if isinstance(spec, TaskSpec):
            for source in ("json", "binpb"):
                encoded = taskspec.marshal(spec, source)
                cases += [(encoded, source, target) for target in ("yaml", "json", "binpb")]
    results = go.batch(
        [{"op": "lib_convert", "data_b64": _b64(d), "from": s, "to": t} for d, s, t in cases]
    )
    failures = []
    for (data, source, target), res in zip(cases, results, strict=True):
        why = _compare_convert(data, source, target, res)
        if why:
            failures.append(f"{source}->{target} {data[:60]!r}: {why}")
    _report(failures, len(cases))
    assert len(cases) > 3000


def _json_with(path: tuple[str | int, ...], value: object) -> bytes:
    from tests.test_convert import valid_json_obj  # noqa: PLC0415

    obj = valid_json_obj()
    target: Any = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return json.dumps(obj).encode()


#: JSON both libraries refuse, or accept, with the same words: syntax,
#: structure, unknown and doubled fields, and values of the wrong type.
BAD_JSON: tuple[bytes, ...] = (
    b"",
    b"{",
    b'{"a"',
    b'{"a":',
    b'{"a":1',
    b'{"a" 1}',
    b"{a:1}",
    b"{} x",
    b'"abc',
    b'{"a":"\\x"}',
    b'{"a":"\\u12"}',
    b'{"a":"\x01"}',
    b" \n [1 2]",
    b'{"taskId":-}',
    b'{"taskId":01}',
    b'{"taskSpecVersion":1.}',
    b'{"taskSpecVersion":-Infinity}',
    b'{"taskSpecVersion": NaN}',
    b"tru",
    b"\xef\xbb\xbf\xef\xbb\xbf{}",
    b'{"a":1}\xff',
    b"\xef\xbb\xbf\xff",
    b"[]",
    b"null",
    b"5",
    b'{"taskId": "a", "taskId": "b"}',
    b'{"x": {"a": 1, "a": 2}, "y": }',
    b'{"taskId": "a", "task_id": "b"}',
    b'{"bogus": 1}',
    b'{"' + "é".encode() * 100 + b'": 1}',
    b'{"a":' * 2000,
    _json_with(("generatedFrom", "kgQuery", "seed"), "x"),
    _json_with(("solutionArtifacts",), [{"path": "a", "path ": "b"}]),
    _json_with(("solutionArtifacts",), ["a.go"]),
    _json_with(("solutionArtifacts",), [None]),
    _json_with(("solutionArtifacts",), 5),
    _json_with(("solutionArtifacts", 0, "path"), 5),
    _json_with(("verification",), []),
    _json_with(("verification",), None),
    _json_with(("taskId",), 5),
    _json_with(("taskId",), 5.5),
    _json_with(("taskId",), True),
    _json_with(("taskId",), []),
    _json_with(("taskId",), {}),
    _json_with(("taskId",), None),
    _json_with(("taskId",), "\ud800"),
    _json_with(("prompt",), "a\x00b\u2028"),
    _json_with(("language",), "go"),
    _json_with(("language",), "LANGUAGE_GO"),
    _json_with(("language",), "1"),
    _json_with(("language",), "99"),
    _json_with(("language",), 99),
    _json_with(("language",), -1),
    _json_with(("language",), 2**31),
    _json_with(("language",), []),
    _json_with(("language",), None),
    _json_with(("generatedFrom", "kind"), "x"),
    _json_with(("taskSpecVersion",), "1"),
    _json_with(("taskSpecVersion",), "1.0"),
    _json_with(("taskSpecVersion",), "1e0"),
    _json_with(("taskSpecVersion",), 1.0),
    _json_with(("taskSpecVersion",), 2.0),
    _json_with(("taskSpecVersion",), "-0"),
    _json_with(("taskSpecVersion",), " 1"),
    _json_with(("taskSpecVersion",), "abc"),
    _json_with(("taskSpecVersion",), "1.5"),
    _json_with(("taskSpecVersion",), 1.5),
    _json_with(("taskSpecVersion",), 1e-7),
    _json_with(("taskSpecVersion",), True),
    _json_with(("taskSpecVersion",), 2**63),
    _json_with(("taskSpecVersion",), 1e300),
    _json_with(("verification", "timeoutSeconds"), "9223372036854775808"),
    _json_with(("verification", "timeoutSeconds"), []),
    _json_with(("verification", "timeoutSeconds"), -5),
    _json_with(("verification", "testCmd"), "x"),
    _json_with(("verification", "testCmd"), [1]),
    _json_with(("verification", "testCmd"), [None]),
    _json_with(("verification", "testCmd"), []),
    _json_with(("verification", "buildCmd"), {"a": [1, "b", None, True]}),
    _json_with(("difficultySignals",), []),
    _json_with(("difficultySignals",), 5),
    _json_with(("difficultySignals",), None),
    _json_with(("difficultySignals", "x"), "1.5"),
    _json_with(("difficultySignals", "x"), None),
    _json_with(("difficultySignals", "x"), True),
    _json_with(("difficultySignals", "x"), 1.5),
    _json_with(("generatedFrom", "kgQuery"), None),
    _json_with(("generatedFrom", "kgQuery"), {}),
    _json_with(("generatedFrom", "kgQuery", "intent"), 5),
)


def test_both_libraries_read_json_alike(go: GoConsumer) -> None:
    results = go.batch(
        [{"op": "lib_convert", "data_b64": _b64(d), "from": "json", "to": "json"} for d in BAD_JSON]
    )
    failures = []
    for data, res in zip(BAD_JSON, results, strict=True):
        why = _compare_convert(data, "json", "json", res)
        if why:
            failures.append(f"{data[:70]!r}: {why}")
    _report(failures, len(BAD_JSON))


def _len_field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


BAD_BINPB_TAILS: tuple[bytes, ...] = (
    b"",
    b"\xff",
    b"\x12\x05ab",
    b"\x12\x02\xff\xfe",
    b"\x0a\x01",
    b"\x08",
    b"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
    b"\x0b",
    b"\x0c",
    b"\x00",
    b"\x0f",
    b"\x08\x01\x08\x01",
    b"\x10\x01",
    b"\x0a\x01x",
    b"\x2d\x00\x00\x00\x00",
    _varint(2047 << 3) + b"\x05",
    _len_field(9, b"\x20\x01"),
    _len_field(9, b"\x0d\x00\x00\x00\x00"),
    _len_field(8, b"") + _len_field(8, _len_field(3, b"x")),
    _len_field(6, _len_field(3, b"\x48\x01")),
    _len_field(6, b"\x11" + b"\x00" * 8),
)


def test_both_libraries_read_binpb_alike(go: GoConsumer) -> None:
    valid = taskspec.marshal_binpb(load("canonical")[0].spec())
    cases = [valid + tail for tail in BAD_BINPB_TAILS] + list(BAD_BINPB_TAILS)
    results = go.batch(
        [{"op": "lib_convert", "data_b64": _b64(d), "from": "binpb", "to": "binpb"} for d in cases]
    )
    failures = []
    for data, res in zip(cases, results, strict=True):
        why = _compare_convert(data, "binpb", "binpb", res)
        if why:
            failures.append(f"{data[-20:]!r}: {why}")
    _report(failures, len(cases))


@pytest.mark.parametrize(
    ("target", "name"), [("json", "JSON"), ("yaml", "YAML"), ("binpb", "binary protobuf")]
)
def test_both_libraries_refuse_to_convert_to_what_a_reader_refuses(
    go: GoConsumer, target: str, name: str
) -> None:
    spec = load("canonical")[0].spec()
    # 9 MiB of '"': within the limit as binary protobuf, twice over it as JSON.
    spec.prompt = '"' * (9 << 20) if target == "json" else "p" * (17 << 20)
    source = taskspec.marshal_binpb(spec) if target == "json" else taskspec.marshal_json(spec)
    from_format = "binpb" if target == "json" else "json"
    ours = _convert_python(source, from_format, target)
    res = go.request(op="lib_convert", data_b64=_b64(source), **{"from": from_format, "to": target})
    if target != "json":
        # The source itself is over the limit: both refuse to read it.
        assert isinstance(ours, DecodeError) and not res["ok"]
        assert res["error"] == GO_PREFIX + str(ours)
        return
    assert isinstance(ours, TaskSpecError)
    assert str(ours).startswith(f"cannot write: the {name} would be 18,874,")
    assert str(ours).endswith(
        "more than the 16,777,216 a reader accepts (prompt takes 18,874,384 of them)"
    )
    assert (res["ok"], res["error_kind"]) == (False, "write")
    assert res["error"] == GO_PREFIX + str(ours)
    assert res["violations"][0]["field_path"] == ours.field_path == "prompt"


def test_both_libraries_refuse_yaml_over_the_node_budget_when_converting(go: GoConsumer) -> None:
    spec = load("canonical")[0].spec()
    spec.difficulty_signals.update({f"k{i}": i for i in range(60_000)})
    source = taskspec.marshal_binpb(spec)
    ours = _convert_python(source, "binpb", "yaml")
    res = go.request(op="lib_convert", data_b64=_b64(source), **{"from": "binpb", "to": "yaml"})
    assert isinstance(ours, TaskSpecError)
    assert (res["ok"], res["error_kind"]) == (False, "write")
    assert res["error"] == GO_PREFIX + str(ours)


def test_both_libraries_name_an_unknown_format_alike(go: GoConsumer) -> None:
    data = taskspec.marshal_yaml(load("canonical")[0].spec())
    for source, target in (("xml", "json"), ("yaml", "toml"), ("YAML", "json")):
        ours = _convert_python(data, source, target)
        res = go.request(op="lib_convert", data_b64=_b64(data), **{"from": source, "to": target})
        assert isinstance(ours, TaskSpecError)
        assert (res["ok"], res["error"]) == (False, GO_PREFIX + str(ours))


def _assigned(text: str) -> bool:
    """Whether every character of *text* is assigned in this Python's Unicode tables.

    Python quotes an unassigned character as an escape and prints an assigned
    one; Go decides by its own, newer tables. A message quoting a character
    assigned in between differs by that quoting alone, so such documents are
    left out.
    """
    return all(unicodedata.category(c) != "Cn" for c in text)


def _arbitrary_json_documents(count: int) -> list[bytes]:
    """Up to *count* copies of a valid document, each with one value replaced by arbitrary
    JSON (its characters all assigned in Python's Unicode tables, see _assigned)."""
    from tests.test_convert import _json_values, object_slots, valid_json_obj  # noqa: PLC0415

    docs: list[bytes] = []

    @settings(max_examples=count, database=None, derandomize=True)
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        obj = valid_json_obj()
        container, key = data.draw(st.sampled_from(object_slots(obj)))
        container[key] = data.draw(_json_values)
        text = json.dumps(obj, ensure_ascii=False)
        if _assigned(text):
            docs.append(text.encode())

    draw()
    return docs


def test_go_reads_arbitrary_json_values_as_python_does(go: GoConsumer) -> None:
    """Go accepts only what Python accepts, with the same bytes, and refuses it alike.

    The differences allowed are Python's leniencies with enum values
    (json_format reads 1.5 as 1 and true as 1; Go refuses a fraction, an
    exponent and a boolean there). Documents with a character that Unicode
    assigned after this Python's tables are left out (see _assigned).
    """
    docs = _arbitrary_json_documents(600)
    assert len(docs) > 400
    results = go.batch(
        [{"op": "lib_convert", "data_b64": _b64(d), "from": "json", "to": "json"} for d in docs]
    )
    failures = []
    for data, res in zip(docs, results, strict=True):
        why = _compare_convert(data, "json", "json", res)
        if why is None or "Invalid enum value" in res.get("error", ""):
            continue
        failures.append(f"{data[:200]!r}: {why}")
    _report(failures, len(docs))


#: Specs whose bulk is written in one style: a prompt that is a literal
#: block, one double-quoted with escapes, and short lines nested three
#: levels deep (seven bytes of YAML a byte of text, more than the Go
#: library's size bound used to allow). An "x" added at the end of the
#: prompt lengthens the YAML by one byte, which reaches each size.
_SIZE_FAMILIES = {
    "literal": lambda s: setattr(
        s, "prompt", "A `code` 'tick' \"quote\" \\ é中 — #1: x\n" * 330_000
    ),
    "double-quoted": lambda s: setattr(s, "prompt", "\x01 escaped \U0001f600 line\n" * 520_000),
    "nested lines": lambda s: setattr(s.generated_from.kg_query, "intent", "a\n" * 1_150_000),
}


@pytest.mark.parametrize("family", sorted(_SIZE_FAMILIES))
def test_both_libraries_decide_the_size_limit_alike(go: GoConsumer, family: str) -> None:
    """One byte under, at and over the document limit, Go's TS107 is Python's."""
    spec = load("canonical")[0].spec()
    _SIZE_FAMILIES[family](spec)
    prompt = spec.prompt + "x"
    spec.prompt = prompt
    filler = MAX_DOCUMENT_BYTES - 1 - len(taskspec.marshal_yaml(spec))
    assert 0 <= filler < 2 << 20, filler
    for size in (MAX_DOCUMENT_BYTES - 1, MAX_DOCUMENT_BYTES, MAX_DOCUMENT_BYTES + 1):
        spec.prompt = prompt + "x" * (filler + size - (MAX_DOCUMENT_BYTES - 1))
        assert len(taskspec.marshal_yaml(spec)) == size
        res = go.request(op="lib_validate", binpb_b64=_binpb(spec))
        assert res["ok"], res
        try:
            taskspec.validate(spec)
            mine = []
        except ValidationError as err:
            mine = [(v.field_path, v.message, 0, 0) for v in err.violations]
        assert _violations(res) == mine, size
        assert [v["code"] for v in res["violations"]] == (
            ["TS107"] if size > MAX_DOCUMENT_BYTES else []
        )
