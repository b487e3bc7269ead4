"""The shared problem table: Python, Go and the CLI agree, in the catalogue's words.

``tests/contract/problems.json`` holds documents and every problem each has
(see :mod:`tests.contract.problem_cases`). The Go suite reads the same file
(``go/problems_table_test.go``). Here: the Python library, the Go library
through the conformance consumer, and ``taskspec validate --format json``,
case by case; then the catalogue against what the libraries produce: every
message in one of its code's forms, no runtime library's words, and no code
that nothing produces.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import taskspec
from taskspec._codes import CATALOGUE
from tests.cliutil import run_cli
from tests.conformance.gobridge import GoConsumer
from tests.contract.problem_cases import TABLE, document
from tests.helpers import unused_kind_codes

ROOT = Path(__file__).resolve().parent.parent
CASES: list[dict[str, Any]] = json.loads(TABLE.read_text(encoding="utf-8"))["cases"]
IDS = [c["name"] for c in CASES]

#: Words of the runtimes below the libraries that must never reach a user.
RUNTIME_PHRASES = (
    "Expecting value",
    "Expecting property name",
    "Expecting ',' delimiter",
    "Wire format",
    "Error parsing message",
    "unmarshal errors",
    "not found in type",
    "cannot unmarshal",
    "eval.TaskSpec",
    "eval.GeneratedFrom",
    "yaml: line",
    "while scanning",
    "while parsing",
    "found character",
    "did not find expected",
    "could not find expected",
    "grpc: received message",
    "proto:",
)
#: A Python repr of a string (``'xml'``) where Go quoting (``"xml"``) is the rule.
PYTHON_REPR = re.compile(r"(?<![\w'])'[A-Za-z_][\w.]{0,40}'(?![\w'])")

#: Codes no document can produce, each with the test file that produces it
#: and asserts it (the file must name the code).
PRODUCED_ELSEWHERE = {
    "TS106": "go/check_test.go",  # a Go string that is not UTF-8
    "TS107": "tests/test_check.py",  # a spec whose canonical YAML is over the limit
    "TS201": "tests/test_comments.py",  # a comment fmt cannot place
    "TS901": "tests/test_cli.py",  # a file that cannot be read
    "TS902": "tests/test_concurrent_edit.py",  # a file changed while formatted
    "TS903": "tests/test_problems.py",  # fmt of a .json file
    "TS999": "tests/test_validate_cli.py",  # an internal error
    # The kinds of constraint no rule of the contract uses yet: pinned on rules built there.
    **{code: "tests/test_constraints.py" for code in unused_kind_codes()},
}


def _record(v: Any) -> dict[str, Any]:
    return {
        "code": v.code,
        "field_path": v.field_path,
        "line": v.line,
        "column": v.column,
        "message": v.message,
        "hint": v.hint,
        "severity": v.severity,
        **({"fix": v.fix.to_dict()} if v.fix is not None else {}),
    }


def _python(case: dict[str, Any]) -> list[dict[str, Any]]:
    return [_record(v) for v in taskspec.check(document(case), taskspec.Format(case["format"]))]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_python_gives_the_tables_problems(case: dict[str, Any]) -> None:
    assert _python(case) == case["problems"]


@pytest.fixture(scope="module")
def go_problems(go: GoConsumer) -> dict[str, list[dict[str, Any]]]:
    answers = go.batch(
        [
            {
                "op": "lib_check",
                "yaml_b64": base64.b64encode(document(c)).decode("ascii"),
                "format": c["format"],
            }
            for c in CASES
        ]
    )
    return {c["name"]: a["problems"] for c, a in zip(CASES, answers, strict=True)}


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_go_gives_the_tables_problems(
    case: dict[str, Any], go_problems: dict[str, list[dict[str, Any]]]
) -> None:
    assert go_problems[case["name"]] == case["problems"]


def test_the_cli_gives_the_tables_problems(tmp_path: Path) -> None:
    suffix = {"yaml": ".taskspec.yaml", "json": ".json", "binpb": ".binpb"}
    paths = []
    for i, case in enumerate(CASES):
        path = tmp_path / f"case{i:03d}{suffix[case['format']]}"
        path.write_bytes(document(case))
        paths.append(path)
    result = run_cli(["validate", "--format", "json", "--jobs", "1", *map(str, paths)])
    out = json.loads(result.out)
    got: dict[str, list[dict[str, Any]]] = {str(p): [] for p in paths}
    for record in out["problems"]:
        got[record.pop("path")].append(record)
    mismatched = [
        case["name"]
        for case, path in zip(CASES, paths, strict=True)
        if got[str(path)] != case["problems"]
    ]
    assert not mismatched, f"the CLI differs from the table on {mismatched}"


def test_the_table_covers_every_kind_of_mistake_it_promises() -> None:
    assert len(CASES) >= 150
    names = set(IDS)
    mistakes = ("backtick", "at", "percent", "star", "ampersand", "pipe", "greater", "bracket")
    for mistake in (*mistakes, "brace"):
        assert f"prompt-mistake-{mistake}" in names
    for section in ("generated_frm", "verifcation", "solution_artifact", "difficulty_signal"):
        assert f"unknown-key-{section}" in names


#: The codes the rule cases pin in both languages (go/testdata/validate_rules.json,
#: generated from the rules): every kind of constraint a rule of the contract uses.
RULE_CASE_CODES = {
    v["code"]
    for c in json.loads((ROOT / "go" / "testdata" / "validate_rules.json").read_text())["cases"]
    for v in c["violations"]
}


def test_every_code_is_produced_and_nothing_outside_the_catalogue_is() -> None:
    produced = {p["code"] for c in CASES for p in c["problems"]}
    assert produced <= set(CATALOGUE), produced - set(CATALOGUE)
    assert not RULE_CASE_CODES - set(CATALOGUE), RULE_CASE_CODES - set(CATALOGUE)
    missing = set(CATALOGUE) - produced - RULE_CASE_CODES - set(PRODUCED_ELSEWHERE)
    assert not missing, f"codes of the catalogue that no table case produces: {sorted(missing)}"
    for code, test_file in PRODUCED_ELSEWHERE.items():
        assert code in CATALOGUE, code
        assert (
            f'"{code}' in (ROOT / test_file).read_text()
            or f"{code} " in (ROOT / test_file).read_text()
        ), f"{test_file} does not produce {code}"


def _template_pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{[a-z]+\}", template)
    return re.compile("(?s)" + ".+?".join(re.escape(p) for p in parts) + r"\Z")


@cache
def _patterns(code: str) -> tuple[tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]]:
    kind = CATALOGUE[code]
    return (
        tuple(_template_pattern(t) for t in kind.messages),
        tuple(_template_pattern(t) for t in kind.hints),
    )


def _rule_messages() -> set[str]:
    from taskspec._rules import RULES  # noqa: PLC0415

    return {r.message for r in RULES}


def _message_fits(code: str, message: str) -> bool:
    messages, _ = _patterns(code)
    if any(p.match(message) for p in messages):
        return True
    # {rule}: a Validate message, in the Go package's words from the proto's rules.
    return "{rule}" in CATALOGUE[code].messages and any(
        _template_pattern(m.replace("%q", "{value}").replace("%d", "{n}")).match(message)
        for m in _rule_messages()
    )


def _all_table_problems(go_problems: dict[str, list[dict[str, Any]]]) -> Iterator[dict[str, Any]]:
    for case in CASES:
        yield from case["problems"]
        yield from go_problems[case["name"]]


def test_every_message_and_hint_is_in_its_codes_catalogue_forms(
    go_problems: dict[str, list[dict[str, Any]]],
) -> None:
    bad = []
    for p in _all_table_problems(go_problems):
        if not _message_fits(p["code"], p["message"]):
            bad.append((p["code"], "message", p["message"]))
        _, hints = _patterns(p["code"])
        if p["hint"] and not any(h.match(p["hint"]) for h in hints):
            bad.append((p["code"], "hint", p["hint"]))
    assert not bad, "\n".join(map(repr, sorted(set(bad))))


def _fuzz_seeds() -> list[bytes]:
    """The fuzzers' seed corpus and every input the libraries once disagreed on."""
    from tests.fuzz.fuzz_parse import seeds  # noqa: PLC0415
    from tests.test_fuzz_target import DISAGREED  # noqa: PLC0415

    return [data for _, data in seeds()] + list(DISAGREED.values())


def test_no_runtime_words_reach_a_message(go: GoConsumer, go_problems: dict[str, Any]) -> None:
    seeds = _fuzz_seeds()
    answers = go.batch(
        [{"op": "lib_check", "yaml_b64": base64.b64encode(d).decode("ascii")} for d in seeds]
    )
    texts = [(p["message"], p["hint"]) for p in _all_table_problems(go_problems)]
    for data, answer in zip(seeds, answers, strict=True):
        texts += [(v.message, v.hint) for v in taskspec.check(data)]
        texts += [(p["message"], p["hint"]) for p in answer["problems"]]
    leaks = sorted(
        {
            text
            for pair in texts
            for text in pair
            if any(phrase in text for phrase in RUNTIME_PHRASES) or PYTHON_REPR.search(text)
        }
    )
    assert not leaks, "\n".join(leaks[:40])
