"""One home for each bridge fact, and one pass through libyaml.

The line breaks of YAML 1.1 live in ``taskspec.bridge._breaks``; a module that
spells the set out again would drift from it the day one of them changes.

The general reader composes a document once; the event scans that check what
composing cannot see (the node and depth budgets, a ``%YAML`` directive, a
tag right before a comma, the escape ``\\/``) run only when a cheap test of
the text says they could find something, so a hand-edited sidecar goes
through libyaml once.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from yaml._yaml import CParser

import taskspec
from taskspec.bridge._breaks import LINE_BREAK, LINE_ENDS
from tests.helpers import VALID_DOC

PACKAGE = Path(taskspec.__file__).parent
HOME = PACKAGE / "bridge" / "_breaks.py"

#: The break set as source spells it, in any order of NEL, LS and PS after CR LF.
_SPELT = re.compile(r"\\r\\n(?:\\x85|\\u2028|\\u2029){3}")


def _sources() -> list[Path]:
    return [p for p in PACKAGE.rglob("*.py") if "v1" not in p.relative_to(PACKAGE).parts]


def test_the_break_set_is_spelt_out_only_in_its_home() -> None:
    elsewhere = [
        str(p.relative_to(PACKAGE))
        for p in _sources()
        if p != HOME and _SPELT.search(p.read_text(encoding="utf-8"))
    ]
    assert elsewhere == []
    assert _SPELT.search(HOME.read_text(encoding="utf-8"))


def test_the_break_set_is_yaml_1_1s() -> None:
    assert sorted(LINE_ENDS) == sorted("\n\r\x85\u2028\u2029")
    text = "a\r\nb\rc\nd\x85e\u2028f\u2029g"
    assert LINE_BREAK.split(text) == list("abcdefg")


class _Counting:
    """A stand-in for libyaml's ``CParser`` that counts the passes made with it."""

    def __init__(self, real: Any) -> None:
        self.real, self.passes = real, 0

    def __call__(self, data: Any) -> Any:
        self.passes += 1
        return self.real(data)


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> dict[str, _Counting]:
    """Every pass through libyaml while decoding: the composer, and each event scan.

    Counted in the pure build: compiled modules bind libyaml's parser when
    they are built, so a stand-in set on them is never called. The source
    is the same in both builds.
    """
    if taskspec.__compiled__:
        pytest.skip("counted in the pure build: compiled modules bind CParser at build time")
    from taskspec.bridge import _decode_load, _decode_tags  # noqa: PLC0415

    counters = {
        "compose": _Counting(_decode_load._Loader),
        "scan": _Counting(CParser),
        "tags": _Counting(CParser),
    }
    monkeypatch.setattr(_decode_load, "_Loader", counters["compose"])
    monkeypatch.setattr(_decode_load, "CParser", counters["scan"])
    monkeypatch.setattr(_decode_tags, "CParser", counters["tags"])
    return counters


#: A hand-edited sidecar: comments, a flow sequence, quoting the writer
#: would not use; the fast path declines it, so the general reader reads it.
_HAND_EDITED = (
    VALID_DOC.replace(b"language: go\n", b"language: 'go'  # the task's language\n")
    + b"# the end\n"
)


def test_a_hand_edited_document_goes_through_libyaml_once(passes: dict[str, _Counting]) -> None:
    assert taskspec.parse_task_spec(_HAND_EDITED).language
    assert {name: c.passes for name, c in passes.items()} == {"compose": 1, "scan": 0, "tags": 0}


@pytest.mark.parametrize(
    ("extra", "scan"),
    [
        (b"%YAML 1.1\n---\n", "scan"),  # the version directive, read from the events
        (b"# a tag then a comma: !!str,\n", "tags"),  # found by the text test, cleared by events
    ],
)
def test_a_second_pass_only_where_the_text_asks_for_it(
    passes: dict[str, _Counting], extra: bytes, scan: str
) -> None:
    assert taskspec.parse_task_spec(extra + _HAND_EDITED).language
    assert passes["compose"].passes == 1
    assert passes[scan].passes == 1


def test_every_field_kind_has_one_plan_and_one_fast_reader() -> None:
    """The field kinds are described once (``_layout.Kind``); writer and fast path cover each."""
    from taskspec.bridge import _emit, _fastpath, _layout  # noqa: PLC0415

    assert set(_emit._FIELD_PLANS) == set(_layout.Kind)
    plans = list(_emit._FIELD_PLANS.values())
    assert len(set(plans)) == len(plans)  # no plan serves two kinds
    assert set(_fastpath._READERS) == set(plans)


class _Calls:
    """A stand-in that counts the calls made to the function it wraps."""

    def __init__(self, real: Any) -> None:
        self.real, self.calls = real, 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        return self.real(*args, **kwargs)


@pytest.mark.parametrize(
    "doc",
    [
        VALID_DOC.replace(b"language: go\n", b"language: cobol\n"),  # the fast path declines it
        VALID_DOC.replace(b"language: go\n", b""),  # the fast path reads it; a rule refuses it
    ],
)
def test_a_refused_document_goes_through_the_fast_path_once(
    monkeypatch: pytest.MonkeyPatch, doc: bytes
) -> None:
    from taskspec.bridge import _fastpath  # noqa: PLC0415

    counted = _Calls(_fastpath.parse_canonical)
    monkeypatch.setattr(_fastpath, "parse_canonical", counted)
    with pytest.raises(taskspec.TaskSpecError) as info:
        taskspec.parse_task_spec(doc)
    assert info.value.violations[0].field_path == "language"
    assert counted.calls == 1
    # check() alone, which no reader has tried, reads it fast first, once.
    counted.calls = 0
    assert taskspec.check(doc)[0].field_path == "language"
    assert counted.calls == 1


def test_save_writes_the_yaml_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Validating for save measures the YAML it writes (TS107) rather than writing it twice."""
    from taskspec._limits import MAX_DOCUMENT_BYTES  # noqa: PLC0415
    from taskspec.bridge import _emit  # noqa: PLC0415

    spec = taskspec.parse_task_spec(VALID_DOC)
    spec.prompt = "x" * (MAX_DOCUMENT_BYTES // 2)  # past the cheap bound: measured
    counted = _Calls(_emit.marshal)
    monkeypatch.setattr(_emit, "marshal", counted)
    taskspec.save(tmp_path / "spec.yaml", spec)
    assert counted.calls == 1
    assert taskspec.load(tmp_path / "spec.yaml") == spec
