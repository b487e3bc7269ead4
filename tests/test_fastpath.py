"""The canonical fast path is exact: it returns the full decoder's spec, or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import taskspec
from taskspec import TaskSpec
from taskspec.bridge import _decode, _fastpath
from tests.helpers import VALID_DOC, valid_spec
from tests.strategies import valid_specs

ROOT = Path(__file__).resolve().parent.parent
CANONICAL = sorted((ROOT / "tests" / "conformance" / "vectors" / "canonical").glob("*.yaml"))
GOLDEN = sorted((ROOT / "tests" / "data" / "golden").glob("*.yaml"))


def test_corpus_is_present() -> None:
    assert len(CANONICAL) >= 300
    assert GOLDEN


def test_every_canonical_vector_agrees_with_the_full_decoder() -> None:
    declined = []
    for path in CANONICAL:
        data = path.read_bytes()
        fast = _fastpath.parse_canonical(data)
        if fast is None:
            declined.append(data.decode("utf-8"))
        else:
            assert fast == _decode.decode(data).spec, path.name
    # Every canonical document takes the fast path but for one known gap: a
    # literal block that ends in LS or PS, after which yaml.v3 writes the
    # next key on the same LF-terminated line (the reader's block ends at an LF).
    assert len(declined) <= len(CANONICAL) // 100
    for text in declined:
        assert "\u2028" in text or "\u2029" in text


@pytest.mark.parametrize("path", GOLDEN, ids=[p.name for p in GOLDEN])
def test_golden_sidecars_take_the_fast_path(path: Path) -> None:
    data = path.read_bytes()
    assert _fastpath.parse_canonical(data) == _decode.decode(data).spec


@pytest.mark.parametrize(
    "variant",
    [
        b"# \xc3\xa9 not ASCII\n" + VALID_DOC,
        b"# a comment\n\n" + VALID_DOC,
        b"  # indented\n" + VALID_DOC,
        VALID_DOC.replace(b"language: go\n", b"# a comment\nlanguage: go\n"),
        VALID_DOC.replace(b"language: go\n", b"language: go # a note\n"),
        VALID_DOC.replace(b"    ", b"  "),
        VALID_DOC.replace(b"\n", b"\r\n"),
        b"\xef\xbb\xbf" + VALID_DOC,
        VALID_DOC.replace(b"task_id: kg-go-impl-mathx-gcd", b"task_id: 'kg-go-impl-mathx-gcd'"),
        VALID_DOC.replace(b"language: go", b"language: &l go"),
        VALID_DOC + b"...\n",
        VALID_DOC.rstrip(b"\n"),
        # Each of the writer's choices, made otherwise:
        VALID_DOC.replace(
            b"language: go\ndifficulty: medium\n", b"difficulty: medium\nlanguage: go\n"
        ),
        VALID_DOC.replace(b"timeout_seconds: 120", b"timeout_seconds: +120"),
        VALID_DOC.replace(b"timeout_seconds: 120", b"timeout_seconds: 0x78"),
        VALID_DOC.replace(
            b"    cyclomatic_complexity: 4\n    edge_count: 9\n",
            b"    edge_count: 9\n    cyclomatic_complexity: 4\n",
        ),
        VALID_DOC.replace(b"    cyclomatic_complexity: 4\n", b"    'cyclomatic_complexity': 4\n"),
        VALID_DOC.replace(b"prompt: Implement mathx.GCD.", b"prompt: |-\n    Implement mathx.GCD."),
        VALID_DOC.replace(b"        - build\n", b"        - 'build'\n"),
    ],
    ids=[
        "non-ascii-comment",
        "blank-after-comment",
        "indented-comment",
        "comment-after-first-key",
        "end-of-line-comment",
        "indent-2",
        "crlf",
        "bom",
        "needless-quotes",
        "anchor",
        "end-marker",
        "no-eol",
        "field-order",
        "int-plus-sign",
        "int-hex",
        "map-key-order",
        "quoted-simple-key",
        "literal-for-one-line",
        "quoted-list-item",
    ],
)
def test_non_canonical_documents_take_the_full_decoder(variant: bytes) -> None:
    assert _fastpath.parse_canonical(variant) is None
    assert taskspec.parse_task_spec(variant) == taskspec.parse_task_spec(VALID_DOC)


@pytest.mark.parametrize(
    "comments",
    [b"# yaml-language-server: $schema=../schema/taskspec.v1.schema.json\n", b"#\n# two\t\n"],
    ids=["modeline", "two-lines"],
)
def test_leading_comments_are_skipped(comments: bytes) -> None:
    """A modeline before the first key still takes the fast path, to the same spec."""
    assert _fastpath.parse_canonical(comments + VALID_DOC) == _decode.decode(VALID_DOC).spec


def test_a_control_character_in_a_leading_comment_takes_the_full_decoder() -> None:
    doc = b"# bell \x07\n" + VALID_DOC
    assert _fastpath.parse_canonical(doc) is None
    with pytest.raises(taskspec.DecodeError):
        taskspec.parse_task_spec(doc)  # YAML forbids it, even in a comment


def test_invalid_document_after_a_comment_reports_its_own_positions() -> None:
    doc = b"# note\n" + VALID_DOC.replace(b"timeout_seconds: 120", b"timeout_seconds: -1")
    with pytest.raises(taskspec.ValidationError) as info:
        taskspec.parse_task_spec(doc)
    assert (info.value.line, info.value.column) == (28, 22)


def test_invalid_canonical_document_still_reports_positions() -> None:
    doc = VALID_DOC.replace(b"timeout_seconds: 120", b"timeout_seconds: -1")
    assert _fastpath.parse_canonical(doc) is not None  # canonical, but invalid
    with pytest.raises(taskspec.ValidationError) as info:
        taskspec.parse_task_spec(doc)
    assert (info.value.line, info.value.column) == (27, 22)


@settings(max_examples=300, deadline=None)
@given(valid_specs())
def test_fast_path_result_is_exact_for_generated_specs(spec: TaskSpec) -> None:
    data = taskspec.marshal_yaml(spec)
    fast = _fastpath.parse_canonical(data)
    assert fast is None or fast == spec
    assert taskspec.parse_task_spec(data) == spec


@pytest.mark.parametrize(
    "variant",
    [
        VALID_DOC.replace(b"    template_id: impl-pure-fn\n", b'    template_id: ""\n'),
        VALID_DOC.replace(b"timeout_seconds: 120", b"timeout_seconds: 0120"),
        VALID_DOC.replace(
            b"        seed_symbol: mathx.GCD\n",
            b"        seed_symbol: mathx.GCD\n    kg_query: {}\n",
        ),
    ],
    ids=["empty-omitempty-field-written", "int-leading-zero", "duplicate-field"],
)
def test_non_canonical_documents_with_another_meaning_take_the_full_decoder(
    variant: bytes,
) -> None:
    assert _fastpath.parse_canonical(variant) is None
    try:
        expected = _decode.decode(variant).spec
    except taskspec.TaskSpecError as err:
        with pytest.raises(type(err)):
            taskspec.parse_task_spec(variant)
    else:
        assert taskspec.parse_task_spec(variant) == expected


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (b"generated_from:\n    kind: kg_template\n", b"generated_from:\n    kind: kg_template\n"),
        (
            b"    kg_query:\n        intent: code_context\n        seed_symbol: mathx.GCD\n",
            b"    kg_query: {}\n",
        ),
        (b"solution_artifacts:\n    - path: mathx/gcd.go\n      role: target\n", b""),
        (b"    - path: mathx/gcd.go\n      role: target\n", b"    - path: mathx/gcd.go\n"),
        (b"    build_cmd:\n        - go\n        - build\n        - ./...\n", b""),
        (b"    timeout_seconds: 120\n", b""),
    ],
    ids=[
        "as-is",
        "pointer-set-but-empty",
        "list-omitted",
        "item-field-omitted",
        "strings-omitted",
        "int-omitted",
    ],
)
def test_the_writers_omissions_and_empty_forms_take_the_fast_path(
    before: bytes, after: bytes
) -> None:
    doc = VALID_DOC.replace(before, after)
    assert doc != VALID_DOC or before == after
    fast = _fastpath.parse_canonical(doc)
    assert fast is not None
    assert fast == _decode.decode(doc).spec
    assert taskspec.marshal_yaml(fast) == doc


#: Characters that mean something in YAML, or in the canonical layout.
_SIGNIFICANT = " \n-:#|'\"\\{}[]?0a\t\u2028\x85"


@st.composite
def _mutated(draw: st.DrawFn) -> bytes:
    """A canonical document with one small edit: a character deleted, inserted or replaced."""
    text = taskspec.marshal_yaml(draw(valid_specs())).decode("utf-8")
    at = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(["delete", "insert", "replace"]))
    char = draw(st.sampled_from(_SIGNIFICANT))
    if kind == "delete":
        text = text[:at] + text[at + 1 :]
    elif kind == "insert":
        text = text[:at] + char + text[at:]
    else:
        text = text[:at] + char + text[at + 1 :]
    return text.encode("utf-8")


@settings(max_examples=800, deadline=None)
@given(_mutated())
def test_an_edited_canonical_document_is_read_exactly_or_not_at_all(doc: bytes) -> None:
    """Wherever an edit lands, the fast path agrees with the full decoder or declines."""
    fast = _fastpath.parse_canonical(doc)
    if fast is not None:
        assert fast == _decode.decode(doc).spec
        assert taskspec.marshal_yaml(fast) == doc


def test_a_scalar_with_many_escapes_is_left_to_the_full_decoder() -> None:
    # Unescaping calls back into Python per escape; libyaml does it in C. A
    # canonical scalar of many escapes is therefore declined, and read alike.
    spec = valid_spec()
    for count, fast in ((_fastpath._MAX_ESCAPES, True), (_fastpath._MAX_ESCAPES + 1, False)):
        spec.prompt = "\x01" * count + "end"
        doc = taskspec.marshal_yaml(spec)
        assert doc.count(b"\\x01") == count
        got = _fastpath.parse_canonical(doc)
        assert (got is not None) is fast, count
        assert taskspec.parse_task_spec(doc) == spec


_PROMPTS = [
    "one\ntwo",
    "one\n\ntwo\n\n\nthree",
    "  indented first\nline",
    "\tTab first\nline",
    "ends with a break\n",
    "ends with two\n\n",
    "x\n  nested\n\n    deeper\ny",
    "caf\u00e9 \u2014 \u00d7\nline",
    "line\u2028separated\nline",
    "nel\x85inside\nline",
    "\u00a0no-break space\nline",
]


@pytest.mark.parametrize("prompt", _PROMPTS)
def test_literal_blocks_are_read_exactly_or_not_at_all(prompt: str) -> None:
    """A literal block as the writer writes it, and as a hand might have changed it."""
    spec = valid_spec()
    spec.prompt = prompt
    doc = taskspec.marshal_yaml(spec)
    assert _fastpath.parse_canonical(doc) == spec
    pad = b"\n    "
    edits = [
        doc.replace(pad, pad + b" ", 1),  # one line indented further
        doc.replace(b"\n\n", b"\n    \n", 1),  # an empty line holding the indentation
        doc.replace(b"prompt: |-\n    ", b"prompt: |-\n    \n    ", 1),  # a first line of pad only
        doc.replace(b"prompt: |-\n", b"prompt: |\n", 1),  # the other chomping
        doc.replace(b"prompt: |-\n", b"prompt: |4-\n", 1),  # a needless indicator
        doc.replace(
            b"\nsolution_artifacts:", b"\n    \nsolution_artifacts:", 1
        ),  # a last line of pad only
        doc.replace(b"\nsolution_artifacts:", b" \nsolution_artifacts:", 1),  # a trailing space
    ]
    for edited in edits:
        if edited == doc:
            continue
        fast = _fastpath.parse_canonical(edited)
        if fast is not None:
            assert fast == _decode.decode(edited).spec
            assert taskspec.marshal_yaml(fast) == edited


@pytest.mark.skipif(
    taskspec.__compiled__, reason="compiled modules call their own functions, not the module's"
)
def test_a_canonical_document_runs_no_size_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast reader takes no text over the limit: its spec's canonical YAML is within it.

    Neither parse_task_spec nor check works the bound out for such a
    document; the general reader still does.
    """
    from taskspec import _validate  # noqa: PLC0415

    calls = []

    def bound(spec: TaskSpec) -> bool:
        calls.append(spec)
        return False

    def never(spec: TaskSpec) -> bool:
        raise AssertionError("the size bound ran for a canonical document")

    monkeypatch.setattr(_validate, "_could_be_too_large", never)
    assert _fastpath.parse_canonical(VALID_DOC) is not None
    assert taskspec.parse_task_spec(VALID_DOC).task_id
    assert taskspec.check(VALID_DOC) == []
    monkeypatch.setattr(_validate, "_could_be_too_large", bound)
    spaced = VALID_DOC.replace(b"task_id: ", b"task_id:  ", 1)  # the same spec, not canonical
    assert _fastpath.parse_canonical(spaced) is None
    assert taskspec.parse_task_spec(spaced) == taskspec.parse_task_spec(VALID_DOC)
    assert calls, "the general reader ran no size bound"


def test_no_canonical_document_is_measured_in_either_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stand-in for ``ByteSize`` that fails if called: the size bound never runs on the fast path.

    The fast reader takes no text over the document limit, so a spec it
    reads has canonical YAML within the limit and the size rule (TS107)
    cannot fire. The stand-in is on the message class, which the compiled
    build calls too. The general reader, and validate() of a spec built in
    code, still measure.
    """
    real = TaskSpec.ByteSize

    def never(self: TaskSpec) -> int:
        raise AssertionError("the size bound ran for a canonical document")

    fast = [p.read_bytes() for p in [*CANONICAL, *GOLDEN]]
    fast = [d for d in fast if _fastpath.parse_canonical(d) is not None]
    # (A document with a warning is read again by the general reader, for positions.)
    clean = [d for d in fast if taskspec.check(d) == []]
    assert len(clean) >= len(CANONICAL) // 2
    monkeypatch.setattr(TaskSpec, "ByteSize", never)
    for data in fast:
        assert taskspec.parse_task_spec(data) == _fastpath.parse_canonical(data)
    for data in clean:
        assert taskspec.check(data) == []
    calls: list[int] = []

    def counted(self: TaskSpec) -> int:
        calls.append(1)
        return real(self)

    monkeypatch.setattr(TaskSpec, "ByteSize", counted)
    spaced = VALID_DOC.replace(b"task_id: ", b"task_id:  ", 1)  # the same spec, not canonical
    assert _fastpath.parse_canonical(spaced) is None
    assert taskspec.parse_task_spec(spaced) == valid_spec()
    assert calls, "the general reader ran no size bound"
    calls.clear()
    taskspec.validate(valid_spec())
    assert calls, "validate() of a built spec ran no size bound"
