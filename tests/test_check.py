"""taskspec.check: every problem of a document at once, in the contract's words.

The Problem model (:class:`taskspec.Violation`), each YAML syntax code and
its message, the prompt-mistake hints, one problem per mistake, the
warnings (TS301, TS302), TS107, JSON's and binary protobuf's problems, and
the error the readers raise holding the same list. The last tests run the
library over every document the tests have and hold each problem to its
code's catalogue templates, and find no runtime library's words.
"""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import EllipsisType
from typing import Any, NoReturn

import pytest

import taskspec
from taskspec import DecodeError, Fix, Format, TaskSpecError, ValidationError, Violation, _validate
from taskspec._codes import CATALOGUE
from taskspec._limits import INT64_MIN, MAX_DOCUMENT_BYTES
from taskspec.bridge import _decode, _emit
from taskspec.v1 import problems_pb2, taskspec_pb2
from tests.conformance import rule_cases
from tests.helpers import VALID_DOC, unused_kind_codes, valid_spec
from tests.test_hostile import ESCAPES
from tests.test_writable import _expanding_doc

ROOT = Path(__file__).resolve().parent
BASE = VALID_DOC.decode()

#: Field names in the order of VALID_DOC's mapping, as unknown-key hints list them.
#: The fields an unknown top-level key is told of, from the descriptor, so
#: that a field added to the proto changes no test.
_TOP_FIELDS = ", ".join(f.name for f in taskspec.TaskSpec.DESCRIPTOR.fields)

#: The fields an unknown key in verification is told of, from the
#: descriptor, so that a field added to the proto changes no test.
VERIFICATION_FIELDS = ", ".join(f.name for f in taskspec.Verification.DESCRIPTOR.fields)


def _with_line(old_line: str, new_line: str, doc: str = BASE) -> str:
    """*doc* with its line *old_line* (whole) replaced by *new_line*."""
    lines = doc.split("\n")
    index = lines.index(old_line)
    lines[index] = new_line
    return "\n".join(lines)


def _prompt(line: str) -> str:
    """VALID_DOC with its prompt line (line 14) replaced by *line*."""
    return _with_line("prompt: Implement mathx.GCD.", line)


def check_valid(doc: str | bytes, fmt: Format = Format.YAML) -> None:
    """*doc* has no problem at all, and reads."""
    assert taskspec.check(doc, fmt) == []
    taskspec.parse(doc, fmt)


def check_invalid(
    doc: str | bytes,
    code: str,
    *,
    path: str = "",
    line: int = 0,
    column: int = 0,
    message: str,
    hint: str = "",
    severity: str = "error",
    fmt: Format = Format.YAML,
    fix: Fix | EllipsisType | None = ...,
) -> list[Violation]:
    """*doc*'s problems begin with exactly this one; the reader raises it first.

    Its fix is compared when *fix* is given (None for none); the fixes
    themselves are pinned by tests/contract/fixes.json and problems.json.
    """
    problems = taskspec.check(doc, fmt)
    assert problems, f"no problem for {doc!r}"
    if isinstance(fix, EllipsisType):
        fix = problems[0].fix
    want = Violation(path, message, line, column, hint, code, severity, fix)
    assert problems[0] == want, problems
    error = DecodeError if CATALOGUE[code].stage == "decode" else ValidationError
    with pytest.raises(error) as info:
        taskspec.parse(doc, fmt)
    assert info.value.violations[0] == want
    assert sorted(map(repr, info.value.violations)) == sorted(map(repr, problems))
    return problems


def check_only(doc: str | bytes, *want: Violation, fmt: Format = Format.YAML) -> None:
    """*doc*'s problems are exactly *want*, in order."""
    assert taskspec.check(doc, fmt) == list(want)


# -- the Problem model ----------------------------------------------------------


def test_a_violation_renders_as_position_message_and_hint() -> None:
    v = Violation("task_id", 'task_id: unknown field "x"', 3, 5, 'did you mean "y"?', "TS001")
    assert str(v) == 'line 3, column 5: task_id: unknown field "x"; did you mean "y"?'
    assert str(Violation("", "m", code="TS005")) == "m"
    assert str(Violation("", "m", 0, 0, "h")) == "m; h"
    assert v.severity == "error"


def test_every_field_takes_part_in_equality_and_survives_pickling() -> None:
    v = Violation("a", "m", 1, 2, "h", "TS001", "warning")
    assert v != Violation("a", "m", 1, 2, "h", "TS002", "warning")
    assert v != Violation("a", "m", 1, 2, "h", "TS001", "error")
    assert pickle.loads(pickle.dumps(v)) == v
    assert hash(pickle.loads(pickle.dumps(v))) == hash(v)
    assert eval(repr(v), {"Violation": Violation}) == v
    with pytest.raises(AttributeError):
        v.severity = "error"


def test_a_violation_is_a_problem_message_and_back() -> None:
    v = Violation("a.b", "m", 1, 2, "h", "TS104", "warning")
    p = v.to_proto()
    assert p == problems_pb2.Problem(
        code="TS104",
        field_path="a.b",
        line=1,
        column=2,
        message="m",
        hint="h",
        severity=problems_pb2.SEVERITY_WARNING,
    )
    assert Violation.from_proto(p) == v
    assert Violation.from_proto(problems_pb2.Problem(message="x")).severity == "error"
    error = Violation("", "m", code="TS005")
    assert Violation.from_proto(error.to_proto()) == error


def test_check_is_public_and_lazy() -> None:
    assert "check" in taskspec.__all__
    assert taskspec._LAZY["check"] == "taskspec._check"


# -- YAML syntax: one code per kind, the catalogue's words ------------------------


#: (document, code, line, column, message, hint) for each syntax code.
SYNTAX_CASES: dict[str, tuple[str, str, int, int, str, str]] = {
    "TS005": (
        "task_id: ? a\n",
        "TS005",
        1,
        10,
        "invalid YAML: the document cannot be read past this point",
        "",
    ),
    "TS009": (
        # The LS ends the line to YAML, and "then go" cannot stand as a key;
        # the problem is at the LS, on the line an editor shows it on.
        "task_id: t1\nprompt: wait\u2028then go\nlanguage: go\n",
        "TS009",
        2,
        13,
        "invalid YAML: a raw LINE SEPARATOR (U+2028) breaks the line here,"
        " and what follows it cannot be read",
        'write it as "\\u2028" inside double quotes, or remove it',
    ),
    "TS015 colon": (
        "task_id: t1\n---- \n",
        "TS015",
        3,
        1,
        "invalid YAML: a key must be followed by ':'",
        "",
    ),
    "TS015 key": (
        "task_id: t1\n- a\n",
        "TS015",
        2,
        1,
        "invalid YAML: expected a key at this indentation",
        "",
    ),
    "TS008": (
        "task_id: a\x07b\n",
        "TS008",
        1,
        11,
        "invalid YAML: control characters are not allowed (character #x0007)",
        "",
    ),
    "TS010": (
        "verification:\n\ttest_cmd: [go]\n",
        "TS010",
        2,
        1,
        "invalid YAML: a tab character cannot indent YAML",
        "replace the tab with spaces",
    ),
    "TS012": (
        'prompt: "say\n',
        "TS012",
        2,
        1,
        "invalid YAML: a quoted value is not closed",
        "close the quote; inside \"...\" write \\\" for a quote, inside '...' write ''",
    ),
    "TS012 marker": (
        'prompt: "say\n---\n',
        "TS012",
        2,
        1,
        "invalid YAML: a quoted value is not closed before a document marker",
        "close the quote; inside \"...\" write \\\" for a quote, inside '...' write ''",
    ),
    "TS012 on its key's line": (
        'prompt: "say',
        "TS012",
        1,
        13,
        "invalid YAML: a quoted value is not closed",
        # The value is quoted already: TS012's own hint, never "must be quoted".
        "close the quote; inside \"...\" write \\\" for a quote, inside '...' write ''",
    ),
    "TS013 list": (
        "verification:\n    test_cmd: [go, test\n",
        "TS013",
        3,
        1,
        "invalid YAML: a [ list is not closed with ]",
        "close it, or quote the value if the bracket is text",
    ),
    "TS013 mapping": (
        "difficulty_signals: {a: 1\n",
        "TS013",
        2,
        1,
        "invalid YAML: a { mapping is not closed with }",
        "close it, or quote the value if the bracket is text",
    ),
    "TS015 item": (
        "- a\nb: c\n",
        "TS015",
        2,
        1,
        "invalid YAML: expected a list item ('- ') at this indentation",
        "",
    ),
    "TS015 node": (
        "]\n",
        "TS015",
        1,
        1,
        "invalid YAML: expected a value at this indentation",
        "",
    ),
    "TS016": (
        "task_id: a\\q\nlanguage: 'C:\\src'\nprompt:\n    \"C:\\src\"\n",
        "TS016",
        4,
        8,
        "invalid YAML: unknown escape in a double-quoted value",
        "write \\\\ for a backslash, or use single quotes, where a backslash is itself",
    ),
    "TS016 after a key": (
        'prompt: "C:\\src"\n',
        "TS016",
        1,
        12,
        "invalid YAML: unknown escape in a double-quoted value",
        # The value is quoted already: TS016's own hint, never "must be quoted".
        "write \\\\ for a backslash, or use single quotes, where a backslash is itself",
    ),
    "TS016 unicode": (
        'task_id: x\nprompt: \n  "\\uDC00"\n',
        "TS016",
        3,
        6,
        "invalid YAML: invalid Unicode escape in a double-quoted value",
        "write \\\\ for a backslash, or use single quotes, where a backslash is itself",
    ),
    "TS017 indicator": (
        "prompt: |0\n  a\n",
        "TS017",
        1,
        10,
        "invalid YAML: a block scalar's indentation indicator must be 1 to 9",
        'a value that starts with "|" must be quoted, or written as a block scalar (|)',
    ),
    "TS018": (
        "%FOO\n---\ntask_id: t1\n",
        "TS018",
        1,
        5,
        "invalid YAML: a %YAML or %TAG directive cannot be read",
        "a line that starts with % is a directive: quote the value if % is text",
    ),
    "TS018 document start": (
        "%YAML 1.1\ntask_id: t1\n",
        "TS018",
        2,
        1,
        "invalid YAML: a directive must be followed by a document start (---)",
        "a line that starts with % is a directive: quote the value if % is text",
    ),
    "TS019 alias": (
        "prompt: *nothing\n",
        "TS019",
        1,
        9,
        "invalid YAML: an alias (*name) names no anchor",
        'a value that starts with "*" must be quoted, or written as a block scalar (|)',
    ),
    "TS019 tag": (
        "task_id: t\nprompt:\n  !<a b\n",
        "TS019",
        3,
        6,
        "invalid YAML: a tag (!) cannot be read",
        "",
    ),
}


@pytest.mark.parametrize("case", SYNTAX_CASES, ids=SYNTAX_CASES)
def test_each_syntax_problem_has_its_code_and_the_catalogue_s_words(case: str) -> None:
    doc, code, line, column, message, hint = SYNTAX_CASES[case]
    problems = check_invalid(doc, code, line=line, column=column, message=message, hint=hint)
    assert len(problems) == 1  # YAML that cannot be read is reported alone


def test_syntax_codes_cover_the_design_s_table() -> None:
    codes = {case[1] for case in SYNTAX_CASES.values()} | {"TS011", "TS014"}
    assert codes >= {f"TS{n:03d}" for n in range(8, 20)} | {"TS005"}


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        (b"task_id: caf\xe9\n", "input is not valid UTF-8 (byte 0xe9 at offset 12)"),
        ("task_id: \ud800\n", "input is not valid Unicode (lone surrogate at character 9)"),
        (b"\xff\xfet\x00", "UTF-16 and UTF-32 input is not supported: sidecars are UTF-8"),
    ],
    ids=["latin-1", "surrogate", "utf-16"],
)
def test_encoding_problems_are_ts007(doc: str | bytes, message: str) -> None:
    (problem,) = taskspec.check(doc)
    assert (problem.code, problem.message) == ("TS007", message)


def test_no_parser_text_reaches_the_message_of_a_syntax_problem() -> None:
    for doc, *_ in SYNTAX_CASES.values():
        for v in taskspec.check(doc):
            _assert_our_words(v)


# -- the prompt mistakes ---------------------------------------------------------


def _starts_with(c: str) -> str:
    return f"a value that starts with {c} must be quoted, or written as a block scalar (|)"


#: A prompt line with a mistake: (the line, code, column, message, hint).
PROMPT_MISTAKES: dict[str, tuple[str, str, int, str, str]] = {
    "backtick": (
        "prompt: `gcd` must handle zero",
        "TS011",
        9,
        "invalid YAML: a character here cannot start a value",
        _starts_with('"`"'),
    ),
    "at": (
        "prompt: @file is the input",
        "TS011",
        9,
        "invalid YAML: a character here cannot start a value",
        _starts_with('"@"'),
    ),
    "percent": (
        "prompt: %d is the format",
        "TS011",
        9,
        "invalid YAML: a character here cannot start a value",
        _starts_with('"%"'),
    ),
    "star": (
        "prompt: *bold* is required",
        "TS019",
        14,
        "invalid YAML: an anchor (&) or alias (*) has no name",
        _starts_with('"*"'),
    ),
    "ampersand": (
        "prompt: & is fine",
        "TS019",
        10,
        "invalid YAML: an anchor (&) or alias (*) has no name",
        _starts_with('"&"'),
    ),
    "pipe": (
        "prompt: | use pipes",
        "TS017",
        11,
        "invalid YAML: a block scalar header (| or >) must end its line",
        _starts_with('"|"'),
    ),
    "greater-than": (
        "prompt: > quoted",
        "TS017",
        11,
        "invalid YAML: a block scalar header (| or >) must end its line",
        _starts_with('">"'),
    ),
    "bracket": (
        "prompt: [see] the docs",
        "TS015",
        15,
        "invalid YAML: expected a key at this indentation",
        _starts_with('"["'),
    ),
    "brace": (
        "prompt: {x} is a placeholder",
        "TS015",
        13,
        "invalid YAML: expected a key at this indentation",
        _starts_with('"{"'),
    ),
    "double quote": (
        'prompt: "quoted" then more',
        "TS015",
        18,
        "invalid YAML: expected a key at this indentation",
        _starts_with('"\\""'),
    ),
    "single quote": (
        "prompt: 'quoted' then more",
        "TS015",
        18,
        "invalid YAML: expected a key at this indentation",
        _starts_with('"\'"'),
    ),
    "colon-space": (
        "prompt: Note: keep the API",
        "TS014",
        13,
        "invalid YAML: a mapping value is not allowed here",
        "a value that holds ': ' must be quoted, or written as a block scalar (|)",
    ),
}


@pytest.mark.parametrize("case", PROMPT_MISTAKES, ids=PROMPT_MISTAKES)
def test_a_prompt_mistake_gets_the_hint_that_names_the_fix(case: str) -> None:
    line, code, column, message, hint = PROMPT_MISTAKES[case]
    problems = check_invalid(
        _prompt(line), code, line=14, column=column, message=message, hint=hint
    )
    assert len(problems) == 1
    # The fix quotes the value, and the document is then valid.
    value = line.removeprefix("prompt: ")
    assert problems[0].fix == Fix(json.dumps(value), 14, 9, 14, 9 + len(value))
    assert taskspec.check(taskspec.apply_fixes(_prompt(line), problems)) == []


def test_a_tag_on_a_prompt_gets_the_hint_too() -> None:
    check_invalid(
        _prompt("prompt: !important do this"),
        "TS004",
        path="prompt",
        line=14,
        column=9,
        message='prompt: unsupported tag "!important" for a string field',
        hint=_starts_with('"!"'),
    )


def test_a_list_or_mapping_where_a_string_goes_gets_the_hint() -> None:
    check_invalid(
        _with_line("task_id: kg-go-impl-mathx-gcd", "task_id: [a, b]"),
        "TS003",
        path="task_id",
        line=2,
        column=10,
        message="task_id: expected a string, got a sequence",
        hint=_starts_with('"["'),
    )


def test_an_over_indented_key_is_named() -> None:
    doc = _with_line("language: go", "language: go\n  difficulty: medium").replace(
        "difficulty: medium\ndifficulty_signals", "difficulty_signals"
    )
    check_invalid(
        doc,
        "TS014",
        line=4,
        column=13,
        message="invalid YAML: a mapping value is not allowed here",
        hint="check the indentation of this key: it is deeper than its siblings",
    )


def test_a_tab_that_indents_is_named() -> None:
    doc = BASE.replace("    template_id: impl-pure-fn", "\ttemplate_id: impl-pure-fn")
    check_invalid(
        doc,
        "TS010",
        line=10,
        column=1,
        message="invalid YAML: a tab character cannot indent YAML",
        hint="replace the tab with spaces",
    )


def test_list_item_dashes_are_stripped_before_the_key() -> None:
    doc = BASE.replace("    - path: mathx/gcd.go", "    - path: @gcd.go")
    check_invalid(
        doc,
        "TS011",
        line=16,
        column=13,
        message="invalid YAML: a character here cannot start a value",
        hint=_starts_with('"@"'),
    )


# -- one mistake, one problem ------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "line", "meant"),
    [
        ("generated_from:", "generated_frm:", 8, "generated_from"),
        ("verification:", "verifcation:", 18, "verification"),
        ("    kg_query:", "    kg_qery:", 11, "kg_query"),
    ],
)
def test_a_misspelt_section_key_is_one_problem(old: str, new: str, line: int, meant: str) -> None:
    doc = _with_line(old, new)
    key = new.strip().rstrip(":")
    parent = "generated_from" if old.startswith("    ") else ""
    path = f"{parent}.{key}" if parent else key
    where = f" in {parent}" if parent else ""
    column = len(old) - len(old.lstrip(" ")) + 1
    check_only(
        doc,
        Violation(
            path,
            f'{path}: unknown field "{key}"{where}',
            line,
            column,
            f'did you mean "{meant}"?',
            "TS001",
            fix=Fix(meant, line, column, line, column + len(key)),
        ),
    )


def test_an_unknown_key_without_a_guess_lists_the_fields() -> None:
    check_only(
        BASE + "zzz: 1\n",
        Violation(
            "zzz", 'zzz: unknown field "zzz"', 28, 1, f"expected one of: {_TOP_FIELDS}", "TS001"
        ),
    )


def test_a_value_that_cannot_be_read_hides_its_rule() -> None:
    doc = _with_line("task_id: kg-go-impl-mathx-gcd", "task_id: [a]")
    assert [v.code for v in taskspec.check(doc)] == ["TS003"]


def test_the_issue_s_document_gives_every_problem_from_the_api() -> None:
    doc = (
        _with_line("language: go", "language: golang")
        .replace("difficulty: medium", "difficulty: Medium")
        .replace("    timeout_seconds: 120", "    timeout_secs: 120")
    )
    problems = taskspec.check(doc)
    assert [(v.code, v.field_path, v.line, v.hint) for v in problems] == [
        ("TS001", "verification.timeout_secs", 27, 'did you mean "timeout_seconds"?'),
        ("TS103", "language", 3, 'did you mean "go"?'),
        ("TS103", "difficulty", 4, 'did you mean "medium"?'),
    ]
    # Each suggestion is a fix too, and the three make the document valid.
    assert [v.fix.text for v in problems if v.fix] == ["timeout_seconds", "go", "medium"]
    assert taskspec.check(taskspec.apply_fixes(doc, problems)) == []
    with pytest.raises(DecodeError) as info:
        taskspec.parse_task_spec(doc)
    assert info.value.violations == problems
    assert str(info.value) == (
        'line 27, column 5: verification.timeout_secs: unknown field "timeout_secs" in'
        ' verification; did you mean "timeout_seconds"? (and 2 more problems)'
    )


def test_a_validation_error_keeps_go_s_first_message_and_lists_the_rest() -> None:
    doc = _with_line("language: go", "language: cobol").replace(
        "    timeout_seconds: 120", "    timeout_seconds: -5"
    )
    with pytest.raises(ValidationError) as info:
        taskspec.parse_task_spec(doc)
    assert str(info.value) == 'invalid language "cobol" (and 1 more problem)'
    assert [v.code for v in info.value.violations] == ["TS103", "TS104"]


# -- the readers' errors: every problem, the first one unchanged ----------------------


def _reading(reader: str, tmp_path: Path) -> tuple[Any, Any]:
    """(a document with a decode problem, one with broken rules) for *reader*, in its format."""
    if reader in ("parse_task_spec", "load"):
        decode = _with_line("task_id: kg-go-impl-mathx-gcd", "taskid: kg-go-impl-mathx-gcd")
        decode = _with_line("language: go", "language: cobol", decode)
        # Go's Validate checks language before prompt; the file has prompt first.
        rules = BASE.replace("language: go\n", "").replace(
            "prompt: Implement mathx.GCD.", 'prompt: ""\nlanguage: cobol'
        )
        if reader == "load":
            (tmp_path / "decode.yaml").write_text(decode)
            (tmp_path / "rules.yaml").write_text(rules)
            return tmp_path / "decode.yaml", tmp_path / "rules.yaml"
        return decode, rules
    broken = valid_spec()
    broken.language = taskspec_pb2.LANGUAGE_UNSPECIFIED
    broken.prompt = " "
    if reader == "parse_json":
        obj = json.loads(taskspec.marshal_json(broken))
        obj = {"taskid": obj.pop("taskId"), **obj}
        return json.dumps(obj), taskspec.marshal_json(broken)
    data = taskspec.marshal_binpb(broken)
    return data + b"\xf8\x7f\x05", data  # field 2047, which a TaskSpec does not have


#: What str() of each reader's error begins with: the problem the reader
#: stops at, rendered as it was when the error held that one problem only.
_FIRST: dict[str, tuple[str, str]] = {
    "parse_task_spec": (
        'line 2, column 1: taskid: unknown field "taskid"; did you mean "task_id"?',
        'invalid language "cobol"',
    ),
    "parse_json": ('unknown field "taskid"; did you mean "taskId"?', 'invalid language ""'),
    "parse_binpb": (
        "unknown field number 2047 (taskspec.v1.TaskSpec): "
        "the data is not a TaskSpec v1 or was written by a newer schema",
        'invalid language ""',
    ),
}
_FIRST["load"] = _FIRST["parse_task_spec"]


#: What may follow the first problem in str() of an error that holds more.
_MORE = (" (and 1 more problem)", *(f" (and {n} more problems)" for n in range(2, 100)))


@pytest.fixture
def handed(monkeypatch: pytest.MonkeyPatch) -> list[Violation]:
    """The problems the fast readers hand on as first, to the collecting reader."""
    from taskspec import _check  # noqa: PLC0415

    firsts: list[Violation] = []
    real = _check.raise_all

    def spy(first: Violation, data: Any, fmt: Any) -> NoReturn:
        firsts.append(first)
        real(first, data, fmt)

    monkeypatch.setattr(_check, "raise_all", spy)
    return firsts


@pytest.mark.parametrize("reader", sorted(_FIRST))
def test_a_reader_s_error_names_the_problem_it_stopped_at_first(
    reader: str, tmp_path: Path, handed: list[Violation]
) -> None:
    """str(err) is the one-problem error's text, then only "(and N more problem(s))".

    Issue 25 makes the readers raise every problem; callers that log or
    match str(err) must see the same first problem as before. The one-problem
    text is taken from the problem the fast reader hands on (spied), and
    also written out, so that neither can drift alone.
    """
    read = getattr(taskspec, reader)
    for doc, error, text in zip(
        _reading(reader, tmp_path), (DecodeError, ValidationError), _FIRST[reader], strict=True
    ):
        handed.clear()
        with pytest.raises(error) as info:
            read(doc)
        err = info.value
        (first,) = handed
        alone = str(error([first]))
        assert alone == text
        assert len(err.violations) > 1, err.violations
        more = len(err.violations) - 1
        assert str(err) == f"{alone} (and {more} more problem{'s' if more > 1 else ''})"
        assert err.violations[0].message == first.message
        assert (err.field_path, err.line, err.column) == (
            first.field_path,
            first.line,
            first.column,
        )


def _table_cases() -> Iterator[tuple[str, bytes, str]]:
    import base64  # noqa: PLC0415

    table = json.loads((ROOT / "contract" / "problems.json").read_text(encoding="utf-8"))
    for case in table["cases"]:
        data = case["text"].encode() if "text" in case else base64.b64decode(case["base64"])
        yield case["name"], data, case.get("format", "yaml")


def test_every_refused_document_of_the_shared_table_names_its_first_problem_first(
    handed: list[Violation],
) -> None:
    several = 0
    for name, data, fmt in _table_cases():
        handed.clear()
        try:
            taskspec.parse(data, fmt)
        except TaskSpecError as err:
            if not handed:  # refused before reading (not a document at all)
                continue
            alone = str(type(err)([handed[0]]))
            assert str(err).startswith(alone), (name, alone, str(err))
            assert str(err)[len(alone) :] in ("", *_MORE), (name, str(err))
            several += len(err.violations) > 1
    assert several >= 10


def test_a_missing_key_is_placed_at_its_mapping_with_a_hint() -> None:
    doc = BASE.replace("    kind: kg_template\n", "")
    check_invalid(
        doc,
        "TS103",
        path="generated_from.kind",
        line=9,
        column=5,
        message='invalid generated_from.kind ""',
        hint='key "kind" is missing in generated_from',
    )


# -- warnings ----------------------------------------------------------------------


def test_an_artifact_path_out_of_the_workspace_is_a_warning_at_its_value() -> None:
    doc = BASE.replace("path: mathx/gcd.go", "path: ../../etc/passwd")
    warning = Violation(
        "solution_artifacts[0].path",
        'artifact path "../../etc/passwd" is not allowed: the path climbs out of the'
        " workspace with ..",
        16,
        13,
        code="TS301",
        severity="warning",
    )
    check_only(doc, warning)
    taskspec.parse_task_spec(doc)  # a warning leaves the document valid
    strict = taskspec.check(doc, strict_paths=True)
    assert [(v.code, v.severity) for v in strict] == [("TS301", "error")]


def test_ts301_is_reported_beside_other_problems_with_its_line() -> None:
    doc = BASE.replace("path: mathx/gcd.go", "path: ../../etc/passwd").replace(
        "timeout_seconds: 120", "timeout_seconds: -5"
    )
    problems = taskspec.check(doc)
    assert [(v.code, v.severity, v.line) for v in problems] == [
        ("TS104", "error", 27),
        ("TS301", "warning", 16),
    ]
    with pytest.raises(ValidationError) as info:
        taskspec.parse_task_spec(doc)
    assert info.value.violations == problems
    assert str(info.value) == (
        "verification.timeout_seconds must be non-negative, got -5 (and 1 more problem)"
    )


@pytest.mark.parametrize(
    ("char", "what", "escape"),
    [
        ("\x85", "NEL (U+0085)", "\\N"),
        ("\u2028", "LINE SEPARATOR (U+2028)", "\\L"),
        ("\u2029", "PARAGRAPH SEPARATOR (U+2029)", "\\P"),
    ],
    ids=["NEL", "LS", "PS"],
)
def test_a_raw_yaml_line_break_in_a_value_is_a_warning(char: str, what: str, escape: str) -> None:
    doc = _prompt(f'prompt: "wait{char} then{char} go"')
    # One warning per character, each at the character as editors count
    # lines: the first does not end line 14 for the second.
    assert taskspec.check(doc) == [
        Violation(
            "prompt",
            f"prompt: a raw {what} in the text is a line break to YAML 1.1 readers",
            14,
            column,
            f'write it as an escape in a double-quoted string ("{escape}"), or remove it',
            "TS302",
            "warning",
        )
        for column in (14, 20)
    ]
    # YAML 1.1 readers fold the line: the value is not the text written.
    assert taskspec.parse_task_spec(doc).prompt != f"wait{char} then{char} go"


def test_a_raw_line_break_before_any_value_has_no_field() -> None:
    (warning,) = taskspec.check("# a\x85\n" + BASE)
    assert (warning.field_path, warning.line, warning.column) == ("", 1, 4)
    assert warning.message == "a raw NEL (U+0085) in the text is a line break to YAML 1.1 readers"


def test_warnings_come_after_errors_in_document_order() -> None:
    doc = (
        BASE.replace("path: mathx/gcd.go", "path: /abs")
        .replace("prompt: Implement mathx.GCD.", 'prompt: "a\x85b"')
        .replace("language: go", "language: cobol")
    )
    assert [(v.code, v.line) for v in taskspec.check(doc)] == [
        ("TS103", 3),
        ("TS302", 14),
        ("TS301", 16),  # the NEL ends a line to YAML, not to an editor
    ]


# -- TS107 ------------------------------------------------------------------------


def test_a_spec_over_the_document_limit_is_invalid() -> None:
    spec = valid_spec()
    spec.prompt = "p" * (17 << 20)
    with pytest.raises(ValidationError) as info:
        taskspec.validate(spec)
    size = len(taskspec.marshal_yaml(spec))
    assert info.value.violations == [
        Violation(
            "",
            f"task spec is too large: its canonical YAML is {size} bytes, more than the limit"
            f" of {MAX_DOCUMENT_BYTES}",
            code="TS107",
        )
    ]


def test_a_spec_just_under_the_limit_is_valid() -> None:
    spec = valid_spec()
    spec.prompt = "x"
    spec.prompt = "x" * (1 + MAX_DOCUMENT_BYTES - len(taskspec.marshal_yaml(spec)))
    taskspec.validate(spec)


def test_a_small_spec_is_never_written_out_to_be_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(spec: object) -> bytes:
        raise AssertionError("marshal called")

    monkeypatch.setattr(_emit, "marshal", refuse)
    spec = valid_spec()
    spec.prompt = "\x07" * (1 << 19)  # every character an escape: still cheap to bound
    taskspec.validate(spec)


def _fill_strings(msg: Any, text: str, items: int) -> None:
    """Put *text* in every string slot of *msg* (from its descriptor), *items* times in a list."""
    for fd in msg.DESCRIPTOR.fields:
        value = getattr(msg, fd.name)
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            for i in range(items):
                value[text + "\n" * i] = INT64_MIN
        elif fd.is_repeated and fd.message_type is not None:
            for _ in range(items):
                _fill_strings(value.add(), text, items)
        elif fd.is_repeated and fd.type == fd.TYPE_STRING:
            value.extend([text] * items)
        elif fd.message_type is not None:
            _fill_strings(value, text, items)
        elif fd.type == fd.TYPE_STRING:
            setattr(msg, fd.name, text)
        elif fd.type == fd.TYPE_INT64:
            setattr(msg, fd.name, INT64_MIN)


@pytest.mark.parametrize(
    "text",
    [
        "a\n" * 3000,  # short lines: a line's indentation outweighs it
        "\x01" * 3000,  # escapes
        "\ufeff" + "a" * 3000,  # after a byte-order mark, every character is escaped
        "\U0001f600" * 1000,
        "",  # empty items: `- ""`
        "x" * 200,  # a long key: `? key`
    ],
    ids=["short-lines", "escapes", "bom", "emoji", "empty", "long-key"],
)
def test_the_size_bound_is_never_under_the_size(text: str) -> None:
    """Validate measures only above the bound; below it, the YAML must be shorter."""
    for items in (1, 40):
        spec = taskspec_pb2.TaskSpec()
        _fill_strings(spec, text, items)
        assert _validate._size_bound(spec) >= len(taskspec.marshal_yaml(spec))


# -- JSON and binary protobuf --------------------------------------------------------


def test_json_problems_in_our_words() -> None:
    check_invalid(
        b'{\n  "taskId": "a"\n  "prompt": "b"\n}',
        "TS020",
        line=3,
        column=3,
        message="invalid JSON: expected ',' or '}'",
        fmt=Format.JSON,
    )
    check_invalid(b"[1 2]", "TS020", line=1, column=4, message="invalid JSON: expected ',' or ']'",
                  fmt=Format.JSON)  # fmt: skip
    check_invalid(b"", "TS020", line=1, column=1, message="invalid JSON: expected a value",
                  fmt=Format.JSON)  # fmt: skip


def test_json_reports_every_unknown_key_and_wrong_value_then_the_rules() -> None:
    obj = json.loads(taskspec.marshal_json(valid_spec()))
    obj["bogus"] = 1
    obj["taskId"] = 5
    obj["solutionArtifacts"][0]["path"] = "/etc"
    problems = taskspec.check(json.dumps(obj), Format.JSON)
    assert [(v.code, v.field_path, v.severity) for v in problems] == [
        ("TS003", "task_id", "error"),
        ("TS001", "bogus", "error"),
        ("TS301", "solution_artifacts[0].path", "warning"),
    ]
    assert problems[1].message == 'unknown field "bogus"'
    json_fields = ", ".join(f.json_name for f in taskspec.TaskSpec.DESCRIPTOR.fields)
    assert problems[1].hint == f"expected one of: {json_fields}"


@pytest.mark.parametrize(
    ("path", "key", "meant"),
    [
        ((), "promt", "prompt"),
        ((), "generated_frm", "generatedFrom"),
        ((), "taskid", "taskId"),
        (("generatedFrom",), "knd", "kind"),
        (("verification",), "testCmds", "testCmd"),
    ],
)
def test_a_misspelt_json_key_is_one_problem_and_its_hint_uses_json_names(
    path: tuple[str, ...], key: str, meant: str
) -> None:
    """As in YAML: the hint names the field, whose broken rules (and those under it) are hidden.

    The guess is YAML's, among the proto names; the hint spells it as JSON
    does, the name marshal_json writes.
    """
    obj = json.loads(taskspec.marshal_json(valid_spec()))
    target = obj
    for part in path:
        target = target[part]
    target[key] = target.pop(meant)
    parent = ".".join({"generatedFrom": "generated_from"}.get(p, p) for p in path)
    field_path = f"{parent}.{key}" if parent else key
    where = f" in {parent}" if parent else ""
    check_only(
        json.dumps(obj),
        Violation(
            field_path,
            f'unknown field "{key}"{where}',
            hint=f'did you mean "{meant}"?',
            code="TS001",
        ),
        fmt=Format.JSON,
    )


def test_a_json_key_without_a_guess_hides_nothing() -> None:
    obj = json.loads(taskspec.marshal_json(valid_spec()))
    obj["zzz"] = obj.pop("prompt")
    problems = taskspec.check(json.dumps(obj), Format.JSON)
    assert [(v.code, v.field_path) for v in problems] == [("TS001", "zzz"), ("TS101", "prompt")]


def test_binpb_problems_in_our_words() -> None:
    data = taskspec.marshal_binpb(valid_spec())
    check_invalid(
        data + b"\x12\x05ab",
        "TS021",
        message="invalid binary TaskSpec: field task_id is longer than the data",
        fmt=Format.BINPB,
    )
    check_invalid(
        data + b"\xff",
        "TS021",
        message="invalid binary TaskSpec: the data ends inside a field's tag",
        fmt=Format.BINPB,
    )


def test_an_unknown_format_is_quoted_as_go_quotes() -> None:
    with pytest.raises(TaskSpecError) as info:
        taskspec.check(b"", "xml")
    assert str(info.value) == 'unknown format "xml"; expected one of: yaml, json, binpb'


# -- valid documents cost one parse ------------------------------------------------


def test_a_valid_canonical_document_is_not_composed(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> object:
        raise AssertionError("composed")

    monkeypatch.setattr(_decode, "decode", refuse)
    assert taskspec.check(VALID_DOC) == []
    taskspec.parse_task_spec(VALID_DOC)


# -- every message in the catalogue's words ----------------------------------------------

#: Phrases of runtime libraries (Python's json and protobuf, libyaml, yaml.v3)
#: that must never reach a message.
FORBIDDEN = (
    "Expecting value",
    "Expecting property name",
    "Wire format",
    "Error parsing message",
    "unmarshal errors",
    "not found in type",
    "eval.",
    "while scanning",
    "while parsing",
    "found character",
    "did not find expected",
    "could not find expected",
)
#: A Python repr's quoting: a quoted word in single quotes, as 'xml'.
_PY_REPR = re.compile(r"(?<![A-Za-z\"'])'[A-Za-z_][A-Za-z0-9_]*'(?![A-Za-z])")


@cache
def _template(text: str) -> re.Pattern[str]:
    parts = re.split(r"\{[a-z_]+\}", text)
    return re.compile(".*".join(re.escape(p) for p in parts), re.DOTALL)


def _matches(text: str, templates: tuple[str, ...]) -> bool:
    return any(_template(t).fullmatch(text) for t in templates)


def _assert_our_words(v: Violation) -> None:
    kind = CATALOGUE.get(v.code)
    assert kind is not None, v
    assert v.severity in ("error", "warning"), v
    assert _matches(v.message, kind.messages), v
    assert not v.hint or _matches(v.hint, kind.hints), v
    text = f"{v.message}\n{v.hint}"
    for phrase in FORBIDDEN:
        assert phrase not in text, (phrase, v)
    assert not _PY_REPR.search(v.message.replace("('- ')", "").replace("':'", "")), v


def _documents() -> Iterator[tuple[str, bytes | str, Format]]:
    for folder in ("conformance/vectors", "conformance/sources"):
        for path in sorted((ROOT / folder).rglob("*.yaml")):
            yield str(path.relative_to(ROOT)), path.read_bytes(), Format.YAML
    # Every rule broken and kept, as the rule cases both languages run do it.
    cases = json.loads(rule_cases.OUTPUT.read_text())
    for case in cases["cases"]:
        yield f"rule case {case['name']}", rule_cases.document(cases, case), Format.YAML
    for name, doc in ESCAPES.items():
        yield name, doc, Format.YAML
    yield "aliases expanding past the limit", _expanding_doc(17), Format.YAML
    for name, case in SYNTAX_CASES.items():
        yield name, case[0], Format.YAML
    for name, mistake in PROMPT_MISTAKES.items():
        yield name, _prompt(mistake[0]), Format.YAML
    hand_made: list[str] = [
        "task_id: t1\ntask_id: t2\n",
        "prompt: run go test ./... first\nverification:\n  test_cmd: [go, test, ./...]\n",
        "~: 1\n",
        "a\n...\nb: 1\n",
        "task_id: !!binary eA==\n",
        "verification:\n  timeout_seconds: 1.5\n",
        "verification:\n  timeout_seconds: 99999999999999999999\n",
        "difficulty_signals: {a: x}\n",
        "",
        "- a\n",
        "{a: [b, c: d]}\n",
        "%YAML 1.2\n---\na: 1\n",
        "%YAML 2.0\n---\na: 1\n",
        "%TAG !x! y\n%TAG !x! y\n---\na: 1\n",
        "a: &x 1\nb: *y\n",
        "prompt: !x!y z\n",
        "prompt: & x\n",
        "x: [a\n---\n",
        'a: "\\x4"\n',
        "\ufeff\ufefftask_id: x\n",
        "task_id: x\n\ufeffprompt: y\n",
        BASE.replace("path: mathx/gcd.go", "path: ../x\x85"),
        "[" * 100 + "]" * 100,
        "a: b: c: d\n",
    ]
    for i, text in enumerate(hand_made):
        yield f"hand-made {i}", text, Format.YAML
    valid_json = taskspec.marshal_json(valid_spec())
    for i, json_doc in enumerate(
        [
            b"",
            b"{",
            b'{"a" 1}',
            b'{"a":1 "b"}',
            b"[1 2]",
            b'"abc',
            b'"a\x01"',
            b'"\\q"',
            b'"\\u12"',
            b"{} x",
            b'{"a":1,}',
            b"[1,]",
            b"tru",
            b'{"taskId": "a", "taskId": "b"}',
            b'{"taskId": NaN}',
            b'{"a":' * 2000,
            b'{"taskId": "\xff"}',
            b'{"taskId": "a", "task_id": "b"}',
            b'{"language": "GO", "verification": {"timeoutSeconds": "x", "testCmd": "go"}}',
            b'{"difficultySignals": {"a": true}, "solutionArtifacts": [5, {"path": "/x"}]}',
            b'{"taskId": "\\ud800", "generatedFrom": {"kgQuery": {"seed": 1}}}',
            b'{"taskSpecVersion": "99999999999999999999", "verification": []}',
            valid_json,
            valid_json.replace(b'"go"', b'"../../go"'),
        ]
    ):
        yield f"json {i}", json_doc, Format.JSON
    valid_bin = taskspec.marshal_binpb(valid_spec())
    for i, bin_doc in enumerate(
        [
            b"\xff",
            valid_bin + b"\x12\x05ab",
            valid_bin + b"\x12\x02\xff\xfe",
            valid_bin + b"\xf8\x7f\x05",
            valid_bin + b"\x0f",
            valid_bin + b"\x10",
            valid_bin + b"\x4a\x02\x18\x01",
            b"",
        ]
    ):
        yield f"binpb {i}", bin_doc, Format.BINPB


def test_every_problem_the_library_produces_is_in_the_catalogue_s_words() -> None:
    seen: set[str] = set()
    count = 0
    for name, doc, fmt in _documents():
        for v in taskspec.check(doc, fmt):
            try:
                _assert_our_words(v)
            except AssertionError as err:
                raise AssertionError(f"{name}: {err}") from None
            seen.add(v.code)
            count += 1
        try:
            taskspec.parse(doc, fmt)
        except TaskSpecError as err:
            for v in err.violations:
                _assert_our_words(v)
            assert "\n" not in str(err) or fmt is Format.YAML
    assert count > 500
    # Every document-stage code of the catalogue is met by this sweep.
    wanted = {c for c, k in CATALOGUE.items() if k.stage in ("decode", "validate", "lint")}
    # TS106: Go only; the kinds no rule of the contract uses: tests/test_constraints.py.
    # (The kinds the rules use are met in the rule cases.)
    assert wanted - seen <= {"TS106", *unused_kind_codes()}, sorted(wanted - seen)


def test_the_sweep_meets_the_hints_it_checks() -> None:
    hints = {v.hint for _, doc, fmt in _documents() for v in taskspec.check(doc, fmt) if v.hint}
    assert any(h.startswith("did you mean") for h in hints)
    assert any(h.startswith("a value that starts with") for h in hints)
    assert any(h.startswith("key ") for h in hints)
