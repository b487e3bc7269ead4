"""The canonical fast path is exact: it returns the full decoder's spec, or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings

import taskspec
from taskspec import TaskSpec
from taskspec.bridge import _decode, _fastpath
from tests.helpers import VALID_DOC
from tests.strategies import valid_specs

ROOT = Path(__file__).resolve().parent.parent
CANONICAL = sorted((ROOT / "tests" / "conformance" / "vectors" / "canonical").glob("*.yaml"))
GOLDEN = sorted((ROOT / "tests" / "data" / "golden").glob("*.yaml"))


def test_corpus_is_present() -> None:
    assert len(CANONICAL) >= 300
    assert GOLDEN


def test_every_canonical_vector_agrees_with_the_full_decoder() -> None:
    taken = 0
    for path in CANONICAL:
        data = path.read_bytes()
        fast = _fastpath.parse_canonical(data)
        if fast is not None:
            taken += 1
            assert fast == _decode.decode(data).spec, path.name
    # Most canonical documents must take the fast path, or it is not worth having.
    assert taken >= len(CANONICAL) * 3 // 4


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
