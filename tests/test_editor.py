"""The JSON Schema as an editor uses it: the real yaml-language-server, driven over stdio.

VS Code's YAML extension, Neovim, Helix, Zed and others run
yaml-language-server from npm; this test runs the version pinned in
``tools/editor/package-lock.json`` (``make editor-tools`` installs it with
``npm ci``) and speaks the Language Server Protocol to it as an editor
does: it opens sidecars that point at the committed schema, by modeline or
by workspace settings, and reads the diagnostics, completions and hovers a
person would see.

Without Node or the installed server the tests skip, saying how to get
them; with ``TASKSPEC_REQUIRE_NODE=1`` (CI) they fail instead.
"""

from __future__ import annotations

import json
import os
import shutil
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taskspec.cli._main import main
from tests.lspclient import LanguageServer

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "schema" / "taskspec.v1.schema.json"
#: Each enum's values, as the schema lists them (an enum value added to the
#: proto changes them, and nothing here).
ENUMS: dict[str, list[str]] = {
    name: schema["enum"]
    for name, schema in json.loads(SCHEMA.read_text())["$defs"].items()
    if "enum" in schema
}
SERVER = (
    ROOT / "tools" / "editor" / "node_modules" / "yaml-language-server" / "bin"
    / "yaml-language-server"
)  # fmt: skip

#: The editor's settings, as VS Code sends them: validation, hover and
#: completion on, no schema from the network, and one file-name mapping.
SETTINGS = {
    "yaml": {
        "validate": True,
        "hover": True,
        "completion": True,
        "format": {"enable": False},
        "schemaStore": {"enable": False},
        "schemas": {SCHEMA.as_uri(): ["**/mapped/taskspec.yaml"]},
    }
}

VALID = textwrap.dedent(
    """\
    task_spec_version: 1
    task_id: kg-go-impl-mathx-gcd
    language: go
    difficulty: medium
    generated_from:
        kind: kg_template
    prompt: Implement mathx.GCD.
    verification:
        test_cmd: [go, test, ./mathx/...]
        timeout_seconds: 120
    """
)


def _require_node() -> bool:
    return os.environ.get("TASKSPEC_REQUIRE_NODE", "") not in ("", "0")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("workspace")


@pytest.fixture(scope="module")
def server(workspace: Path) -> Iterator[LanguageServer]:
    node = shutil.which("node")
    missing = (
        "node is not installed"
        if node is None
        else f"yaml-language-server is not installed ({SERVER.relative_to(ROOT)})"
        if not SERVER.exists()
        else ""
    )
    if missing:
        why = f"{missing}: run `make editor-tools` (npm ci in tools/editor) to test the schema"
        if _require_node():
            pytest.fail(f"TASKSPEC_REQUIRE_NODE is set but {why}")
        pytest.skip(f"{why} in a real editor's language server")
    assert node is not None
    srv = LanguageServer([node, str(SERVER), "--stdio"], settings=SETTINGS)
    try:
        info = srv.initialize(workspace)
        assert info["serverInfo"]["name"] == "yaml-language-server"
        yield srv
    finally:
        srv.close()


_opened = 0


def _open(server: LanguageServer, workspace: Path, text: str, *, modeline: bool = True) -> str:
    """Open *text* as a new sidecar in the workspace; its URI."""
    global _opened  # noqa: PLW0603 - a fresh file name per document
    _opened += 1
    if modeline:
        path = workspace / f"doc{_opened}" / "taskspec.yaml"
        text = f"# yaml-language-server: $schema={SCHEMA.as_uri()}\n{text}"
    else:
        path = workspace / f"doc{_opened}" / "mapped" / "taskspec.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    return server.open(path, text)


def _diagnostics(server: LanguageServer, workspace: Path, text: str) -> list[tuple[int, str]]:
    """(line, message) of each diagnostic, lines counted in *text* from 1."""
    uri = _open(server, workspace, text)
    found = server.diagnostics(uri)
    return sorted((d["range"]["start"]["line"], d["message"]) for d in found)


def _readable(messages: list[str]) -> None:
    for message in messages:
        assert "pattern" not in message and "\\u" not in message, message


def test_a_valid_sidecar_has_no_diagnostics(server: LanguageServer, workspace: Path) -> None:
    assert _diagnostics(server, workspace, VALID) == []


@pytest.mark.parametrize(
    "example", sorted((ROOT / "examples").glob("*.yaml")), ids=lambda p: p.name
)
def test_the_examples_modeline_finds_the_schema(server: LanguageServer, example: Path) -> None:
    """The examples' relative modeline (../schema/...) resolves, and they are clean."""
    uri = server.open(example, example.read_text())
    assert server.diagnostics(uri) == []


def test_a_modeline_below_other_comments_still_applies(
    server: LanguageServer, workspace: Path
) -> None:
    """fmt keeps the modeline where it is, on line 2 below a comment; editors read it there."""
    path = workspace / "modeline-below" / "taskspec.yaml"
    path.parent.mkdir()
    modeline = f"# yaml-language-server: $schema={SCHEMA.as_uri()}"
    path.write_text(f"# owner: platform-eval\n{modeline}\n" + VALID.replace("    ", "  "))
    assert main(["fmt", str(path)]) == 0
    text = path.read_text()
    assert text.splitlines()[:4] == [
        "# owner: platform-eval",
        modeline,
        "task_spec_version: 1",
        "task_id: kg-go-impl-mathx-gcd",
    ]
    uri = server.open(path, text.replace("language: go", "language: cobol"))
    found = [(d["range"]["start"]["line"], d["message"]) for d in server.diagnostics(uri)]
    assert found == [(4, _not_accepted("Language"))]


def test_a_typo_key_is_named(server: LanguageServer, workspace: Path) -> None:
    doc = VALID.replace("language: go", "langauge: go")
    assert _diagnostics(server, workspace, doc) == [
        (1, 'Missing property "language".'),  # reported at the mapping's start
        (3, "Property langauge is not allowed."),
    ]


def _not_accepted(enum: str) -> str:
    return "Value is not accepted. Valid values: " + ", ".join(f'"{v}"' for v in ENUMS[enum]) + "."


def test_a_wrong_enum_value_lists_the_valid_ones(server: LanguageServer, workspace: Path) -> None:
    doc = VALID.replace("language: go", "language: golang")
    assert _diagnostics(server, workspace, doc) == [(3, _not_accepted("Language"))]
    assert '"go", "python", "typescript"' in _not_accepted("Language")


def test_a_negative_timeout_names_the_minimum(server: LanguageServer, workspace: Path) -> None:
    doc = VALID.replace("timeout_seconds: 120", "timeout_seconds: -3")
    assert _diagnostics(server, workspace, doc) == [(10, "Value is below the minimum of 0.")]


def test_a_missing_required_field_is_named(server: LanguageServer, workspace: Path) -> None:
    doc = VALID.replace("prompt: Implement mathx.GCD.\n", "")
    assert _diagnostics(server, workspace, doc) == [(1, 'Missing property "prompt".')]


@pytest.mark.parametrize("blank", ['"   "', '""', '"\\t"', '"\\u3000"'])
def test_a_blank_task_id_says_it_is_required(
    server: LanguageServer, workspace: Path, blank: str
) -> None:
    """Go's message for the rule, not the pattern that implements it."""
    doc = VALID.replace("task_id: kg-go-impl-mathx-gcd", f"task_id: {blank}")
    found = _diagnostics(server, workspace, doc)
    assert found == [(2, "task_id is required")]


def test_a_blank_prompt_says_it_is_required(server: LanguageServer, workspace: Path) -> None:
    doc = VALID.replace("prompt: Implement mathx.GCD.", 'prompt: "\\n\\t "')
    assert _diagnostics(server, workspace, doc) == [(7, "prompt is required")]


def test_every_problem_at_once_and_all_readable(server: LanguageServer, workspace: Path) -> None:
    doc = (
        VALID.replace("task_id: kg-go-impl-mathx-gcd", 'task_id: "  "')
        .replace("language: go", "langauge: go")
        .replace("kind: kg_template", "kind: template")
        .replace("timeout_seconds: 120", "timeout_seconds: -1")
    )
    found = _diagnostics(server, workspace, doc)
    assert [line for line, _ in found] == [1, 2, 3, 6, 10]
    _readable([message for _, message in found])


def test_workspace_settings_map_file_names_to_the_schema(
    server: LanguageServer, workspace: Path
) -> None:
    """The README's yaml.schemas mapping, without a modeline."""
    uri = _open(
        server,
        workspace,
        VALID.replace("task_id: kg-go-impl-mathx-gcd", "task_id: ' '"),
        modeline=False,
    )
    found = server.diagnostics(uri)
    assert [(d["range"]["start"]["line"], d["message"]) for d in found] == [
        (1, "task_id is required")
    ]


def _labels(result: Any) -> list[str]:
    items = result["items"] if isinstance(result, dict) else result
    return [item["label"] for item in items]


def test_field_completions_are_offered(server: LanguageServer, workspace: Path) -> None:
    doc = "task_spec_version: 1\n\nverification:\n    test_cmd: [go]\n    \n"
    uri = _open(server, workspace, doc)
    server.diagnostics(uri)
    top = _labels(server.position_request("textDocument/completion", uri, 2, 0))
    for key in ("task_id", "language", "difficulty", "generated_from", "prompt"):
        assert key in top, top
    assert "task_spec_version" not in top and "verification" not in top  # already there
    nested = _labels(server.position_request("textDocument/completion", uri, 5, 4))
    assert {"build_cmd", "timeout_seconds"} <= set(nested), nested
    assert "test_cmd" not in nested


@pytest.mark.parametrize(
    ("line", "enum"), [("language: ", "Language"), ("difficulty: ", "Difficulty")]
)
def test_enum_completions_are_offered(
    server: LanguageServer, workspace: Path, line: str, enum: str
) -> None:
    uri = _open(server, workspace, f"task_spec_version: 1\n{line}\n")
    server.diagnostics(uri)
    labels = _labels(server.position_request("textDocument/completion", uri, 2, len(line)))
    assert sorted(labels) == sorted(ENUMS[enum])
    assert {"go", "easy"} & set(labels)


def test_enum_completion_in_a_nested_field(server: LanguageServer, workspace: Path) -> None:
    uri = _open(server, workspace, "generated_from:\n    kind: \n")
    server.diagnostics(uri)
    labels = _labels(server.position_request("textDocument/completion", uri, 2, 10))
    assert sorted(labels) == sorted(ENUMS["GeneratedKind"])
    assert "kg_template" in labels


def _hover(server: LanguageServer, workspace: Path, line: int, character: int) -> str:
    uri = _open(server, workspace, VALID)
    server.diagnostics(uri)
    result = server.position_request("textDocument/hover", uri, line, character)
    value: str = result["contents"]["value"]
    return value


def test_hover_is_titled_with_the_field_itself(server: LanguageServer, workspace: Path) -> None:
    text = _hover(server, workspace, 10, 6)  # timeout_seconds, inside verification
    assert text.startswith("#### timeout\\_seconds\n\n"), text
    assert "Verification" not in text.split("\n\n")[0]
    assert "Time limit for the commands in seconds" in text


def test_hover_on_an_enum_field_lists_its_values_with_their_docs(
    server: LanguageServer, workspace: Path
) -> None:
    text = _hover(server, workspace, 3, 2)  # language
    assert text.startswith("#### language\n\nLanguage the task targets."), text
    for value in ENUMS["Language"]:
        assert f"`{value}`" in text
    assert '`go`: Go. YAML value "go".' in text
