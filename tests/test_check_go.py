"""The Go library's Check against the Python library's check, over every conformance document.

Both libraries must give the same problems for a document (docs/problems.md,
"Syntax problems and the agreement"): for every document that is not a YAML
syntax error, the same codes, field paths, lines, columns, messages, hints
and severities in the same order; for a YAML syntax error, a syntax code
from each. The documents are the conformance vectors and sources, read
through the Go conformance consumer's lib_check op.

Skipped when the consumer is not built, unless TASKSPEC_REQUIRE_GO=1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import pytest

import taskspec
from taskspec._codes import CATALOGUE
from tests.conformance.gobridge import GoConsumer

ROOT: Final = Path(__file__).resolve().parent.parent
CORPUS: Final = (ROOT / "tests/conformance/vectors", ROOT / "tests/conformance/sources")

#: The codes of YAML syntax problems: on those the parsers may stop at
#: different places, so only "both refuse with one of them" is compared.
SYNTAX: Final = frozenset({"TS005", *(f"TS{n:03d}" for n in range(8, 20))})

FIELDS: Final = ("code", "field_path", "line", "column", "message", "hint", "severity")


@pytest.fixture(scope="module")
def consumer(go: GoConsumer) -> GoConsumer:
    """The Go conformance consumer, built and started as every other test gets it."""
    return go


def _documents() -> list[Path]:
    return sorted(
        p for base in CORPUS for p in base.rglob("*") if p.suffix in (".yaml", ".yml", ".json")
    )


def _python(data: bytes, fmt: str) -> list[dict[str, Any]]:
    return [
        {
            **{f: getattr(v, f) for f in FIELDS},
            **({"fix": v.fix.to_dict()} if v.fix is not None else {}),
        }
        for v in taskspec.check(data, fmt)
    ]


def _differences(name: str, py: list[dict[str, Any]], go: list[dict[str, Any]]) -> str | None:
    """What differs between the two lists, or None when they agree."""
    py_syntax = [p for p in py if p["code"] in SYNTAX]
    go_syntax = [p for p in go if p["code"] in SYNTAX]
    if py_syntax or go_syntax:
        if py_syntax and go_syntax and len(py) == len(go) == 1:
            return None
        return f"{name}: syntax problems differ\n  python {py}\n  go     {go}"
    if py != go:
        return f"{name}:\n  python {py}\n  go     {go}"
    return None


def test_go_check_gives_pythons_problems_for_every_conformance_document(
    consumer: GoConsumer,
) -> None:
    docs = _documents()
    assert len(docs) > 1000
    datas = [p.read_bytes() for p in docs]
    fmts = ["json" if p.suffix == ".json" else "yaml" for p in docs]
    go_results: list[list[dict[str, Any]]] = []
    for fmt in ("yaml", "json"):
        batch = [d for d, f in zip(datas, fmts, strict=True) if f == fmt]
        go_results += consumer.check_all(batch, fmt)
    ordered = [p for f in ("yaml", "json") for p, pf in zip(docs, fmts, strict=True) if pf == f]
    failures = []
    for path, go_list in zip(ordered, go_results, strict=True):
        fmt = "json" if path.suffix == ".json" else "yaml"
        ours, theirs = _python(path.read_bytes(), fmt), go_list
        if fmt == "json":
            # Go's JSON reader stops at its first problem (collecting it is
            # the JSON reader's own issue): the first problems must agree.
            ours, theirs = ours[:1], go_list[:1]
        diff = _differences(str(path.relative_to(ROOT)), ours, theirs)
        if diff:
            failures.append(diff)
    assert not failures, f"{len(failures)} documents differ:\n" + "\n".join(failures[:40])


def test_go_check_gives_pythons_problems_for_the_contract_cases(consumer: GoConsumer) -> None:
    """The documents of tests/contract/problems.json, in all three formats.

    JSON and binary protobuf: the first problem (Go's readers stop there).
    """
    from tests.contract import problem_cases  # noqa: PLC0415 - the table's generator

    failures = []
    count = 0
    for fmt, cases in (
        ("yaml", problem_cases._yaml_cases),
        ("json", problem_cases._json_cases),
        ("binpb", problem_cases._binpb_cases),
    ):
        for name, data in cases():
            count += 1
            ours, theirs = _python(data, fmt), consumer.check(data, fmt)
            if fmt != "yaml":
                ours, theirs = ours[:1], theirs[:1]
            diff = _differences(f"{fmt} {name}", ours, theirs)
            if diff:
                failures.append(diff)
    assert count > 150
    assert not failures, f"{len(failures)} cases differ:\n" + "\n".join(failures)


def test_every_go_code_is_in_the_catalogue(consumer: GoConsumer) -> None:
    docs = _documents()
    results = consumer.check_all([p.read_bytes() for p in docs if p.suffix != ".json"])
    codes = {p["code"] for problems in results for p in problems}
    assert codes <= set(CATALOGUE), codes - set(CATALOGUE)
    assert {"TS001", "TS002", "TS003", "TS004", "TS101"} <= codes


@pytest.mark.parametrize(
    ("doc", "want"),
    [
        # A prompt that starts with a backtick: a syntax code, the hint names the fix.
        (b"prompt: `go test` fails\n", ("TS011", 'a value that starts with "`" must be quoted')),
        (b"prompt: fix: the bug\n", ("TS014", "a value that holds ': ' must be quoted")),
        (b"task_id: t\n  prompt: p\n", ("TS014", "check the indentation of this key")),
    ],
)
def test_both_libraries_give_the_prompt_mistake_hint(
    consumer: GoConsumer, doc: bytes, want: tuple[str, str]
) -> None:
    go = consumer.check(doc)
    py = _python(doc, "yaml")
    code, hint = want
    assert [p["code"] for p in go] == [code], go
    assert go[0]["hint"].startswith(hint), go
    assert py[0]["hint"] == go[0]["hint"], (py, go)


def test_both_libraries_report_every_problem_of_a_document(consumer: GoConsumer) -> None:
    doc = (
        b"task_spec_version: 1\ntask_id: t\ntimeout_secs: 3\nlanguage: golang\n"
        b"difficulty: Medium\ngenerated_frm:\n  kind: kg_template\nprompt: p\n"
        b"solution_artifacts:\n  - path: ../../etc/passwd\n"
        b"verification:\n  test_cmd: [go test]\n  timeout_seconds: -1\n"
    )
    go = consumer.check(doc)
    assert go == _python(doc, "yaml")
    codes = [p["code"] for p in go]
    assert codes == ["TS001", "TS001", "TS103", "TS103", "TS104", "TS301"], go
    assert go[-1]["severity"] == "warning" and go[-1]["line"] == 10
