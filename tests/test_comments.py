"""Tests for keeping comments across formatting (taskspec.cli._comments.format_document).

The rules under test: leading comments stay at the top, trailing ones at the
end, a comment on a line of its own stays directly above the key or list
item it precedes (indented like it), an end-of-line comment stays on its
key's line; everything else is the canonical layout, and a comment that has
no place in it is refused with its line and column, never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from yaml._yaml import CParser
from yaml.tokens import (
    BlockEntryToken,
    FlowMappingEndToken,
    FlowMappingStartToken,
    FlowSequenceEndToken,
    FlowSequenceStartToken,
    KeyToken,
)

import taskspec
from taskspec import DecodeError, InvalidDocumentError, TaskSpec, TaskSpecError, ValidationError
from taskspec.cli import _comments, _comments_place, _comments_scan
from taskspec.cli._comments import CommentError, format_document
from tests import vectors
from tests.helpers import SMALL_DOC
from tests.strategies import valid_specs

# --- helpers -------------------------------------------------------------------

#: A small valid sidecar in canonical form; most cases below edit a copy of it.
BASE = SMALL_DOC


def edit(*pairs: str, base: str = BASE) -> str:
    """*base* with each (old, new) pair of *pairs* replaced once (old must occur)."""
    doc = base
    for old, new in zip(pairs[::2], pairs[1::2], strict=True):
        assert old in doc, old
        doc = doc.replace(old, new, 1)
    return doc


def check_kept(source: bytes | str, want: bytes | str) -> None:
    """Format *source*, expect *want*, and check the result is stable and means the same."""
    src = source.encode() if isinstance(source, str) else source
    expected = want.encode() if isinstance(want, str) else want
    got = format_document(src)
    assert got == expected, "\n" + got.decode()
    assert format_document(got) == got, "formatting again changed the result"
    assert taskspec.parse_task_spec(got) == taskspec.parse_task_spec(src)
    stripped = format_document(src, strip_comments=True)
    canonical = taskspec.marshal_yaml(taskspec.parse_task_spec(src))
    # Every comment goes but the yaml-language-server modeline, which opens the result.
    modeline = re.search(rb"^[ \t]*(# yaml-language-server:[^\n]*)\n", src, re.MULTILINE)
    assert stripped == (modeline[1] + b"\n" if modeline else b"") + canonical


def check_refused(
    source: bytes | str, *, line: int, column: int, path: str, message: str, count: int = 1
) -> CommentError:
    """Format *source*, expect a CommentError, and pin its first violation."""
    src = source.encode() if isinstance(source, str) else source
    with pytest.raises(CommentError) as info:
        format_document(src)
    err = info.value
    assert isinstance(err, DecodeError)
    first = err.violations[0]
    assert first.code == "TS201", first
    assert (first.line, first.column) == (line, column), str(err)
    assert first.field_path == path, (first.field_path, str(err))
    assert message in first.message, first.message
    assert re.match(r"cannot keep (this comment|these \d+ comment lines): ", first.message)
    # The fix is the hint, never part of the message (docs/problems.md).
    assert first.hint == "move or delete it (or use --strip-comments)"
    assert "--strip-comments" not in first.message
    assert len(err.violations) == count, [str(v) for v in err.violations]
    # The comments are the only obstacle: stripping them always works.
    assert format_document(src, strip_comments=True) == taskspec.marshal_yaml(
        taskspec.parse_task_spec(src)
    )
    return err


# --- placement rules -------------------------------------------------------------


@dataclass(frozen=True)
class Kept:
    id: str
    source: str
    want: str


KEPT: list[Kept] = [
    Kept(
        "end-of-line comment stays on its key's line, after one space",
        edit("task_id: kg-go-impl-mathx-gcd", "task_id: kg-go-impl-mathx-gcd    # stable id"),
        edit("task_id: kg-go-impl-mathx-gcd", "task_id: kg-go-impl-mathx-gcd # stable id"),
    ),
    Kept(
        "a tab before an end-of-line comment",
        edit("language: go", "language: go\t# owner: platform-eval, INC-1234"),
        edit("language: go", "language: go # owner: platform-eval, INC-1234"),
    ),
    Kept(
        "full-line comment stays above its key, re-indented with the key",
        edit("generated_from:\n    kind", "generated_from:\n  # from the KG template\n  kind"),
        edit("generated_from:\n    kind", "generated_from:\n    # from the KG template\n    kind"),
    ),
    Kept(
        "a block of comments stays together; blank lines inside it are dropped",
        edit("prompt:", "# owner: platform-eval\n\n   # INC-1234\n# reviewed 2024-05\nprompt:"),
        edit("prompt:", "# owner: platform-eval\n# INC-1234\n# reviewed 2024-05\nprompt:"),
    ),
    Kept(
        "modeline and leading comments stay at the top",
        "# yaml-language-server: $schema=../schema/taskspec.v1.schema.json\n\n"
        "# owner: platform-eval, INC-1234\n" + BASE,
        "# yaml-language-server: $schema=../schema/taskspec.v1.schema.json\n"
        "# owner: platform-eval, INC-1234\n" + BASE,
    ),
    Kept(
        "a comment above the first key stays at the top when that key moves",
        "# owner: platform-eval\ntask_id: kg-go-impl-mathx-gcd\ntask_spec_version: 1\n"
        + BASE.split("\n", 2)[2],
        "# owner: platform-eval\n" + BASE,
    ),
    Kept(
        "comments after the last content stay at the end, at column 0",
        BASE + "        # TODO: add go vet, INC-1234\n\n# end of spec\n",
        BASE + "# TODO: add go vet, INC-1234\n# end of spec\n",
    ),
    Kept(
        "end-of-line comment on the last line is not a trailing comment",
        edit("        - test\n", "        - test # the subcommand\n# end\n"),
        edit("        - test\n", "        - test # the subcommand\n# end\n"),
    ),
    Kept(
        "difficulty_signals comments move with their keys into yaml.v3's order",
        edit(
            "generated_from:",
            "difficulty_signals:\n"
            "  # measured by gocyclo\n"
            "  edge_count: 9 # from the KG\n"
            "  cyclomatic_complexity: 4  # gocyclo\n"
            "  a10: 1\n"
            "  a9: 2 # nine sorts before ten\n"
            "generated_from:",
        ),
        edit(
            "generated_from:",
            "difficulty_signals:\n"
            "    a9: 2 # nine sorts before ten\n"
            "    a10: 1\n"
            "    cyclomatic_complexity: 4 # gocyclo\n"
            "    # measured by gocyclo\n"
            "    edge_count: 9 # from the KG\n"
            "generated_from:",
        ),
    ),
    Kept(
        "test_cmd items keep their comments, from an indentless sequence",
        edit(
            "    test_cmd:\n        - go\n        - test\n",
            "  test_cmd:\n  # the toolchain\n  - go   # 1.26\n  - test # INC-1234\n",
        ),
        edit(
            "    test_cmd:\n        - go\n        - test\n",
            "    test_cmd:\n        # the toolchain\n        - go # 1.26\n"
            "        - test # INC-1234\n",
        ),
    ),
    Kept(
        "solution_artifacts: item comments stay with the item, key comments with the key",
        edit(
            "prompt: Implement mathx.GCD.\n",
            "prompt: Implement mathx.GCD.\n"
            "solution_artifacts:\n"
            "  # the file under test\n"
            "  - role: target  # graded\n"
            "    # relative to the repository root\n"
            "    path: mathx/gcd.go\n"
            "  -  # helper, not graded\n"
            "    path: mathx/util.go\n",
        ),
        edit(
            "prompt: Implement mathx.GCD.\n",
            "prompt: Implement mathx.GCD.\n"
            "solution_artifacts:\n"
            "    # the file under test\n"
            "    # relative to the repository root\n"
            "    - path: mathx/gcd.go\n"
            "      role: target # graded\n"
            "    - path: mathx/util.go # helper, not graded\n",
        ),
    ),
    Kept(
        "a comment above an item's first key goes above the item's line",
        edit(
            "prompt: Implement mathx.GCD.\n",
            "prompt: Implement mathx.GCD.\n"
            "solution_artifacts:\n  -\n    # owner: platform-eval\n    path: mathx/gcd.go\n",
        ),
        edit(
            "prompt: Implement mathx.GCD.\n",
            "prompt: Implement mathx.GCD.\n"
            "solution_artifacts:\n    # owner: platform-eval\n    - path: mathx/gcd.go\n",
        ),
    ),
    Kept(
        "a flow list becomes a block list; its end-of-line comment stays on the key",
        edit("    test_cmd:\n        - go\n        - test\n", "    test_cmd: [go, test] # all\n"),
        edit("    test_cmd:", "    test_cmd: # all"),
    ),
    Kept(
        "empty collections written as {} keep their comment",
        edit(
            "    kind: kg_template\n",
            "    kind: kg_template\n    kg_query: {}   # set on purpose, INC-1234\n",
        ),
        edit(
            "    kind: kg_template\n",
            "    kind: kg_template\n    kg_query: {} # set on purpose, INC-1234\n",
        ),
    ),
    Kept(
        "a block scalar header comment stays after the header",
        edit(
            "prompt: Implement mathx.GCD.", "prompt: |-  # shown to the model\n  Implement\n  it."
        ),
        edit(
            "prompt: Implement mathx.GCD.",
            "prompt: |- # shown to the model\n    Implement\n    it.",
        ),
    ),
    Kept(
        "a header comment moves to the key's line when the block becomes plain",
        edit("prompt: Implement mathx.GCD.", "prompt: >- #folded\n  Implement\n  mathx.GCD."),
        edit("prompt: Implement mathx.GCD.", "prompt: Implement mathx.GCD. #folded"),
    ),
    Kept(
        "'#' inside a block scalar is content, a less indented one after it a comment",
        edit(
            "prompt: Implement mathx.GCD.\n",
            "prompt: |\n  # Task\n  Implement mathx.GCD.\n # reviewed\n",
        ),
        edit(
            "prompt: Implement mathx.GCD.\n",
            "prompt: |\n    # Task\n    Implement mathx.GCD.\n# reviewed\n",
        ),
    ),
    Kept(
        "a comment after a keep-chomped block keeps the block's trailing lines",
        edit("prompt: Implement mathx.GCD.\n", "prompt: |+\n  Implement.\n\n# reviewed\n"),
        edit("prompt: Implement mathx.GCD.\n", "prompt: |+\n    Implement.\n\n# reviewed\n"),
    ),
    Kept(
        "a value on the next line: the end-of-line comment goes to the key's line",
        edit("prompt: Implement mathx.GCD.", "prompt:\n  Implement mathx.GCD. # v2 wording"),
        edit("prompt: Implement mathx.GCD.", "prompt: Implement mathx.GCD. # v2 wording"),
    ),
    Kept(
        "a multi-line quoted value: the comment after it goes to the key's line",
        edit("prompt: Implement mathx.GCD.", 'prompt: "Implement\n  mathx.GCD." # folded'),
        edit("prompt: Implement mathx.GCD.", "prompt: Implement mathx.GCD. # folded"),
    ),
    Kept(
        "'#' right after a quoted scalar starts a comment",
        edit("task_id: kg-go-impl-mathx-gcd", 'task_id: "kg-go-impl-mathx-gcd"# no space'),
        edit("task_id: kg-go-impl-mathx-gcd", "task_id: kg-go-impl-mathx-gcd # no space"),
    ),
    Kept(
        "document markers and a directive: their comments stay at the top and the end",
        "%YAML 1.1 # yaml.v3 reads 1.1\n--- # sidecar\n" + BASE + "... # done\n# bye\n",
        "# yaml.v3 reads 1.1\n# sidecar\n" + BASE + "# done\n# bye\n",
    ),
    Kept(
        "anchors and aliases: comments stay with the key they are written on",
        edit(
            "    test_cmd:\n        - go\n        - test\n",
            "    build_cmd: &go [go, vet] # shared\n    test_cmd: *go # same as build\n",
        ),
        edit(
            "    test_cmd:\n        - go\n        - test\n",
            "    build_cmd: # shared\n        - go\n        - vet\n"
            "    test_cmd: # same as build\n        - go\n        - vet\n",
        ),
    ),
    Kept(
        "a long difficulty_signals key written as '? key' keeps its comment",
        edit("generated_from:", f"difficulty_signals:\n  {'k' * 130}: 3 # long\ngenerated_from:"),
        edit(
            "generated_from:",
            f"difficulty_signals:\n    ? {'k' * 130} # long\n    : 3\ngenerated_from:",
        ),
    ),
    Kept(
        "a multi-line key written as '? |-' keeps its comments",
        edit(
            "generated_from:",
            'difficulty_signals:\n  # two lines\n  "a\\nb": 3 # odd key\ngenerated_from:',
        ),
        edit(
            "generated_from:",
            "difficulty_signals:\n    # two lines\n    ? |- # odd key\n        a\n        b\n"
            "    : 3\ngenerated_from:",
        ),
    ),
    Kept(
        "comments with non-ASCII text and '#' inside them",
        edit("language: go", "language: go # 言語 #go ✓ 🙂"),
        edit("language: go", "language: go # 言語 #go ✓ 🙂"),
    ),
    Kept(
        "a comment in a document that is otherwise canonical changes nothing",
        edit("verification:", "# hidden from the model\nverification:"),
        edit("verification:", "# hidden from the model\nverification:"),
    ),
]


@pytest.mark.parametrize("case", KEPT, ids=[c.id for c in KEPT])
def test_comment_is_kept(case: Kept) -> None:
    check_kept(case.source, case.want)


def test_crlf_and_cr_line_endings() -> None:
    case = next(c for c in KEPT if c.id.startswith("solution_artifacts"))
    check_kept(case.source.replace("\n", "\r\n"), case.want)
    check_kept(case.source.replace("\n", "\r"), case.want)


def test_byte_order_mark() -> None:
    source = "\ufeff# owner: platform-eval\r\n" + BASE.replace("\n", "\r\n")
    check_kept(source.encode("utf-8"), "# owner: platform-eval\n" + BASE)
    # Columns in messages do not count the mark, as in every other message.
    check_refused(
        (
            "\ufeff"
            + edit("    kind: kg_template", "    kind: kg_template\n    template_id: '' # x")
        ).encode("utf-8"),
        line=7,
        column=21,
        path="generated_from.template_id",
        message="omits",
    )


def test_modeline_alone() -> None:
    modeline = "# yaml-language-server: $schema=https://example.com/taskspec.v1.schema.json\n"
    check_kept(modeline + BASE, modeline + BASE)
    check_kept("\n" + modeline + "\n\n" + BASE, modeline + BASE)


def test_key_after_a_block_ending_in_a_line_separator() -> None:
    """yaml.v3 writes a U+2028 that ends a block scalar raw, and the next item on the same LF line.

    A comment above that item must go after the U+2028 (which ends the line
    for YAML), not before it, where it would cut the block's content.
    """
    spec = taskspec.parse_task_spec(BASE.encode())
    spec.verification.test_cmd[:] = ["\n\u2028", "go", "a\nb\u2028", "test"]
    doc = taskspec.marshal_yaml(spec).decode()
    assert "\u2028        - go\n" in doc and "\u2028        - test\n" in doc
    want = doc.replace("\u2028        - go\n", "\u2028        # toolchain\n        - go # 1.26\n")
    want = want.replace(
        "\u2028        - test\n", "\u2028        # subcommand\n        - test # x\n"
    )
    source = want.replace("        # ", "  # ").replace("- go # 1.26", "- go   # 1.26")
    check_kept(source, want)


def test_a_comment_the_result_would_lose_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The result is re-read before it is returned: a lost comment is an error, not a loss."""
    real = _comments_place.render

    def lossy(layout: Any, placed: list[Any]) -> str:
        return real(layout, placed[1:])

    monkeypatch.setattr(_comments, "render", lossy)
    source = edit("language: go", "language: go # a", "prompt:", "# b\nprompt:")
    with pytest.raises(CommentError) as info:
        format_document(source.encode())
    assert (info.value.line, info.value.column) == (3, 14)
    assert "would not read back as the same comments" in str(info.value)


def test_a_hash_nobody_accounted_for_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every '#' outside tokens must be a found comment; a missed one is refused, not dropped."""
    monkeypatch.setattr(_comments_scan, "_gap", lambda *args: None)
    source = edit("language: go", "language: go   # owner: platform-eval")
    with pytest.raises(CommentError) as info:
        format_document(source.encode())
    assert (info.value.line, info.value.column) == (3, 16)
    assert "a place the formatter does not understand" in str(info.value)


# --- hash signs that are not comments --------------------------------------------

NOT_COMMENTS = [
    edit("task_id: kg-go-impl-mathx-gcd", "task_id: kg#go"),
    edit("task_id: kg-go-impl-mathx-gcd", "task_id: 'kg # go'"),
    edit("task_id: kg-go-impl-mathx-gcd", 'task_id: "kg #go"'),
    edit("prompt: Implement mathx.GCD.", "prompt: |\n  # heading\n  Implement mathx.GCD."),
    edit("        - test", "        - '#'\n        - a#b"),
    edit("generated_from:", 'difficulty_signals:\n  "# not a comment": 1\ngenerated_from:'),
]


@pytest.mark.parametrize("source", NOT_COMMENTS)
def test_hash_inside_values_is_not_a_comment(source: str) -> None:
    data = source.encode()
    assert format_document(data) == taskspec.marshal_yaml(taskspec.parse_task_spec(data))


def test_document_without_hash_skips_comment_work(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise AssertionError("comment scan ran on a document without '#'")

    monkeypatch.setattr(_comments, "scan_document", fail)
    source = edit("test_cmd:", "test_cmd:  ", "language: go", "language:   go").encode()
    assert format_document(source) == taskspec.marshal_yaml(taskspec.parse_task_spec(source))


# --- refusals ------------------------------------------------------------------


@dataclass(frozen=True)
class Refused:
    id: str
    source: str
    line: int
    column: int
    path: str
    message: str
    count: int = 1


REFUSED: list[Refused] = [
    Refused(
        "key omitted because empty (omitempty string)",
        edit(
            "    kind: kg_template\n",
            "    kind: kg_template\n    template_id: ''   # filled in by the generator\n",
        ),
        7,
        23,
        "generated_from.template_id",
        "it belongs to 'generated_from.template_id', which the canonical layout omits because"
        " its value is empty",
    ),
    Refused(
        "full-line comment above an omitted key",
        edit("    test_cmd:", "    # nothing to build\n    build_cmd: []\n    test_cmd:"),
        9,
        5,
        "verification.build_cmd",
        "it belongs to 'verification.build_cmd', which the canonical layout omits",
    ),
    Refused(
        "zero timeout is omitted",
        BASE + "    timeout_seconds: 0 # use the default\n",
        12,
        24,
        "verification.timeout_seconds",
        "'verification.timeout_seconds', which the canonical layout omits",
    ),
    Refused(
        "null pointer message is omitted",
        edit("    kind: kg_template\n", "    kind: kg_template\n    kg_query: ~ # none\n"),
        7,
        17,
        "generated_from.kg_query",
        "'generated_from.kg_query', which the canonical layout omits",
    ),
    Refused(
        "empty solution_artifacts list is omitted",
        edit("prompt:", "solution_artifacts: [] # none\nprompt:"),
        7,
        24,
        "solution_artifacts",
        "'solution_artifacts', which the canonical layout omits",
    ),
    Refused(
        "inside a flow sequence",
        edit(
            "    test_cmd:\n        - go\n        - test\n", "    test_cmd: [go, # c\n      test]\n"
        ),
        9,
        20,
        "verification.test_cmd",
        "it sits inside a [...] or {...} collection",
    ),
    Refused(
        "inside a flow mapping of difficulty_signals",
        edit("generated_from:", "difficulty_signals: {a: 1,\n  # c\n  b: 2}\ngenerated_from:"),
        6,
        3,
        "difficulty_signals",
        "it sits inside a [...] or {...} collection",
    ),
    Refused(
        "between a key and its value",
        edit("prompt: Implement mathx.GCD.", "prompt:\n  # the prompt\n  Implement mathx.GCD."),
        8,
        3,
        "prompt",
        "it sits between 'prompt' and its value, which the canonical layout writes on one line",
    ),
    Refused(
        "between an explicit key and its value",
        edit(
            "generated_from:", "difficulty_signals:\n  ? edge_count\n  # c\n  : 9\ngenerated_from:"
        ),
        7,
        3,
        "difficulty_signals['edge_count']",
        "it sits between \"difficulty_signals['edge_count']\" and its value",
    ),
    Refused(
        "after a flow list that spans lines",
        edit(
            "    test_cmd:\n        - go\n        - test\n", "    test_cmd: [go,\n      test] # c\n"
        ),
        10,
        13,
        "verification.test_cmd",
        "it ends a line inside the value of 'verification.test_cmd', which starts on line 9",
    ),
    Refused(
        "two end-of-line comments for one canonical line",
        edit(
            "prompt: Implement mathx.GCD.\n",
            "prompt: Implement mathx.GCD.\n"
            "solution_artifacts:\n  - # first\n    path: mathx/gcd.go # second\n",
        ),
        10,
        24,
        "solution_artifacts[0].path",
        "whose line in the canonical layout already ends with the comment from line 9",
    ),
    Refused(
        "every comment without a place is listed",
        edit(
            "    kind: kg_template\n",
            "    kind: kg_template\n    template_id: '' # a\n    kg_query: ~ # b\n",
            "    test_cmd:\n        - go\n        - test\n",
            "    test_cmd: [go, # c\n      test]\n",
        ),
        7,
        21,
        "generated_from.template_id",
        "omits",
        count=3,
    ),
]


@pytest.mark.parametrize("case", REFUSED, ids=[c.id for c in REFUSED])
def test_comment_without_a_place_is_refused(case: Refused) -> None:
    check_refused(
        case.source,
        line=case.line,
        column=case.column,
        path=case.path,
        message=case.message,
        count=case.count,
    )


def test_refusal_reads_as_a_sentence() -> None:
    err = check_refused(REFUSED[0].source, line=7, column=23, path=REFUSED[0].path, message="")
    assert str(err) == (
        "line 7, column 23: cannot keep this comment: it belongs to"
        " 'generated_from.template_id', which the canonical layout omits because its value"
        " is empty; move or delete it (or use --strip-comments)"
    )


def test_refusal_positions_count_crlf_as_one_break() -> None:
    case = REFUSED[0]
    check_refused(
        case.source.replace("\n", "\r\n"),
        line=case.line,
        column=case.column,
        path=case.path,
        message="omits",
    )


# --- invalid documents, and the vectors -----------------------------------------------


def raised(call: Callable[[], object]) -> TaskSpecError:
    with pytest.raises(TaskSpecError) as info:
        call()
    return info.value


@pytest.mark.parametrize(
    ("source", "kind"),
    [
        # An unknown key beside broken rules: both kinds of problem.
        (b"task_spec_version: 1\nbogus: 1 # c\n", InvalidDocumentError),
        (edit("language: go", "language: cobol # c").encode(), ValidationError),
        (b"key: [unclosed # c\n", DecodeError),
        (b"# only a comment\n", DecodeError),
    ],
)
def test_invalid_documents_raise_what_parse_raises(
    source: bytes, kind: type[TaskSpecError]
) -> None:
    got = raised(lambda: format_document(source))
    want = raised(lambda: taskspec.parse_task_spec(source))
    assert type(got) is type(want) is kind
    assert got.violations == want.violations
    assert type(raised(lambda: format_document(source, strip_comments=True))) is kind


def test_rejected_vectors_raise_what_parse_raises() -> None:
    def check(v: vectors.Vector) -> str | None:
        try:
            taskspec.parse_task_spec(v.data)
        except TaskSpecError as want:
            try:
                format_document(v.data)
            except TaskSpecError as got:
                if type(got) is type(want) and got.violations == want.violations:
                    return None
                return f"raised {got!r}, parse raised {want!r}"
            return "accepted"
        return None  # accepted by this decoder (recorded in stricter.json's inverse)

    assert vectors.check_each(vectors.load("rejected"), check) > 50


def test_canonical_vectors_are_unchanged() -> None:
    """Without comments the output is exactly Go's bytes; many vectors hold '#' in strings."""

    def check(v: vectors.Vector) -> str | None:
        got = format_document(v.data)
        if got != v.data:
            return vectors.first_difference(v.data, got)
        return None

    with_hash = [v for v in vectors.load("canonical") if b"#" in v.data]
    assert len(with_hash) > 50
    assert vectors.check_each(vectors.load("canonical"), check) > 300


def test_accepted_vectors_format_or_refuse() -> None:
    """Every non-canonical vector formats to a stable result that means the same, or is refused."""
    kept = 0

    def check(v: vectors.Vector) -> str | None:
        nonlocal kept
        try:
            spec = taskspec.parse_task_spec(v.data)
        except TaskSpecError:
            return None  # Go accepts it, this decoder does not (tests/conformance/stricter.json)
        canonical = taskspec.marshal_yaml(spec)
        try:
            got = format_document(v.data)
        except CommentError:
            return None if b"#" in v.data else "refused without a comment"
        if format_document(got) != got:
            return "not stable"
        if taskspec.parse_task_spec(got) != spec:
            return "changed the spec"
        if b"#" not in v.data and got != canonical:
            return vectors.first_difference(canonical, got)
        kept += got != canonical
        return None

    assert vectors.check_each(vectors.load("accepted"), check) > 50
    assert kept >= 3  # the vectors with comments keep them


# --- properties ------------------------------------------------------------------

_BREAKS = "\r\n\x85\u2028\u2029"
comment_texts = st.text(
    st.characters(
        codec="utf-8",
        exclude_categories=("Cs", "Cc", "Zl", "Zp"),
        # U+FEFF: a byte order mark past the start of the text is refused
        # (TS004) wherever it stands, in a comment too (test_decode pins
        # that), so no comment the formatter keeps can hold one.
        exclude_characters="\ufffe\uffff\ufeff",
        include_characters="\t",
    ),
    max_size=16,
).map(lambda s: ("#" + s).rstrip(" \t"))


@dataclass(frozen=True)
class Slot:
    """A line that starts with a key or list item: where comments for it are written.

    Lines are counted as libyaml counts them (U+2028 ends a line too: yaml.v3
    writes one that ends a block scalar raw, with the next item after it on
    the same LF-ended line). An end-of-line comment goes before the LF that
    ends the key's text.
    """

    start: int
    column: int
    end: int


def slots(doc: str) -> list[Slot]:
    breaks = [m.end() for m in re.finditer("\r\n|[\r\n\x85\u2028\u2029]", doc)]
    starts = [0, *breaks]
    parser = CParser(doc.encode())
    out: dict[int, Slot] = {}
    depth = 0
    try:
        while (token := parser.get_token()) is not None:
            if isinstance(token, (FlowSequenceStartToken, FlowMappingStartToken)):
                depth += 1
            elif isinstance(token, (FlowSequenceEndToken, FlowMappingEndToken)):
                depth -= 1
            elif isinstance(token, (KeyToken, BlockEntryToken)) and depth == 0:
                index = token.start_mark.index
                start = max(s for s in starts if s <= index)
                if start not in out:
                    out[start] = Slot(start, index - start, doc.index("\n", index))
    finally:
        parser.dispose()
    return list(out.values())


#: What ``data.draw`` is: draws one value from a strategy.
Drawer = Callable[[st.SearchStrategy[Any]], Any]


@dataclass
class Plan:
    """Comments to put into a canonical document, by slot: above and at the end of its line."""

    above: dict[Slot, list[str]]
    eol: dict[Slot, str]
    head: list[str]
    tail: list[str]


@st.composite
def plans(draw: st.DrawFn, doc: str) -> Plan:
    lines = slots(doc)
    chosen = draw(st.lists(st.sampled_from(lines), max_size=6)) if lines else []
    above: dict[Slot, list[str]] = {}
    for slot in chosen:
        above.setdefault(slot, []).append(draw(comment_texts))
    eol_slots = draw(st.lists(st.sampled_from(lines), max_size=6, unique=True)) if lines else []
    return Plan(
        above=above,
        eol={slot: draw(comment_texts) for slot in eol_slots},
        head=draw(st.lists(comment_texts, max_size=2)),
        tail=draw(st.lists(comment_texts, max_size=2)),
    )


def render(doc: str, plan: Plan, *, canonical: bool, draw: Drawer | None = None) -> str:
    """*doc* with *plan*'s comments, in the kept layout or in a messier but equivalent one."""

    def blanks(least: int, most: int, chars: str = " ") -> str:
        if canonical or draw is None:
            return " " * least
        return str(draw(st.text(st.sampled_from(chars), min_size=least, max_size=most)))

    def pad(column: int) -> str:
        if canonical or draw is None:
            return " " * column
        return " " * int(draw(st.integers(0, column)))

    inserts: list[tuple[int, int, str]] = [(0, 0, blanks(0, 3) + t + "\n") for t in plan.head]
    for slot, texts in plan.above.items():
        inserts += [(slot.start, 1, pad(slot.column) + t + "\n") for t in texts]
    for slot, text in plan.eol.items():
        # (A tab may separate a comment from a value, never indent a line.)
        inserts.append((slot.end, 2, blanks(1, 3, " \t") + text))
    inserts += [(len(doc), 3, blanks(0, 6) + t + "\n") for t in plan.tail]
    out: list[str] = []
    done = 0
    for offset, _, text in sorted(inserts, key=lambda i: (i[0], i[1])):
        out.append(doc[done:offset] + text)
        done = offset
    return "".join(out) + doc[done:]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), spec=valid_specs())
def test_kept_layout_is_a_fixed_point(data: st.DataObject, spec: TaskSpec) -> None:
    """A document already in the kept layout is unchanged (so ``fmt --check`` passes on it)."""
    doc = taskspec.marshal_yaml(spec).decode()
    plan = data.draw(plans(doc))
    source = render(doc, plan, canonical=True).encode()
    assert format_document(source) == source
    assert format_document(source, strip_comments=True) == doc.encode()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), spec=valid_specs(), crlf=st.booleans(), bom=st.booleans())
def test_messy_layout_formats_to_the_kept_layout(
    data: st.DataObject, spec: TaskSpec, crlf: bool, bom: bool
) -> None:
    """Any indentation above, any blanks before '#', CRLF, a BOM: same result, and stable."""
    doc = taskspec.marshal_yaml(spec).decode()
    plan = data.draw(plans(doc))
    want = render(doc, plan, canonical=True).encode()
    messy = render(doc, plan, canonical=False, draw=data.draw)
    if crlf:
        messy = messy.replace("\n", "\r\n")
    source = (("\ufeff" if bom else "") + messy).encode()
    assume(taskspec.parse_task_spec(source) == spec)  # CRLF inside a string may change it
    got = format_document(source)
    assert got == want
    assert format_document(got) == got


@settings(max_examples=100, deadline=None)
@given(spec=valid_specs(), text=comment_texts)
def test_end_of_line_comment_on_every_line_of_its_own_kind(spec: TaskSpec, text: str) -> None:
    """One comment above and one at the end of every key and item line at once."""
    doc = taskspec.marshal_yaml(spec).decode()
    lines = slots(doc)
    plan = Plan(
        above={s: [text] for s in lines}, eol=dict.fromkeys(lines, text), head=[], tail=[text]
    )
    source = render(doc, plan, canonical=True).encode()
    assert format_document(source) == source


# --- many comment lines: one block, not one object per line ---------------------------


def test_comment_lines_in_a_row_are_one_block() -> None:
    """100,000 comment lines above a key are one comment of the scan, placed and written once."""
    lines = "".join(f"  # note {i}  \n" for i in range(100_000))
    source = edit(
        "    test_cmd:\n", "\n" + lines + "\n    test_cmd:\n", "language: go", "language: 'go'"
    )
    scan = _comments_scan.scan_document(source.encode(), source, comments=True)
    assert len(scan.comments) == 1
    assert scan.comments[0].lines == 100_000
    out = format_document(source.encode()).decode()
    assert out == edit(
        "    test_cmd:\n", "".join(f"    # note {i}\n" for i in range(100_000)) + "    test_cmd:\n"
    )
    assert format_document(out.encode()).decode() == out


def test_a_refused_block_is_one_problem_counting_its_lines() -> None:
    source = edit(
        "    test_cmd:\n        - go\n        - test\n",
        "    test_cmd: [go,\n      # one\n\n      # two\n      # three\n      test]\n",
    )
    err = check_refused(source, line=10, column=7, path="verification.test_cmd", message="")
    assert err.violations[0].message.startswith(
        "cannot keep these 3 comment lines: it sits inside a [...] or {...} collection"
    )


@settings(max_examples=300)
@given(st.text(alphabet="ab#\r\n\x85\u2028\u2029", max_size=40), st.data())
def test_positions_are_counted_without_a_table_of_lines(text: str, data: st.DataObject) -> None:
    """The same (line, column) as a table of line starts gives, asked in any order."""
    starts = [0] + [m.end() for m in _comments_scan.BREAK.finditer(text)]

    def by_table(i: int) -> tuple[int, int]:
        line = max(n for n, s in enumerate(starts) if s <= i)
        return line, i - starts[line]

    chars = [i for i, c in enumerate(text) if c in "ab#"]  # what positions are asked of
    order = data.draw(st.permutations(chars))
    scan = _comments_scan.Scan(text, [], [])
    assert [scan.position(i) for i in order] == [by_table(i) for i in order]


# --- what the README says of comments and the modeline ----------------------------

MODELINE = "# yaml-language-server: $schema=../schema/taskspec.v1.schema.json\n"


def test_fmt_keeps_every_comment_not_only_the_modeline() -> None:
    # README, Editor support: fmt keeps the modeline with every other comment.
    source = MODELINE + "# owner: eval\n" + edit("language: go", "language: go # pinned")
    assert format_document(source.encode()).decode() == source


def test_the_modeline_stays_where_it_is_among_the_comments() -> None:
    # README: a comment above the modeline stays above it; fmt moves no comment.
    source = "# owner: eval\n" + MODELINE + BASE
    assert format_document(source.encode()).decode() == source


def test_strip_comments_keeps_the_modeline_on_the_first_line() -> None:
    # README: --strip-comments drops every comment but the modeline, which opens the file.
    for source in (
        MODELINE + "# owner: eval\n" + BASE,
        "# owner: eval\n" + MODELINE + edit("language: go", "language: go # pinned"),
    ):
        assert format_document(source.encode(), strip_comments=True).decode() == MODELINE + BASE
    assert format_document(("# owner\n" + BASE).encode(), strip_comments=True).decode() == BASE
