"""Fixes as data: each problem's one safe fix, the same in both libraries, and applying them.

``tests/contract/fixes.json`` holds documents and the fix each of their
problems carries; the Go suite reads it too (``go/fixes_test.go``). Here:
the Python library, the Go library through the conformance consumer, and
:func:`taskspec.apply_fixes`; then every fix of the shared problem table
applied alone; then ``taskspec validate --fix`` and
:func:`taskspec.format_document`.
"""

from __future__ import annotations

import base64
import doctest
import json
import pickle
from pathlib import Path
from typing import Any

import pytest

import taskspec
from taskspec import Fix, Violation
from taskspec.v1 import problems_pb2
from tests.cliutil import run_cli
from tests.conformance.gobridge import GoConsumer
from tests.contract.problem_cases import TABLE as PROBLEM_TABLE
from tests.contract.problem_cases import document
from tests.helpers import VALID_DOC

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "contract" / "fixes.json"
CASES: list[dict[str, Any]] = json.loads(TABLE.read_text(encoding="utf-8"))["cases"]
IDS = [c["name"] for c in CASES]
FIX_KEYS = [f.name for f in problems_pb2.Fix.DESCRIPTOR.fields]


def _fixes(problems: list[Violation]) -> list[dict[str, Any]]:
    return [
        {"code": v.code, "field_path": v.field_path, **v.fix.to_dict()}
        for v in problems
        if v.fix is not None
    ]


def _errors(text: str) -> list[Violation]:
    return [v for v in taskspec.check(text) if v.severity == "error"]


def test_the_table_has_fixes_of_every_kind_and_cases_without() -> None:
    fixed_codes = {f["code"] for c in CASES for f in c["fixes"]}
    assert {"TS001", "TS103", "TS011", "TS014"} <= fixed_codes
    assert any(not c["fixes"] for c in CASES)
    for case in CASES:
        for fix in case["fixes"]:
            assert list(fix)[2:] == FIX_KEYS, fix


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_python_gives_the_tables_fixes(case: dict[str, Any]) -> None:
    problems = taskspec.check(case["text"])
    assert _fixes(problems) == case["fixes"]
    fixed = taskspec.apply_fixes(case["text"], problems)
    assert fixed == case["fixed"]
    assert (not _errors(fixed)) == case["valid_after"]
    if not case["fixes"]:
        assert fixed == case["text"]


def test_go_gives_the_tables_fixes(go: GoConsumer) -> None:
    answers = go.batch(
        [
            {"op": "lib_check", "yaml_b64": base64.b64encode(c["text"].encode()).decode()}
            for c in CASES
        ]
    )
    for case, answer in zip(CASES, answers, strict=True):
        got = [
            {"code": p["code"], "field_path": p["field_path"], **p["fix"]}
            for p in answer["problems"]
            if "fix" in p
        ]
        assert got == case["fixes"], case["name"]


def _problem_table_fixes() -> list[tuple[str, bytes, Violation]]:
    cases = json.loads(PROBLEM_TABLE.read_text(encoding="utf-8"))["cases"]
    out: list[tuple[str, bytes, Violation]] = []
    for case in cases:
        if case["format"] != "yaml":
            continue
        data = document(case)
        out.extend((case["name"], data, v) for v in taskspec.check(data) if v.fix is not None)
    return out


def test_each_fix_of_the_problem_table_removes_its_problem_and_adds_none() -> None:
    found = _problem_table_fixes()
    assert len(found) >= 20
    for name, data, v in found:
        text = data.decode("utf-8")
        before = taskspec.check(text)
        after = taskspec.check(taskspec.apply_fixes(text, [v]))
        assert len(after) <= len(before), (name, v, after)
        assert not any((a.code, a.message, a.line) == (v.code, v.message, v.line) for a in after), (
            name,
            v,
            after,
        )


def test_a_fix_replaces_only_its_own_span() -> None:
    text = "task_id: t1\nlanguag: go\n"
    (v,) = [p for p in taskspec.check(text) if p.fix is not None]
    assert v.fix == Fix("language", 2, 1, 2, 8)
    moved = Violation(
        v.field_path, v.message, v.line, v.column, v.hint, v.code, fix=Fix("X", 1, 1, 1, 3)
    )
    assert taskspec.apply_fixes(text, [moved]) == "Xsk_id: t1\nlanguag: go\n"
    # Overlapping fixes: the one later in the text is written, the other left out.
    later = Violation("", "", fix=Fix("Y", 2, 3, 2, 6))
    assert taskspec.apply_fixes(text, [v, later]) == "task_id: t1\nlaYag: go\n"
    # A fix outside the text is passed over.
    far = Violation("", "", fix=Fix("Z", 9, 1, 9, 2))
    assert taskspec.apply_fixes(text, [far]) == text
    past = Violation("", "", fix=Fix("Z", 1, 20, 1, 21))
    assert taskspec.apply_fixes(text, [past]) == text


def test_a_fix_survives_the_proto_pickling_and_equality() -> None:
    (v,) = [p for p in taskspec.check("task_id: t1\nlanguag: go\n") if p.fix is not None]
    assert Violation.from_proto(v.to_proto()) == v
    assert v.to_proto().fix.text == "language"
    assert pickle.loads(pickle.dumps(v)) == v
    assert v != Violation(v.field_path, v.message, v.line, v.column, v.hint, v.code, v.severity)
    no_fix = Violation("a", "b")
    assert Violation.from_proto(no_fix.to_proto()) == no_fix
    assert not no_fix.to_proto().HasField("fix")


def test_validate_fix_writes_the_fixes_keeping_comments_crlf_and_layout(tmp_path: Path) -> None:
    text = VALID_DOC.decode()
    broken = text.replace("language: go", "languag: golang  # the language", 1)
    broken = broken.replace("difficulty: medium", "difficulty: Medium", 1)
    broken = "# owner: eval\n" + broken
    crlf = broken.replace("\n", "\r\n").encode()
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(crlf)
    result = run_cli(["validate", "--fix", str(tmp_path)])
    assert result.code == 0, result
    want = "# owner: eval\n" + text.replace("language: go", "language: go  # the language", 1)
    assert path.read_bytes() == want.replace("\n", "\r\n").encode()
    assert f"fixed {path}" in result.err
    # A second run has nothing to fix, and says nothing of it.
    again = run_cli(["validate", "--fix", str(path)])
    assert again.code == 0
    assert "fixed" not in again.err


def test_validate_fix_reports_what_it_cannot_fix(tmp_path: Path) -> None:
    text = VALID_DOC.decode().replace("language: go", "languag: go\nowner: platform", 1)
    path = tmp_path / "x.taskspec.yaml"
    path.write_text(text)
    result = run_cli(["validate", "--fix", "--format", "jsonl", str(path)])
    assert result.code == 1
    records = [json.loads(line) for line in result.out.splitlines()]
    assert [r["field_path"] for r in records] == ["owner"]
    assert "fix" not in records[0]
    assert path.read_text() == text.replace("languag:", "language:")


def test_validate_fix_leaves_json_and_stdin_alone(tmp_path: Path) -> None:
    doc = b"task_id: t1\nlanguag: go\n"
    assert run_cli(["validate", "--fix", "-"], stdin=doc).code == 1
    path = tmp_path / "x.taskspec.json"
    path.write_text('{"taskId": 5}')
    run_cli(["validate", "--fix", str(path)])
    assert path.read_text() == '{"taskId": 5}'


def test_validate_json_carries_the_fix() -> None:
    result = run_cli(["validate", "--format", "json", "-"], stdin=b"task_id: t1\nlanguag: go\n")
    records = json.loads(result.out)["problems"]
    fixed = [r for r in records if "fix" in r]
    assert [r["fix"] for r in fixed] == [
        {"text": "language", "start_line": 2, "start_column": 1, "end_line": 2, "end_column": 8}
    ]


def test_format_document_keeps_comments_and_crlf() -> None:
    text = VALID_DOC.decode().replace("language: go", "language: go  # the language", 1)
    formatted = taskspec.format_document(text.replace("\n", "\r\n"))
    assert formatted == taskspec.format_document(text).replace("\n", "\r\n")
    assert "language: go # the language\r\n" in formatted
    assert taskspec.format_document(formatted) == formatted
    with pytest.raises(taskspec.DecodeError):
        taskspec.format_document("task_id: t1\nlanguag: go\n")


def test_the_public_functions_have_running_examples() -> None:
    import taskspec._fixes as module  # noqa: PLC0415

    failed, tried = doctest.testmod(module)
    assert (failed, tried) == (0, tried) and tried >= 4
    assert {"apply_fixes", "format_document", "Fix"} <= set(taskspec.__all__)
