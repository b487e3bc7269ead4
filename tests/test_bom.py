"""A raw U+FEFF inside the text: read as libyaml and the Go package read it.

Text pasted from a Windows file can hold U+FEFF, and many writers leave it
raw: JSON writers (``JSON.stringify``, ``json.dumps(ensure_ascii=False)``)
inside a double-quoted string of a flow document, YAML writers (ruamel.yaml,
prettier, the npm ``yaml`` package) inside a double- or single-quoted value
or a literal or folded block. Both YAML readers read it there as part of the
value, so both libraries do, with warning TS305; ``taskspec fmt`` and
``marshal_yaml`` write it as the escape ``\\uFEFF``. Anywhere else past the
start of the text (at the start of a line, in a plain value, a comment) it
stays an error. Each claim about Go is checked against the Go side: the Go
library (``lib_check``, ``lib_parse``, ``lib_marshal``) and the Go package
(``parse``: yaml.v3 v3.0.4).
"""

from __future__ import annotations

import base64
import json

import pytest
import yaml

import taskspec
from taskspec._codes import UNSUPPORTED, WARNING, YAML_BYTE_ORDER_MARK
from tests.cliutil import run_cli
from tests.conformance.gobridge import GoConsumer
from tests.contract.problem_cases import BASE

BOM = "\ufeff"
PROMPT = "prompt: Implement mathx.GCD."
TEXT = f"Implement{BOM} mathx.GCD."


def _with(new: str, *, crlf: bool = False) -> bytes:
    src = BASE.decode()
    assert src.count(PROMPT) == 1
    src = src.replace(PROMPT, new)
    return (src.replace("\n", "\r\n") if crlf else src).encode()


def _json_spec() -> dict[str, object]:
    spec = yaml.safe_load(BASE)
    assert isinstance(spec, dict)
    spec["prompt"] = TEXT
    return spec


#: Each form a writer leaves U+FEFF raw in, and the prompt it holds.
FORMS: dict[str, tuple[bytes, str]] = {
    # JSON.stringify: no blanks between tokens, U+FEFF left raw.
    "JSON.stringify": (
        json.dumps(_json_spec(), ensure_ascii=False, separators=(",", ":")).encode(),
        TEXT,
    ),
    "json.dumps(ensure_ascii=False)": (
        json.dumps(_json_spec(), ensure_ascii=False).encode() + b"\n",
        TEXT,
    ),
    "json.dumps(ensure_ascii=False, indent=2)": (
        json.dumps(_json_spec(), ensure_ascii=False, indent=2).encode() + b"\n",
        TEXT,
    ),
    "double-quoted": (_with(f'prompt: "{TEXT}"'), TEXT),
    "double-quoted, CRLF": (_with(f'prompt: "{TEXT}"', crlf=True), TEXT),
    "single-quoted": (_with(f"prompt: '{TEXT}'"), TEXT),
    # The npm yaml package and prettier write a string plain, the mark
    # raw, where it reads back: past the start of the value, and first.
    "plain": (_with(f"prompt: {TEXT}"), TEXT),
    "plain, the mark first": (_with(f"prompt: {BOM}Implement."), f"{BOM}Implement."),
    "literal block": (
        _with(f"prompt: |\n    {TEXT}\n    {BOM}Keep GCD(0, 0) == 0."),
        f"{TEXT}\n{BOM}Keep GCD(0, 0) == 0.\n",
    ),
    "literal block, CRLF": (
        _with(f"prompt: |-\n    {TEXT}\n    {BOM}Keep GCD(0, 0) == 0.", crlf=True),
        f"{TEXT}\n{BOM}Keep GCD(0, 0) == 0.",
    ),
    "folded block": (
        _with(f"prompt: >\n    {TEXT}\n    {BOM}Keep GCD(0, 0) == 0."),
        f"{TEXT} {BOM}Keep GCD(0, 0) == 0.\n",
    ),
}


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _as_dicts(problems: list[taskspec.Violation]) -> list[dict[str, object]]:
    return [
        {
            "code": v.code,
            "field_path": v.field_path,
            "line": v.line,
            "column": v.column,
            "message": v.message,
            "hint": v.hint,
            "severity": v.severity,
        }
        for v in problems
    ]


def _marks(doc: bytes) -> list[tuple[int, int]]:
    """(line, column) of each U+FEFF of *doc*, lines ending at LF, CR LF or CR."""
    text = doc.decode().replace("\r\n", "\n").replace("\r", "\n")
    out = []
    for number, line in enumerate(text.split("\n"), 1):
        out += [(number, i + 1) for i, c in enumerate(line) if c == BOM]
    return out


@pytest.mark.parametrize("form", FORMS)
def test_each_writers_form_is_read_as_written_with_a_warning_at_each_mark(
    go: GoConsumer, form: str
) -> None:
    doc, prompt = FORMS[form]
    # libyaml (PyYAML's C loader) and the Go package (yaml.v3) read the value.
    assert yaml.load(doc, Loader=yaml.CSafeLoader)["prompt"] == prompt
    go_package = go.parse(doc)
    assert go_package["ok"], go_package
    assert go_package["spec"]["prompt"] == prompt
    # Both libraries read it as written, with TS305 at each mark, alike.
    assert taskspec.parse_task_spec(doc).prompt == prompt
    go_library = go.request(op="lib_parse", yaml_b64=_b64(doc))
    assert go_library["ok"], go_library
    problems = taskspec.check(doc)
    assert [(v.code, v.severity, v.field_path) for v in problems] == [
        (YAML_BYTE_ORDER_MARK, WARNING, "prompt")
    ] * prompt.count(BOM)
    assert [(v.line, v.column) for v in problems] == _marks(doc)
    assert go.check(doc) == _as_dicts(problems)


@pytest.mark.parametrize("form", FORMS)
def test_fmt_and_both_writers_write_the_mark_as_an_escape(go: GoConsumer, form: str) -> None:
    doc, prompt = FORMS[form]
    formatted = run_cli(["fmt", "-"], stdin=doc)
    assert formatted.code == 0, formatted
    assert BOM.encode() not in formatted.out
    assert b"\\uFEFF" in formatted.out
    spec = taskspec.parse_task_spec(doc)
    written = formatted.out.replace(b"\r\n", b"\n")  # fmt keeps a file's CR LF line ends
    assert written == taskspec.marshal_yaml(spec)
    go_written = go.request(
        op="lib_marshal", binpb_b64=_b64(spec.SerializeToString(deterministic=True))
    )
    assert go_written["ok"], go_written
    assert base64.b64decode(go_written["yaml_b64"]) == written
    # The escape reads back as the mark, with nothing to warn of.
    assert taskspec.parse_task_spec(formatted.out).prompt == prompt
    assert taskspec.check(formatted.out) == []


#: Marks outside a value, and the refusal both give.
OUTSIDE = "byte order mark outside a value: yaml.v3 can skip a character after it"
LINE_START = "byte order mark at the start of a line: libyaml skips it, yaml.v3 reads it as text"
REFUSED: dict[str, tuple[bytes, str, int, int]] = {
    "comment": (_with(f"{PROMPT}  # {BOM}"), OUTSIDE, 14, len(PROMPT) + 5),
    "block header comment": (_with(f"prompt: |  # {BOM}\n    {TEXT}"), OUTSIDE, 14, 14),
    "line start": (_with(f"{BOM}{PROMPT}"), LINE_START, 14, 1),
    "line start inside quotes": (_with(f'prompt: "Implement\n{BOM}mathx."'), LINE_START, 15, 1),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_mark_outside_a_value_is_refused_alike(go: GoConsumer, case: str) -> None:
    doc, reason, line, column = REFUSED[case]
    problems = taskspec.check(doc)
    assert [(v.code, v.line, v.column) for v in problems] == [(UNSUPPORTED, line, column)]
    assert problems[0].message.startswith(reason)
    assert go.check(doc) == _as_dicts(problems)


def test_a_mark_a_block_value_ends_before_is_refused(go: GoConsumer) -> None:
    # The comment line is less indented than the block's text: it ends the
    # block, so its mark is in a comment.
    doc = _with(f"prompt: |\n        Implement.\n    # {BOM}\nx_after: 1")
    problems = taskspec.check(doc)
    assert [(v.code, v.line, v.column) for v in problems] == [(UNSUPPORTED, 16, 7)]
    assert go.check(doc) == _as_dicts(problems)


def test_a_mark_where_yaml_v3_refills_its_buffer_is_read_as_written(go: GoConsumer) -> None:
    # yaml.v3 tests for a mark at the start of its read buffer rather than
    # at the character it reads: a mark the buffer is refilled at (its
    # first 512 bytes are read first) makes it skip the first character of
    # every later line it starts a token on before the next refill. The Go
    # package misreads such a text; the Go library reads it as the Python
    # library does, as written, and both warn of it.
    misread = []
    for pad in range(180, 240):
        doc = _with(f'prompt: "{"x" * pad}{BOM}"')
        assert taskspec.parse_task_spec(doc).prompt == "x" * pad + BOM
        problems = taskspec.check(doc)
        assert [v.code for v in problems] == [YAML_BYTE_ORDER_MARK]
        assert go.check(doc) == _as_dicts(problems), pad
        if not go.parse(doc)["ok"]:
            misread.append(doc.index(BOM.encode()))
    assert misread, "no mark where yaml.v3's buffer is refilled: the case tests nothing"
    assert all(500 <= at < 512 for at in misread), misread
