"""Error types and codes as names: the same mistake, the same type, in both libraries.

``tests/contract/error_types.json`` lists documents with a decode problem, a
broken rule or both; ``go/error_types_test.go`` reads the same table, so that
the two libraries are held to one rule. ``taskspec.Code`` names every code of
the catalogue, as ``go/codes_gen.go``'s constants do.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import taskspec
from taskspec import Code, DecodeError, InvalidDocumentError, ValidationError
from taskspec._codes import CATALOGUE

ROOT = Path(__file__).resolve().parent.parent
TABLE: dict[str, Any] = json.loads((ROOT / "tests" / "contract" / "error_types.json").read_text())


def _more(n: int) -> str:
    return f" (and {n} more problem{'s' if n > 1 else ''})" if n > 0 else ""


def test_the_table_covers_each_kind_of_mistake_alone_and_together() -> None:
    kinds = {(c["decode"], c["validation"]) for c in TABLE["cases"]}
    assert kinds == {(True, False), (False, True), (True, True)}
    assert {c["format"] for c in TABLE["cases"]} == {"yaml", "json"}


@pytest.mark.parametrize("case", TABLE["cases"], ids=lambda c: str(c["name"]))
def test_one_mistake_raises_one_error_type_whatever_else_is_wrong(case: dict[str, Any]) -> None:
    with pytest.raises(taskspec.TaskSpecError) as info:
        taskspec.parse(case["text"], case["format"])
    err = info.value
    assert (isinstance(err, DecodeError), isinstance(err, ValidationError)) == (
        case["decode"],
        case["validation"],
    ), f"{type(err).__name__}: {err}"
    assert isinstance(err, InvalidDocumentError) == (case["decode"] and case["validation"])
    problems = taskspec.check(case["text"], case["format"])
    assert sorted(map(repr, err.violations)) == sorted(map(repr, problems))
    assert err.violations[0].code == case["first_code"]
    first = err.violations[0]
    shown = str(first) if isinstance(err, DecodeError) else first.message
    assert str(err) == shown + _more(len(err.violations) - 1)


def test_code_names_every_code_of_the_catalogue() -> None:
    # The members come from the catalogue the descriptors declare, named as
    # the catalogue names each kind.
    assert [m.value for m in Code] == list(CATALOGUE)
    for member in Code:
        assert member.name == CATALOGUE[member.value].name.upper()
        assert member == member.value and isinstance(member, str)
    assert Code.UNKNOWN_KEY.value == "TS001"
    assert Code("TS109") is Code.MAX_LEN


def test_the_go_library_names_the_same_codes() -> None:
    # go/codes_gen.go, which protoc-gen-taskspec-go writes: CodeUnknownKey
    # is Code.UNKNOWN_KEY (Go writes initialisms in capitals: CodeNotUTF8).
    text = (ROOT / "go" / "codes_gen.go").read_text()
    go = dict(re.findall(r'^\t(Code\w+) Code = "(TS\d{3})"$', text, re.MULTILINE))
    assert sorted(go.values()) == [m.value for m in Code]
    for name, code in go.items():
        assert name.removeprefix("Code").lower() == Code(code).name.replace("_", "").lower()
