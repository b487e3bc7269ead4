"""The JSON Schema of the sidecar: well formed, generated, and in step with validate.

The schema is judged against taskspec itself. Every canonical document
passes it. For structural mistakes (unknown keys, wrong types, bad enum
values, missing or empty required fields, out-of-range integers) the schema
and the parser give the same verdict on the same data. Where they cannot
agree, the difference is listed in ``taskspec._jsonschema`` and tested here
in both directions.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from google.protobuf.message import Message
from jsonschema import Draft202012Validator

import taskspec
from taskspec import TaskSpecError, _jsonschema, _limits, _rules, _validate
from taskspec.bridge import _decode, _layout
from taskspec.bridge._layout import Kind
from taskspec.cli._main import main
from tests.docs import page
from tests.helpers import VALID_DOC, valid_spec

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "schema" / _jsonschema.FILENAME
SCHEMA: dict[str, Any] = json.loads(COMMITTED.read_bytes())
VALIDATOR = Draft202012Validator(SCHEMA)
MODELINE = b"# yaml-language-server: $schema=../schema/taskspec.v1.schema.json\n"


# -- the data of a document, through the descriptors ----------------------


def _is_empty(msg: Message, fi: _layout.FieldInfo) -> bool:
    """Whether yaml.v3 would drop the field under ``omitempty``."""
    if fi.kind is Kind.MESSAGE:
        if fi.pointer:
            return not msg.HasField(fi.name)
        value: Message = getattr(msg, fi.name)
        return value.ByteSize() == 0
    return not getattr(msg, fi.name)


def to_document(msg: Message, info: _layout.MessageInfo = _layout.TASK_SPEC) -> dict[str, Any]:
    """*msg* as the data of its canonical YAML: the keys marshal_yaml writes, in JSON types.

    It walks the same descriptor tables as the emitter rather than reading
    the YAML back, because a generic YAML reader types scalars by their
    spelling (YAML 1.1 and 1.2 disagree, too), while the types here come
    from the fields: a task_id of "123" stays a string.
    """
    out: dict[str, Any] = {}
    for fi in info.fields:
        if fi.omitempty and _is_empty(msg, fi):
            continue
        value = getattr(msg, fi.name)
        data: Any
        if fi.kind is Kind.MESSAGE:
            assert fi.message is not None
            if fi.pointer and not msg.HasField(fi.name):
                data = None  # a nil pointer without omitempty is written as null
            else:
                data = to_document(value, fi.message)
        elif fi.kind is Kind.MESSAGE_LIST:
            assert fi.message is not None
            data = [to_document(item, fi.message) for item in value]
        elif fi.kind is Kind.ENUM:
            assert fi.enum is not None
            data = fi.enum.to_string[value]
        elif fi.kind is Kind.STRING_LIST:
            data = list(value)
        elif fi.kind is Kind.INT_MAP:
            data = dict(value)
        else:
            data = value
        out[fi.name] = data
    return out


#: VALID_DOC's data: every field set, so every key can be removed or broken.
FULL: dict[str, Any] = to_document(valid_spec())


def _fields(
    info: _layout.MessageInfo = _layout.TASK_SPEC, prefix: tuple[str | int, ...] = ()
) -> Iterator[tuple[tuple[str | int, ...], _layout.FieldInfo]]:
    """Every field reachable in FULL, with its path (list items by index 0)."""
    for fi in info.fields:
        path = (*prefix, fi.name)
        yield path, fi
        if fi.kind is Kind.MESSAGE:
            assert fi.message is not None
            yield from _fields(fi.message, path)
        elif fi.kind is Kind.MESSAGE_LIST:
            assert fi.message is not None
            yield from _fields(fi.message, (*path, 0))


FIELDS = list(_fields())


def _name(path: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in path).replace(".0.", "[0].")


def _edit(path: tuple[str | int, ...], value: Any = ..., *, delete: bool = False) -> Any:
    """A deep copy of FULL with the value at *path* replaced or deleted."""
    doc = copy.deepcopy(FULL)
    target: Any = doc
    for step in path[:-1]:
        target = target[step]
    if delete:
        target.pop(path[-1], None)  # a field FULL leaves out (omitted when empty) stays out
    else:
        target[path[-1]] = value
    return doc


def _parser_accepts(data: bytes | str) -> bool:
    try:
        taskspec.parse_task_spec(data)
    except TaskSpecError:
        return False
    return True


def verdicts(doc: Any) -> tuple[bool, bool]:
    """(schema accepts, taskspec accepts) for the same data, written as YAML."""
    return VALIDATOR.is_valid(doc), _parser_accepts(yaml.safe_dump(doc, sort_keys=False))


# -- the schema itself ----------------------------------------------------


def test_schema_is_valid_draft_2020_12() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == _jsonschema.DIALECT == Draft202012Validator.META_SCHEMA["$id"]


def test_packaged_copy_is_the_committed_schema() -> None:
    assert _jsonschema.packaged() == COMMITTED.read_bytes()


def test_schema_command_prints_the_committed_schema(
    capsysbinary: pytest.CaptureFixture[bytes],
) -> None:
    assert main(["schema"]) == 0
    out, err = capsysbinary.readouterr()
    assert (out, err) == (COMMITTED.read_bytes(), b"")


def test_rendering_is_stable() -> None:
    data = COMMITTED.read_bytes()
    assert _jsonschema.render(json.loads(data)) == data
    assert data.endswith(b"}\n") and b'\n  "properties": {\n' in data


#: The keywords whose text comes from the proto's doc comments.
_DOC_KEYWORDS = ("description", "enumDescriptions")


def _without_descriptions(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _without_descriptions(v) for k, v in node.items() if k not in _DOC_KEYWORDS}
    if isinstance(node, list):
        return [_without_descriptions(v) for v in node]
    return node


def test_structure_is_what_the_descriptors_build() -> None:
    """Drift check that needs no buf: only the descriptions come from the proto source."""
    assert _jsonschema.build({}) == _without_descriptions(SCHEMA)


def _object_schemas(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if node.get("type") == "object":
            yield node
        for value in node.values():
            yield from _object_schemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from _object_schemas(value)


def test_every_message_forbids_unknown_keys_and_is_documented() -> None:
    messages = [s for s in _object_schemas(SCHEMA) if "properties" in s]
    assert len(messages) == 5
    for schema in messages:
        assert schema["additionalProperties"] is False, schema["title"]
        assert schema["description"], schema["title"]
        for name, prop in schema["properties"].items():
            assert prop["description"], (schema["title"], name)
    for name, enum in SCHEMA["$defs"].items():
        if "enum" in enum:
            assert "" not in enum["enum"], name
            assert enum["description"], name


def test_schema_has_an_id_naming_its_published_file() -> None:
    assert SCHEMA["$id"] == _jsonschema.SCHEMA_ID
    assert SCHEMA["$id"].startswith("https://") and SCHEMA["$id"].endswith("/" + COMMITTED.name)
    assert list(SCHEMA)[:2] == ["$schema", "$id"]


def _properties(node: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield from node.get("properties", {}).items()
        for value in node.values():
            yield from _properties(value)


def test_every_field_is_titled_with_its_own_name() -> None:
    """An editor's hover heads a field with its title, else with its parent's."""
    props = list(_properties(SCHEMA))
    assert len(props) == len(FIELDS)
    for name, prop in props:
        assert prop["title"] == name
        assert next(iter(prop)) == "title"


def test_blank_checks_say_the_rules_message() -> None:
    """A blank task_id reads "task_id is required" in an editor, in Go's words, from the options."""
    blank = [
        rule
        for rule in _rules.RULES
        if not rule.item and "pattern" in rule.implementation.schema(rule.bound, None)
    ]
    assert {rule.path for rule in blank} == {"task_id", "prompt"}
    for rule in blank:
        prop = SCHEMA["properties"][rule.path]
        assert prop["pattern"] == _jsonschema.NOT_BLANK_PATTERN
        assert prop["patternErrorMessage"] == rule.message == rule.format("   ")
        assert "minLength" not in prop  # the pattern refuses "" with the same message
    assert SCHEMA["properties"]["task_id"]["patternErrorMessage"] == "task_id is required"
    # No second copy of a message: every one in the schema is a rule's.
    messages = re.findall(r'"patternErrorMessage": (".*?")', COMMITTED.read_text())
    assert sorted(json.loads(m) for m in messages) == sorted(r.message for r in blank)


def test_enum_values_carry_their_doc_comments() -> None:
    for name in ("Language", "Difficulty", "GeneratedKind"):
        enum = SCHEMA["$defs"][name]
        assert len(enum["enumDescriptions"]) == len(enum["enum"])
        for value, about in zip(enum["enum"], enum["enumDescriptions"], strict=True):
            assert not about or f'YAML value "{value}"' in about  # "": no doc comment
    assert SCHEMA["$defs"]["Language"]["enumDescriptions"][0] == 'Go. YAML value "go".'


def test_required_keys_are_what_validate_needs() -> None:
    """Go decodes a missing key as its zero value; required = the zero value is invalid."""
    assert SCHEMA["required"] == [
        "task_spec_version",
        "task_id",
        "language",
        "difficulty",
        "generated_from",
        "prompt",
        "verification",
    ]
    assert SCHEMA["$defs"]["GeneratedFrom"]["required"] == ["kind"]
    assert SCHEMA["$defs"]["Verification"]["required"] == ["test_cmd"]
    for name in ("KGQuery", "SolutionArtifact"):
        assert "required" not in SCHEMA["$defs"][name]


def _keeps(full_name: str, value: Any) -> bool:
    """Whether *value* keeps every rule of the field *full_name* (one without rules: any)."""
    return all(_rules.passes(r)(value) for r in _rules.BY_FIELD.get(full_name, ()))


def test_integer_bounds_follow_the_proto_types() -> None:
    """The int64 range, narrowed by the field's rules."""
    timeout = SCHEMA["$defs"]["Verification"]["properties"]["timeout_seconds"]
    name = "taskspec.v1.Verification.timeout_seconds"
    rules = _rules.BY_FIELD.get(name, ())
    low = max([-(2**63), *(r.bound for r in rules if r.name == "at_least" and r.bound is not None)])
    high = min(
        [2**63 - 1, *(r.bound for r in rules if r.name == "at_most" and r.bound is not None)]
    )
    assert (timeout["minimum"], timeout["maximum"]) == (low, high)
    assert _keeps(name, low) and _keeps(name, high)
    assert not _keeps(name, low - 1) or low == -(2**63)
    signals = SCHEMA["properties"]["difficulty_signals"]["additionalProperties"]
    assert (signals["minimum"], signals["maximum"]) == (-(2**63), 2**63 - 1)
    assert SCHEMA["properties"]["task_spec_version"]["const"] == 1


# -- the rule table's schema column is Validate ----------------------------


def _target(spec: Message, path: tuple[str | int, ...]) -> tuple[Message, str]:
    msg: Any = spec
    for step in path[:-1]:
        msg = msg[step] if isinstance(step, int) else getattr(msg, step)
    name = path[-1]
    assert isinstance(name, str)
    return msg, name


def _violations(path: tuple[str | int, ...], value: Any) -> set[str]:
    spec = valid_spec()
    msg, name = _target(spec, path)
    if value is None:
        msg.ClearField(name)
    elif isinstance(value, list):
        del getattr(msg, name)[:]
        getattr(msg, name).extend(value)
    else:
        setattr(msg, name, value)
    return {v.field_path for v in _validate.check(spec)}


LEAVES = [(p, fi) for p, fi in FIELDS if fi.kind not in (Kind.MESSAGE, Kind.MESSAGE_LIST)]


def _said(path: tuple[str | int, ...]) -> tuple[dict[str, Any], bool]:
    """The schema of the field at *path*, and whether its parent requires its key."""
    node: dict[str, Any] = SCHEMA
    for step in path[:-1]:
        node = node["items"] if isinstance(step, int) else node["properties"][step]
        ref = node.get("$ref")
        if ref is not None:
            node = SCHEMA["$defs"][ref.rsplit("/", 1)[-1]]
    name = path[-1]
    assert isinstance(name, str)
    return node["properties"][name], name in node.get("required", [])


def _probes(fi: _layout.FieldInfo) -> list[Any]:
    """Values to probe a field with: odd ones, and each bound of its rules and its neighbours."""
    bounds = [r.bound for r in _rules.BY_FIELD.get(fi.full_name, ()) if r.bound is not None]
    if fi.kind is Kind.INT:
        ints = [b + d for b in bounds for d in (-1, 0, 1)]
        return [v for v in (-1, 0, 2, *ints, 2**63 - 1, -(2**63)) if -(2**63) <= v < 2**63]
    if fi.kind is Kind.STRING:
        texts = [n * "\u00e9" for b in bounds for n in (b - 1, b, b + 1) if n >= 0]
        return [" \t\n\u3000", "", "x", *texts]
    if fi.kind is Kind.STRING_LIST:
        lists = [n * ["x"] for b in bounds for n in (b - 1, b, b + 1) if n >= 0]
        return [[], [""], [" ", "x"], *lists]
    return []


@pytest.mark.parametrize(("path", "fi"), LEAVES, ids=[_name(p) for p, _ in LEAVES])
def test_schema_column_predicts_validate(
    path: tuple[str | int, ...], fi: _layout.FieldInfo
) -> None:
    """Probe Validate field by field; what the schema says must predict every outcome."""
    prop, required = _said(path)
    where = _name(path)
    assert (where in _violations(path, None)) == required
    if fi.kind is Kind.ENUM:
        assert (where in _violations(path, 99)) == ("$ref" in prop)
        return
    if fi.kind is Kind.INT_MAP:
        return
    allowed = Draft202012Validator({**prop, "$defs": SCHEMA["$defs"]})
    for value in _probes(fi):
        broken = {p.split("[")[0] for p in _violations(path, value)}
        assert (where in broken) == (not allowed.is_valid(value)), value


def test_every_rule_is_in_the_schema() -> None:
    """Each rule's fragment is in its field's schema (or its items'), as its kind says it."""
    for rule in _rules.RULES:
        path = tuple(rule.path.split("."))
        prop, _ = _said(path)
        fi = _rules.field_info(rule.path)
        ref = f"#/$defs/{fi.enum.yaml_name}" if fi.enum is not None else None
        fragment = rule.implementation.schema(rule.bound, ref)
        where = prop["items"] if rule.item else prop
        for key, value in fragment.items():
            if key in ("minimum", "maximum"):
                assert key in where and (
                    where[key] >= value if key == "minimum" else where[key] <= value
                )
            else:
                assert where.get(key) == value, (rule, key)


# -- canonical documents pass ---------------------------------------------


def _documents() -> list[Path]:
    """Every sidecar the repository keeps that taskspec accepts.

    examples/ and the Go package's testdata must all be valid. Golden files
    and conformance vectors may also hold documents meant to be rejected;
    those are not canonical documents and are left out.
    """
    must = sorted((ROOT / "examples").glob("*.yaml"))
    must += sorted((ROOT / "tests" / "conformance" / "go" / "eval" / "testdata").glob("*.yaml"))
    for path in must:
        taskspec.parse_task_spec(path.read_bytes())
    may: list[Path] = []
    for where in ("tests/data/golden", "tests/conformance/vectors"):
        base = ROOT / where
        if base.is_dir():
            may += sorted(p for p in base.rglob("*") if p.suffix in (".yaml", ".yml"))
    return must + [p for p in may if _parser_accepts(p.read_bytes())]


DOCUMENTS = _documents()


@pytest.mark.parametrize("path", DOCUMENTS, ids=[str(p.relative_to(ROOT)) for p in DOCUMENTS])
def test_canonical_document_passes(path: Path) -> None:
    doc = to_document(taskspec.parse_task_spec(path.read_bytes()))
    assert [e.message for e in VALIDATOR.iter_errors(doc)] == []


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.yaml")), ids=lambda p: p.name)
def test_example_as_an_editor_reads_it(path: Path) -> None:
    """The examples open with the modeline, and a plain YAML reader sees valid data."""
    data = path.read_bytes()
    assert data.startswith(MODELINE)
    target = MODELINE.split(b"$schema=")[1].strip().decode()
    assert (path.parent / target).resolve() == COMMITTED
    loaded = yaml.safe_load(data)
    assert loaded == to_document(taskspec.parse_task_spec(data))
    assert VALIDATOR.is_valid(loaded)


# -- structural mistakes: the schema and the parser agree -----------------

_ZERO = {
    Kind.STRING: "",
    Kind.INT: 0,
    Kind.ENUM: "",
    Kind.MESSAGE: {},
    Kind.STRING_LIST: [],
    Kind.MESSAGE_LIST: [],
    Kind.INT_MAP: {},
}

#: A value of the wrong YAML type for each kind, which Go refuses to decode.
_WRONG_TYPE = {
    Kind.STRING: ["x"],
    Kind.INT: "1",
    Kind.ENUM: {"go": 1},
    Kind.MESSAGE: "x",
    Kind.STRING_LIST: "go test ./...",
    Kind.MESSAGE_LIST: {"path": "x"},
    Kind.INT_MAP: ["x"],
}

MUST_BE_PRESENT = {
    "task_spec_version",
    "task_id",
    "language",
    "difficulty",
    "generated_from",
    "generated_from.kind",
    "prompt",
    "verification",
    "verification.test_cmd",
}


@pytest.mark.parametrize(("path", "fi"), FIELDS, ids=[_name(p) for p, _ in FIELDS])
def test_missing_key(path: tuple[str | int, ...], fi: _layout.FieldInfo) -> None:
    schema_ok, parser_ok = verdicts(_edit(path, delete=True))
    assert schema_ok == parser_ok == (_name(path) not in MUST_BE_PRESENT)


@pytest.mark.parametrize(("path", "fi"), FIELDS, ids=[_name(p) for p, _ in FIELDS])
def test_zero_value(path: tuple[str | int, ...], fi: _layout.FieldInfo) -> None:
    schema_ok, parser_ok = verdicts(_edit(path, _ZERO[fi.kind]))
    assert schema_ok == parser_ok == (_name(path) not in MUST_BE_PRESENT)


@pytest.mark.parametrize(("path", "fi"), FIELDS, ids=[_name(p) for p, _ in FIELDS])
def test_wrong_type(path: tuple[str | int, ...], fi: _layout.FieldInfo) -> None:
    assert verdicts(_edit(path, _WRONG_TYPE[fi.kind])) == (False, False)


OBJECTS = [()] + [
    p if fi.kind is Kind.MESSAGE else (*p, 0)
    for p, fi in FIELDS
    if fi.kind in (Kind.MESSAGE, Kind.MESSAGE_LIST)
]


@pytest.mark.parametrize("path", OBJECTS, ids=[_name(p) or "root" for p in OBJECTS])
def test_unknown_key_at_every_depth(path: tuple[str | int, ...]) -> None:
    doc = copy.deepcopy(FULL)
    target: Any = doc
    for step in path:
        target = target[step]
    target["bogus"] = "x"
    assert verdicts(doc) == (False, False)


@pytest.mark.parametrize(
    ("path", "value", "valid"),
    [
        (("language",), "cobol", False),
        (("language",), "Go", False),
        (("difficulty",), "HARD", False),
        (("generated_from", "kind"), "benchmark", False),
        (("generated_from", "kind"), "benchmark_seed", True),
        (("task_spec_version",), 2, False),
        (("task_spec_version",), 1.0, True),
        (("verification", "timeout_seconds"), -1, False),
        (("verification", "timeout_seconds"), 1.5, False),
        (
            ("verification", "timeout_seconds"),
            2**63 - 1,
            _keeps("taskspec.v1.Verification.timeout_seconds", 2**63 - 1),
        ),
        (("verification", "timeout_seconds"), 2**63, False),
        (("difficulty_signals",), {"n": -(2**63)}, True),
        # Just below the minimum, Go's float reading rounds back into range: see
        # STRICTER_CASES. A float step further out, both refuse.
        (("difficulty_signals",), {"n": -(2**63) - 4096}, False),
        (("difficulty_signals",), {"n": "1"}, False),
        (("verification", "test_cmd"), [""], True),
        (("task_id",), " \t", False),
        (("prompt",), "\n\n", False),
        (("prompt",), "\u3000\u00a0\x85\u2028", False),
        (("prompt",), "  x  ", True),
        (("prompt",), "\ufeff", True),  # U+FEFF is not white space to Go
        (("prompt",), "\x1c", True),  # nor is U+001C, which Python's strip() removes
        (("solution_artifacts",), [{"role": "target"}], True),
        (("generated_from", "kg_query"), {}, True),
    ],
    ids=lambda v: repr(v) if not isinstance(v, tuple) else _name(v),
)
def test_values(path: tuple[str | int, ...], value: Any, valid: bool) -> None:
    assert verdicts(_edit(path, value)) == (valid, valid)


# -- where they cannot agree ----------------------------------------------


def _replace(old: bytes, new: bytes, doc: bytes = VALID_DOC) -> bytes:
    assert doc.count(old) == 1, old
    return doc.replace(old, new)


#: For each NOT_IN_SCHEMA entry: YAML text taskspec rejects, and the data a
#: YAML reader hands the schema for it, which the schema accepts.
NOT_IN_SCHEMA_CASES: dict[str, tuple[bytes, Any]] = {
    "duplicate keys, at any level": (
        _replace(
            b"    timeout_seconds: 120\n", b"    timeout_seconds: 120\n    timeout_seconds: 60\n"
        ),
        _edit(("verification", "timeout_seconds"), 60),
    ),
    "more than one YAML document in a file": (VALID_DOC + b"---\n" + VALID_DOC, FULL),
    "merge keys (<<) and tags other than the standard ones (!!binary, !custom)": (
        _replace(b"task_id: kg-go-impl-mathx-gcd", b"task_id: !custom kg-go-impl-mathx-gcd"),
        FULL,
    ),
    "input that is not UTF-8 (invalid bytes, UTF-16, UTF-32)": (
        VALID_DOC.decode().encode("utf-16"),
        FULL,
    ),
    "documents over 16 MiB, or over 100,000 nodes after alias expansion": (
        _replace(b"Implement mathx.GCD.", b"x" * _limits.MAX_DOCUMENT_BYTES),
        _edit(("prompt",), "x" * _limits.MAX_DOCUMENT_BYTES),
    ),
}


def test_not_in_schema_cases_cover_the_list() -> None:
    assert NOT_IN_SCHEMA_CASES.keys() == _jsonschema.NOT_IN_SCHEMA.keys()


def test_the_editors_page_lists_both_tables() -> None:
    section = page("docs/editors.md").replace("`", "")
    for rule in [*_jsonschema.NOT_IN_SCHEMA, *_jsonschema.STRICTER_THAN_PARSER]:
        assert f"\n- {rule}\n" in section, rule


@pytest.mark.parametrize("rule", list(NOT_IN_SCHEMA_CASES))
def test_not_in_schema_is_still_caught(rule: str) -> None:
    text, data = NOT_IN_SCHEMA_CASES[rule]
    assert VALIDATOR.is_valid(data)
    with pytest.raises(TaskSpecError):
        taskspec.parse_task_spec(text)


def test_merge_keys_are_caught_though_a_merging_reader_hides_them() -> None:
    text = _replace(
        b"    test_cmd:\n        - go\n        - test\n        - ./mathx/...\n",
        b"    <<: {test_cmd: [go, test, ./mathx/...]}\n",
    )
    assert VALIDATOR.is_valid(yaml.safe_load(text))  # PyYAML applies YAML 1.1 merge keys
    with pytest.raises(TaskSpecError, match="merge keys"):
        taskspec.parse_task_spec(text)


def test_node_bound_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same bound at a size a test can afford: aliases expand past MAX_NODES."""
    monkeypatch.setattr(_decode, "MAX_NODES", 40)
    items = b", ".join([b"&a x"] + [b"*a"] * 40)
    text = _replace(
        b"    test_cmd:\n        - go\n        - test\n        - ./mathx/...\n",
        b"    test_cmd: [" + items + b"]\n",
    )
    assert VALIDATOR.is_valid(_edit(("verification", "test_cmd"), ["x"] * 41))
    with pytest.raises(TaskSpecError, match="nodes"):
        taskspec.parse_task_spec(text)


#: For each STRICTER_THAN_PARSER entry: YAML text taskspec accepts, and the
#: data a YAML 1.2 reader (an editor) hands the schema for it, which the
#: schema rejects.
STRICTER_CASES: dict[str, tuple[bytes, Any]] = {
    "an unquoted number, boolean or null where a string goes (task_id: 123, role: true)": (
        _replace(b"role: target", b"role: true"),
        _edit(("solution_artifacts", 0, "role"), True),
    ),
    "null or an empty value for a field (kg_query: ~, build_cmd:, role:)": (
        _replace(
            b"    build_cmd:\n        - go\n        - build\n        - ./...\n", b"    build_cmd:\n"
        ),
        _edit(("verification", "build_cmd"), None),
    ),
    "integers spelled in ways YAML 1.2 has no integers for (0b101, 1_000)": (
        _replace(b"timeout_seconds: 120", b"timeout_seconds: 1_000"),
        _edit(("verification", "timeout_seconds"), "1_000"),
    ),
}


def test_stricter_cases_cover_the_list() -> None:
    assert STRICTER_CASES.keys() == _jsonschema.STRICTER_THAN_PARSER.keys()


@pytest.mark.parametrize("rule", list(STRICTER_CASES))
def test_stricter_than_parser_and_fmt_fixes_it(rule: str) -> None:
    text, data = STRICTER_CASES[rule]
    assert not VALIDATOR.is_valid(data)
    spec = taskspec.parse_task_spec(text)
    canonical = taskspec.marshal_yaml(spec)
    assert VALIDATOR.is_valid(to_document(taskspec.parse_task_spec(canonical)))
    assert VALIDATOR.is_valid(yaml.safe_load(canonical))


# -- fmt keeps the modeline ------------------------------------------------


def test_fmt_keeps_the_modeline_with_the_other_comments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(MODELINE + b"# a note\n" + VALID_DOC.replace(b"    ", b"  "))
    assert main(["fmt", "--check", str(path)]) == 1
    assert main(["fmt", str(path)]) == 0
    assert path.read_bytes() == MODELINE + b"# a note\n" + VALID_DOC
    assert main(["fmt", "--check", str(path)]) == 0
    # Go's exact bytes, on request, after the modeline: an editor needs it.
    assert main(["fmt", "--strip-comments", str(path)]) == 0
    assert path.read_bytes() == MODELINE + VALID_DOC
    assert main(["fmt", "--check", str(ROOT / "examples")]) == 0
    capsys.readouterr()
