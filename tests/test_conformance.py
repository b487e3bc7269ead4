"""Python against Go: the shared vectors, and live checks through the Go consumer.

The first half needs no Go: it holds the Python layer to Go's recorded
answers in ``tests/conformance/vectors/``. The second half drives the Go
consumer (real yaml.v3 and the generated Go stubs) in a few batched round
trips, in both directions, over YAML, binary protobuf and proto3 JSON.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
import taskspec
from google.protobuf import json_format
from taskspec import DecodeError, TaskSpec, TaskSpecError, ValidationError
from taskspec._decode import MAX_DOCUMENT_BYTES, STRICTER_THAN_GO

from tests.gobridge import GoConsumer, GoResult, spec_from_json, spec_to_json
from tests.vectors import (
    Vector,
    check_each,
    first_difference,
    in_memory_stricter_rules,
    load,
    stricter,
)

GO_PREFIX = "eval: "


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _parse_error(data: bytes) -> TaskSpecError | None:
    try:
        taskspec.parse_task_spec(data)
    except TaskSpecError as err:
        return err
    return None


# -- the recorded vectors, without Go ------------------------------------------


def test_canonical_documents_parse_to_gos_value_and_remarshal_byte_for_byte() -> None:
    def check(v: Vector) -> str | None:
        spec = taskspec.parse_task_spec(v.data)
        if spec != v.spec():
            return "decoded value differs from Go's"
        out = taskspec.marshal_yaml(spec)
        return None if out == v.data else first_difference(v.data, out)

    assert check_each(load("canonical"), check) >= 300


def test_go_rejected_documents_are_rejected_with_gos_first_validate_message() -> None:
    listed = stricter()

    def check(v: Vector) -> str | None:
        err = _parse_error(v.data)
        if err is None:
            return f"Python accepts it; Go: {v.meta['go_error']}"
        if v.meta["go_stage"] == "decode":
            # yaml.v3 could not decode it: neither may Python's decoder.
            return None if isinstance(err, DecodeError) else f"Go fails decoding, Python: {err!r}"
        if v.name in listed:
            return None  # checked by test_stricter_cases_are_accepted_by_go_and_rejected
        if not isinstance(err, ValidationError):
            return f"Go fails Validate ({v.meta['go_error']}), Python fails decoding: {err}"
        ours = GO_PREFIX + err.violations[0].message
        return None if ours == v.meta["go_error"] else f"{ours!r} != {v.meta['go_error']!r}"

    assert check_each(load("rejected"), check) >= 60


def test_go_accepted_documents_give_gos_value_and_gos_canonical_bytes() -> None:
    listed = stricter()

    def check(v: Vector) -> str | None:
        if v.name in listed:
            return None  # deliberately rejected; see the stricter tests
        spec = taskspec.parse_task_spec(v.data)
        if spec != v.spec():
            return f"decoded value differs from Go's: {spec_to_json(spec)} != {v.meta['spec']}"
        if not v.meta["go_roundtrip_ok"]:
            return None  # Go's re-marshal is a yaml.v3 bug; Python must not copy it
        want = v.meta["go_yaml"].encode("utf-8")
        out = taskspec.marshal_yaml(spec)
        return None if out == want else first_difference(want, out)

    assert check_each(load("accepted"), check) >= 30


def test_stricter_cases_are_accepted_by_go_and_rejected_by_python_in_decoding() -> None:
    accepted = {v.name: v for v in load("accepted")}
    rejected = {v.name: v for v in load("rejected")}
    failures = []
    for name, entry in stricter().items():
        vector = accepted.get(name) or rejected.get(name)
        if vector is None:
            failures.append(f"{name}: no such vector")
            continue
        if vector.kind == "rejected" and vector.meta["go_stage"] != "validate":
            failures.append(f"{name}: Go fails decoding, so Python is not stricter")
        err = _parse_error(vector.data)
        if not isinstance(err, DecodeError):
            failures.append(f"{name}: expected a DecodeError ({entry['rule']}), got {err!r}")
    assert not failures, "\n".join(failures)


def test_stricter_table_names_a_reason_for_every_case_and_covers_every_rule() -> None:
    rules = {entry["rule"] for entry in stricter().values()}
    rules |= set(in_memory_stricter_rules())
    assert rules <= set(STRICTER_THAN_GO), rules - set(STRICTER_THAN_GO)
    assert set(STRICTER_THAN_GO) <= rules, set(STRICTER_THAN_GO) - rules
    assert all(entry["note"] for entry in stricter().values())


def test_yaml_v3_bug_bytes_are_read_by_python_as_go_reads_them() -> None:
    """Go's unreadable output is a document Go rejects (or misreads): Python must agree."""

    def check(v: Vector) -> str | None:
        err = _parse_error(v.data)
        if v.meta["go_parse_error"]:
            return None if err is not None else f"Python accepts; Go: {v.meta['go_parse_error']}"
        if err is not None:
            return f"Go reads these bytes, Python does not: {err}"
        got = taskspec.parse_task_spec(v.data)
        return None if got == v.spec("go_parse_spec") else "Python reads a different value"

    assert check_each(load("roundtrip_bugs"), check) >= 3


def test_yaml_v3_bug_specs_are_written_so_that_python_reads_them_back() -> None:
    def check(v: Vector) -> str | None:
        spec = v.spec()
        out = taskspec.marshal_yaml(spec)
        if out == v.data:
            return "Python copies yaml.v3's unreadable bytes"
        return None if taskspec.parse_task_spec(out) == spec else "reads back a different value"

    assert check_each(load("roundtrip_bugs"), check) >= 3


def test_documents_over_the_size_bound_are_rejected() -> None:
    doc = _oversized_document()
    with pytest.raises(DecodeError, match="larger than"):
        taskspec.parse_task_spec(doc)


def _oversized_document() -> bytes:
    """A valid sidecar padded by a comment to one byte over MAX_DOCUMENT_BYTES."""
    base = load("canonical")[0].data
    padding = b"#" * (MAX_DOCUMENT_BYTES - len(base)) + b"\n"
    doc = base + padding
    assert len(doc) == MAX_DOCUMENT_BYTES + 1
    return doc


# -- live, through the Go consumer -----------------------------------------------


def _specs(kind: str) -> list[tuple[Vector, TaskSpec]]:
    return [(v, v.spec()) for v in load(kind)]


def _ok(results: Sequence[GoResult]) -> Iterator[GoResult]:
    for res in results:
        assert res.get("ok"), res.get("error")
        yield res


def test_python_marshals_and_go_parses_to_the_same_spec_and_bytes(go: GoConsumer) -> None:
    cases = _specs("canonical") + _specs("roundtrip_bugs")
    cases += [(v, s) for v, s in _specs("accepted") if v.name not in stricter()]
    written = [taskspec.marshal_yaml(spec) for _, spec in cases]
    failures = []
    for (v, spec), data, res in zip(cases, written, go.parse_all(written), strict=True):
        if not res.get("ok"):
            failures.append(f"{v.name}: Go rejects Python's bytes: {res['error']}")
        elif spec_from_json(res["spec"]) != spec:
            failures.append(f"{v.name}: Go reads Python's bytes as a different spec")
        elif v.kind != "roundtrip_bugs" and res["yaml"] != data:
            failures.append(f"{v.name}: Go re-marshals: {first_difference(res['yaml'], data)}")
    assert not failures, "\n".join(failures[:25])


def test_go_marshals_the_canonical_bytes_and_python_parses_them(go: GoConsumer) -> None:
    cases = _specs("canonical")
    results = go.batch([{"op": "marshal", "spec": spec_to_json(spec)} for _, spec in cases])
    failures = []
    for (v, spec), res in zip(cases, _ok(results), strict=True):
        if res["yaml"] != v.data or not res["roundtrip_ok"]:
            failures.append(f"{v.name}: Go now writes {res['yaml']!r}")
        elif taskspec.parse_task_spec(res["yaml"]) != spec:
            failures.append(f"{v.name}: Python reads Go's bytes as a different spec")
    assert not failures, "\n".join(failures[:25])


def test_listed_yaml_v3_bugs_are_still_bugs_in_go(go: GoConsumer) -> None:
    cases = _specs("roundtrip_bugs")
    results = go.batch([{"op": "marshal", "spec": spec_to_json(spec)} for _, spec in cases])
    for (v, _), res in zip(cases, _ok(results), strict=True):
        assert res["yaml"] == v.data, v.name
        assert not res["roundtrip_ok"], f"{v.name}: yaml.v3 now reads it back; move it"
        assert res["roundtrip_error"] == v.meta["go_roundtrip_error"], v.name


def test_binary_and_json_written_by_python_decode_in_go(go: GoConsumer) -> None:
    cases = _specs("canonical")
    requests: list[dict[str, Any]] = []
    for _, spec in cases:
        requests.append(
            {"op": "wire_decode", "binpb_b64": _b64(spec.SerializeToString(deterministic=True))}
        )
        requests.append({"op": "wire_decode", "json": json_format.MessageToJson(spec)})
    results = list(_ok(go.batch(requests)))
    failures = []
    for i, (v, spec) in enumerate(cases):
        for res, wire in ((results[2 * i], "binary"), (results[2 * i + 1], "JSON")):
            if spec_from_json(res["spec"]) != spec:
                failures.append(f"{v.name}: Go decodes Python's {wire} to a different spec")
            elif res["yaml"] != v.data:
                failures.append(f"{v.name}: Go's YAML of Python's {wire} is not the vector")
    assert not failures, "\n".join(failures[:25])


def test_binary_and_json_written_by_go_decode_in_python(go: GoConsumer) -> None:
    cases = _specs("canonical")
    results = go.batch([{"op": "wire_encode", "spec": spec_to_json(spec)} for _, spec in cases])
    failures = []
    for (v, spec), res in zip(cases, _ok(results), strict=True):
        binary = base64.b64decode(res["binpb_b64"])
        if TaskSpec.FromString(binary) != spec:
            failures.append(f"{v.name}: Python decodes Go's binary to a different spec")
        if len(spec.difficulty_signals) < 2 and binary != spec.SerializeToString(
            deterministic=True
        ):
            # Only map entry order may differ: Go sorts keys bytewise, upb
            # puts a longer key first when one is a prefix of the other.
            failures.append(f"{v.name}: deterministic binary encodings differ")
        if json_format.Parse(res["json"], TaskSpec()) != spec:
            failures.append(f"{v.name}: Python decodes Go's proto3 JSON to a different spec")
    assert not failures, "\n".join(failures[:25])


def test_signal_keys_are_in_gos_order(go: GoConsumer) -> None:
    cases = [(v, s) for v, s in _specs("canonical") if s.difficulty_signals]
    results = go.batch([{"op": "signal_keys", "spec": spec_to_json(spec)} for _, spec in cases])
    assert len(cases) >= 20
    for (v, spec), res in zip(cases, _ok(results), strict=True):
        assert taskspec.signal_keys(spec) == res["keys"], v.name


def test_go_accepts_the_oversized_document_python_rejects(go: GoConsumer) -> None:
    doc = _oversized_document()
    res = go.parse(doc)
    assert res["ok"], res.get("error")
    assert spec_from_json(res["spec"]) == load("canonical")[0].spec()
    assert isinstance(_parse_error(doc), DecodeError)
