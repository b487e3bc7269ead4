"""Positions as editors count them: lines end at LF, CR LF and CR only.

libyaml and yaml.v3 end lines at NEL, LINE SEPARATOR and PARAGRAPH
SEPARATOR too; a problem's position is converted from theirs in one place
(``taskspec.bridge._breaks.editor_position``, Go's ``source.Text.
EditorPosition``), checked here on the table both suites read
(``tests/contract/editor_positions.json``), then through the readers and
the CLI on a document whose quoted prompt holds a raw NEL and a raw LS.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest

import taskspec
from taskspec.bridge._breaks import editor_position
from tests.cliutil import run_cli
from tests.contract.problem_cases import NINE_LINES

TABLE: Final = Path(__file__).resolve().parent / "contract" / "editor_positions.json"


def _cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads(TABLE.read_text(encoding="utf-8"))["cases"]
    return cases


def test_the_shared_table_has_cases_of_each_break() -> None:
    texts = "".join(c["text"] for c in _cases())
    assert all(c in texts for c in "\x85\u2028\u2029\r\n")


@pytest.mark.parametrize("case", _cases(), ids=lambda c: f"{c['text']!a}@{c['yaml']}")
def test_editor_position_of_the_shared_table(case: dict[str, Any]) -> None:
    assert list(editor_position(case["text"], *case["yaml"])) == case["editor"]


def test_the_nine_line_document_has_its_problems_on_lines_8_and_9() -> None:
    problems = taskspec.check(NINE_LINES)
    errors = [(v.field_path, v.line, v.column) for v in problems if v.severity == "error"]
    assert errors == [("bogus", 8, 1), ("languag", 9, 1)]
    line6 = NINE_LINES.split("\n")[5]
    # A warning for the NEL and one for the LS, each at the character.
    warnings = [(v.code, v.line, v.column) for v in problems if v.severity == "warning"]
    assert warnings == [
        ("TS302", 6, line6.index("\x85") + 1),
        ("TS302", 6, line6.index("\u2028") + 1),
    ]
    with pytest.raises(taskspec.DecodeError) as info:
        taskspec.parse_task_spec(NINE_LINES)
    assert (info.value.line, info.value.column) == (8, 1)
    assert str(info.value).startswith("line 8, column 1: bogus: unknown field")


def test_the_cli_annotates_lines_8_and_9(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_text(NINE_LINES, encoding="utf-8", newline="")
    result = run_cli(["validate", "--format", "github", str(path)])
    assert result.code == 1
    annotations = result.out.decode().splitlines()
    assert [a.split("::")[1].split(",")[1:3] for a in annotations if a.startswith("::error")] == [
        ["line=8", "col=1"],
        ["line=9", "col=1"],
    ]
    text = run_cli(["validate", str(path)]).out.decode()
    assert f"{path}:8:1: TS001" in text
    assert f"{path}:9:1: TS001" in text


def test_a_problem_after_crlf_and_lone_cr_lines_is_where_editors_put_it() -> None:
    for eol in ("\r\n", "\r"):
        doc = NINE_LINES.replace("\n", eol)
        assert [(v.line, v.column) for v in taskspec.check(doc) if v.code == "TS001"] == [
            (8, 1),
            (9, 1),
        ]
