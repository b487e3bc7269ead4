"""The versioning gates bite: buf breaking and the contract check refuse breaking v1 changes.

``make breaking`` runs both: ``buf breaking`` for names, numbers and types,
and ``scripts/check_contract.py`` for the contract options and the
declaration order (the YAML key order), which buf ignores. Each test edits a
scratch copy of the schema; the new field's number is the next free one,
read from the descriptors. The tests at the end show generation refusing
what the gate refuses (a repeated option block, an unknown option
attribute) and bootstrapping itself, and ``make vectors`` refusing to
re-record a rejected vector's outcome silently.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from taskspec import TaskSpec
from taskspec.v1 import taskspec_pb2
from tests.conformance.generate import outcome_changes

ROOT = Path(__file__).resolve().parent.parent
BUF = ROOT / ".venv" / "bin" / "buf"
PROTO = Path("proto/taskspec/v1/taskspec.proto")


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    if not BUF.exists():
        pytest.fail("buf is not installed in .venv: run make venv")
    shutil.copytree(ROOT / "proto", tmp_path / "proto")
    shutil.copy(ROOT / "buf.yaml", tmp_path / "buf.yaml")
    (tmp_path / "release").mkdir()
    shutil.copy(ROOT / "release" / "taskspec-v1.binpb", tmp_path / "release")
    return tmp_path


#: The next free field number of TaskSpec.
NEXT = max(f.number for f in TaskSpec.DESCRIPTOR.fields) + 1


def contract(workdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "check_contract.py"),
            "--buf",
            str(BUF),
            "--against",
            "release/taskspec-v1.binpb",
        ],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
    )


def add_field(workdir: Path, declaration: str) -> None:
    """Add *declaration* (with ``{n}`` for its number) as TaskSpec's last field."""
    path = workdir / PROTO
    text = path.read_text()
    head, sep, tail = text.partition("\nmessage TaskSpec {\n")
    body, end, rest = tail.partition("\n}\n")
    path.write_text(head + sep + body + "\n  " + declaration.format(n=NEXT) + end + rest)


def breaking(workdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BUF), "breaking", "--against", "release/taskspec-v1.binpb", "--error-format", "json"],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
    )


def edit(workdir: Path, old: str, new: str) -> None:
    path = workdir / PROTO
    text = path.read_text()
    assert len(re.findall(old, text)) == 1, old
    path.write_text(re.sub(old, new, text))


def test_unchanged_schema_passes(workdir: Path) -> None:
    result = breaking(workdir)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("old", "new", "rule"),
    [
        (r"string task_id = 2 \[", "string task_identifier = 2 [", "FIELD_SAME_NAME"),
        (r"string prompt = 7 \[", "string prompt = 17 [", "FIELD_NO_DELETE"),
        (r"int64 timeout_seconds = 3 \[", "int32 timeout_seconds = 3 [", "FIELD_SAME_TYPE"),
        (r"  LANGUAGE_TYPESCRIPT = 3;\n", "", "ENUM_VALUE_NO_DELETE"),
        (r"DIFFICULTY_HARD = 3;", "DIFFICULTY_DIFFICULT = 3;", "ENUM_VALUE_SAME_NAME"),
        (
            r"GENERATED_KIND_BENCHMARK_SEED = 2;",
            "GENERATED_KIND_BENCH_SEED = 2;",
            "ENUM_VALUE_SAME_NAME",
        ),
    ],
    ids=[
        "rename-field",
        "renumber-field",
        "retype-field",
        "remove-enum-value",
        "rename-enum-value",
        "rename-kind",
    ],
)
def test_reader_breaking_change_fails(workdir: Path, old: str, new: str, rule: str) -> None:
    edit(workdir, old, new)
    result = breaking(workdir)
    assert result.returncode != 0
    assert f'"type":"{rule}"' in result.stdout.replace(" ", ""), result.stdout


def test_additive_changes_pass(workdir: Path) -> None:
    add_field(
        workdir,
        "string notes = {n} [(field) = {{\n"
        "    presence: PRESENCE_OMIT_EMPTY\n    visibility: VISIBILITY_SHOWN\n  }}];",
    )
    # A value after the last, with the next free number (the proto may have
    # gained values since this was written).
    values = taskspec_pb2.Language.DESCRIPTOR.values
    last = max(values, key=lambda v: v.number)
    edit(
        workdir,
        rf"  {last.name} = {last.number};\n",
        f"  {last.name} = {last.number};\n  LANGUAGE_ADDED_HERE = {last.number + 1};\n",
    )
    result = breaking(workdir)
    assert result.returncode == 0, result.stdout + result.stderr
    result = contract(workdir)
    assert result.returncode == 0, result.stdout + result.stderr


def test_unchanged_contract_passes(workdir: Path) -> None:
    result = contract(workdir)
    assert result.returncode == 0, result.stderr
    assert "no breaking change" in result.stdout


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            r"(role = 2 \[\(field\) = \{\n    presence: )PRESENCE_OMIT_EMPTY",
            r"\1PRESENCE_ALWAYS",
            "taskspec.v1.SolutionArtifact.role: presence changed from PRESENCE_OMIT_EMPTY to "
            "PRESENCE_ALWAYS",
        ),
        (
            r"(build_cmd = 1 \[\(field\) = \{\n    presence: PRESENCE_OMIT_EMPTY\n"
            r"    visibility: )VISIBILITY_HIDDEN",
            r"\1VISIBILITY_SHOWN",
            "taskspec.v1.Verification.build_cmd: visibility changed from VISIBILITY_HIDDEN",
        ),
        (
            r'message: "task_id is required"',
            'message: "task_id must be set"',
            "taskspec.v1.TaskSpec.task_id: rules changed from",
        ),
        (
            r"(at_least: \{\n\s+value: )0\n",
            r"\g<1>1\n",
            "taskspec.v1.Verification.timeout_seconds: rules changed from [Int64Rules.at_least 0 ",
        ),
        (
            r'(not_blank: \{message: "prompt is required"\})',
            r'\1\n        max_len: {value: 100000 message: "prompt is too long"}',
            "taskspec.v1.TaskSpec.prompt: rules changed from [StringRules.not_blank "
            "'prompt is required'] to [StringRules.not_blank 'prompt is required'; "
            "StringRules.max_len 100000 'prompt is too long']",
        ),
        (
            r"max_nodes: 100000",
            "max_nodes: 50000",
            "taskspec.v1.TaskSpec: limits changed from",
        ),
    ],
    ids=["presence", "visibility", "rule-message", "rule-bound", "second-rule", "limit"],
)
def test_contract_change_fails(workdir: Path, old: str, new: str, said: str) -> None:
    edit(workdir, old, new)
    assert breaking(workdir).returncode == 0, "buf breaking alone does not see this change"
    result = contract(workdir)
    assert result.returncode == 1
    assert said in result.stderr, result.stderr


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (
            "presence: PRESENCE_ALWAYS\n    visibility: VISIBILITY_SHOWN",
            "a new field must be omitted from YAML when empty",
        ),
        (
            "presence: PRESENCE_OMIT_EMPTY\n    visibility: VISIBILITY_SHOWN\n"
            '    rules: {{string: {{not_blank: {{message: "notes is required"}}}}}}',
            "a new field cannot have a rule that its zero value breaks (StringRules.not_blank)",
        ),
        (
            "presence: PRESENCE_OMIT_EMPTY\n    visibility: VISIBILITY_SHOWN\n"
            "    rules: {{string: {{\n"
            '      max_len: {{value: 64 message: "notes is too long"}}\n'
            '      min_len: {{value: 1 message: "notes is too short"}}\n'
            "    }}}}",
            "a new field cannot have a rule that its zero value breaks (StringRules.min_len)",
        ),
    ],
    ids=["always-written", "required", "minimum-length"],
)
def test_new_field_that_breaks_v1_fails(workdir: Path, options: str, said: str) -> None:
    add_field(workdir, "string notes = {n} [(field) = {{\n    " + options + "\n  }}];")
    assert breaking(workdir).returncode == 0
    result = contract(workdir)
    assert result.returncode == 1
    assert f"taskspec.v1.TaskSpec.notes: {said}" in result.stderr, result.stderr


OPTIONS = Path("proto/taskspec/v1/options.proto")


def _declared(workdir: Path, message: str) -> list[str]:
    """The field declarations of *message* in the scratch proto, one string each."""
    text = (workdir / PROTO).read_text()
    body = text.split(f"\nmessage {message} {{\n", 1)[1].split("\n}\n", 1)[0] + "\n"
    # A declaration runs from its comment to its closing "];".
    return re.findall(r"(?:  //[^\n]*\n)*  [^\n]* = \d+ \[\(field\) = \{.*?\n  \}\];\n", body, re.S)


def test_declaration_reorder_fails_and_is_named(workdir: Path) -> None:
    """Declaration order is the YAML key order of both languages: swapping two fails."""
    first, second = _declared(workdir, "KGQuery")[:2]
    path = workdir / PROTO
    text = path.read_text()
    assert text.count(first + second) == 1
    path.write_text(text.replace(first + second, second + first))
    assert breaking(workdir).returncode == 0, "buf breaking alone does not see this change"
    result = contract(workdir)
    assert result.returncode == 1
    assert (
        "taskspec.v1.KGQuery: fields declared in a new order (intent, seed_symbol became "
        "seed_symbol, intent)" in result.stderr
    ), result.stderr


#: A second ``rules`` block after task_id's: the same rule again.
_SECOND_TASK_ID_BLOCK = (
    r'(not_blank: \{message: "task_id is required"\}\n      \}\n    \})',
    r'\1\n    rules: {string: {not_blank: {message: "task_id is required"}}}',
)


def test_a_rule_in_v1s_first_form_is_the_same_rule(workdir: Path) -> None:
    """The baseline's ``rule`` and the proto's ``rules`` are compared as constraints."""
    edit(
        workdir,
        r'rules: \{\n      string: \{\n        not_blank: \{message: "task_id is required"\}'
        r"\n      \}\n    \}",
        'rule: {check: CHECK_NOT_BLANK message: "task_id is required"}',
    )
    result = contract(workdir)
    assert result.returncode == 0, result.stderr
    edit(workdir, 'message: "task_id is required"}', 'message: "task_id is needed"}')
    result = contract(workdir)
    assert result.returncode == 1
    assert (
        "taskspec.v1.TaskSpec.task_id: rules changed from [StringRules.not_blank "
        "'task_id is required'] to [StringRules.not_blank 'task_id is needed']" in result.stderr
    ), result.stderr


def test_a_changed_code_of_a_constraint_kind_is_breaking(workdir: Path) -> None:
    """A kind's code is the catalogue's word for it: changing a released one breaks, in one line."""
    # A baseline that has the kinds: the proto as it is, released.
    subprocess.run([str(BUF), "build", "-o", "release/taskspec-v1.binpb"], cwd=workdir, check=True)
    _edit_options(
        workdir,
        "Bound max_len = 3 [(constraint) = {\n    code: 109",
        "Bound max_len = 3 [(constraint) = {\n    code: 119",
    )
    result = contract(workdir)
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("contract: ")]
    assert len(lines) == 2, result.stderr
    assert lines[0] == (
        "contract: taskspec/v1/options.proto: the options' own schema changed: "
        "StringRules.max_len changed (number 3 TYPE_MESSAGE .taskspec.v1.Bound code 109 to "
        "number 3 TYPE_MESSAGE .taskspec.v1.Bound code 119): every v1 option would be read "
        "differently; that needs a new contract version (CONTRIBUTING.md, 'Cutting a new "
        "contract version')"
    ), lines[0]


def _edit_options(workdir: Path, old: str, new: str) -> None:
    path = workdir / OPTIONS
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def test_options_schema_change_is_one_line(workdir: Path) -> None:
    """Renumbering the options' extension is one line, not one per field that has an option."""
    _edit_options(workdir, "FieldContract field = 51000;", "FieldContract field = 51010;")
    result = contract(workdir)
    assert result.returncode == 1
    lines = [line for line in result.stderr.splitlines() if line.startswith("contract: ")]
    assert len(lines) == 2, result.stderr  # the change, then the summary
    assert lines[0].startswith(
        "contract: taskspec/v1/options.proto: the options' own schema changed: "
    ), lines[0]
    assert "; taskspec.v1.field changed (.google.protobuf.FieldOptions number 51000" in lines[0]


def test_new_option_attribute_is_reported_and_read(workdir: Path) -> None:
    """A new attribute is a one-line note; setting it on a v1 field is a change of that field."""
    _edit_options(
        workdir,
        "  FieldRules rules = 4;\n",
        "  FieldRules rules = 4;\n  repeated FieldRules more_rules = 5;\n",
    )
    result = contract(workdir)
    assert result.returncode == 0, result.stderr
    assert "FieldContract gained attribute more_rules" in result.stdout, result.stdout
    edit(
        workdir,
        r'(not_blank: \{message: "prompt is required"\}\n      \}\n    \})',
        r'\1\n    more_rules: {string: {not_blank: {message: "prompt is required"}}}',
    )
    result = contract(workdir)
    assert result.returncode == 1
    assert "taskspec.v1.TaskSpec.prompt: more_rules changed from none to" in result.stderr


def test_gate_message_points_at_cutting_a_new_version(workdir: Path) -> None:
    edit(workdir, r"max_nodes: 100000", "max_nodes: 50000")
    result = contract(workdir)
    assert result.returncode == 1
    assert "make release-baseline" in result.stderr
    assert "Cutting a new contract version" in result.stderr
    assert "## Cutting a new contract version" in (ROOT / "CONTRIBUTING.md").read_text()


def _release(workdir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "check_contract.py"),
            "--buf",
            str(BUF),
            "--against",
            "release/taskspec-v1.binpb",
            "--release",
        ],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
    )


def test_release_baseline_needs_the_version_bump(workdir: Path) -> None:
    """Cutting a baseline over a breaking change is cutting a new version: it needs the bump."""
    assert _release(workdir).returncode == 0
    edit(workdir, r"max_nodes: 100000", "max_nodes: 50000")
    result = _release(workdir)
    assert result.returncode == 1
    assert "bump the value of task_spec_version's Int64Rules.equals constraint" in result.stderr
    edit(workdir, r"(equals: \{\n\s+value: )\d+\n", r"\g<1>99\n")
    result = _release(workdir)
    assert result.returncode == 0, result.stderr
    assert "cutting contract version 99" in result.stdout


PLUGIN = ROOT / ".bin" / "protoc-gen-taskspec-go"


def generate(workdir: Path) -> subprocess.CompletedProcess[str]:
    """The project's plugin alone, through buf, as ``make generate`` runs it."""
    if not PLUGIN.exists():
        pytest.skip("the plugin is not built: run make generate (needs Go)")
    template = (
        '{"version":"v2","plugins":[{"local":"' + str(PLUGIN) + '","out":"' + "gen-out" + '"}]}'
    )
    return subprocess.run(
        [str(BUF), "generate", "--template", template],
        cwd=workdir,
        capture_output=True,
        text=True,
        check=False,
    )


def test_generation_refuses_a_duplicate_rule_block(workdir: Path) -> None:
    assert generate(workdir).returncode == 0
    edit(workdir, *_SECOND_TASK_ID_BLOCK)
    result = generate(workdir)
    assert result.returncode != 0
    assert (
        "taskspec.v1.TaskSpec.task_id: its (taskspec.v1.field) option sets rules more than once"
        in result.stderr
    ), result.stderr


def test_generation_refuses_an_unknown_option_attribute(workdir: Path) -> None:
    _edit_options(
        workdir,
        "  FieldRules rules = 4;\n",
        "  FieldRules rules = 4;\n  repeated FieldRules more_rules = 5;\n",
    )
    result = generate(workdir)
    assert result.returncode != 0
    assert (
        "taskspec.v1.FieldContract.more_rules is an option attribute protoc-gen-taskspec-go "
        "does not know" in result.stderr
    ), result.stderr


def test_generation_refuses_omit_empty_on_a_message_naming_the_option_to_use(
    workdir: Path,
) -> None:
    """Go would hold such a field as a value, always set, where Python leaves it unset."""
    edit(
        workdir,
        r"(KGQuery kg_query = \d+ \[\(field\) = \{\n    presence: )PRESENCE_OMIT_UNSET",
        r"\1PRESENCE_OMIT_EMPTY",
    )
    result = generate(workdir)
    assert result.returncode != 0
    assert (
        "taskspec.v1.GeneratedFrom.kg_query: PRESENCE_OMIT_EMPTY on a message field"
        in result.stderr
    ), result.stderr
    assert "write PRESENCE_OMIT_UNSET" in result.stderr, result.stderr


def test_generation_reads_the_options_of_the_request_not_its_own_stubs(workdir: Path) -> None:
    """The plugin bootstraps: with the options' extension renumbered it writes the same code."""
    _edit_options(workdir, "FieldContract field = 51000;", "FieldContract field = 51010;")
    result = generate(workdir)
    assert result.returncode == 0, result.stderr
    generated = (
        "contract_gen.go",
        "mirror_gen.go",
        "internal/eval/eval.go",
        "internal/walk/walk_gen.go",
    )
    for name in generated:
        assert (workdir / "gen-out" / name).read_text() == (ROOT / "go" / name).read_text()


# -- make vectors refuses to re-record a rejected vector's outcome silently ------------


def _recorded(out: Path, error: str) -> None:
    rejected = out / "rejected"
    rejected.mkdir(parents=True)
    (rejected / "bad-language.yaml").write_bytes(b"language: nope\n")
    case = {
        "file": "bad-language.yaml",
        "note": "rule 3: Go reports the language",
        "go_stage": "validate",
        "go_error": error,
    }
    (rejected / "manifest.json").write_text(json.dumps({"cases": [case]}))


def _rerecorded(yaml: bytes, note: str, error: str) -> dict[str, object]:
    return {"name": "bad-language", "note": note, "yaml": yaml, "stage": "validate", "error": error}


def test_vectors_name_a_rejected_vector_whose_outcome_changes(tmp_path: Path) -> None:
    _recorded(tmp_path, 'eval: invalid language "nope"')
    same = _rerecorded(b"language: nope\n", "rule 3: Go reports the language", "")
    # The same document and note, rejected differently (the contract gained
    # the value, say): refused, naming the vector.
    changed = outcome_changes(tmp_path, [{**same, "error": "eval: invalid difficulty"}])
    assert len(changed) == 1
    assert changed[0].startswith("rejected/bad-language.yaml: the same document now fails")
    # Unchanged, or changed together with its document or its note: re-recorded.
    assert outcome_changes(tmp_path, [{**same, "error": 'eval: invalid language "nope"'}]) == []
    assert outcome_changes(tmp_path, [{**same, "yaml": b"language: x-y\n", "error": "e"}]) == []
    assert outcome_changes(tmp_path, [{**same, "note": "rule 4", "error": "e"}]) == []


def test_a_new_field_whose_rules_apply_when_set_passes(workdir: Path) -> None:
    """ "At least 1 character when present" is one proto edit: its zero value keeps it."""
    add_field(
        workdir,
        "string notes = {n} [(field) = {{\n    presence: PRESENCE_OMIT_EMPTY\n"
        "    visibility: VISIBILITY_SHOWN\n    rules: {{\n"
        '      string: {{min_len: {{value: 1 message: "notes is too short"}}}}\n'
        "      ignore: IGNORE_IF_ZERO_VALUE\n    }}\n  }}];",
    )
    assert breaking(workdir).returncode == 0
    result = contract(workdir)
    assert result.returncode == 0, result.stderr
    assert "taskspec.v1 gained enum Ignore" in result.stdout, result.stdout


def test_release_refuses_a_wire_break_in_v1_whatever_the_version(workdir: Path) -> None:
    """An enum value removed inside taskspec.v1 breaks every v1 reader: a bump does not help."""
    path = workdir / PROTO
    text = path.read_text()
    value = re.search(r"\n  LANGUAGE_TYPESCRIPT = \d+;\n", text)
    assert value is not None
    path.write_text(text.replace(value.group(0), "\n"))
    edit(workdir, r"(equals: \{\n\s+value: )\d+\n", r"\g<1>99\n")
    result = _release(workdir)
    assert result.returncode == 1, result.stdout
    assert 'on enum "Language" was deleted' in result.stderr, result.stderr
    assert "break the wire inside package taskspec.v1" in result.stderr, result.stderr
    assert "a new package (taskspec.v2" in result.stderr, result.stderr
    assert "cutting contract version" not in result.stdout
