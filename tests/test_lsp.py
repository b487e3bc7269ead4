"""``taskspec lsp``, driven as an editor drives it: pytest-lsp runs the real server over stdio.

The diagnostics are the CLI's problems (``taskspec validate --format
json``) on the shared problem table; each kind of quick fix is applied and
the document checked again; formatting is ``taskspec fmt``'s, and a
document it refuses gets no edit; hover shows a field's documentation. A
broken document, the largest documents of the hostile corpus and a burst of
changes leave the server answering. Nothing here is timed: the benchmark
(``make bench-lsp``) measures speed.
"""

from __future__ import annotations

import base64
import io
import json
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason='the lsp extra is not installed: pip install "taskspec[lsp]"')
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

import taskspec  # noqa: E402
from taskspec.cli._cmd_lsp import MISSING  # noqa: E402
from taskspec.cli._lsp import EXPLANATIONS  # noqa: E402
from taskspec.cli._main import main  # noqa: E402
from tests.contract.problem_cases import NINE_LINES  # noqa: E402
from tests.helpers import SMALL_DOC  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "contract" / "problems.json"

VALID = SMALL_DOC


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(server_command=[sys.executable, "-m", "taskspec", "lsp"]),
)
async def client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[LanguageClient]:
    params = types.InitializeParams(
        capabilities=client_capabilities("neovim"),
        root_uri=tmp_path.as_uri(),
        workspace_folders=[types.WorkspaceFolder(tmp_path.as_uri(), "work")],
    )
    result = await lsp_client.initialize_session(params)
    ENCODINGS[id(lsp_client)] = result.capabilities.position_encoding or "utf-16"
    yield lsp_client
    await lsp_client.shutdown_session()


#: The position encoding each client and the server agreed on (neovim's
#: capabilities offer UTF-8 first).
ENCODINGS: dict[int, str] = {}


def units(client: LanguageClient, text: str) -> int:
    """The length of *text* in the code units of the encoding *client* speaks."""
    encoding = ENCODINGS.get(id(client), "utf-16")
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return utf16(text)


_VERSION = iter(range(1, 1 << 30))


async def open_doc(client: LanguageClient, path: Path, text: str) -> list[types.Diagnostic]:
    """Open *path* holding *text* and return the diagnostics published for it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "yaml", next(_VERSION), text))
    )
    return await diagnostics_of(client, uri)


async def diagnostics_of(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    while uri not in client.diagnostics:
        await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return list(client.diagnostics[uri])


async def change(client: LanguageClient, uri: str, text: str) -> list[types.Diagnostic]:
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(next(_VERSION), uri),
            [types.TextDocumentContentChangeWholeDocument(text)],
        )
    )
    return await diagnostics_of(client, uri)


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def cli_problems(path: Path) -> list[dict[str, Any]]:
    """The problems ``taskspec validate --format json`` prints for *path*."""
    out = io.StringIO()
    with redirect_stdout(out):
        main(["validate", "--format", "json", str(path)])
    document = json.loads(out.getvalue())
    records = document if isinstance(document, list) else document.get("problems", [])
    return [dict(r) for r in records]


def _table() -> list[tuple[str, str]]:
    cases = json.loads(TABLE.read_text(encoding="utf-8"))["cases"]
    out = []
    for case in cases:
        if case["format"] != "yaml":
            continue
        text = case.get("text")
        if text is None:
            try:  # an editor holds text: bytes that are not UTF-8 never reach it
                text = base64.b64decode(case["base64"]).decode("utf-8")
            except UnicodeDecodeError:
                continue
        out.append((case["name"], text))
    return out


def apply(text: str, edits: Sequence[types.TextEdit]) -> str:
    """*text* with *edits* applied (UTF-16 columns; lines split as LSP splits them)."""
    import re  # noqa: PLC0415

    lines = re.split(r"\r\n|\r|\n", text)

    def offset(pos: types.Position) -> int:
        before = sum(len(line) + 1 for line in lines[: pos.line])
        line = lines[pos.line] if pos.line < len(lines) else ""
        units = 0
        for i, char in enumerate(line):
            if units >= pos.character:
                return before + i
            units += utf16(char)
        return before + len(line)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character))[::-1]:
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


# -- diagnostics ---------------------------------------------------------------


@pytest.mark.asyncio
async def test_diagnostics_equal_the_cli_problems_on_the_shared_table(
    client: LanguageClient, tmp_path: Path
) -> None:
    table = _table()
    assert len(table) > 150
    compared = 0
    for index, (name, text) in enumerate(table):
        path = tmp_path / f"case{index}" / "taskspec.yaml"
        got = await open_doc(client, path, text)
        want = cli_problems(path)
        assert len(got) == len(want), name
        lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        for diag, record in zip(got, want, strict=True):
            assert diag.code == record["code"], name
            # The hint is in the message, which most editors show alone.
            shown = (
                f"{record['message']}; {record['hint']}" if record["hint"] else record["message"]
            )
            assert diag.message == shown, name
            assert diag.source == "taskspec"
            severity = (
                types.DiagnosticSeverity.Warning
                if record["severity"] == "warning"
                else types.DiagnosticSeverity.Error
            )
            assert diag.severity == severity, name
            if record["line"] and record["line"] <= len(lines):
                line = lines[record["line"] - 1]
                column = units(client, line[: record["column"] - 1])
                assert (diag.range.start.line, diag.range.start.character) == (
                    record["line"] - 1,
                    column,
                ), name
            if record["hint"]:
                assert diag.related_information is not None
                assert [r.message for r in diag.related_information] == [record["hint"]], name
            else:
                assert not diag.related_information, name
            if record["code"]:
                assert diag.code_description is not None
                assert diag.code_description.href == EXPLANATIONS
            compared += 1
    assert compared > 100


@pytest.mark.asyncio
async def test_a_valid_sidecar_has_no_diagnostics_and_changes_and_saves_recheck(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "taskspec.yaml"
    assert await open_doc(client, path, VALID) == []
    uri = path.as_uri()
    broken = VALID.replace("language: go", "language: golang")
    (diag,) = await change(client, uri, broken)
    assert diag.code == "TS103"
    assert diag.related_information is not None
    assert diag.related_information[0].message == 'did you mean "go"?'
    client.diagnostics.pop(uri, None)
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri))
    )
    assert [d.code for d in await diagnostics_of(client, uri)] == ["TS103"]


@pytest.mark.asyncio
async def test_files_outside_the_configured_selection_get_no_diagnostics(
    client: LanguageClient, tmp_path: Path
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.taskspec]\ninclude = ["*.task.yaml"]\nexclude = ["fixtures"]\n'
    )
    broken = VALID.replace("task_id:", "taskid:")
    assert await open_doc(client, tmp_path / "taskspec.yaml", broken) == []
    assert await open_doc(client, tmp_path / "fixtures" / "a.task.yaml", broken) == []
    (diag,) = await open_doc(client, tmp_path / "b.task.yaml", broken)
    assert diag.code == "TS001"


@pytest.mark.asyncio
async def test_a_json_sidecar_is_left_to_validate_and_a_yml_one_is_checked(
    client: LanguageClient, tmp_path: Path
) -> None:
    broken = VALID.replace("task_id:", "taskid:")
    # Valid proto3 JSON would be all problems read as YAML (camelCase keys).
    assert await open_doc(client, tmp_path / "x.taskspec.json", '{"taskSpecVersion": 1}') == []
    (diag,) = await open_doc(client, tmp_path / "x.taskspec.yml", broken)
    assert diag.code == "TS001"


@pytest.mark.asyncio
async def test_unreadable_and_broken_documents_get_one_clear_diagnostic(
    client: LanguageClient, tmp_path: Path
) -> None:
    for index, text in enumerate(["task_id: [\n", "\x00\x01{{{", ": : :\n  - ]", "---\n---\n"]):
        diags = await open_doc(client, tmp_path / f"b{index}" / "taskspec.yaml", text)
        want = taskspec.check(text.encode())
        assert [d.code for d in diags] == [v.code for v in want]
        assert len(diags) >= 1
    # The server still answers.
    assert await open_doc(client, tmp_path / "ok" / "taskspec.yaml", VALID) == []


@pytest.mark.asyncio
async def test_the_largest_hostile_documents_and_a_burst_of_changes_leave_it_answering(
    client: LanguageClient, tmp_path: Path
) -> None:
    # Over the 16 MiB limit, deeply nested, and a billion-laughs alias bomb.
    huge = "prompt: " + "x" * (17 << 20) + "\n"
    deep = "prompt: " + "[" * 100_000 + "\n"
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    for index, text in enumerate([huge, deep, bomb]):
        diags = await open_doc(client, tmp_path / f"h{index}" / "taskspec.yaml", text)
        assert diags, index
        assert all(d.code for d in diags)
    path = tmp_path / "burst" / "taskspec.yaml"
    await open_doc(client, path, VALID)
    uri = path.as_uri()
    for i in range(100):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(next(_VERSION), uri),
                [types.TextDocumentContentChangeWholeDocument(VALID + f"task_i{i}: x\n")],
            )
        )
    # The server answers a request after the burst (and so has published
    # for every change before it), then checks the last change.
    hover = await client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(1, 2))
    )
    assert hover is not None
    assert [d.code for d in client.diagnostics[uri]] == ["TS001"]
    final = await change(client, uri, VALID.replace("difficulty: medium", "difficulty: harx"))
    assert [d.code for d in final] == ["TS103"]


# -- quick fixes ---------------------------------------------------------------


async def _fixed(
    client: LanguageClient, path: Path, text: str, code: str, title: str
) -> tuple[str, list[types.Diagnostic]]:
    """Open *text*, apply the quick fix *title* of its problem *code*; the text and its problems."""
    diags = await open_doc(client, path, text)
    (diag,) = [d for d in diags if d.code == code]
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(path.as_uri()),
            diag.range,
            types.CodeActionContext([diag]),
        )
    )
    assert actions is not None
    (action,) = [a for a in actions if isinstance(a, types.CodeAction) and a.title == title]
    assert action.kind == types.CodeActionKind.QuickFix
    assert action.edit is not None and action.edit.changes is not None
    fixed = apply(text, action.edit.changes[path.as_uri()])
    return fixed, await change(client, path.as_uri(), fixed)


@pytest.mark.asyncio
async def test_quick_fix_replaces_a_misspelt_key(client: LanguageClient, tmp_path: Path) -> None:
    text = VALID.replace("task_id:", "taskid:")
    fixed, diags = await _fixed(
        client, tmp_path / "taskspec.yaml", text, "TS001", 'Replace with "task_id"'
    )
    assert fixed == VALID
    assert diags == []


@pytest.mark.asyncio
async def test_quick_fix_replaces_a_misspelt_enum_value(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = VALID.replace("kind: kg_template", "kind: template")
    fixed, diags = await _fixed(
        client, tmp_path / "taskspec.yaml", text, "TS103", 'Replace with "kg_template"'
    )
    assert fixed == VALID
    assert diags == []


@pytest.mark.asyncio
async def test_quick_fix_in_a_flow_mapping_edits_its_value_alone(
    client: LanguageClient, tmp_path: Path
) -> None:
    # The diagnostic runs to the end of the line; the fix is the problem's
    # own, which names the value's span and nothing after it.
    text = VALID.replace(
        "generated_from:\n    kind: kg_template", "generated_from: {kind: template}"
    )
    assert text != VALID
    fixed, diags = await _fixed(
        client, tmp_path / "taskspec.yaml", text, "TS103", 'Replace with "kg_template"'
    )
    assert fixed == text.replace("{kind: template}", "{kind: kg_template}")
    assert diags == []


@pytest.mark.asyncio
async def test_a_suggestion_without_a_fix_offers_no_edit(
    client: LanguageClient, tmp_path: Path
) -> None:
    # A quoted key is not its text: the hint names the field, but no fix is
    # made of it, and so no quick fix either.
    path = tmp_path / "taskspec.yaml"
    diags = await open_doc(client, path, VALID.replace("task_id:", '"taskid":'))
    (diag,) = [d for d in diags if d.code == "TS001"]
    assert diag.message.endswith('; did you mean "task_id"?')
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(path.as_uri()), diag.range, types.CodeActionContext([diag])
        )
    )
    assert not actions


@pytest.mark.asyncio
async def test_problems_after_a_raw_nel_and_ls_are_on_the_lines_an_editor_shows(
    client: LanguageClient, tmp_path: Path
) -> None:
    # YAML 1.1 readers end lines at the NEL and the LS of line 6 as well:
    # the diagnostics are where an editor shows the keys, and the fix for
    # "languag" edits that key and nothing else.
    text = NINE_LINES
    path = tmp_path / "taskspec.yaml"
    diags = await open_doc(client, path, text)
    errors = [d for d in diags if d.code == "TS001"]
    assert [(d.range.start.line, d.range.start.character) for d in errors] == [(7, 0), (8, 0)]
    assert [(d.range.end.line, d.range.end.character) for d in errors] == [(7, 5), (8, 7)]
    warnings = [d for d in diags if d.code == "TS302"]
    assert [d.range.start.line for d in warnings] == [5, 5]  # the NEL and the LS, each
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            types.TextDocumentIdentifier(path.as_uri()),
            errors[1].range,
            types.CodeActionContext([errors[1]]),
        )
    )
    assert actions is not None
    (action,) = [a for a in actions if isinstance(a, types.CodeAction)]
    assert action.title == 'Replace with "language"'
    assert action.edit is not None and action.edit.changes is not None
    fixed = apply(text, action.edit.changes[path.as_uri()])
    after = await change(client, path.as_uri(), fixed)
    before_lines, after_lines = text.split("\n"), fixed.split("\n")
    assert len(after_lines) == len(before_lines)
    changed = [i for i, (a, b) in enumerate(zip(before_lines, after_lines, strict=True)) if a != b]
    assert changed == [8]
    assert after_lines[8] == "language: python"
    assert [d.code for d in after if d.severity == types.DiagnosticSeverity.Error] == [
        "TS001",  # bogus, still
        "TS002",  # language twice, now
    ]


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(server_command=[sys.executable, "-m", "taskspec", "lsp"]),
)
async def utf16_client(lsp_client: LanguageClient, tmp_path: Path) -> AsyncIterator[LanguageClient]:
    """A client that offers no position encoding: LSP's default, UTF-16, is spoken."""
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=tmp_path.as_uri(),
        workspace_folders=[types.WorkspaceFolder(tmp_path.as_uri(), "work")],
    )
    result = await lsp_client.initialize_session(params)
    assert result.capabilities.position_encoding in (None, types.PositionEncodingKind.Utf16)
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_a_column_after_an_astral_character_is_in_utf16_units(
    utf16_client: LanguageClient, tmp_path: Path
) -> None:
    client = utf16_client
    text = VALID.replace("kind: kg_template", "{kind: kg_template, x: \U0001f600, kindd: 1}")
    text = text.replace("generated_from:\n    {", "generated_from: {")
    diags = await open_doc(client, tmp_path / "taskspec.yaml", text)
    (first, second) = [d for d in diags if d.code == "TS001"]
    line = text.split("\n")[first.range.start.line]
    # The emoji is one character to the libraries' columns, two UTF-16 units to LSP.
    assert first.range.start.character == utf16(line[: line.index("x:")])
    assert second.range.start.character == utf16(line[: line.index("kindd")])
    assert second.range.start.character == line.index("kindd") + 1


PROMPTS = [
    ("TS011", "prompt: @reviewer fix the build"),
    ("TS014", "prompt: Note: keep the API"),
    ("TS015", "prompt: [WIP] fix the parser"),
    ("TS015", 'prompt: "Hello" is the greeting'),
    ("TS304", "prompt: Fix issue #12 in the parser"),
]


@pytest.mark.parametrize("title", ["Quote the value", "Write the value as a block scalar (|)"])
@pytest.mark.parametrize(("code", "line"), PROMPTS)
@pytest.mark.asyncio
async def test_quick_fixes_quote_a_prompt_or_make_it_a_block_scalar(
    client: LanguageClient, tmp_path: Path, code: str, line: str, title: str
) -> None:
    text = VALID.replace("prompt: Implement mathx.GCD.", line)
    diags = await open_doc(client, tmp_path / "taskspec.yaml", text)
    if code not in [d.code for d in diags]:
        pytest.fail(f"{line!r} gives {[d.code for d in diags]}, not {code}")
    fixed, after = await _fixed(client, tmp_path / "taskspec.yaml", text, code, title)
    assert after == [], fixed
    prompt = taskspec.parse_task_spec(fixed.encode()).prompt
    assert prompt == line.removeprefix("prompt: ")


@pytest.mark.parametrize(
    "title",
    ["Use single quotes, where a backslash is itself", "Write the value as a block scalar (|)"],
)
@pytest.mark.asyncio
async def test_quick_fixes_for_an_escape_that_does_not_exist(
    client: LanguageClient, tmp_path: Path, title: str
) -> None:
    text = VALID.replace("prompt: Implement mathx.GCD.", 'prompt: "Use C:\\path, it\'s \\q"')
    fixed, after = await _fixed(client, tmp_path / "taskspec.yaml", text, "TS016", title)
    assert after == [], fixed
    assert taskspec.parse_task_spec(fixed.encode()).prompt == "Use C:\\path, it's \\q"


@pytest.mark.asyncio
async def test_quick_fix_replaces_an_indenting_tab_with_spaces(
    client: LanguageClient, tmp_path: Path
) -> None:
    text = VALID.replace("    kind: kg_template", "\tkind: kg_template")
    fixed, diags = await _fixed(
        client, tmp_path / "taskspec.yaml", text, "TS010", "Replace the tab with spaces (4 a tab)"
    )
    assert fixed == VALID
    assert diags == []


# -- formatting ----------------------------------------------------------------


@pytest.mark.asyncio
async def test_formatting_is_fmt_and_keeps_comments(client: LanguageClient, tmp_path: Path) -> None:
    text = "# owner: team-a\n" + VALID.replace("    kind", "  kind").replace(
        "language: go", "language: go  # the module's"
    )
    path = tmp_path / "taskspec.yaml"
    await open_doc(client, path, text)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            types.TextDocumentIdentifier(path.as_uri()), types.FormattingOptions(4, True)
        )
    )
    assert edits is not None
    formatted = apply(text, edits)
    from taskspec.cli._comments import format_document  # noqa: PLC0415

    assert formatted.encode() == format_document(text.encode())
    assert "# owner: team-a" in formatted and "# the module's" in formatted
    # Formatted already: no edit.
    await change(client, path.as_uri(), formatted)
    again = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            types.TextDocumentIdentifier(path.as_uri()), types.FormattingOptions(4, True)
        )
    )
    assert not again


@pytest.mark.asyncio
async def test_formatting_refuses_a_lossy_edit_and_says_why(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "taskspec.yaml"
    # A comment on a key the canonical layout omits (an empty string) has no place.
    text = VALID.replace("kind: kg_template\n", "kind: kg_template\n    template_id: ''  # later\n")
    await open_doc(client, path, text)
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            types.TextDocumentIdentifier(path.as_uri()), types.FormattingOptions(4, True)
        )
    )
    from taskspec.cli._comments import CommentError, format_document  # noqa: PLC0415

    with pytest.raises(CommentError) as info:
        format_document(text.encode())
    assert not edits
    # The refusal was published before the answer.
    diags = list(client.diagnostics[path.as_uri()])
    assert [(d.code, d.message) for d in diags] == [
        (v.code, f"{v.message}; {v.hint}" if v.hint else v.message) for v in info.value.violations
    ]
    assert diags[0].code == "TS201"
    # An invalid document gets no edit either.
    await change(client, path.as_uri(), VALID.replace("language: go", "language: golang"))
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            types.TextDocumentIdentifier(path.as_uri()), types.FormattingOptions(4, True)
        )
    )
    assert not edits


# -- hover ---------------------------------------------------------------------


async def _hover(client: LanguageClient, path: Path, line: int, character: int) -> str:
    result = await client.text_document_hover_async(
        types.HoverParams(
            types.TextDocumentIdentifier(path.as_uri()), types.Position(line, character)
        )
    )
    assert result is not None
    assert isinstance(result.contents, types.MarkupContent)
    return result.contents.value


@pytest.mark.asyncio
async def test_hover_shows_a_fields_documentation_visibility_and_rule(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "taskspec.yaml"
    await open_doc(client, path, VALID)
    schema = json.loads((ROOT / "schema" / "taskspec.v1.schema.json").read_text())
    text = await _hover(client, path, 1, 3)
    assert "**task_id**" in text
    assert schema["properties"]["task_id"]["description"] in text
    assert "shown to the agent" in text
    assert "`task_id is required`" in text
    language = await _hover(client, path, 2, 3)
    assert '`invalid language "\u2026"`' in language
    assert "%q" not in language and "%d" not in await _hover(client, path, 0, 3)
    test_cmd = await _hover(client, path, 8, 6)
    assert "**verification.test_cmd**" in test_cmd
    assert "hidden from the agent" in test_cmd
    assert "`verification.test_cmd is required`" in test_cmd


@pytest.mark.asyncio
async def test_hover_on_an_enum_value_shows_the_other_values(
    client: LanguageClient, tmp_path: Path
) -> None:
    path = tmp_path / "taskspec.yaml"
    await open_doc(client, path, VALID)
    text = await _hover(client, path, 3, 14)
    assert "`medium` (this one)" in text
    assert "`easy`" in text and "`hard`" in text
    kind = await _hover(client, path, 5, 12)
    assert "`kg_template` (this one)" in kind


# -- a bug is a diagnostic -----------------------------------------------------


def test_a_bug_in_the_engine_is_a_ts999_diagnostic(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from pygls.workspace import TextDocument  # noqa: PLC0415

    from taskspec.cli import _lsp  # noqa: PLC0415

    def broken(*args: object, **kwargs: object) -> list[taskspec.Violation]:
        raise RuntimeError("boom")

    monkeypatch.setattr(taskspec, "check", broken)
    doc = TextDocument((tmp_path / "taskspec.yaml").as_uri(), VALID)
    (problem,) = _lsp.problems(_lsp.TaskspecServer(), doc)
    assert problem.code == "TS999"
    assert problem.message == "internal error: RuntimeError: boom"
    assert _lsp.diagnostic(doc, problem).code == "TS999"


def test_without_the_lsp_extra_the_command_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(sys.modules, "taskspec.cli._lsp")
    monkeypatch.setitem(sys.modules, "lsprotocol", None)
    monkeypatch.setitem(sys.modules, "pygls", None)
    assert main(["lsp"]) == 2
    err = capsys.readouterr().err
    assert err == f"{MISSING}\n"
    assert 'pip install "taskspec[lsp]"' in err


def test_validate_does_not_import_the_language_server() -> None:
    import subprocess  # noqa: PLC0415

    code = (
        "import sys; from taskspec.cli._main import main; main(['validate', '-']);"
        "assert not any(m.startswith(('pygls', 'lsprotocol')) for m in sys.modules)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], input=VALID.encode(), capture_output=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
