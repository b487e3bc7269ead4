"""Every problem of a file in one run, each with a stable code, in every output format."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format

import taskspec
from taskspec import TaskSpec
from taskspec._codes import CATALOGUE, CODES, explain
from taskspec._contract import constraint_kinds
from taskspec._rules import KIND_CODES, RULES
from taskspec.cli import _cmd_explain
from taskspec.cli._kit import RECORD_KEYS, format_problem, read_format
from taskspec.v1 import problems_pb2
from tests.cliutil import run_cli
from tests.docs import blocks, page
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
    # taskspec.check's order: the decode problems in the order of the file,
    # then the broken rules of what could be read, then the warnings.
    assert result.out.decode().splitlines() == [
        't.yaml:2:1: TS001 taskid: unknown field "taskid"; did you mean "task_id"?',
        't.yaml:5:1: TS001 owner: unknown field "owner"; expected one of: '
        + ", ".join(f.name for f in TaskSpec.DESCRIPTOR.fields),
        't.yaml:8:17: TS003 difficulty_signals["edge_count"]: expected an integer,'
        ' got the string "lots"',
        't.yaml:11:5: TS001 generated_from.template: unknown field "template" in generated_from;'
        ' did you mean "template_id"?',
        "t.yaml:18:13: TS003 solution_artifacts[0].role: expected a string, got a sequence;"
        ' a value that starts with "[" must be quoted, or written as a block scalar (|)',
        't.yaml:29:5: TS002 verification.timeout_seconds: duplicate key "timeout_seconds"'
        " (first defined at line 28)",
        't.yaml:3:11: TS103 invalid language "golang"; did you mean "go"?',
        "t.yaml:28:22: TS104 verification.timeout_seconds must be non-negative, got -5",
    ]
    assert result.err.startswith("0 valid, 1 invalid, in ")


def test_validate_lists_what_taskspec_check_returns_and_the_library_raises() -> None:
    problems = taskspec.check(MESSY)
    records = json.loads(run_cli(["validate", "--format", "json", "-"], stdin=MESSY).out)
    assert [taskspec.Violation.from_proto(_problem(r)) for r in records["problems"]] == problems
    # The library's error holds the same problems, the one it stopped at first.
    with pytest.raises(taskspec.DecodeError) as info:
        taskspec.parse_task_spec(MESSY)
    assert info.value.violations[0].field_path == "taskid"
    assert sorted(info.value.violations, key=repr) == sorted(problems, key=repr)


def _problem(record: dict[str, Any]) -> problems_pb2.Problem:
    """A JSON record of validate, less its path, read as the Problem it is."""
    fields = {k: v for k, v in record.items() if k != "path"}
    fields["severity"] = f"SEVERITY_{record['severity'].upper()}"
    return json_format.ParseDict(fields, problems_pb2.Problem())


def test_broken_yaml_is_reported_alone() -> None:
    doc = MESSY + b"extra: [unclosed\n"
    result = run_cli(["validate", "-"], stdin=doc)
    assert result.code == 1
    assert result.out.decode() == (
        "-:31:1: TS013 invalid YAML: a [ list is not closed with ];"
        " close it, or quote the value if the bracket is text\n"
    )


def test_a_value_that_cannot_be_read_is_not_reported_again_as_a_broken_rule() -> None:
    # task_id: [a] leaves task_id empty; "task_id is required" would say it twice.
    doc = VALID_DOC.replace(b"task_id: kg-go-impl-mathx-gcd", b"task_id: [a]")
    result = run_cli(["validate", "-"], stdin=doc)
    assert result.out.decode() == (
        "-:2:10: TS003 task_id: expected a string, got a sequence;"
        ' a value that starts with "[" must be quoted, or written as a block scalar (|)\n'
    )


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
            "code": "TS103",
            "field_path": "language",
            "line": 2,
            "column": 1,
            "message": 'invalid language ""',
            "hint": 'key "language" is missing',
            "severity": "error",
        },
        {
            "path": "-",
            "code": "TS103",
            "field_path": "generated_from.kind",
            "line": 9,
            "column": 5,
            "message": 'invalid generated_from.kind ""',
            "hint": 'key "kind" is missing in generated_from',
            "severity": "error",
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
            f"-:{where}: TS010 invalid YAML: a tab character cannot indent YAML;"
            " replace the tab with spaces\n"
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


def test_every_rule_has_a_code_and_every_code_a_row_in_the_docs() -> None:
    assert {rule.code for rule in RULES} <= set(CODES)
    assert set(KIND_CODES.values()) <= set(CODES)
    contract = page("docs/contract.md")
    rows = re.findall(r"^\| `(TS\d{3})` \| (?:error|warning) \| (.+?) \|$", contract, re.MULTILINE)
    assert rows == list(CODES.items()), "docs/contract.md's table of codes is taskspec._codes.CODES"


def test_each_kind_of_constraint_has_one_entry_in_the_catalogue() -> None:
    """A kind's code is a ProblemCode value's or its own declared entry's, named as it is."""
    enum_numbers = {v.number for v in problems_pb2.ProblemCode.DESCRIPTOR.values}
    codes = [kind.number for kind in constraint_kinds()]
    assert len(codes) == len(set(codes))
    for kind in constraint_kinds():
        entry = CATALOGUE[f"TS{kind.number:03d}"]
        assert (kind.number in enum_numbers) != (kind.problem is not None), kind.name
        if kind.problem is not None:
            assert entry.name == kind.field.name
            assert entry.title == kind.problem.title
            assert entry.stage == "validate"
            assert entry.messages == ("{rule}",)
    assert list(CATALOGUE) == sorted(CATALOGUE)


# -- taskspec explain ------------------------------------------------------------


def test_explain_prints_the_catalogues_explanation_of_a_code_in_any_case() -> None:
    for arg in ("TS011", "ts011"):
        result = run_cli(["explain", arg])
        assert (result.code, result.err) == (0, "")
        assert result.out.decode() == _cmd_explain.explanation("TS011")
    text = run_cli(["explain", "TS301"]).out.decode()
    assert text.startswith("TS301 (artifact_path): artifact path that leads out of the workspace\n")
    assert "Severity: warning. Reported by: lint.\n" in text
    assert "\nFixed:\n    solution_artifacts:\n" in text


@pytest.mark.parametrize("code", list(CATALOGUE))
def test_explain_wraps_only_the_explanation_at_79_columns(code: str) -> None:
    """The paragraph is wrapped at word breaks; every other line is explain()'s, as it is.

    taskspec._codes.explain keeps the paragraph on one line: Go's Explain
    gives the same text, and a program wraps it as it needs.
    """
    printed = _cmd_explain.explanation(code).split("\n")
    lines = explain(code).split("\n")
    paragraph = CATALOGUE[code].explanation
    at = lines.index(paragraph)
    assert lines[at - 1] == lines[at + 1] == ""
    wrapped = printed[at : len(printed) - (len(lines) - at - 1)]
    assert printed[:at] == lines[:at]
    assert printed[at + len(wrapped) :] == lines[at + 1 :]
    assert " ".join(wrapped) == paragraph
    assert all(len(line) <= _cmd_explain.WIDTH for line in wrapped), wrapped
    assert all(line == line.strip() for line in wrapped)
    if len(paragraph) > _cmd_explain.WIDTH:
        assert len(wrapped) > 1


def test_explain_of_an_unknown_code_is_a_usage_error_naming_the_range() -> None:
    first, *_, last = CODES
    for arg in ("TS404", "E501", ""):
        result = run_cli(["explain", arg])
        assert (result.code, result.out) == (2, b""), arg
        assert result.err.startswith("usage: taskspec explain "), arg
        assert result.err.endswith(
            f'taskspec explain: error: argument CODE: unknown code "{arg}": the codes run from'
            f" {first} to {last} (taskspec explain --all lists them)\n"
        ), result.err
    both = run_cli(["explain", "--all", "TS011"])
    assert both.code == 2
    assert "not allowed with argument" in both.err


def test_explain_all_lists_every_code_with_its_severity_and_title() -> None:
    listed = run_cli(["explain", "--all"])
    assert (listed.code, listed.err) == (0, "")
    rows = [line.split(maxsplit=2) for line in listed.out.decode().splitlines()]
    assert rows == [[c, k.severity, k.title] for c, k in CATALOGUE.items()]
    assert {severity for _, severity, _ in rows} == {"error", "warning"}
    # The titles start in one column, whatever the severity's length.
    lines = listed.out.decode().splitlines()
    assert len({line.index(t) for line, (_, _, t) in zip(lines, rows, strict=True)}) == 1
    assert run_cli(["explain"]).out == listed.out


# -- one Problem shape, with its severity, in every format ---------------------------

#: An artifact path out of the workspace (TS301, a warning) and a negative
#: timeout (TS104, an error) in one file: neither hides the other.
ESCAPING_AND_NEGATIVE = VALID_DOC.replace(b"path: mathx/gcd.go", b"path: ../../etc/passwd").replace(
    b"timeout_seconds: 120", b"timeout_seconds: -5"
)
TS301_MESSAGE = (
    'artifact path "../../etc/passwd" is not allowed: the path climbs out of the workspace with ..'
)
TS104_MESSAGE = "verification.timeout_seconds must be non-negative, got -5"


#: The Problem fields a record leaves out when unset: those with presence.
OPTIONAL_RECORD_KEYS = {f.name for f in problems_pb2.Problem.DESCRIPTOR.fields if f.has_presence}


def test_json_records_are_the_problem_messages_fields_and_the_path() -> None:
    keys = ("path", *(f.name for f in problems_pb2.Problem.DESCRIPTOR.fields))
    assert keys == RECORD_KEYS
    for doc in (MESSY, ESCAPING_AND_NEGATIVE, b"task_id: [unclosed\n"):
        document = run_cli(["validate", "--format", "json", "-"], stdin=doc).out
        lines = run_cli(["validate", "--format", "jsonl", "-"], stdin=doc).out.splitlines()
        records = json.loads(document)["problems"]
        assert records == [json.loads(line) for line in lines]
        assert records
        for record in records:
            # A message field (fix) is written only when set, as proto3 JSON writes it.
            assert tuple(record) == tuple(k for k in keys if k in record), record
            assert {k for k in keys if k not in record} <= OPTIONAL_RECORD_KEYS, record
            # Less its path, a record is a Problem in proto3 JSON with its
            # field names and every field written (severity by its CLI name).
            fields = {k: v for k, v in record.items() if k != "path"}
            assert json_format.MessageToDict(
                _problem(record),
                preserving_proto_field_name=True,
                always_print_fields_with_no_presence=True,
            ) == {**fields, "severity": f"SEVERITY_{record['severity'].upper()}"}


def test_no_position_is_0_in_json_never_null() -> None:
    result = run_cli(["validate", "--format", "jsonl", "/nonexistent/taskspec.yaml"])
    assert json.loads(result.out) == {
        "path": "/nonexistent/taskspec.yaml",
        "code": "TS901",
        "field_path": "",
        "line": 0,
        "column": 0,
        "message": "cannot read: No such file or directory",
        "hint": "",
        "severity": "error",
    }
    assert b"null" not in run_cli(["validate", "--format", "json", "-"], stdin=MESSY).out


def test_an_escaping_path_and_a_broken_rule_are_both_reported_at_their_positions() -> None:
    text = run_cli(["validate", "-", "--stdin-filename", "t.yaml"], stdin=ESCAPING_AND_NEGATIVE)
    assert text.code == 1
    assert text.out.decode().splitlines() == [
        f"t.yaml:27:22: TS104 {TS104_MESSAGE}",
        f"t.yaml:16:13: warning: TS301 {TS301_MESSAGE}",
    ]
    github = run_cli(["validate", "--format", "github", "-"], stdin=ESCAPING_AND_NEGATIVE)
    assert github.out.decode().splitlines() == [
        f"::error file=-,line=27,col=22,title=TS104::{TS104_MESSAGE}",
        f"::warning file=-,line=16,col=13,title=TS301::{TS301_MESSAGE}",
    ]
    jsonl = run_cli(["validate", "--format", "jsonl", "-"], stdin=ESCAPING_AND_NEGATIVE).out
    records = [json.loads(line) for line in jsonl.splitlines()]
    assert [(r["code"], r["line"], r["column"], r["severity"]) for r in records] == [
        ("TS104", 27, 22, "error"),
        ("TS301", 16, 13, "warning"),
    ]


@pytest.mark.parametrize("fmt", ["text", "jsonl", "github"])
def test_strict_paths_makes_ts301_an_error_in_every_format(fmt: str) -> None:
    doc = VALID_DOC.replace(b"path: mathx/gcd.go", b"path: /etc/passwd")
    lenient = run_cli(["validate", "--format", fmt, "-"], stdin=doc)
    strict = run_cli(["validate", "--strict-paths", "--format", fmt, "-"], stdin=doc)
    assert (lenient.code, strict.code) == (0, 1)
    assert lenient.err.startswith("1 valid, 0 invalid")
    assert strict.err.startswith("0 valid, 1 invalid")
    (warned,) = lenient.out.decode().splitlines()
    (refused,) = strict.out.decode().splitlines()
    if fmt == "text":
        assert warned.startswith("-:16:13: warning: TS301 artifact path")
        assert refused == warned.replace("warning: ", "")
    elif fmt == "github":
        assert warned.startswith("::warning file=-,line=16,col=13,title=TS301::")
        assert refused == warned.replace("::warning ", "::error ")
    else:
        assert json.loads(warned)["severity"] == "warning"
        assert json.loads(refused) == {**json.loads(warned), "severity": "error"}


def test_a_raw_line_break_is_a_warning_with_its_hint_in_every_format() -> None:
    doc = VALID_DOC.replace(b"prompt: Implement mathx.GCD.", b'prompt: "Implement\xc2\x85it."')
    hint = 'write it as an escape in a double-quoted string ("\\N"), or remove it'
    message = "prompt: a raw NEL (U+0085) in the text is a line break to YAML 1.1 readers"
    text = run_cli(["validate", "-"], stdin=doc)
    assert text.code == 0
    assert text.out.decode() == f"-:14:19: warning: TS302 {message}; {hint}\n"
    jsonl = run_cli(["validate", "--format", "jsonl", "-"], stdin=doc).out
    record = json.loads(jsonl)
    assert (record["line"], record["column"]) == (14, 19)
    assert (record["message"], record["hint"], record["severity"]) == (message, hint, "warning")
    github = run_cli(["validate", "--format", "github", "-"], stdin=doc).out.decode()
    assert github == f"::warning file=-,line=14,col=19,title=TS302::{message}; {hint}\n"


def test_a_line_without_a_column_is_written_without_one() -> None:
    v = taskspec.Violation("", "invalid YAML: x", 3, 0, code="TS005")
    assert format_problem("text", "a.yaml", v) == "a.yaml:3: TS005 invalid YAML: x\n"
    github = format_problem("github", "a.yaml", v)
    assert github == "::error file=a.yaml,line=3,title=TS005::invalid YAML: x\n"
    assert json.loads(format_problem("jsonl", "a.yaml", v))["column"] == 0


# -- files by format ------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["t.taskspec.yaml", "A.YML", "x", "-", "s.json", "S.JSON", "b.binpb", "b.pb", "n.txt", ".json"],
)
def test_the_cli_reads_a_file_in_the_format_convert_gives_its_name(name: str) -> None:
    # read_format tells YAML apart without loading the converter: it must not drift from it.
    assert read_format(name) == (taskspec.format_for_path(name) or taskspec.Format.YAML)


def _converted(tmp_path: Path, fmt: str) -> Path:
    """VALID_DOC as `taskspec convert --to fmt` writes it, in spec.<fmt>."""
    source = tmp_path / "spec.taskspec.yaml"
    source.write_bytes(VALID_DOC)
    converted = run_cli(["convert", "--to", fmt, str(source)])
    assert converted.code == 0, converted.err
    path = tmp_path / f"spec.{fmt}"
    path.write_bytes(converted.out)
    return path


@pytest.mark.parametrize("fmt", ["json", "binpb"])
def test_validate_and_show_read_what_convert_wrote_by_its_extension(
    tmp_path: Path, fmt: str
) -> None:
    path = _converted(tmp_path, fmt)
    checked = run_cli(["validate", str(path)])
    assert (checked.code, checked.out) == (0, b"")
    assert checked.err.startswith("1 valid, 0 invalid")
    shown = run_cli(["show", str(path)])
    assert (shown.code, shown.out) == (0, VALID_DOC)
    # Standard input goes by the name --stdin-filename gives it.
    data = path.read_bytes()
    named = ["-", "--stdin-filename", path.name]
    assert run_cli(["validate", *named], stdin=data).code == 0
    assert run_cli(["show", *named], stdin=data).out == VALID_DOC
    assert run_cli(["convert", "--to", "yaml", *named], stdin=data).out == VALID_DOC
    # Without a name, standard input is YAML, which these bytes are not.
    assert run_cli(["validate", "-"], stdin=data).code == 1


def test_validate_of_broken_json_names_the_json_problem_at_its_position(tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    path.write_bytes(b'{\n  "taskId": "a",\n}\n')
    result = run_cli(["validate", "--format", "jsonl", str(path)])
    assert result.code == 1
    (record,) = (json.loads(line) for line in result.out.splitlines())
    assert (record["code"], record["line"], record["column"]) == ("TS020", 3, 1)
    text = run_cli(["validate", str(path)]).out.decode()
    assert text == f"{path}:3:1: TS020 {record['message']}\n"


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (b'{\n  "taskId": "a",\n}\n', (3, 1, "expected a property name in double quotes")),
        (b'{"files": [1,\n   ]}', (2, 4, "expected a value")),
    ],
)
def test_a_trailing_comma_is_placed_at_the_closer_on_every_python(
    text: bytes, where: tuple[int, int, str]
) -> None:
    # Python 3.13's json module reports a trailing comma at the comma, earlier
    # versions at the closer; the contract (and the Go library) say the closer.
    (problem,) = taskspec.check(text, format="json")
    assert (problem.code, problem.line, problem.column) == ("TS020", *where[:2])
    assert problem.message == f"invalid JSON: {where[2]}"


def test_validate_of_broken_binary_names_the_binary_problem(tmp_path: Path) -> None:
    path = tmp_path / "spec.binpb"
    path.write_bytes(b"\x12\xff")  # a length that runs past the end
    result = run_cli(["validate", "--format", "jsonl", str(path)])
    assert result.code == 1
    (record,) = (json.loads(line) for line in result.out.splitlines())
    assert record["code"] == "TS021"
    assert "UTF-8" not in record["message"]  # not read as YAML text


@pytest.mark.parametrize(
    ("name", "called"), [("spec.json", "proto3 JSON"), ("x.binpb", "binary protobuf")]
)
def test_fmt_refuses_a_file_that_is_not_yaml_unread_and_points_to_convert(
    tmp_path: Path, name: str, called: str
) -> None:
    path = tmp_path / name
    path.write_bytes(b"anything: at all\n")
    result = run_cli(["fmt", str(path)])
    assert (result.code, result.out) == (1, b"")
    assert result.err == (
        f"{path}: TS903 fmt formats YAML only, and this file is {called}"
        " (taskspec convert --to yaml turns it into YAML)\n"
        "0 files reformatted, 0 already formatted, 1 not formatted\n"
    )
    assert path.read_bytes() == b"anything: at all\n"
    # Standard input named so is refused before anything is read.
    piped = run_cli(["fmt", "-", "--stdin-filename", name], stdin=VALID_DOC)
    assert (piped.code, piped.out) == (1, b"")
    assert piped.err.startswith(f"{name}: TS903 fmt formats YAML only")


def _session(first: str, cwd: Path) -> None:
    """Replay the documentation's console block that starts with ``$ first`` in *cwd*.

    ``$ cat FILE`` writes the lines that follow it to FILE; ``$ taskspec ...``
    runs the command, whose output (stdout, then stderr) must be the lines
    that follow it, as the reader sees them in a terminal.
    """
    (block,) = (b for b in blocks("console") if b.startswith(f"$ {first}\n"))
    for step in re.split(r"^\$ ", block, flags=re.M)[1:]:
        command, _, shown = step.partition("\n")
        argv = command.split()
        if argv[0] == "cat":
            (cwd / argv[1]).write_text(shown)
            continue
        assert argv[0] == "taskspec", command
        result = run_cli(argv[1:])
        assert result.out.decode() + result.err == shown, command


def test_the_readme_shows_what_taskspec_explain_prints(tmp_path: Path) -> None:
    _session("taskspec explain TS011", tmp_path)


def test_the_readme_shows_what_convert_prints_of_a_field_given_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    _session("cat spec.json", tmp_path)
