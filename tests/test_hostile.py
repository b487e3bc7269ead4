"""Hostile and odd input: only TaskSpecError escapes, bounds hold before composing.

Every public entry point promises one exception family. These tests pin
the inputs that once escaped it (Python's own number parsers reject or
accept things Go's do not), the node and depth budget that is enforced on
parser events before anything is composed, and the length of the values a
decode message quotes.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml._yaml import CParser

import taskspec
from taskspec import DecodeError, TaskSpecError, _api, _limits
from taskspec.bridge import _decode, _fastpath
from taskspec.bridge._fastpath import parse_canonical
from taskspec.bridge._gostr import go_quote
from tests.conformance.gobridge import GoConsumer
from tests.helpers import VALID_DOC, check_invalid, check_valid


def doc_with(old: bytes, new: bytes) -> bytes:
    assert VALID_DOC.count(old) == 1, old
    return VALID_DOC.replace(old, new)


def _signal_doc(entry: bytes) -> bytes:
    return doc_with(b"    edge_count: 9\n", b"    edge_count: 9\n" + entry + b"\n")


# -- no error outside the family ------------------------------------------------------


#: Inputs that once raised something other than TaskSpecError, with where it came from.
ESCAPES: dict[str, bytes] = {
    # int() refuses more than 4300 decimal digits with a bare ValueError.
    "version with 5001 digits": b"task_spec_version: 1" + b"0" * 5000,
    "negative 5000-digit signal": _signal_doc(b"    v: -" + b"9" * 5000),
    "!!int on 5000 digits": _signal_doc(b"    v: !!int " + b"1" * 5000),
    "!!float on 5000 digits": _signal_doc(b"    v: !!float " + b"1" * 5000),
    # str.isdigit() is true for '²', which int() then rejects.
    "superscript two": doc_with(b"task_spec_version: 1", "task_spec_version: \u00b2".encode()),
    # The fast path's chr() overflowed on an escape past U+10FFFF.
    "\\U80000000 in a canonical document": doc_with(
        b"task_id: kg-go-impl-mathx-gcd", b'task_id: "\\U80000000"'
    ),
    "\\ud800 in a canonical document": doc_with(
        b"task_id: kg-go-impl-mathx-gcd", b'task_id: "\\ud800"'
    ),
    "\\U00110000 in a canonical document": doc_with(
        b"task_id: kg-go-impl-mathx-gcd", b'task_id: "\\U00110000"'
    ),
}


@pytest.mark.parametrize("doc", ESCAPES.values(), ids=ESCAPES.keys())
def test_inputs_that_once_escaped_raise_a_decode_error(doc: bytes) -> None:
    with pytest.raises(DecodeError):
        taskspec.parse_task_spec(doc)
    with pytest.raises(DecodeError):
        taskspec.parse_task_spec(doc.decode("utf-8"))


def test_the_issue_document_is_rejected_as_go_rejects_it() -> None:
    check_invalid(
        b"task_spec_version: 1" + b"0" * 5000,
        DecodeError,
        path="task_spec_version",
        message='expected an integer, got the string "1000',
        line=1,
        column=20,
    )


@pytest.mark.parametrize("escape", [b"\\U80000000", b"\\UFFFFFFFF", b"\\ud800", b"\\udfff"])
def test_out_of_range_escapes_leave_the_fast_path_for_the_decoders_message(escape: bytes) -> None:
    doc = doc_with(b"task_id: kg-go-impl-mathx-gcd", b'task_id: "' + escape + b'"')
    assert parse_canonical(doc) is None
    check_invalid(
        doc,
        DecodeError,
        path="",
        message="invalid YAML: invalid Unicode escape in a double-quoted value",
        line=2,
    )


def test_a_long_digit_string_is_marshalled_as_go_marshals_it(go: GoConsumer) -> None:
    spec = taskspec.parse_task_spec(VALID_DOC)
    spec.task_id = "9" * 5000  # too long for int64 and for float64: a plain string to yaml.v3
    spec.prompt = "-" + "1" * 4400
    out = taskspec.marshal_yaml(spec)
    res = go.marshal(spec)
    assert res["ok"] and res["roundtrip_ok"], res
    assert out == res["yaml"]
    assert taskspec.parse_task_spec(out) == spec


@pytest.mark.parametrize("value", [10**5000, -(10**5000), 2**64], ids=["huge", "-huge", "2**64"])
def test_derive_difficulty_reports_huge_numbers_in_the_family(value: int) -> None:
    with pytest.raises(TaskSpecError) as info:
        taskspec.derive_difficulty(value, 1, 1)
    assert len(str(info.value)) < 120
    assert info.value.field_path == "difficulty_signals.involved_symbols"


# -- Go's integer rules: ASCII digits only -------------------------------------------------

#: Each integer field: how to put a value in it, its path, and the value's line.
INT_FIELDS: dict[str, tuple[Callable[[bytes], bytes], str, int]] = {
    "task_spec_version": (
        lambda v: doc_with(b"task_spec_version: 1", b"task_spec_version: " + v),
        "task_spec_version",
        1,
    ),
    "timeout_seconds": (
        lambda v: doc_with(b"timeout_seconds: 120", b"timeout_seconds: " + v),
        "verification.timeout_seconds",
        VALID_DOC[: VALID_DOC.index(b"timeout_seconds")].count(b"\n") + 1,
    ),
    "difficulty_signals": (
        lambda v: _signal_doc(b"    v: " + v),
        'difficulty_signals["v"]',
        VALID_DOC[: VALID_DOC.index(b"edge_count")].count(b"\n") + 2,
    ),
}

NON_ASCII = ["\u0661", "\uff15", "\u00b2", "\u0e51", "\u09e7\u09e8", "1\u0661", "\uff11_\uff10"]


@pytest.mark.parametrize("field", INT_FIELDS)
@pytest.mark.parametrize("text", NON_ASCII)
def test_non_ascii_digits_are_a_string_in_every_integer_field(field: str, text: str) -> None:
    make, path, line = INT_FIELDS[field]
    err = check_invalid(
        make(text.encode()),
        DecodeError,
        path=path,
        message=f"expected an integer, got the string {go_quote(text)}",
        line=line,
    )
    # The same wording as a quoted "1", which the vectors pin beside Go's error.
    quoted = check_invalid(make(b'"1"'), DecodeError, path=path, message="", line=line)
    assert quoted.violations[0].message.replace('"1"', go_quote(text)) == err.violations[0].message


#: ASCII spellings yaml.v3 reads as integers, with their value; "1" spelled
#: the same ways for task_spec_version, whose one valid value is 1.
ASCII_FORMS = [
    (b"7", b"1", 7),
    (b"+7", b"+1", 7),
    (b"0x1F", b"0x1", 31),
    (b"0o17", b"0o1", 15),
    (b"017", b"01", 15),
    (b"0b101", b"0b1", 5),
    (b"1_0", b"0_1", 10),
    (b"1e1", b"1e0", 10),
    (b"70.0", b"1.0", 70),
]


@pytest.mark.parametrize("field", INT_FIELDS)
@pytest.mark.parametrize(("text", "one", "value"), ASCII_FORMS)
def test_ascii_integer_forms_still_read_in_every_field(
    field: str, text: bytes, one: bytes, value: int
) -> None:
    make = INT_FIELDS[field][0]
    if field == "task_spec_version":
        assert check_valid(make(one)).task_spec_version == 1
        return
    spec = check_valid(make(text))
    if field == "timeout_seconds":
        assert spec.verification.timeout_seconds == value
    else:
        assert spec.difficulty_signals["v"] == value


# -- the node and depth budget, enforced on events ---------------------------------------


def _node_events(doc: bytes) -> int:
    """The nodes of the first document, counted on libyaml's events."""
    parser = CParser(doc)
    count = 0
    try:
        while True:
            event = parser.get_event()
            if isinstance(
                event,
                (
                    yaml.ScalarEvent,
                    yaml.AliasEvent,
                    yaml.MappingStartEvent,
                    yaml.SequenceStartEvent,
                ),
            ):
                count += 1
            if event is None or isinstance(event, (yaml.DocumentEndEvent, yaml.StreamEndEvent)):
                return count
    except yaml.YAMLError:
        return count
    finally:
        parser.dispose()


def _flow_signals(entries: int) -> bytes:
    """VALID_DOC with difficulty_signals as one flow mapping of *entries* entries."""
    body = b", ".join(b"k%d: 1" % i for i in range(entries))
    return doc_with(
        b"difficulty_signals:\n    cyclomatic_complexity: 4\n    edge_count: 9\n",
        b"difficulty_signals: {" + body + b"}\n",
    )


def test_a_million_flow_entries_are_rejected_at_the_budget_before_composing() -> None:
    doc = _flow_signals(1_000_000)
    assert 10_000_000 < len(doc) < _limits.MAX_DOCUMENT_BYTES
    tracemalloc.start()
    try:
        with pytest.raises(DecodeError) as info:
            _decode.decode(doc)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    first = info.value.violations[0]
    assert first.message == f"document has more than {_limits.MAX_NODES} nodes"
    assert first.line == 5
    # The scan stopped at the node past the budget, about a tenth of the way
    # into the mapping, instead of reading (or composing) all of it.
    # 11 nodes come before the mapping's entries, two per entry after that.
    stopped_at = doc.split(b"\n")[4][: first.column - 1]
    assert stopped_at.endswith(b", k%d: " % ((_limits.MAX_NODES - 11) // 2)), stopped_at[-40:]
    assert first.column < len(doc) // 8
    # The source and its decoded text are all that is held: no tree was built.
    assert peak < 3 * len(doc), peak


def test_the_node_budget_counts_every_node_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    nodes = _node_events(VALID_DOC)
    assert 2 * len(VALID_DOC) + 2 > nodes > 40
    monkeypatch.setattr(_decode, "MAX_NODES", nodes)
    assert _decode.decode(VALID_DOC).spec.task_id == "kg-go-impl-mathx-gcd"
    check_valid(VALID_DOC)
    monkeypatch.setattr(_decode, "MAX_NODES", nodes - 1)
    monkeypatch.setattr(_fastpath, "MAX_NODES", nodes - 1)
    # The fast path for canonical documents defers to the decoder's count.
    assert parse_canonical(VALID_DOC) is None
    check_invalid(VALID_DOC, DecodeError, path="", message=f"more than {nodes - 1} nodes")


def test_a_long_canonical_document_is_held_to_the_node_budget() -> None:
    items = b"".join(b"        - x\n" for _ in range(_limits.MAX_NODES))
    doc = doc_with(b"        - go\n        - test\n        - ./mathx/...\n", items)
    assert parse_canonical(doc) is None
    check_invalid(doc, DecodeError, path="", message="more than 100000 nodes")


def test_documents_under_the_node_budget_still_decode() -> None:
    spec = taskspec.parse_task_spec(
        doc_with(
            b"    test_cmd:\n        - go\n        - test\n        - ./mathx/...\n",
            b"    test_cmd: [" + b", ".join([b"x"] * 60_000) + b"]\n",
        )
    )
    assert len(spec.verification.test_cmd) == 60_000


def test_go_accepts_a_document_over_the_node_budget_that_python_rejects(go: GoConsumer) -> None:
    """The stricter-than-Go rule on node count (tests/conformance/stricter.json)."""
    items = _limits.MAX_NODES
    doc = doc_with(
        b"    test_cmd:\n        - go\n        - test\n        - ./mathx/...\n",
        b"    test_cmd: [" + b", ".join([b"x"] * items) + b"]\n",
    )
    assert _node_events(doc) > _limits.MAX_NODES
    res = go.parse(doc)
    assert res["ok"], res.get("error")
    assert len(res["spec"]["verification"]["test_cmd"]) == items
    check_invalid(doc, DecodeError, path="", message="more than 100000 nodes")


#: The building blocks of documents with as many nodes per byte as YAML allows.
_DENSE = ["?", ",", "[", "]", "{", "}", ":", " ", "\n", "-", "*a", "&a", "? ", ": ", "- ", "!"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_DENSE), max_size=40))
def test_a_document_holds_at_most_two_nodes_per_byte(parts: list[str]) -> None:
    """What lets decode skip the event scan for documents under MAX_NODES / 2 bytes."""
    doc = "".join(parts).encode()
    assert _node_events(doc) <= 2 * len(doc) + 2


# -- messages quote at most about 80 characters ------------------------------------------


def _message(doc: bytes) -> str:
    with pytest.raises(DecodeError) as info:
        taskspec.parse_task_spec(doc)
    return info.value.violations[0].message


LONG_VALUES: dict[str, tuple[bytes, str]] = {
    "integer field": (
        doc_with(b"timeout_seconds: 120", b"timeout_seconds: " + b"x" * 5000),
        'got the string "xxxx',
    ),
    # libyaml takes an implicit key of up to 1024 characters: longer ones need '?'.
    "unknown key": (VALID_DOC + b"? " + b"k" * 5000 + b"\n: 1\n", 'unknown field "kkk'),
    "signal key": (_signal_doc(b"    ? " + b"s" * 5000 + b"\n    : x"), 'got the string "x"'),
    "custom tag": (
        doc_with(b"task_id: kg-go-impl-mathx-gcd", b"task_id: !" + b"t" * 5000 + b" v"),
        'unsupported tag "!ttt',
    ),
    "string field": (
        doc_with(b"task_id: kg-go-impl-mathx-gcd", b"task_id: [" + b"y" * 5000 + b"]"),
        "expected a string, got a sequence",
    ),
    "out of range": (
        doc_with(b"timeout_seconds: 120", b"timeout_seconds: 0x" + b"f" * 5000),
        'got the string "0xfff',
    ),
}


@pytest.mark.parametrize("case", LONG_VALUES)
def test_messages_quote_at_most_80_characters_of_a_long_value(case: str) -> None:
    doc, expected = LONG_VALUES[case]
    message = _message(doc)
    assert expected in message
    assert len(message) < 400, message
    for run in ("x" * 81, "k" * 81, "s" * 81, "t" * 81, "f" * 81):
        assert run not in message, message
    if case != "string field":
        assert "... (50" in message, message  # the length of what was cut


def test_a_short_value_is_quoted_whole() -> None:
    message = _message(doc_with(b"timeout_seconds: 120", b"timeout_seconds: " + b"x" * 80))
    assert message.endswith(f"got the string {go_quote('x' * 80)}")


def test_the_whole_path_stays_on_the_violation() -> None:
    key = "s" * 5000
    with pytest.raises(DecodeError) as info:
        taskspec.parse_task_spec(_signal_doc(b"    ? " + key.encode() + b"\n    : x"))
    assert info.value.violations[0].field_path == f"difficulty_signals[{go_quote(key)}]"


@pytest.mark.parametrize("value", [None, 5, "task_id: x", b"task_id: x", taskspec.TaskSpec])
def test_functions_taking_a_spec_reject_anything_else_in_the_family(value: object) -> None:
    for function in (
        taskspec.marshal_yaml,
        taskspec.validate,
        taskspec.signal_keys,
        taskspec.agent_view,
    ):
        with pytest.raises(TaskSpecError, match=r"expected a taskspec\.v1\.TaskSpec"):
            function(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "doc",
    [
        b'{"language": "' + b"x" * 5000 + b'"}',
        b'{"' + b"x" * 5000 + b'": 1}',
        b'{"' + b"x" * 5000 + b'": 1, "' + b"x" * 5000 + b'": 2}',
        b'{"taskSpecVersion": "' + b"x" * 5000 + b'"}',
    ],
    ids=["enum value", "unknown key", "duplicate key", "integer field"],
)
def test_json_messages_quote_at_most_about_80_characters(doc: bytes) -> None:
    with pytest.raises(DecodeError) as info:
        _api.parse_json(doc)
    message = info.value.violations[0].message
    assert "x" * 161 not in message, message
    assert len(message) < 400, message
    assert "characters)" in message, message  # says that something was cut
