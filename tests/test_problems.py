"""Every problem of a file in one run, each with a stable code, in every output format."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import taskspec
from taskspec import TaskSpec
from taskspec._codes import CODES, RULE_CODES
from taskspec._rules import RULES
from tests.cliutil import run_cli
from tests.helpers import VALID_DOC

ROOT = Path(__file__).resolve().parent.parent

#: A sidecar with a misspelt key, an extra key, a negative timeout, a
#: duplicate key, an unknown key deeper down, a misspelt enum value, a
#: value of the wrong type and a bad signal value: the new user's file and more.
MESSY = (
    VALID_DOC.replace(b"task_id:", b"taskid:")
    .replace(b"language: go", b"language: golang")
    .replace(b"difficulty: medium", b"difficulty: medium\nowner: me")
    .replace(b"    edge_count: 9", b"    edge_count: lots")
    .replace(b"    template_id: impl-pure-fn", b"    template: impl-pure-fn")
    .replace(b"      role: target", b"      role: [target]")
    .replace(b"timeout_seconds: 120", b"timeout_seconds: -5\n    timeout_seconds: 7")
)


def test_validate_reports_every_problem_of_a_file_at_its_own_line_and_column() -> None:
    result = run_cli(["validate", "-", "--stdin-filename", "t.yaml"], stdin=MESSY)
    assert result.code == 1
    assert result.out.decode().splitlines() == [
        't.yaml:2:1: TS001 taskid: unknown field "taskid"; did you mean "task_id"?',
        't.yaml:3:11: TS103 invalid language "golang"; did you mean "go"?',
        't.yaml:5:1: TS001 owner: unknown field "owner"; expected one of: '
        + ", ".join(f.name for f in TaskSpec.DESCRIPTOR.fields),
        't.yaml:8:17: TS003 difficulty_signals["edge_count"]: expected an integer,'
        ' got the string "lots"',
        't.yaml:11:5: TS001 generated_from.template: unknown field "template" in generated_from;'
        ' did you mean "template_id"?',
        "t.yaml:18:13: TS003 solution_artifacts[0].role: expected a string, got a sequence",
        "t.yaml:28:22: TS104 verification.timeout_seconds must be non-negative, got -5",
        't.yaml:29:5: TS002 verification.timeout_seconds: duplicate key "timeout_seconds"'
        " (first defined at line 28)",
    ]
    assert result.err.startswith("0 valid, 1 invalid, in ")


def test_the_library_still_stops_at_the_first_decode_problem() -> None:
    # Go's DecodeError holds one problem; parse_task_spec raises the same one.
    with pytest.raises(taskspec.DecodeError) as info:
        taskspec.parse_task_spec(MESSY)
    assert [v.field_path for v in info.value.violations] == ["taskid"]
    assert info.value.violations[0].code == "TS001"


def test_broken_yaml_is_reported_alone() -> None:
    doc = MESSY + b"extra: [unclosed\n"
    result = run_cli(["validate", "-"], stdin=doc)
    assert result.code == 1
    (line,) = result.out.decode().splitlines()
    assert line.startswith("-:31:1: TS005 invalid YAML: ")


def test_a_value_that_cannot_be_read_is_not_reported_again_as_a_broken_rule() -> None:
    # task_id: [a] leaves task_id empty; "task_id is required" would say it twice.
    doc = VALID_DOC.replace(b"task_id: kg-go-impl-mathx-gcd", b"task_id: [a]")
    result = run_cli(["validate", "-"], stdin=doc)
    assert result.out.decode() == "-:2:10: TS003 task_id: expected a string, got a sequence\n"


def test_a_missing_key_is_placed_at_its_mapping_and_named_in_a_hint() -> None:
    doc = b"# a note\n" + VALID_DOC.replace(b"language: go\n", b"").replace(
        b"    kind: kg_template\n", b""
    )
    result = run_cli(["validate", "-", "--format", "jsonl"], stdin=doc)
    records = [json.loads(line) for line in result.out.splitlines()]
    # The message stays the Go package's; the hint says what is wrong.
    assert records == [
        {
            "path": "-",
            "line": 2,
            "column": 1,
            "code": "TS103",
            "field_path": "language",
            "message": 'invalid language ""',
            "hint": 'key "language" is missing',
        },
        {
            "path": "-",
            "line": 9,
            "column": 5,
            "code": "TS103",
            "field_path": "generated_from.kind",
            "message": 'invalid generated_from.kind ""',
            "hint": 'key "kind" is missing in generated_from',
        },
    ]
    text = run_cli(["validate", "-"], stdin=doc).out.decode()
    assert text.startswith('-:2:1: TS103 invalid language ""; key "language" is missing\n')
    with pytest.raises(taskspec.ValidationError) as info:
        taskspec.parse_task_spec(doc)
    assert str(info.value).startswith('invalid language ""')


def test_a_tab_is_named_at_its_line_and_column() -> None:
    for doc, where in (
        (VALID_DOC.replace(b"    edge_count: 9", b"\tedge_count: 9"), "7:1"),
        (VALID_DOC.replace(b"    kind: kg_template", b"    kind: kg_template\n\t"), "10:1"),
        (b"task_spec_version: 1\nverification:\n  test_cmd:\n  \t- go\n", "4:3"),
    ):
        result = run_cli(["validate", "-"], stdin=doc)
        assert result.out.decode() == (
            f"-:{where}: TS005 invalid YAML: a tab character cannot indent YAML; use spaces\n"
        ), doc


def test_hints_read_the_same_for_keys_and_enums_in_every_format() -> None:
    doc = VALID_DOC.replace(b"task_id:", b"taskid:")
    enum = VALID_DOC.replace(b"language: go", b"language: golang")
    for data, message, hint in (
        (doc, 'taskid: unknown field "taskid"', 'did you mean "task_id"?'),
        (enum, 'invalid language "golang"', 'did you mean "go"?'),
    ):
        text = run_cli(["validate", "-"], stdin=data).out.decode()
        assert text.endswith(f"{message}; {hint}\n")
        github = run_cli(["validate", "--format", "github", "-"], stdin=data).out.decode()
        assert github.endswith(f"::{message}; {hint}\n")
        document = json.loads(run_cli(["validate", "--format", "json", "-"], stdin=data).out)
        (record,) = document["problems"]
        assert (record["message"], record["hint"]) == (message, hint)


def test_every_format_carries_the_code() -> None:
    doc = VALID_DOC.replace(b"task_id:", b"taskid:")
    text = run_cli(["validate", "-"], stdin=doc).out.decode()
    assert text.startswith("-:2:1: TS001 ")
    github = run_cli(["validate", "--format", "github", "-"], stdin=doc).out.decode()
    assert github.startswith("::error file=-,line=2,col=1,title=TS001::")
    jsonl = run_cli(["validate", "--format", "jsonl", "-"], stdin=doc).out
    assert json.loads(jsonl)["code"] == "TS001"


def test_json_is_one_document_even_with_no_problem() -> None:
    result = run_cli(["validate", "--format", "json", "-"], stdin=VALID_DOC)
    assert result.code == 0
    assert json.loads(result.out) == {
        "problems": [],
        "summary": {"files": 1, "valid": 1, "invalid": 0, "unreadable": 0, "problems": 0},
    }


def test_every_rule_has_a_code_and_every_code_a_row_in_the_readme() -> None:
    assert {RULE_CODES[rule.check.value] for rule in RULES} <= set(CODES)
    readme = (ROOT / "README.md").read_text()
    rows = re.findall(r"^\| `(TS\d{3})` \| (?:error|warning) \| (.+?) \|$", readme, re.MULTILINE)
    assert rows == list(CODES.items()), "the README's table of codes is taskspec._codes.CODES"
