"""ParseTaskSpec: strict decoding, every rule of CONTRACT.md, and hostile input."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest
from google.protobuf.message import Message

import taskspec
from taskspec import DecodeError, TaskSpecError, ValidationError
from taskspec.v1 import taskspec_pb2
from tests.helpers import VALID_DOC, check_invalid, check_valid


def doc_with(old: bytes, new: bytes) -> bytes:
    assert old in VALID_DOC, old
    return VALID_DOC.replace(old, new, 1)


def line_of(doc: bytes, needle: bytes) -> int:
    return doc[: doc.index(needle)].count(b"\n") + 1


@pytest.fixture
def watchdog() -> Iterator[None]:
    """Turn a hang into a failure. Not a speed check: `make bench` measures speed."""

    def expired(signum: int, frame: object) -> None:
        raise AssertionError("hostile input was not rejected promptly (hang guard)")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


# -- accepted documents -------------------------------------------------------


def test_canonical_document_decodes_every_field() -> None:
    spec = check_valid(VALID_DOC)
    assert spec.task_spec_version == 1
    assert spec.task_id == "kg-go-impl-mathx-gcd"
    assert spec.language == taskspec.Language.GO.to_proto()
    assert spec.difficulty == taskspec.Difficulty.MEDIUM.to_proto()
    assert dict(spec.difficulty_signals) == {"cyclomatic_complexity": 4, "edge_count": 9}
    assert spec.generated_from.kind == taskspec.GeneratedKind.KG_TEMPLATE.to_proto()
    assert spec.generated_from.template_id == "impl-pure-fn"
    assert spec.generated_from.kg_query.intent == "code_context"
    assert spec.generated_from.kg_query.seed_symbol == "mathx.GCD"
    assert spec.prompt == "Implement mathx.GCD."
    assert [(a.path, a.role) for a in spec.solution_artifacts] == [("mathx/gcd.go", "target")]
    assert list(spec.verification.build_cmd) == ["go", "build", "./..."]
    assert list(spec.verification.test_cmd) == ["go", "test", "./mathx/..."]
    assert spec.verification.timeout_seconds == 120


@pytest.mark.parametrize(
    ("old", "new", "field", "value"),
    [
        (b"task_id: kg-go-impl-mathx-gcd", b"task_id: 123", "task_id", "123"),
        (b"task_id: kg-go-impl-mathx-gcd", b"task_id: 0x1F", "task_id", "0x1F"),
        (b"task_id: kg-go-impl-mathx-gcd", b"task_id: 1.50", "task_id", "1.50"),
        (b"task_id: kg-go-impl-mathx-gcd", b"task_id: 2001-12-14", "task_id", "2001-12-14"),
        (b"prompt: Implement mathx.GCD.", b"prompt: yes", "prompt", "yes"),
        (b"prompt: Implement mathx.GCD.", b"prompt: true", "prompt", "true"),
        (b"prompt: Implement mathx.GCD.", b"prompt: Off", "prompt", "Off"),
        (b"prompt: Implement mathx.GCD.", b"prompt: '  spaced  '", "prompt", "  spaced  "),
    ],
)
def test_string_fields_keep_the_text_as_written(
    old: bytes, new: bytes, field: str, value: str
) -> None:
    assert getattr(check_valid(doc_with(old, new)), field) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0x10", 16),
        ("0o17", 15),
        ("017", 15),
        ("0b101", 5),
        ("1e3", 1000),
        ("1_000", 1000),
        ("+7", 7),
        ("2.0", 2),
        ("~", 0),
        ("null", 0),
        ("", 0),
        ("!!int 30", 30),
        ("9223372036854775807", 9223372036854775807),
    ],
)
def test_integer_fields_accept_yaml_integers(text: str, value: int) -> None:
    doc = doc_with(b"timeout_seconds: 120", f"timeout_seconds: {text}".encode())
    assert check_valid(doc).verification.timeout_seconds == value


def test_int64_minimum_decodes_then_fails_validation() -> None:
    doc = doc_with(b"timeout_seconds: 120", b"timeout_seconds: -9223372036854775808")
    check_invalid(
        doc,
        ValidationError,
        path="verification.timeout_seconds",
        message="must be non-negative, got -9223372036854775808",
        line=line_of(doc, b"-9223372036854775808"),
    )


def test_hex_version() -> None:
    assert (
        check_valid(doc_with(b"task_spec_version: 1", b"task_spec_version: 0x1")).task_spec_version
        == 1
    )


def test_meaning_not_form_flow_style_comments_any_order_2_space_indent() -> None:
    doc = b"""# a hand-written sidecar
verification: {test_cmd: [go, test, './...'], timeout_seconds: 60}  # trailing comment
prompt: >-
  Fix the
  bug.
generated_from:
  kg_query: {}
  kind: "kg_template"
difficulty: 'easy'
language: go
task_id: t-1
task_spec_version: 1
"""
    spec = check_valid(doc)
    assert spec.prompt == "Fix the bug."
    assert spec.generated_from.HasField("kg_query")
    assert list(spec.verification.test_cmd) == ["go", "test", "./..."]


def test_anchors_and_aliases_work() -> None:
    doc = doc_with(
        b"    build_cmd:\n        - go\n        - build\n        - ./...\n",
        b"    build_cmd: &cmd [go, vet]\n",
    )
    doc = doc.replace(
        b"    test_cmd:\n        - go\n        - test\n        - ./mathx/...\n",
        b"    test_cmd: *cmd\n",
    )
    spec = check_valid(doc)
    assert list(spec.verification.test_cmd) == ["go", "vet"]


def test_document_markers_crlf_and_bom() -> None:
    doc = b"\xef\xbb\xbf---\r\n" + VALID_DOC.replace(b"\n", b"\r\n") + b"...\r\n"
    spec = check_valid(doc)
    assert spec.prompt == "Implement mathx.GCD."
    assert check_valid(VALID_DOC.decode()) == spec


def test_nulls_are_zero_values() -> None:
    doc = doc_with(b"    template_id: impl-pure-fn\n", b"    template_id: ~\n")
    doc = doc.replace(
        b"    kg_query:\n        intent: code_context\n        seed_symbol: mathx.GCD\n",
        b"    kg_query: null\n",
    )
    doc = doc.replace(
        b"difficulty_signals:\n    cyclomatic_complexity: 4\n    edge_count: 9\n",
        b"difficulty_signals:\n",
    )
    spec = check_valid(doc)
    assert spec.generated_from.template_id == ""
    assert not spec.generated_from.HasField("kg_query")
    assert len(spec.difficulty_signals) == 0


def test_null_list_item_is_rejected_because_go_drops_it() -> None:
    # yaml.v3 reads [go, ~, ./...] as [go, ./...]: silent data loss, so the
    # document is rejected (STRICTER_THAN_GO); '' is the empty string.
    doc = doc_with(b"        - build\n", b"        - ~\n")
    check_invalid(
        doc, DecodeError, path="verification.build_cmd[1]", message="null item is not allowed"
    )
    quoted = doc_with(b"        - build\n", b"        - ''\n")
    assert list(check_valid(quoted).verification.build_cmd) == ["go", "", "./..."]


# -- enums decode, then fail validation like Go --------------------------------


def test_unknown_enum_string_is_a_validation_error_with_position() -> None:
    doc = doc_with(b"language: go", b"language: cobol")
    check_invalid(
        doc, ValidationError, path="language", message='invalid language "cobol"', line=3, column=11
    )


def test_enum_case_matters() -> None:
    doc = doc_with(b"difficulty: medium", b"difficulty: Medium")
    check_invalid(doc, ValidationError, path="difficulty", message='invalid difficulty "Medium"')


def test_validation_order_is_go_order_for_documents() -> None:
    doc = doc_with(b"language: go", b"language: cobol").replace(
        b"task_spec_version: 1", b"task_spec_version: 99"
    )
    err = check_invalid(
        doc, ValidationError, path="task_spec_version", message="unsupported task_spec_version 99"
    )
    assert [v.field_path for v in err.violations] == ["task_spec_version", "language"]


def test_missing_required_field_points_at_its_parent() -> None:
    doc = doc_with(b"    test_cmd:\n        - go\n        - test\n        - ./mathx/...\n", b"")
    check_invalid(
        doc,
        ValidationError,
        path="verification.test_cmd",
        message="verification.test_cmd is required",
        line=line_of(doc, b"    build_cmd"),
    )


# -- decode errors: unknown and duplicate keys ---------------------------------


@pytest.mark.parametrize(
    ("old", "new", "path", "message"),
    [
        (b"task_id:", b"bogus: 1\ntask_id:", "bogus", taskspec_pb2.TaskSpec),
        (
            b"    kind: kg_template",
            b"    kind: kg_template\n    bogus: 1",
            "generated_from.bogus",
            taskspec_pb2.GeneratedFrom,
        ),
        (
            b"        intent:",
            b"        bogus: 1\n        intent:",
            "generated_from.kg_query.bogus",
            taskspec_pb2.KGQuery,
        ),
        (
            b"      role: target",
            b"      role: target\n      bogus: 1",
            "solution_artifacts[0].bogus",
            taskspec_pb2.SolutionArtifact,
        ),
        (
            b"    timeout_seconds: 120",
            b"    timeout_seconds: 120\n    bogus: 1",
            "verification.bogus",
            taskspec_pb2.Verification,
        ),
    ],
)
def test_unknown_keys_at_every_depth(
    old: bytes, new: bytes, path: str, message: type[Message]
) -> None:
    """The hint lists the keys of the message the unknown key sits in, from its descriptor."""
    doc = doc_with(old, new)
    err = check_invalid(
        doc, DecodeError, path=path, message='unknown field "bogus"', line=line_of(doc, b"bogus")
    )
    keys = ", ".join(f.name for f in message.DESCRIPTOR.fields)
    assert f"expected one of: {keys}" in str(err)


@pytest.mark.parametrize(
    ("old", "new", "path"),
    [
        (b"prompt:", b'"task_id": again\nprompt:', "task_id"),
        (b"    template_id:", b"    kind: benchmark_seed\n    template_id:", "generated_from.kind"),
        (
            b"    edge_count: 9",
            b"    edge_count: 9\n    edge_count: 10",
            'difficulty_signals["edge_count"]',
        ),
        (
            b"      role: target",
            b"      role: target\n      role: other",
            "solution_artifacts[0].role",
        ),
    ],
)
def test_duplicate_keys(old: bytes, new: bytes, path: str) -> None:
    doc = doc_with(old, new)
    err = check_invalid(doc, DecodeError, path=path, message="duplicate key")
    assert "first defined at line" in str(err)


def test_null_signal_keys_are_rejected_because_go_drops_the_entry() -> None:
    # yaml.v3 skips an entry whose key is null (STRICTER_THAN_GO); "" is a real key.
    doc = doc_with(b"    edge_count: 9", b"    ~: 9\n    null: 10")
    check_invalid(doc, DecodeError, path="difficulty_signals", message="null key (~)")
    quoted = doc_with(b"    edge_count: 9", b'    "": 9\n    "~": 10')
    assert dict(check_valid(quoted).difficulty_signals) == {
        "": 9,
        "~": 10,
        "cyclomatic_complexity": 4,
    }


# -- decode errors: wrong types ----------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "path", "message"),
    [
        (
            b"task_spec_version: 1",
            b'task_spec_version: "1"',
            "task_spec_version",
            'expected an integer, got the string "1"',
        ),
        (
            b"task_spec_version: 1",
            b"task_spec_version: true",
            "task_spec_version",
            'expected an integer, got the bool "true"',
        ),
        (
            b"task_spec_version: 1",
            b"task_spec_version: 2001-01-01",
            "task_spec_version",
            "timestamp",
        ),
        (b"task_spec_version: 1", b"task_spec_version: ! 1", "task_spec_version", "tagged string"),
        (
            b"timeout_seconds: 120",
            b"timeout_seconds: 1.5",
            "verification.timeout_seconds",
            "non-integral",
        ),
        (
            b"timeout_seconds: 120",
            b"timeout_seconds: .inf",
            "verification.timeout_seconds",
            "out of the int64 range",
        ),
        (
            b"timeout_seconds: 120",
            b"timeout_seconds: 9223372036854775808",
            "verification.timeout_seconds",
            "out of the int64 range",
        ),
        (
            b"timeout_seconds: 120",
            b"timeout_seconds: 1e19",
            "verification.timeout_seconds",
            "out of the int64 range",
        ),
        (
            b"timeout_seconds: 120",
            b"timeout_seconds: [1]",
            "verification.timeout_seconds",
            "got a sequence",
        ),
        (
            b"task_id: kg-go-impl-mathx-gcd",
            b"task_id: {a: 1}",
            "task_id",
            "expected a string, got a mapping",
        ),
        (b"language: go", b"language: [go]", "language", "expected a string, got a sequence"),
        (b"prompt: Implement mathx.GCD.", b"prompt: !!binary aGk=", "prompt", "unsupported tag"),
        (
            b"    kg_query:\n        intent: code_context\n        seed_symbol: mathx.GCD\n",
            b"    kg_query: []\n",
            "generated_from.kg_query",
            "expected a mapping",
        ),
        (
            b"    edge_count: 9",
            b"    edge_count: many",
            'difficulty_signals["edge_count"]',
            "expected an integer",
        ),
        (
            b"difficulty_signals:\n    cyclomatic_complexity: 4\n    edge_count: 9\n",
            b"difficulty_signals: [1]\n",
            "difficulty_signals",
            "expected a mapping",
        ),
        (
            b"        - build\n",
            b"        - [nested]\n",
            "verification.build_cmd[1]",
            "expected a string, got a sequence",
        ),
        (
            b"    test_cmd:\n",
            b"    test_cmd: go test\n    x_cmd:\n",
            "verification.test_cmd",
            "expected a sequence",
        ),
        (
            b"    - path: mathx/gcd.go\n      role: target\n",
            b"    - just-a-string\n",
            "solution_artifacts[0]",
            "expected a mapping",
        ),
    ],
)
def test_wrong_types(old: bytes, new: bytes, path: str, message: str) -> None:
    doc = doc_with(old, new)
    check_invalid(doc, DecodeError, path=path, message=message)


def test_wrong_type_error_names_line_and_column() -> None:
    doc = doc_with(b"timeout_seconds: 120", b"timeout_seconds: soon")
    err = check_invalid(doc, DecodeError, path="verification.timeout_seconds", message="soon")
    assert (err.line, err.column) == (line_of(doc, b"timeout_seconds"), 22)
    assert str(err).startswith(f"line {err.line}, column 22: verification.timeout_seconds: ")


# -- decode errors: the document as a whole ------------------------------------


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (b"", "empty document"),
        (b"   \n\n", "empty document"),
        (b"# only a comment\n", "empty document"),
        (b"- a\n- b\n", "got a sequence"),
        (b"just text\n", 'got the string "just text"'),
        (b"42\n", 'got the int "42"'),
    ],
)
def test_non_mapping_and_empty_documents(doc: bytes, message: str) -> None:
    check_invalid(doc, DecodeError, path="", message=message)


@pytest.mark.parametrize("doc", [b"---\n", b"~\n", b"null\n", b"--- ~\n...\n"])
def test_null_document_is_the_zero_spec_and_fails_validate_like_go(doc: bytes) -> None:
    # yaml.v3 decodes a null document to the zero TaskSpec; Validate then
    # reports the version first.
    check_invalid(
        doc,
        ValidationError,
        path="task_spec_version",
        message="unsupported task_spec_version 0 (this build produces v1)",
    )


def test_malformed_yaml_reports_line_and_column() -> None:
    check_invalid(
        b"task_id: [unclosed\nlanguage: go\n",
        DecodeError,
        path="",
        message="invalid YAML",
        line=2,
        column=9,
    )
    check_invalid(b"a:\n\t- tab\n", DecodeError, path="", message="invalid YAML", line=2, column=1)
    check_invalid(
        b"a: b: c\n",
        DecodeError,
        path="",
        message="invalid YAML: a mapping value is not allowed here",
        line=1,
        column=5,
    )
    check_invalid(b"a:\n  b: 1\n c: 2\n", DecodeError, path="", message="invalid YAML", line=3)


def test_non_utf8_names_line_and_column() -> None:
    doc = doc_with(b"prompt: Implement", b"prompt: Impl\xffement")
    check_invalid(
        doc,
        DecodeError,
        path="",
        message="not valid UTF-8 (byte 0xff",
        line=line_of(doc, b"prompt"),
        column=13,
    )


def test_utf16_is_rejected() -> None:
    check_invalid(
        VALID_DOC.decode().encode("utf-16"),
        DecodeError,
        path="",
        message="UTF-16 and UTF-32 input is not supported: sidecars are UTF-8",
        line=1,
        column=1,
    )


def test_lone_surrogate_in_str_input() -> None:
    check_invalid(
        VALID_DOC.decode() + "x: \ud800\n", DecodeError, path="", message="lone surrogate"
    )


def test_control_characters_are_rejected() -> None:
    check_invalid(
        doc_with(b"Implement", b"Impl\x01ement"), DecodeError, path="", message="control characters"
    )


def test_more_than_one_document_is_rejected() -> None:
    check_invalid(
        VALID_DOC + b"---\n" + VALID_DOC,
        DecodeError,
        path="",
        message="more than one YAML document: the Go package reads the first and ignores the rest",
        line=VALID_DOC.count(b"\n") + 1,
        column=1,
    )


def test_merge_keys_are_rejected() -> None:
    doc = doc_with(b"    kind: kg_template", b"    <<: {kind: kg_template}")
    check_invalid(doc, DecodeError, path="generated_from", message="merge keys")
    doc = doc_with(b"    edge_count: 9", b"    <<: {edge_count: 9}")
    check_invalid(doc, DecodeError, path="difficulty_signals", message="merge keys")


def test_quoted_merge_key_is_an_ordinary_signal_key() -> None:
    spec = check_valid(doc_with(b"    edge_count: 9", b'    "<<": 9'))
    assert spec.difficulty_signals["<<"] == 9


def test_wrong_input_type() -> None:
    with pytest.raises(DecodeError, match="expected bytes or str, got int"):
        taskspec.parse_task_spec(42)  # type: ignore[arg-type]


# -- hostile documents ----------------------------------------------------------


@pytest.mark.usefixtures("watchdog")
def test_python_tags_never_run(tmp_path: object) -> None:
    doc = doc_with(
        b"prompt: Implement mathx.GCD.", b'prompt: !!python/object/apply:os.system ["echo pwned"]'
    )
    check_invalid(doc, DecodeError, path="prompt", message="expected a string")
    doc = doc_with(b"prompt: Implement mathx.GCD.", b"prompt: !!python/name:os.system ''")
    check_invalid(doc, DecodeError, path="prompt", message="unsupported tag")


@pytest.mark.usefixtures("watchdog")
def test_billion_laughs_fails_fast() -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        refs = ",".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    # As a document of its own: the first key is unknown, nothing is expanded.
    check_invalid("\n".join(lines) + "\n", DecodeError, path="a0", message='unknown field "a0"')


@pytest.mark.usefixtures("watchdog")
def test_alias_bomb_through_a_list_field_is_rejected() -> None:
    anchors = ['    build_cmd: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    doc = doc_with(
        b"    build_cmd:\n        - go\n        - build\n        - ./...\n",
        ("\n".join(anchors) + "\n").encode(),
    )
    doc = doc.replace(
        b"    test_cmd:\n        - go\n        - test\n        - ./mathx/...\n",
        b"    test_cmd: [*a0, *a0]\n",
    )
    check_invalid(
        doc,
        DecodeError,
        path="verification.test_cmd[0]",
        message="expected a string, got a sequence",
    )


@pytest.mark.usefixtures("watchdog")
@pytest.mark.parametrize("opener", ["[", "{a: ", "- "])
def test_deep_nesting_fails_fast(opener: str) -> None:
    depth = 200_000
    closer = {"[": "]", "{a: ": "}", "- ": ""}[opener]
    doc = "task_id: " + opener * depth + "x" + closer * depth + "\n"
    if opener == "- ":
        doc = "task_id:\n" + "- " * depth + "x\n"
    check_invalid(
        doc,
        DecodeError,
        path="",
        message="nested deeper than 64 levels",
        line=1 if opener != "- " else 2,
    )


@pytest.mark.usefixtures("watchdog")
def test_deep_but_allowed_nesting_is_a_type_error_with_a_path() -> None:
    doc = doc_with(b"task_id: kg-go-impl-mathx-gcd", b"task_id: " + b"[" * 40 + b"]" * 40)
    check_invalid(doc, DecodeError, path="task_id", message="expected a string, got a sequence")


@pytest.mark.usefixtures("watchdog")
def test_huge_document_is_rejected_before_parsing() -> None:
    huge = b"prompt: " + b"x" * (16 * 1024 * 1024) + b"\n"
    check_invalid(huge, DecodeError, path="", message="larger than")


@pytest.mark.usefixtures("watchdog")
def test_many_hyphens_take_the_exact_depth_path_and_still_decode() -> None:
    doc = doc_with(b"prompt: Implement mathx.GCD.", b"prompt: " + b"-" * 5000 + b" done")
    assert check_valid(doc).prompt.endswith("- done")


def test_every_error_is_a_task_spec_error() -> None:
    for bad in [b"\xff", b"[", b"{a: 1}", b"!!python/object:os.system {}", b"*x"]:
        with pytest.raises(TaskSpecError):
            taskspec.parse_task_spec(bad)


def test_malformed_yaml_with_many_nesting_characters_is_a_decode_error() -> None:
    # Past the cheap bound, the depth pre-scan parses events itself; its
    # syntax errors must still come out as DecodeError.
    doc = VALID_DOC + b"extra: [" + b"- " * 1200 + b"'unclosed\n"
    check_invalid(doc, DecodeError, path="", message="invalid YAML")


def _flow_doc(items: list[str]) -> bytes:
    """A valid document whose test_cmd is the flow sequence of *items* (YAML source text)."""
    head = VALID_DOC[: VALID_DOC.index(b"    test_cmd:")]
    tail = VALID_DOC[VALID_DOC.index(b"    timeout_seconds") :]
    return head + b"    test_cmd: [" + ", ".join(items).encode() + b"]\n" + tail


@pytest.mark.parametrize("at", [0, 1, 5, 9])
def test_boms_that_start_a_line_inside_quoted_scalars_are_refused_too(at: int) -> None:
    # A mark that starts a line is refused before anything is read, inside
    # a quoted scalar too (both readers would read it there as text, but
    # libyaml skips one outside): at the first.
    items = ['"x"'] * 10
    items[at] = '"a\n\ufeffb\n\ufeffc"'
    doc = _flow_doc(items)
    where = doc.decode().index("\ufeff")
    err = check_invalid(
        doc,
        DecodeError,
        path="",
        message="byte order mark at the start of a line",
        line=doc.decode().count("\n", 0, where) + 1,
        column=1,
    )
    assert [v.code for v in err.violations] == ["TS004"]


def test_the_escape_of_a_bom_is_read() -> None:
    spec = taskspec.parse_task_spec(_flow_doc(['"a\\uFEFFb"']))
    assert spec.verification.test_cmd[0] == "a\ufeffb"


@pytest.mark.parametrize("at", [0, 5, 10])
def test_a_line_start_bom_between_quoted_scalars_is_refused(at: int) -> None:
    items = ['"x"'] * 10
    items.insert(at, "\n\ufeffy")
    doc = _flow_doc(items)
    check_invalid(
        doc,
        DecodeError,
        path="",
        message="byte order mark at the start of a line",
        line=line_of(doc, b"\xef\xbb\xbfy"),
        column=1,
    )


@pytest.mark.parametrize("brk", ["\r", "\r\n", "\x85", "\u2028", "\u2029"])
def test_a_line_start_bom_is_refused_at_its_line_whatever_breaks_the_lines(brk: str) -> None:
    # A line start as libyaml counts lines (CR, NEL, LS and PS break them
    # too); the position is the one editors show, where NEL, LS and PS do not.
    doc = f"task_id: x{brk}{brk}\ufeff# c\n".encode()
    check_invalid(
        doc,
        DecodeError,
        path="",
        message="byte order mark at the start of a line",
        line=3 if brk in ("\r", "\r\n") else 1,
        column=1 if brk in ("\r", "\r\n") else 13,
    )


def test_a_bom_inside_a_comment_is_refused_at_its_column() -> None:
    # Past the start of its line a mark is refused outside a value, in a
    # comment for one: yaml.v3 may skip a character after it.
    doc = VALID_DOC.replace(b"language: go\n", b"language: go # \xef\xbb\xbf\n")
    check_invalid(
        doc,
        DecodeError,
        path="",
        message="byte order mark outside a value",
        line=line_of(doc, b"language: go #"),
        column=len("language: go # ") + 1,
    )


# libyaml reports the non-specific tag on a quoted scalar ('! "x"') with a
# plain scalar's tag; the quotes make it the string, as yaml.v3 reads it.
def test_the_non_specific_tag_on_a_quoted_scalar_is_the_string() -> None:
    doc = doc_with(b"prompt: Implement mathx.GCD.", b'prompt: ! "null"')
    doc = doc.replace(b"        - test\n", b'        - ! "~"\n', 1)
    doc = doc.replace(b"    edge_count: 9\n", b'    edge_count: 9\n    ! "<<": 2\n', 1)
    spec = check_valid(doc)
    assert spec.prompt == "null"
    assert list(spec.verification.test_cmd) == ["go", "~", "./mathx/..."]
    assert spec.difficulty_signals["<<"] == 2


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (b"prompt: Implement mathx.GCD.", b'prompt: ! "a\\/b"'),
        (b"        - test\n", b'        - ! "a\\/b"\n'),
        (b"task_id: ", b'"x\\/": 1\ntask_id: '),
        (b"task_id: ", b'unknown: "a\\/b"\ntask_id: '),
    ],
)
def test_the_escape_slash_is_a_syntax_error_wherever_it_is(old: bytes, new: bytes) -> None:
    # yaml.v3 refuses "\/" wherever it is, as an escape it does not know, and
    # stops there; libyaml reads it. So it is the syntax error TS016, at the
    # escape, under a tag, in a key, in a value no field takes.
    doc = doc_with(old, new)
    where = doc.index(b"\\/")
    err = check_invalid(
        doc,
        DecodeError,
        path="",
        message="invalid YAML: unknown escape in a double-quoted value",
        line=doc.count(b"\n", 0, where) + 1,
        column=where - doc.rfind(b"\n", 0, where),
    )
    assert [v.code for v in err.violations] == ["TS016"]


@pytest.mark.parametrize(
    ("doc", "code", "line", "column"),
    [
        # libyaml checks only the octets' shape: these escapes make a tag,
        # or a %TAG prefix, that is not UTF-8, which PyYAML cannot decode.
        (b"task_id: !a%C0%80 x\n", "TS019", 1, 12),
        (b"prompt: x\ntask_id: !<%C0%80> x\n", "TS019", 2, 12),
        (b"%TAG !e! tag:%C0%80\n---\ntask_id: !e!x y\n", "TS018", 1, 14),
    ],
)
def test_a_tag_whose_escapes_are_not_utf8_is_a_syntax_problem(
    doc: bytes, code: str, line: int, column: int
) -> None:
    with pytest.raises(DecodeError) as caught:
        taskspec.parse_task_spec(doc)
    [v] = caught.value.violations
    assert (v.code, v.line, v.column) == (code, line, column)
    assert "cannot be read" in v.message
