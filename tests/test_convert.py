"""Conversion between canonical YAML, proto3 JSON and binary protobuf, and ``taskspec convert``."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taskspec
from taskspec import (
    DecodeError,
    Format,
    TaskSpec,
    TaskSpecError,
    ValidationError,
    Violation,
    convert,
    format_for_path,
    marshal,
    marshal_binpb,
    marshal_json,
    parse,
    parse_binpb,
    parse_json,
)
from taskspec.v1 import taskspec_pb2
from tests.cliutil import run_cli
from tests.conformance.gobridge import GoConsumer, spec_from_json, spec_to_json
from tests.helpers import VALID_DOC, valid_spec
from tests.strategies import valid_specs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))

#: VALID_DOC in proto3 JSON: camelCase names, int64 values as strings, enum
#: values by their proto names.
VALID_JSON = b"""\
{
  "taskSpecVersion": "1",
  "taskId": "kg-go-impl-mathx-gcd",
  "language": "LANGUAGE_GO",
  "difficulty": "DIFFICULTY_MEDIUM",
  "difficultySignals": {
    "cyclomatic_complexity": "4",
    "edge_count": "9"
  },
  "generatedFrom": {
    "kind": "GENERATED_KIND_KG_TEMPLATE",
    "templateId": "impl-pure-fn",
    "kgQuery": {
      "intent": "code_context",
      "seedSymbol": "mathx.GCD"
    }
  },
  "prompt": "Implement mathx.GCD.",
  "solutionArtifacts": [
    {
      "path": "mathx/gcd.go",
      "role": "target"
    }
  ],
  "verification": {
    "buildCmd": [
      "go",
      "build",
      "./..."
    ],
    "testCmd": [
      "go",
      "test",
      "./mathx/..."
    ],
    "timeoutSeconds": "120"
  }
}
"""


def object_slots(node: Any) -> list[tuple[dict[str, Any], str]]:
    """Every (object, key) of a JSON value, outermost first: the places a value can go."""
    slots: list[tuple[dict[str, Any], str]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            slots.append((node, key))
            slots.extend(object_slots(value))
    return slots


def valid_json_obj() -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(VALID_JSON)
    return obj


def dumps(obj: object) -> bytes:
    return json.dumps(obj).encode()


# -- lossless round trips ------------------------------------------------------


@settings(max_examples=300)
@given(valid_specs())
def test_yaml_json_binpb_yaml_is_byte_identical(spec: TaskSpec) -> None:
    yaml_bytes = taskspec.marshal_yaml(spec)
    from_yaml = parse(yaml_bytes, Format.YAML)
    assert from_yaml == spec
    from_json = parse_json(marshal_json(from_yaml))
    assert from_json == spec
    from_binpb = parse_binpb(marshal_binpb(from_json))
    assert from_binpb == spec
    assert taskspec.marshal_yaml(from_binpb) == yaml_bytes


@settings(max_examples=100)
@given(valid_specs())
def test_convert_between_every_pair_of_formats(spec: TaskSpec) -> None:
    encoded = {fmt: marshal(spec, fmt) for fmt in Format}
    for source, target in product(Format, Format):
        assert convert(encoded[source], source, target) == encoded[target], (source, target)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_survive_every_format(path: Path) -> None:
    canonical = convert(path.read_bytes(), "yaml", "yaml")
    binpb = convert(convert(canonical, "yaml", "json"), "json", "binpb")
    assert convert(binpb, "binpb", "yaml") == canonical


def test_kg_query_presence_survives_json_and_binpb() -> None:
    unset = valid_spec()
    unset.generated_from.ClearField("kg_query")
    empty = valid_spec()
    empty.generated_from.kg_query.Clear()
    assert empty.generated_from.HasField("kg_query")

    assert "kgQuery" not in json.loads(marshal_json(unset))["generatedFrom"]
    assert json.loads(marshal_json(empty))["generatedFrom"]["kgQuery"] == {}
    for fmt in (Format.JSON, Format.BINPB):
        assert not parse(marshal(unset, fmt), fmt).generated_from.HasField("kg_query")
        assert parse(marshal(empty, fmt), fmt).generated_from.HasField("kg_query")
    assert b"    kg_query: {}\n" in convert(marshal_binpb(empty), "binpb", "yaml")


# -- the JSON and binary encodings ---------------------------------------------


def test_json_is_proto3_json_with_camel_case_names() -> None:
    assert convert(VALID_DOC, "yaml", "json") == VALID_JSON


def test_json_reader_accepts_proto_field_names_and_enum_numbers() -> None:
    # Both are part of proto3 JSON; writers other than this one use them.
    obj = valid_json_obj()
    obj["task_spec_version"] = 1
    del obj["taskSpecVersion"]
    obj["language"] = 1
    obj["generatedFrom"]["template_id"] = obj["generatedFrom"].pop("templateId")
    assert parse_json(dumps(obj)) == valid_spec()


def test_json_reader_accepts_a_byte_order_mark_and_str() -> None:
    assert parse_json(b"\xef\xbb\xbf" + VALID_JSON) == valid_spec()
    assert parse_json(VALID_JSON.decode()) == valid_spec()


def test_output_does_not_depend_on_map_insertion_order() -> None:
    forward, backward = valid_spec(), valid_spec()
    keys = ["b", "a10", "a9", "", "~", "Z"]
    for i, key in enumerate(keys):
        forward.difficulty_signals[key] = i
    for i, key in reversed(list(enumerate(keys))):
        backward.difficulty_signals[key] = i
    assert marshal_binpb(forward) == marshal_binpb(backward)
    assert marshal_json(forward) == marshal_json(backward)
    signals = json.loads(marshal_json(forward))["difficultySignals"]
    assert list(signals) == sorted(signals)


def _entry_keys(binpb: bytes) -> list[str]:
    """The difficulty_signals keys of a serialized spec, in wire order."""
    keys = []
    i = 0
    while i < len(binpb):
        tag, length = binpb[i], binpb[i + 1]
        assert tag == 0x2A and length < 0x80, "only a map field is expected here"
        entry = binpb[i + 2 : i + 2 + length]
        keys.append(entry[2 : 2 + entry[1]].decode())
        i += 2 + length
    return keys


def test_binpb_map_entries_are_in_byte_order_like_go() -> None:
    spec = TaskSpec()
    keys = ["edge_count_max", "b", "", "edge_count", "é", "a", "Z"]
    for i, key in enumerate(keys):
        spec.difficulty_signals[key] = i
    data = marshal_binpb(spec)
    assert _entry_keys(data) == ["", "Z", "a", "b", "edge_count", "edge_count_max", "é"]
    assert TaskSpec.FromString(data) == spec


def test_binpb_is_deterministic_protobuf_around_the_map() -> None:
    spec = valid_spec()
    assert marshal_binpb(spec) == spec.SerializeToString(deterministic=True)
    spec.difficulty_signals.clear()
    assert marshal_binpb(spec) == spec.SerializeToString(deterministic=True)
    assert TaskSpec.FromString(marshal_binpb(spec)) == spec


def test_int64_extremes_survive_json() -> None:
    spec = valid_spec()
    spec.difficulty_signals["min"] = -(2**63)
    spec.difficulty_signals["max"] = 2**63 - 1
    spec.verification.timeout_seconds = 2**63 - 1
    obj = json.loads(marshal_json(spec))
    assert obj["difficultySignals"]["min"] == "-9223372036854775808"
    assert obj["verification"]["timeoutSeconds"] == "9223372036854775807"
    assert parse_json(marshal_json(spec)) == spec


def test_the_whole_api_is_public() -> None:
    from taskspec import _api  # noqa: PLC0415

    for name in _api.__all__:
        assert name in taskspec.__all__
        assert getattr(taskspec, name) is getattr(_api, name)


def test_format_for_path() -> None:
    assert format_for_path("a/taskspec.yaml") is Format.YAML
    assert format_for_path("t.YML") is Format.YAML
    assert format_for_path(Path("t.json")) is Format.JSON
    assert format_for_path("t.binpb") is Format.BINPB
    assert format_for_path("t.pb") is Format.BINPB
    assert format_for_path("t.txt") is None
    assert format_for_path("yaml") is None


def test_unknown_format_name_is_a_taskspec_error() -> None:
    with pytest.raises(TaskSpecError) as info:
        convert(VALID_DOC, "yaml", "xml")
    assert info.value.violations == [
        Violation("", 'unknown format "xml"', hint="expected one of: yaml, json, binpb")
    ]


def test_marshal_rejects_a_non_spec() -> None:
    for fmt in Format:
        with pytest.raises(TaskSpecError, match=r"expected a taskspec\.v1\.TaskSpec, got dict"):
            marshal({}, fmt)  # type: ignore[arg-type]


# -- every input is validated ----------------------------------------------------


def test_json_input_is_validated_with_go_messages() -> None:
    obj = valid_json_obj()
    obj["verification"]["testCmd"] = []
    with pytest.raises(ValidationError) as info:
        parse_json(dumps(obj))
    assert str(info.value) == "verification.test_cmd is required"


def test_unknown_enum_number_in_json_fails_validation() -> None:
    obj = valid_json_obj()
    obj["language"] = 7
    with pytest.raises(ValidationError, match=r'^invalid language "7"$'):
        parse_json(dumps(obj))


def test_binpb_input_is_validated_with_go_messages() -> None:
    spec = valid_spec()
    spec.verification.timeout_seconds = -5
    with pytest.raises(ValidationError) as info:
        parse_binpb(spec.SerializeToString())
    assert str(info.value) == "verification.timeout_seconds must be non-negative, got -5"


def test_empty_binpb_is_an_empty_spec_and_invalid() -> None:
    with pytest.raises(ValidationError) as info:
        parse_binpb(b"")
    assert info.value.field_path == "task_spec_version"
    assert str(info.value).startswith("unsupported task_spec_version 0 (this build produces v1)")


# -- every decode problem is a DecodeError ---------------------------------------


def _with(path: tuple[str, ...], value: object) -> bytes:
    obj = valid_json_obj()
    target = obj
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return dumps(obj)


@pytest.mark.parametrize(
    ("data", "field_path", "message"),
    [
        (b"", "", "invalid JSON: expected a value"),
        # 3.13's json module words this one otherwise than 3.11's; both map here.
        (b'{"taskId": "a",}', "", "invalid JSON: expected a property name in double quotes"),
        (b"[]", "", "expected a JSON object at the top, got an array"),
        (b"null", "", "expected a JSON object at the top, got null"),
        (b'"x"', "", "expected a JSON object at the top, got a string"),
        (_with(("taskId",), {}), "task_id", "task_id: expected a string, got an object"),
        (
            _with(("solutionArtifacts",), {"path": "a.go"}),
            "solution_artifacts",
            "solution_artifacts: expected an array, got an object",
        ),
        (b'{"taskId": "a", "taskId": "b"}', "", 'invalid JSON: duplicate key "taskId"'),
        (b'{"taskSpecVersion": NaN}', "", "invalid JSON: NaN is not a JSON value"),
        (
            b'{"taskSpecVersion": 1' + b"0" * 5000 + b"}",
            "task_spec_version",
            f'task_spec_version: integer "1{"0" * 79}"... (5001 characters)'
            " is out of the int64 range",
        ),
        (b'{"a":' * 100_000, "", "document is nested deeper than 64 levels"),
        (b'{"prompt": "\xff"}', "", "input is not valid UTF-8 (byte 0xff at offset 12)"),
        (
            b'{"bogus": 1}',
            "bogus",
            'unknown field "bogus"',
        ),
        (
            _with(("generatedFrom", "kgQuery", "seed"), "x"),
            "generated_from.kg_query.seed",
            'unknown field "seed" in generated_from.kg_query',
        ),
        (
            b'{"taskId": "a", "task_id": "b"}',
            "task_id",
            'field task_id is given twice, as "taskId" and "task_id"',
        ),
        (
            _with(("solutionArtifacts",), [{"path": "a", "path ": "b"}]),
            "solution_artifacts[0].path ",
            'unknown field "path " in solution_artifacts[0]',
        ),
        (
            _with(("verification",), []),
            "verification",
            "verification: expected an object, got an array",
        ),
        (
            _with(("solutionArtifacts",), ["a.go"]),
            "solution_artifacts[0]",
            "solution_artifacts[0]: expected an object, got a string",
        ),
        (_with(("taskId",), 5), "task_id", "task_id: expected a string, got the number 5"),
        (
            _with(("language",), "go"),
            "language",
            'language: expected a taskspec.v1.Language value name, got the string "go"',
        ),
        (
            _with(("difficultySignals", "x"), "1.5"),
            'difficulty_signals["x"]',
            'difficulty_signals["x"]: expected an integer, got the string "1.5"',
        ),
        (
            _with(("verification", "timeoutSeconds"), "9223372036854775808"),
            "verification.timeout_seconds",
            'verification.timeout_seconds: integer "9223372036854775808" is out of the int64 range',
        ),
        (
            _with(("taskId",), "\ud800"),
            "task_id",
            "task_id: the string holds a lone surrogate (\\ud800), which UTF-8 cannot carry",
        ),
    ],
    ids=lambda v: v[:40] if isinstance(v, str) else None,
)
def test_bad_json_is_a_decode_error(data: bytes, field_path: str, message: str) -> None:
    with pytest.raises(DecodeError) as info:
        parse_json(data)
    assert info.value.field_path == field_path
    assert message in info.value.violations[0].message
    assert "\n" not in str(info.value)


def test_json_syntax_errors_carry_line_and_column() -> None:
    with pytest.raises(DecodeError) as info:
        parse_json(b'{\n  "taskId": "a"\n  "prompt": "b"\n}')
    assert (info.value.line, info.value.column) == (3, 3)
    assert str(info.value) == "line 3, column 3: invalid JSON: expected ',' or '}'"


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _int_field(number: int, value: int) -> bytes:
    return _varint(number << 3) + _varint(value)


def _len_field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


#: A field number Verification does not use, from its descriptor.
_UNUSED_IN_VERIFICATION = 1 + max(f.number for f in taskspec_pb2.Verification.DESCRIPTOR.fields)


@pytest.mark.parametrize(
    ("data", "field_path", "message"),
    [
        (b"\xff", "", "invalid binary TaskSpec: "),
        (b"\x12\x05ab", "", "invalid binary TaskSpec: "),
        (
            _len_field(2, b"\xff\xfe"),
            "",
            "invalid binary TaskSpec: field task_id is not valid UTF-8",
        ),
        (
            _int_field(2047, 5),
            "",
            "unknown field number 2047 (taskspec.v1.TaskSpec): the data is not a TaskSpec v1",
        ),
        (
            _len_field(9, _int_field(_UNUSED_IN_VERIFICATION, 1)),
            "verification",
            f"unknown field number {_UNUSED_IN_VERIFICATION} in verification"
            " (taskspec.v1.Verification)",
        ),
        (
            _len_field(8, b"") + _len_field(8, _len_field(3, b"x")),
            "solution_artifacts[2]",
            "unknown field number 3 in solution_artifacts[2]",
        ),
        (
            _len_field(6, _len_field(3, _int_field(9, 1))),
            "generated_from.kg_query",
            "unknown field number 9 in generated_from.kg_query (taskspec.v1.KGQuery)",
        ),
    ],
)
def test_bad_binpb_is_a_decode_error(data: bytes, field_path: str, message: str) -> None:
    valid = marshal_binpb(valid_spec())
    with pytest.raises(DecodeError) as info:
        parse_binpb(valid + data)
    assert info.value.field_path == field_path
    assert message in info.value.violations[0].message


@pytest.mark.parametrize(
    ("data", "field_path", "message"),
    [
        (
            _int_field(2, 1),
            "task_id",
            "wrong wire type for field task_id (number 2): a varint, where a length-delimited"
            " value was expected",
        ),
        (
            _len_field(1, b"\x01"),
            "task_spec_version",
            "wrong wire type for field task_spec_version (number 1): a length-delimited value,"
            " where a varint was expected",
        ),
        (
            _len_field(9, _int_field(2, 7)),
            "verification.test_cmd",
            "wrong wire type for field verification.test_cmd (number 2): a varint, where a"
            " length-delimited value was expected",
        ),
        (
            _len_field(8, _int_field(1, 1)),
            "solution_artifacts[1].path",
            "wrong wire type for field solution_artifacts[1].path (number 1)",
        ),
    ],
)
def test_a_known_field_with_the_wrong_wire_type_is_named(
    data: bytes, field_path: str, message: str
) -> None:
    """Not "unknown field ... written by a newer schema": the field is known, its encoding wrong."""
    valid = marshal_binpb(valid_spec())
    with pytest.raises(DecodeError) as info:
        parse_binpb(valid + data)
    assert info.value.field_path == field_path
    assert info.value.violations[0].message.startswith(message)


def test_a_singular_field_given_twice_keeps_the_last_value() -> None:
    """The protobuf encoding's rule, which Go follows too: kept, and documented."""
    spec = parse_binpb(marshal_binpb(valid_spec()) + _len_field(2, b"second"))
    assert spec.task_id == "second"


def test_binpb_must_be_bytes() -> None:
    with pytest.raises(DecodeError, match="binary protobuf must be bytes, got str"):
        parse("task_spec_version: 1", Format.BINPB)


def test_oversized_input_is_refused_before_parsing() -> None:
    big = b" " * (16 * 1024 * 1024 + 1)
    for fmt in Format:
        with pytest.raises(DecodeError, match="document is larger than 16777216 bytes"):
            parse(big, fmt)


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=300)
@given(st.data())
def test_any_json_value_anywhere_gives_only_taskspec_errors(data: st.DataObject) -> None:
    """Replace one value of a valid document by arbitrary JSON: a spec or a TaskSpecError."""
    obj = valid_json_obj()
    container, key = data.draw(st.sampled_from(object_slots(obj)))
    container[key] = data.draw(_json_values)
    try:
        spec = parse_json(dumps(obj))
    except TaskSpecError:
        return
    assert isinstance(spec, TaskSpec)


@settings(max_examples=300)
@given(st.binary(max_size=64), st.integers(0, 300))
def test_any_bytes_give_only_taskspec_errors(noise: bytes, at: int) -> None:
    valid = marshal_binpb(valid_spec())
    at = min(at, len(valid))
    for data in (noise, valid[:at] + noise, valid + noise):
        try:
            spec = parse_binpb(data)
        except TaskSpecError:
            continue
        assert isinstance(spec, TaskSpec)


# -- the Go side -------------------------------------------------------------------


@settings(max_examples=200)
@given(valid_specs())
def test_go_writes_the_same_binpb_and_reads_our_json_and_binpb(
    go: GoConsumer, spec: TaskSpec
) -> None:
    encoded = go.request(op="wire_encode", spec=spec_to_json(spec))
    assert encoded["ok"], encoded
    assert marshal_binpb(spec) == base64.b64decode(encoded["binpb_b64"])
    assert parse_json(encoded["json"]) == spec
    # protojson's whitespace varies by design; its fields and keys, in order, do not.
    assert json.loads(marshal_json(spec), object_pairs_hook=list) == json.loads(
        encoded["json"], object_pairs_hook=list
    )

    from_json = go.request(op="wire_decode", json=marshal_json(spec).decode())
    assert from_json["ok"], from_json
    assert spec_from_json(from_json["spec"]) == spec
    from_binpb = go.request(
        op="wire_decode", binpb_b64=base64.b64encode(marshal_binpb(spec)).decode()
    )
    assert from_binpb["ok"], from_binpb
    assert spec_from_json(from_binpb["spec"]) == spec


# -- the command line --------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """VALID_DOC in every format, under every recognised extension."""
    spec = valid_spec()
    out: dict[str, Path] = {}
    for ext, fmt in [
        (".yaml", Format.YAML),
        (".yml", Format.YAML),
        (".json", Format.JSON),
        (".JSON", Format.JSON),
        (".binpb", Format.BINPB),
        (".pb", Format.BINPB),
    ]:
        path = tmp_path / f"spec{ext}"
        path.write_bytes(marshal(spec, fmt))
        out[ext] = path
    return out


@pytest.mark.parametrize("ext", [".yaml", ".yml", ".json", ".JSON", ".binpb", ".pb"])
@pytest.mark.parametrize("to", ["yaml", "json", "binpb"])
def test_cli_guesses_the_input_format_from_the_extension(
    files: dict[str, Path], ext: str, to: str
) -> None:
    result = run_cli(["convert", "--to", to, str(files[ext])])
    assert result == (0, marshal(valid_spec(), to), "")


def test_cli_reads_yaml_from_stdin_by_default() -> None:
    assert run_cli(["convert", "--to", "json"], stdin=VALID_DOC) == (0, VALID_JSON, "")
    assert run_cli(["convert", "--to", "json", "-"], stdin=VALID_DOC) == (0, VALID_JSON, "")


def test_cli_stdin_without_from_is_not_json() -> None:
    code, out, err = run_cli(["convert", "--to", "yaml"], stdin=VALID_JSON)
    assert (code, out) == (1, b"")
    assert err.startswith('-:2:3: TS001 taskSpecVersion: unknown field "taskSpecVersion"')


def test_cli_from_overrides_the_extension(tmp_path: Path) -> None:
    path = tmp_path / "really-json.yaml"
    path.write_bytes(VALID_JSON)
    assert run_cli(["convert", "--from", "json", "--to", "yaml", str(path)]) == (0, VALID_DOC, "")
    binary = marshal_binpb(valid_spec())
    assert run_cli(["convert", "--from", "binpb", "--to", "yaml"], stdin=binary) == (
        0,
        VALID_DOC,
        "",
    )


def test_cli_unknown_extension_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "spec.txt"
    path.write_bytes(VALID_DOC)
    code, out, err = run_cli(["convert", "--to", "json", str(path)])
    assert (code, out) == (2, b"")
    assert err == (
        f"taskspec convert: error: cannot tell the format of {path} from its extension; "
        "use --from\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["convert"], "the following arguments are required: --to"),
        (["convert", "--to", "xml"], "argument --to: invalid choice: 'xml'"),
        (["convert", "--to", "json", "--from", "toml"], "argument --from: invalid choice: 'toml'"),
        (["convert", "--to", "json", "a.yaml", "b.yaml"], "unrecognized arguments: b.yaml"),
    ],
)
def test_cli_usage_errors_exit_2(argv: list[str], message: str) -> None:
    code, out, err = run_cli(argv)
    assert (code, out) == (2, b"")
    assert err.startswith("usage: taskspec")
    assert f"error: {message}" in err


def test_cli_invalid_input_exits_1_with_path_line_col(files: dict[str, Path]) -> None:
    bad = files[".yaml"].with_name("bad.yaml")
    bad.write_bytes(VALID_DOC.replace(b"language: go", b"language: cobol"))
    assert run_cli(["convert", "--to", "json", str(bad)]) == (
        1,
        b"",
        f'{bad}:3:11: TS103 invalid language "cobol"\n',
    )
    bad_json = files[".json"].with_name("bad.json")
    bad_json.write_bytes(b'{"taskId": "a", "bogus": 1}')
    code, out, err = run_cli(["convert", "--to", "yaml", str(bad_json)])
    assert (code, out) == (1, b"")
    assert err.startswith(f'{bad_json}: TS001 unknown field "bogus"; expected one of:')
    code, out, err = run_cli(["convert", "--from", "binpb", "--to", "yaml"], stdin=b"\xff")
    assert (code, out, err) == (
        1,
        b"",
        "-: TS021 invalid binary TaskSpec: the data ends inside a field's tag\n",
    )


def test_cli_missing_file_exits_1(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert run_cli(["convert", "--to", "yaml", str(missing)]) == (
        1,
        b"",
        f"{missing}: TS901 cannot read: No such file or directory\n",
    )


def _run_on_a_terminal(argv: list[str]) -> tuple[int, bytes, str]:
    """Run ``python -m taskspec *argv*`` with stdout on a pseudo-terminal."""
    primary, secondary = os.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "taskspec", *argv],
            stdin=subprocess.DEVNULL,
            stdout=secondary,
            stderr=subprocess.PIPE,
            check=False,
        )
        os.close(secondary)
        secondary = -1
        chunks = []
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:  # EIO: the terminal has no writer and no data left
                break
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(primary)
        if secondary != -1:
            os.close(secondary)
    return proc.returncode, b"".join(chunks), proc.stderr.decode()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")
def test_cli_refuses_binary_to_a_terminal(files: dict[str, Path]) -> None:
    code, out, err = _run_on_a_terminal(["convert", "--to", "binpb", str(files[".yaml"])])
    assert (code, out) == (2, b"")
    assert err == (
        "taskspec convert: error: refusing to write binary protobuf to a terminal; "
        "redirect stdout\n"
    )
    # Text formats are fine on a terminal (which turns \n into \r\n).
    code, out, err = _run_on_a_terminal(["convert", "--to", "json", str(files[".pb"])])
    assert (code, out.replace(b"\r\n", b"\n"), err) == (0, VALID_JSON, "")


def test_cli_pipeline_through_every_format(tmp_path: Path) -> None:
    """Real processes and pipes: YAML | to json | to binpb | to yaml is the identity."""
    original = taskspec.marshal_yaml(taskspec.load(ROOT / "examples" / "typescript.taskspec.yaml"))
    data = original
    for source, target in [("yaml", "json"), ("json", "binpb"), ("binpb", "yaml")]:
        proc = subprocess.run(
            [sys.executable, "-m", "taskspec", "convert", "--from", source, "--to", target],
            input=data,
            capture_output=True,
            check=False,
        )
        assert (proc.returncode, proc.stderr) == (0, b"")
        data = proc.stdout
    assert data == original
