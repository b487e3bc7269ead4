"""Python against Go: the shared vectors, and live checks through the Go consumer.

The first half needs no Go: it holds the Python layer to Go's recorded
answers in ``tests/conformance/vectors/``. The second half drives the Go
consumer (real yaml.v3 and the generated Go stubs) in a few batched round
trips, in both directions, over YAML, binary protobuf and proto3 JSON.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from google.protobuf import json_format

import taskspec
from taskspec import DecodeError, TaskSpec, TaskSpecError, ValidationError
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec.bridge._decode import STRICTER_THAN_GO
from tests.conformance.gobridge import GoConsumer, GoResult, spec_from_json, spec_to_json
from tests.vectors import (
    Vector,
    budget_refusals,
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
            return None  # see test_stricter_cases_are_accepted_by_go_and_rejected_by_python_*
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


def test_stricter_cases_are_accepted_by_go_live(go: GoConsumer) -> None:
    """Every listed case: Go's ParseTaskSpec accepts it, or fails only in Validate."""
    vectors = {v.name: v for kind in ("accepted", "rejected") for v in load(kind)}
    names = sorted(stricter())
    docs = [vectors[name].data for name in names]
    results = go.batch([{"op": "decode", "yaml_b64": _b64(doc)} for doc in docs])
    for name, res in zip(names, results, strict=True):
        assert res["ok"], f"{name}: Go fails decoding: {res.get('error')}"
        kind = name.split("/")[0]
        assert (res["validate_error"] == "") == (kind == "accepted"), (name, res["validate_error"])


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


#: Byte strings the mutation test splices into documents: YAML indicators,
#: white space of every kind, markers, and the characters readers disagree on.
_SPLICES = (
    b" ",
    b"\t",
    b"\n",
    b"\r\n",
    b"\r",
    b"#",
    b"-",
    b":",
    b"? ",
    b"'",
    b'"',
    b"~",
    b"&a ",
    b"*a",
    b"!",
    b"!!str ",
    b"|",
    b">",
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b"\\",
    b"%",
    b"@",
    b"`",
    b"---\n",
    b"...\n",
    b"<<: ",
    b"null",
    b"\xc2\x85",
    b"\xe2\x80\xa8",
    b"\xef\xbb\xbf",
    b"\xc2\xa0",
    b"0x",
    b"\\/",
    b" #",
    b"- ",
    b": ",
    b"\n  ",
    b"\n    ",
    b"\n- ",
    b"1e3",
    b".5",
)


def _mutants(seed: int, count: int) -> list[bytes]:
    """Seeded small edits of valid documents: splices, cuts, repeated lines, re-indents."""
    rng = random.Random(seed)
    seeds = [v.data for v in load("canonical")[::4]] + [v.data for v in load("accepted")]
    out: set[bytes] = set()
    while len(out) < count:
        doc = rng.choice(seeds)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(doc) + 1)
            roll = rng.random()
            if roll < 0.45:
                doc = doc[:at] + rng.choice(_SPLICES) + doc[at:]
            elif roll < 0.7:
                doc = doc[:at] + doc[at + rng.randint(1, 4) :]
            else:
                lines = doc.split(b"\n")
                i = rng.randrange(len(lines))
                if roll < 0.85:
                    lines.insert(rng.randrange(len(lines) + 1), lines[i])
                else:
                    lines[i] = b" " * rng.randint(0, 6) + lines[i].lstrip(b" ")
                doc = b"\n".join(lines)
        out.add(doc)
    return sorted(out)


def test_mutated_documents_are_never_read_more_leniently_or_differently_than_go(
    go: GoConsumer,
) -> None:
    """Python accepts a mutant only if Go does, with Go's value and Go's canonical bytes."""
    mutants = _mutants(seed=20260629, count=1500)
    failures: list[str] = []
    remarshal: list[tuple[bytes, TaskSpec, bytes]] = []
    accepted = 0
    for doc, res in zip(mutants, go.parse_all(mutants), strict=True):
        err = _parse_error(doc)
        if err is None:
            accepted += 1
            if not res["ok"]:
                failures.append(f"Python accepts what Go rejects ({res['error']!r}): {doc!r}")
                continue
            spec = taskspec.parse_task_spec(doc)
            if spec_from_json(res["spec"]) != spec:
                failures.append(f"Python reads a different value: {doc!r}")
            elif taskspec.marshal_yaml(spec) != res["yaml"]:
                remarshal.append((doc, spec, res["yaml"]))
        elif (
            not res["ok"]
            and not res["error"].startswith(GO_PREFIX + "decode")
            and isinstance(err, ValidationError)
            and not isinstance(err, DecodeError)
            and GO_PREFIX + err.violations[0].message != res["error"]
        ):
            failures.append(f"Validate messages differ ({err} / {res['error']}): {doc!r}")
    # Python may only differ from Go's re-marshal where Go's bytes do not read back.
    checks = go.batch([{"op": "marshal", "spec": spec_to_json(s)} for _, s, _ in remarshal])
    for (doc, _, _), res in zip(remarshal, _ok(checks), strict=True):
        if res["roundtrip_ok"]:
            failures.append(f"canonical bytes differ from Go's: {doc!r}")
    assert accepted >= 100
    assert not failures, "\n".join(failures[:10])


def test_signal_keys_yaml_v3_cannot_order_are_written_so_that_go_reads_them(
    go: GoConsumer,
) -> None:
    """yaml.v3's key order is cyclic on these keys, so Go's own bytes vary from run
    to run (see test_vectors); Python's must still be stable and read back in Go."""
    spec = load("canonical")[0].spec()
    spec.difficulty_signals.clear()
    spec.difficulty_signals.update({"99999999999999999999": 1, "9 ": 2, "1\u0663A": 3, "a": 4})
    data = taskspec.marshal_yaml(spec)
    assert taskspec.marshal_yaml(spec) == data
    res = go.parse(data)
    assert res["ok"], res.get("error")
    assert spec_from_json(res["spec"]) == spec
    assert taskspec.parse_task_spec(data) == spec


@pytest.mark.parametrize("table", ["stricter", "budgets"])
def test_each_stricter_case_is_refused_with_the_listed_path_line_and_reason(table: str) -> None:
    """stricter.json gives each refusal's exact text; the Go library's tests hold Go to it too."""
    cases = stricter() if table == "stricter" else budget_refusals()
    assert cases
    for vec in load("accepted") + load("rejected"):
        case = cases.get(vec.name)
        if case is None:
            continue
        with pytest.raises(DecodeError) as info:
            taskspec.parse_task_spec(vec.data)
        got = info.value.violations[0]
        prefix = f"{case['field_path']}: " if case["field_path"] else ""
        assert (got.field_path, got.line, got.message) == (
            case["field_path"],
            case["line"],
            prefix + case["reason"],
        ), vec.name
