"""The "did you mean" guesses: offered when likely right, withheld otherwise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from taskspec import Difficulty, GeneratedKind, Language
from taskspec._suggest import distance, suggest
from taskspec.bridge import _layout
from taskspec.v1 import taskspec_pb2

CONTRACT = Path(__file__).resolve().parent / "contract"

# The candidates the decoder offers, read from the schema as the decoder reads them.
LANGUAGES = tuple(str(m) for m in Language)
DIFFICULTIES = tuple(str(m) for m in Difficulty)
KINDS = tuple(str(m) for m in GeneratedKind)
TOP_KEYS = tuple(f.name for f in _layout.TASK_SPEC.fields)
_VERIFICATION = _layout.TASK_SPEC.by_name["verification"].message
assert _VERIFICATION is not None
VERIFICATION_KEYS = tuple(f.name for f in _VERIFICATION.fields)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        ("", "", 0),
        ("", "abc", 3),
        ("go", "go", 0),
        ("taskid", "task_id", 1),  # one insertion
        ("pyhton", "python", 1),  # one adjacent swap, not two substitutions
        ("medum", "medium", 1),
        ("kitten", "sitting", 3),
        ("golang", "go", 4),
    ],
)
def test_distance(a: str, b: str, expected: int) -> None:
    assert distance(a, b) == expected
    assert distance(b, a) == expected


@pytest.mark.parametrize(
    ("word", "candidates", "expected"),
    [
        # aliases people actually write
        ("golang", LANGUAGES, "go"),
        ("py", LANGUAGES, "python"),
        ("python3", LANGUAGES, "python"),
        ("ts", LANGUAGES, "typescript"),
        ("moderate", DIFFICULTIES, "medium"),
        # case and separator slips
        ("Go", LANGUAGES, "go"),
        ("PYTHON", LANGUAGES, "python"),
        ("kg-template", KINDS, "kg_template"),
        ("Benchmark Seed", KINDS, "benchmark_seed"),
        # typing mistakes
        ("pyhton", LANGUAGES, "python"),
        ("typescirpt", LANGUAGES, "typescript"),
        ("meduim", DIFFICULTIES, "medium"),
        ("taskid", TOP_KEYS, "task_id"),
        ("promt", TOP_KEYS, "prompt"),
        ("testcmd", VERIFICATION_KEYS, "test_cmd"),
        # the start or end of exactly one key
        ("timeout", VERIFICATION_KEYS, "timeout_seconds"),
        ("version", TOP_KEYS, "task_spec_version"),
        ("lang", TOP_KEYS, "language"),
        ("benchmark", KINDS, "benchmark_seed"),
    ],
)
def test_suggest_finds_the_intended_spelling(
    word: str, candidates: tuple[str, ...], expected: str
) -> None:
    assert suggest(word, candidates) == expected


@pytest.mark.parametrize(
    ("word", "candidates"),
    [
        ("cobol", LANGUAGES),  # nothing close
        ("javascript", LANGUAGES),  # a different language is not a typo
        ("rust", LANGUAGES),
        ("", LANGUAGES),
        ("go", LANGUAGES),  # already right: nothing to suggest
        ("py", DIFFICULTIES),  # an alias whose target is not a candidate
        ("cmd", VERIFICATION_KEYS),  # ends two keys: a guess would be a coin toss
        ("diff", TOP_KEYS),  # begins two keys
        ("bogus", TOP_KEYS),
    ],
)
def test_suggest_withholds_unsafe_guesses(word: str, candidates: tuple[str, ...]) -> None:
    assert suggest(word, candidates) is None


def test_suggest_breaks_no_ties() -> None:
    assert distance("cat", "bat") == distance("cat", "hat") == 1
    assert suggest("cat", ("bat", "hat")) is None


def test_suggestions_match_the_table_both_libraries_read() -> None:
    """tests/contract/suggestions.json: the Go library's tests read the same cases."""
    table = json.loads((CONTRACT / "suggestions.json").read_text(encoding="ascii"))
    assert len(table["cases"]) > 200
    for case in table["cases"]:
        message = taskspec_pb2.DESCRIPTOR.message_types_by_name[case["candidates"].split(".")[-1]]
        got = suggest(case["word"], [f.name for f in message.fields]) or ""
        assert got == case["want"], case
