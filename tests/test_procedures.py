"""CONTRIBUTING.md's procedures work as written: each change edits only the files it names.

Each test copies the repository into a scratch directory and makes one of
the documented changes there: an optional field, on TaskSpec and on the
nested GeneratedFrom, and an enum value (the proto and the upstream
stand-in, ``tests/conformance/go/eval/``); an optional nested message whose
fields have rules, one of them applying only when set (the same two files;
Go and Python must then write it alike, unset, empty or set, in YAML, JSON
and binary); rules of existing kinds, several on one new field, items
included (the same two files); and a new kind of constraint
(``options.proto``, one implementation per language, ``go/constraints.go``
and ``python/taskspec/_constraints.py``, then the proto and the stand-in).
It then runs ``make generate``, ``make vectors`` and ``make test`` in the
copy: buf lint and breaking, the contract check, the drift checks, mypy
and ruff, the Go library's and the stand-in's tests, and the whole Python
suite, on the changed schema.

One more test changes ``options.proto`` in a copy and runs ``make
generate`` there alone: generation must bootstrap itself; another gives
the optional message ``PRESENCE_OMIT_EMPTY``, which ``make generate`` must
refuse naming the field; another adds a language and re-records the
vectors, which must come out unchanged.

Each run is the whole suite again, several minutes, so these run only under
``make test-procedures`` (``TASKSPEC_PROCEDURES=1``), which CI runs; the
scratch copy shares the project's venv (read only) and Go's build cache.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.scratchproto import add_field

ROOT = Path(__file__).resolve().parent.parent
PROTO = Path("proto/taskspec/v1/taskspec.proto")
OPTIONS = Path("proto/taskspec/v1/options.proto")
STANDIN = Path("tests/conformance/go/eval/taskspec.go")

pytestmark = pytest.mark.skipif(
    os.environ.get("TASKSPEC_PROCEDURES", "") in ("", "0"),
    reason="runs the whole suite per change: make test-procedures (CI runs it)",
)

Edit = Callable[[Path], None]


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, f"{path}: expected one {old!r}"
    path.write_text(text.replace(old, new))


def _go_field(repo: Path, struct: str, line: str) -> None:
    """Add *line* as the last field of the stand-in's *struct*."""
    path = repo / STANDIN
    text = path.read_text()
    head = f"type {struct} struct {{\n"
    start = text.index(head)
    end = text.index("\n}\n", start)
    path.write_text(text[:end] + "\n\t" + line + text[end:])


def optional_field(repo: Path) -> None:
    proto = repo / PROTO
    proto.write_text(
        add_field(
            proto.read_text(),
            "TaskSpec",
            "// Free-form notes for reviewers. Optional: omitted from YAML when empty.\n"
            "  string review_notes = {n} [(field) = {\n    presence: PRESENCE_OMIT_EMPTY\n"
            "    visibility: VISIBILITY_SHOWN\n  }];",
        )
    )
    _go_field(repo, "TaskSpec", 'ReviewNotes string `yaml:"review_notes,omitempty"`')


def optional_field_on_a_nested_message(repo: Path) -> None:
    """The same two edits on GeneratedFrom: no test pins a nested message's fields."""
    proto = repo / PROTO
    proto.write_text(
        add_field(
            proto.read_text(),
            "GeneratedFrom",
            "// Where the generator's source lives. Optional: omitted from YAML when empty.\n"
            "  string origin_url = {n} [(field) = {\n    presence: PRESENCE_OMIT_EMPTY\n"
            "    visibility: VISIBILITY_SHOWN\n  }];",
        )
    )
    _go_field(repo, "GeneratedFrom", 'OriginURL string `yaml:"origin_url,omitempty"`')


#: An optional message on Verification whose fields have rules: one that
#: applies only when set ("at least 1 when present"), one its zero value keeps.
_RESOURCES = """
// Resources are what the harness gives a task.
message Resources {
  // CPUs for the task, at least 1 when set. Optional: omitted from YAML when 0.
  int64 cpus = 1 [(field) = {
    presence: PRESENCE_OMIT_EMPTY
    visibility: VISIBILITY_HIDDEN
    rules: {
      int64: {
        at_least: {
          value: 1
          message: "verification.resources.cpus %d is below %d"
        }
      }
      ignore: IGNORE_IF_ZERO_VALUE
    }
  }];
  // Memory for the task in MiB, at most 65536. Optional: omitted from YAML
  // when 0.
  int64 memory_mb = 2 [(field) = {
    presence: PRESENCE_OMIT_EMPTY
    visibility: VISIBILITY_HIDDEN
    rules: {
      int64: {
        at_most: {
          value: 65536
          message: "verification.resources.memory_mb %d is above %d"
        }
      }
    }
  }];
}
"""


def optional_message_with_rules(repo: Path) -> None:
    """A nested optional message (PRESENCE_OMIT_UNSET) whose fields have rules."""
    proto = repo / PROTO
    text = add_field(
        proto.read_text(),
        "Verification",
        "// What the harness gives the task. Optional: omitted from YAML when unset.\n"
        "  Resources resources = {n} [(field) = {\n    presence: PRESENCE_OMIT_UNSET\n"
        "    visibility: VISIBILITY_HIDDEN\n  }];",
    )
    proto.write_text(text + _RESOURCES)
    _go_field(repo, "Verification", 'Resources *Resources `yaml:"resources,omitempty"`')
    with (repo / STANDIN).open("a") as go:
        go.write(
            "\n// Resources are what the harness gives a task.\n"
            "type Resources struct {\n"
            '\tCpus     int `yaml:"cpus,omitempty"`\n'
            '\tMemoryMb int `yaml:"memory_mb,omitempty"`\n}\n'
        )
    _replace(
        repo / STANDIN,
        "\treturn nil\n}",
        "\tif r := t.Verification.Resources; r != nil {\n"
        "\t\tif r.Cpus != 0 && r.Cpus < 1 {\n"
        '\t\t\treturn fmt.Errorf("eval: verification.resources.cpus %d is below %d", r.Cpus, 1)\n'
        "\t\t}\n"
        "\t\tif r.MemoryMb > 65536 {\n"
        '\t\t\treturn fmt.Errorf("eval: verification.resources.memory_mb %d is above %d",'
        " r.MemoryMb, 65536)\n"
        "\t\t}\n\t}\n\treturn nil\n}",
    )


#: Run in the scratch copy: the optional message, unset, set but empty and
#: set, written by both libraries in YAML, JSON and binary, and each YAML
#: read back by both; prints one line per difference.
_SAME_BYTES = r"""
import base64, sys
from pathlib import Path

import taskspec
from tests.conformance.gobridge import GoConsumer
from tests.helpers import valid_spec

def b64(data):
    return base64.b64encode(data).decode("ascii")

go = GoConsumer(Path(".bin/taskspec-conform"))
unset = valid_spec()
empty = valid_spec()
empty.verification.resources.SetInParent()
full = valid_spec()
full.verification.resources.cpus = 2
full.verification.resources.memory_mb = 512
differ = []
for name, spec in (("unset", unset), ("empty", empty), ("set", full)):
    binpb = taskspec.marshal_binpb(spec)
    py = {
        "yaml": taskspec.marshal_yaml(spec),
        "json": taskspec.marshal_json(spec),
        "binpb": binpb,
    }
    answers = {
        "yaml": go.request(op="lib_marshal", binpb_b64=b64(binpb)),
        "json": go.request(op="lib_marshal_json", binpb_b64=b64(binpb)),
        "binpb": go.request(op="lib_marshal_binpb", binpb_b64=b64(binpb)),
    }
    for fmt, answer in answers.items():
        data = base64.b64decode(answer.get("yaml_b64") or answer.get("data_b64") or "")
        if not answer.get("ok") or data != py[fmt]:
            differ.append(f"{name} {fmt}: Go {answer!r} Python {py[fmt]!r}")
    parsed = go.request(op="lib_parse", yaml_b64=b64(py["yaml"]))
    back = taskspec.marshal_binpb(taskspec.parse_task_spec(py["yaml"]))
    if not parsed.get("ok") or base64.b64decode(parsed["binpb_b64"]) != back or back != binpb:
        differ.append(f"{name} read back: Go {parsed!r} Python {back!r} written {binpb!r}")
go.close()
print("\n".join(differ))
sys.exit(1 if differ else 0)
"""


def rules_on_new_field(repo: Path) -> None:
    """Rules of existing kinds, several on one field, items included (CONTRIBUTING's example)."""
    proto = repo / PROTO
    proto.write_text(
        add_field(
            proto.read_text(),
            "TaskSpec",
            "// Labels for search. Optional: omitted from YAML when empty. At most\n"
            "  // 16, each 1 to 64 characters.\n"
            "  repeated string tags = {n} [(field) = {\n    presence: PRESENCE_OMIT_EMPTY\n"
            "    visibility: VISIBILITY_SHOWN\n    rules: {\n      repeated: {\n"
            "        max_items: {\n          value: 16\n"
            '          message: "at most %[2]d tags, got %[1]d"\n        }\n'
            "        items: {\n"
            "          min_len: {\n            value: 1\n"
            '            message: "tag %q is shorter than %d characters"\n          }\n'
            "          max_len: {\n            value: 64\n"
            '            message: "tag %q is longer than %d characters"\n          }\n'
            "        }\n      }\n    }\n  }];",
        )
    )
    _go_field(repo, "TaskSpec", 'Tags []string `yaml:"tags,omitempty"`')
    _replace(repo / STANDIN, '\t"strings"\n', '\t"strings"\n\t"unicode/utf8"\n')
    _replace(
        repo / STANDIN,
        "\treturn nil\n}",
        "\tif len(t.Tags) > 16 {\n"
        '\t\treturn fmt.Errorf("eval: at most %d tags, got %d", 16, len(t.Tags))\n\t}\n'
        "\tfor _, tag := range t.Tags {\n"
        "\t\tif utf8.RuneCountInString(tag) < 1 {\n"
        '\t\t\treturn fmt.Errorf("eval: tag %q is shorter than %d characters", tag, 1)\n\t\t}\n'
        "\t\tif utf8.RuneCountInString(tag) > 64 {\n"
        '\t\t\treturn fmt.Errorf("eval: tag %q is longer than %d characters", tag, 64)\n\t\t}\n'
        "\t}\n\treturn nil\n}",
    )


def new_kind_of_constraint(repo: Path) -> None:
    """A kind the options do not have: declared once, implemented once per language, used."""
    _replace(
        repo / OPTIONS,
        "  Bound at_most = 3 [(constraint) = {",
        "  // A multiple of `value`.\n"
        "  Bound multiple_of = 4 [(constraint) = {\n"
        "    code: 113\n    problem: {\n"
        '      title: "integer that is not a multiple of its step"\n'
        "      severity: SEVERITY_ERROR\n"
        '      stage: "validate"\n'
        "      message_forms: {\n"
        '        id: "rule"\n'
        '        text: "{rule}"\n'
        "      }\n"
        '      explanation: "The integer must be a multiple of the field\'s step."\n'
        '      example: "memory_mb: 100\\n"\n'
        '      fixed: "memory_mb: 128\\n"\n'
        "    }\n  }];\n"
        "  Bound at_most = 3 [(constraint) = {",
    )
    with (repo / "go" / "constraints.go").open("a") as go:
        go.write(
            "\n// int64RulesMultipleOf: a multiple of bound.\n"
            "func int64RulesMultipleOf(v ruleValue, bound int64) bool {\n"
            "\treturn bound != 0 && v.num%bound == 0\n}\n"
        )
    _replace(
        repo / "python" / "taskspec" / "_constraints.py",
        "                bounds=_LENGTHS,\n            ),\n        )\n    }\n)\n",
        "                bounds=_LENGTHS,\n            ),\n"
        "            Implementation(\n"
        '                _PREFIX + "Int64Rules.multiple_of",\n'
        "                lambda b, _e: lambda v: _b(b) != 0 and v % _b(b) == 0,\n"
        '                lambda b, _r: {"multipleOf": _b(b)},\n'
        "                lambda b, _e: ([_b(b) + 1] if _b(b) > 1 else [], [0, _b(b), -_b(b)]),\n"
        '                says=lambda b: f"must be a multiple of {b}",\n'
        "                bounds=(3, 64),\n"
        "            ),\n        )\n    }\n)\n",
    )
    proto = repo / PROTO
    proto.write_text(
        add_field(
            proto.read_text(),
            "TaskSpec",
            "// Memory the harness gives the task, in MiB. Optional: omitted from YAML\n"
            "  // when 0. A multiple of 64.\n"
            "  int64 memory_mb = {n} [(field) = {\n    presence: PRESENCE_OMIT_EMPTY\n"
            "    visibility: VISIBILITY_HIDDEN\n    rules: {\n      int64: {\n"
            "        multiple_of: {\n          value: 64\n"
            '          message: "memory_mb %d is not a multiple of %d"\n        }\n'
            "      }\n    }\n  }];",
        )
    )
    _go_field(repo, "TaskSpec", 'MemoryMB int `yaml:"memory_mb,omitempty"`')
    _replace(
        repo / STANDIN,
        "\treturn nil\n}",
        "\tif t.MemoryMB%64 != 0 {\n"
        '\t\treturn fmt.Errorf("eval: memory_mb %d is not a multiple of %d", t.MemoryMB, 64)\n'
        "\t}\n\treturn nil\n}",
    )


def enum_value(repo: Path) -> None:
    _replace(
        repo / PROTO,
        "  LANGUAGE_TYPESCRIPT = 3;\n",
        "  LANGUAGE_TYPESCRIPT = 3;\n  LANGUAGE_RUST = 4;\n",
    )
    _replace(
        repo / STANDIN,
        '\tLanguageTypeScript Language = "typescript"\n',
        '\tLanguageTypeScript Language = "typescript"\n\tLanguageRust       Language = "rust"\n',
    )
    _replace(
        repo / STANDIN,
        "case LanguageGo, LanguagePython, LanguageTypeScript:",
        "case LanguageGo, LanguagePython, LanguageTypeScript, LanguageRust:",
    )


def _copy_repo(target: Path) -> Path:
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = ROOT / os.fsdecode(name)
        if source.is_file():
            dest = target / os.fsdecode(name)
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest)
    # The venv is shared and never rebuilt (make -o); the tools are copied,
    # so that what the copy builds into .bin/ stays in the copy.
    (target / ".venv").symlink_to(ROOT / ".venv")
    (target / ".bin").mkdir()
    for tool in ("protoc-gen-go", "staticcheck"):
        if (ROOT / ".bin" / tool).exists():
            shutil.copy2(ROOT / ".bin" / tool, target / ".bin" / tool)
    return target


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, (
        f"{' '.join(argv)} failed in the scratch copy ({done.returncode}):\n"
        f"{done.stdout[-6000:]}\n{done.stderr[-4000:]}"
    )


@pytest.mark.parametrize(
    "change",
    [
        optional_field,
        optional_field_on_a_nested_message,
        optional_message_with_rules,
        rules_on_new_field,
        new_kind_of_constraint,
        enum_value,
    ],
    ids=[
        "optional-field",
        "optional-field-on-generated-from",
        "optional-message-with-rules",
        "rules-of-existing-kinds",
        "new-kind-of-constraint",
        "enum-value",
    ],
)
def test_the_documented_change_needs_only_the_proto_and_the_stand_in(
    tmp_path: Path, change: Edit
) -> None:
    repo = _copy_repo(tmp_path / "repo")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    env = {k: v for k, v in os.environ.items() if k != "TASKSPEC_PROCEDURES"}
    env.update(PYTHONPATH=str(repo / "python"), TASKSPEC_REQUIRE_GO="1")
    _run([*git, "init", "-q"], repo, env)
    _run([*git, "add", "-A"], repo, env)
    _run([*git, "commit", "-qm", "base"], repo, env)
    change(repo)
    _run(["gofmt", "-w", str(repo / STANDIN)], repo, env)  # as an editor would on save
    make = ["make", "-o", ".venv/.stamp", "--no-print-directory"]
    _run([*make, "generate"], repo, env)
    _run([*make, "vectors"], repo, env)
    _run([*git, "add", "-A"], repo, env)
    _run([*git, "commit", "-qm", "the change"], repo, env)
    if change is optional_message_with_rules:
        # Go and Python write the optional message alike, unset, empty or set.
        python = str(repo / ".venv" / "bin" / "python")
        _run([python, "-c", _SAME_BYTES], repo, {**env, "PYTHONPATH": f"{repo / 'python'}:{repo}"})
    _run([*make, "test"], repo, env)


def test_an_option_the_libraries_would_read_differently_stops_generation(
    tmp_path: Path,
) -> None:
    """``PRESENCE_OMIT_EMPTY`` on a message field: ``make generate`` fails, naming the field.

    Go would hold the message as a value, always set, where Python leaves it
    unset; the plugin, the one check of the options, refuses it and names
    the presence to use.
    """
    repo = _copy_repo(tmp_path / "repo")
    env = {k: v for k, v in os.environ.items() if k != "TASKSPEC_PROCEDURES"}
    env.update(PYTHONPATH=str(repo / "python"))
    optional_message_with_rules(repo)
    _replace(
        repo / PROTO,
        "Resources resources = 4 [(field) = {\n    presence: PRESENCE_OMIT_UNSET",
        "Resources resources = 4 [(field) = {\n    presence: PRESENCE_OMIT_EMPTY",
    )
    done = subprocess.run(
        ["make", "-o", ".venv/.stamp", "--no-print-directory", "generate"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0, done.stdout
    assert (
        "taskspec.v1.Verification.resources: PRESENCE_OMIT_EMPTY on a message field" in done.stderr
    ), done.stderr
    assert "write PRESENCE_OMIT_UNSET" in done.stderr, done.stderr


def test_generation_bootstraps_after_an_options_change(tmp_path: Path) -> None:
    """``make generate`` works straight after an ``options.proto`` change.

    The plugin reads the options through the request's descriptors, not
    through the stubs the same run regenerates: with the options' extension
    renumbered (which stubs compiled before the change cannot read), it
    still writes the same Go contract code, and the new stubs carry the new
    number.
    """
    repo = _copy_repo(tmp_path / "repo")
    env = {k: v for k, v in os.environ.items() if k != "TASKSPEC_PROCEDURES"}
    env.update(PYTHONPATH=str(repo / "python"))
    _replace(
        repo / "proto/taskspec/v1/options.proto",
        "FieldContract field = 51000;",
        "FieldContract field = 51010;",
    )
    _run(["make", "-o", ".venv/.stamp", "--no-print-directory", "generate"], repo, env)
    for name in (
        "go/contract_gen.go",
        "go/mirror_gen.go",
        "go/internal/eval/eval.go",
        "go/internal/walk/walk_gen.go",
        "schema/taskspec.v1.schema.json",
    ):
        assert (repo / name).read_text() == (ROOT / name).read_text(), name
    assert "51010" in (repo / "gen/go/taskspec/v1/options.pb.go").read_text()


def test_a_new_enum_value_changes_no_vector(tmp_path: Path) -> None:
    """Adding a language re-records every vector unchanged: no rejected outcome moves.

    ``make vectors`` would stop, naming the vector, if one did (see
    tests/test_breaking.py); here it must pass and leave every file as it was.
    """
    repo = _copy_repo(tmp_path / "repo")
    env = {k: v for k, v in os.environ.items() if k != "TASKSPEC_PROCEDURES"}
    env.update(PYTHONPATH=str(repo / "python"))
    enum_value(repo)
    _run(["gofmt", "-w", str(repo / STANDIN)], repo, env)
    make = ["make", "-o", ".venv/.stamp", "--no-print-directory"]
    _run([*make, "generate"], repo, env)
    _run([*make, "conform"], repo, env)
    _run([str(repo / ".venv" / "bin" / "python"), "-m", "tests.conformance.generate"], repo, env)
    vectors = Path("tests/conformance/vectors")
    for path in sorted((ROOT / vectors).rglob("*")):
        if path.is_file():
            relative = path.relative_to(ROOT)
            assert (repo / relative).read_bytes() == path.read_bytes(), relative


#: Forms reworded by the rewording procedure: (code, list, old text, new
#: text, a document that has the problem, its format). Each is rendered
#: from the catalogue by both libraries: a syntax problem, a JSON one and a
#: warning. (An unknown key and TS004's reasons are rendered so by the
#: Python library; the Go library's read path still words them itself.)
_REWORDED = (
    (
        "TS014",
        "invalid YAML: a mapping value is not allowed here",
        "invalid YAML: ': ' cannot start a mapping value here",
        "task_id: t1\nprompt: Note: keep the API\n",
        "yaml",
    ),
    (
        "TS020",
        "invalid JSON: expected ':'",
        "invalid JSON: a key must be followed by ':'",
        '{"taskId" "t1"}',
        "json",
    ),
    (
        "TS305",
        "{path}: a raw byte order mark (U+FEFF) in the text can make the Go package"
        " (yaml.v3 v3.0.4) misread the lines after it",
        "{path}: a raw U+FEFF in the text can make yaml.v3 misread the lines after it",
        'task_spec_version: 1\ntask_id: t1\nlanguage: go\nprompt: "a\ufeffb"\n'
        "verification:\n    test_cmd: [go, test]\n",
        "yaml",
    ),
)

_GO_PRINTER = """package taskspec_test

import (
	"fmt"
	"os"
	"testing"

	taskspec "github.com/taskspec/taskspec/go"
)

func TestPrintWords(t *testing.T) {
	data, _ := os.ReadFile(os.Getenv("WORDS_INPUT"))
	format, _ := taskspec.ParseFormat(os.Getenv("WORDS_FORMAT"))
	for _, v := range taskspec.CheckFormat(data, format) {
		fmt.Printf("WORDS %s %s\\n", v.Code, v.Message)
	}
}
"""


def test_rewording_a_form_is_one_proto_edit(tmp_path: Path) -> None:
    """CONTRIBUTING's rewording: one form changed in problems.proto, then
    ``make generate`` and ``make problems``; both libraries print the new
    words, and the shared problem table is re-recorded with them."""
    repo = _copy_repo(tmp_path / "repo")
    env = {k: v for k, v in os.environ.items() if k != "TASKSPEC_PROCEDURES"}
    env.update(PYTHONPATH=str(repo / "python"))
    catalogue = repo / "proto/taskspec/v1/problems.proto"
    for _, old, new, _, _ in _REWORDED:
        _replace(catalogue, f"text: {json.dumps(old)}", f"text: {json.dumps(new)}")
    make = ["make", "-o", ".venv/.stamp", "--no-print-directory"]
    _run([*make, "generate"], repo, env)
    _run([*make, "problems"], repo, env)
    (repo / "go/zz_words_test.go").write_text(_GO_PRINTER)  # an observer, not an edit
    python = str(repo / ".venv" / "bin" / "python")
    for code, _, new, document, fmt in _REWORDED:
        words = new.replace("{path}", "prompt")
        (tmp_path / "input").write_text(document)
        env.update(WORDS_INPUT=str(tmp_path / "input"), WORDS_FORMAT=fmt)
        said = subprocess.run(
            [python, "-c", "import os, taskspec\n"
             "for v in taskspec.check(open(os.environ['WORDS_INPUT']).read(),"
             " os.environ['WORDS_FORMAT']):\n    print('WORDS', v.code, v.message)"],
            cwd=repo, env=env, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        assert f"WORDS {code} {words}" in said.splitlines(), said
        said = subprocess.run(
            ["go", "test", "-count=1", "-run", "TestPrintWords", "-v", "."],
            cwd=repo / "go", env=env, capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
        assert f"WORDS {code} {words}" in said.splitlines(), said
    table = (repo / "tests/contract/problems.json").read_text()
    for _, old, new, _, _ in _REWORDED[:2]:
        assert json.dumps(new)[1:-1] in table
        assert json.dumps(old)[1:-1] not in table
