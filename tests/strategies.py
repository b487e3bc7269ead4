"""Hypothesis strategies for TaskSpecs, shared by every property test.

``valid_specs()`` draws specs that pass :func:`taskspec.validate` and
otherwise range as widely as the contract allows: arbitrary Unicode text
mixed with the strings YAML writers get wrong, difficulty_signals keys that
stress yaml.v3's key order and quoting, int64 extremes, optional blocks
present and absent, and kg_query unset, set but empty, or set.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from taskspec import Difficulty, GeneratedKind, Language, TaskSpec
from taskspec._limits import INT64_MAX, INT64_MIN
from taskspec.bridge._gostr import go_trim_space

__all__ = [
    "HARD_STRINGS",
    "INT64_MAX",
    "INT64_MIN",
    "generated_corpus",
    "int64s",
    "signal_keys",
    "texts",
    "valid_specs",
]

#: Strings that read back as something else unless quoted, that need a
#: literal block or escapes, or that hit known yaml.v3 quirks.
HARD_STRINGS: tuple[str, ...] = (
    "",
    " ",
    "  ",
    "~",
    "null",
    "Null",
    "NULL",
    "true",
    "True",
    "FALSE",
    "y",
    "Y",
    "n",
    "yes",
    "No",
    "on",
    "OFF",
    "<<",
    "=",
    "0",
    "-0",
    "007",
    "1_000",
    "0x10",
    "0o17",
    "0b101",
    "1e3",
    "1.50",
    ".5",
    "+1",
    ".inf",
    "-.Inf",
    ".nan",
    "1:20",
    "2001-12-14",
    "-",
    "--",
    "---",
    "...",
    "- x",
    "? x",
    "?",
    ":",
    ": ",
    "a: b",
    "a:b",
    "a #b",
    "a#b",
    "#",
    "[",
    "]",
    "{",
    "}",
    ",",
    "*a",
    "&a",
    "!a",
    "!!str",
    "|",
    ">",
    "'",
    '"',
    "%",
    "@",
    "`",
    "\\",
    "\t",
    "a\tb",
    "\n",
    "\na",
    "a\n",
    "a\n\n",
    "a\nb",
    "a \nb",
    "a\n b",
    " a\nb",
    "a\r\nb",
    "\r",
    "\x00",
    "\x07",
    "\x1b",
    "\x7f",
    "\x85",
    "\xa0",
    "\u2028",
    "\u2029",
    "\ufeff",
    "\ufeffa",
    "\ufffe",
    "é",
    "日本語",
    "🙂",
    "a\U0001f642b",
)

#: Keys that stress yaml.v3's map-key order (runs of digits compare as
#: numbers) on top of the hard strings.
_ORDER_KEYS: tuple[str, ...] = (
    "1",
    "9",
    "10",
    "09",
    "a",
    "A",
    "a9",
    "a10",
    "a09",
    "a1b2",
    "a01b",
    "_",
    "-1",
    "1.5",
    "b",
    "involved_symbols",
    "edge_count",
    "cyclomatic_complexity",
)


def texts(*, max_size: int = 12) -> st.SearchStrategy[str]:
    """Any string: arbitrary Unicode, a hard string, or hard pieces run together."""
    piece = st.one_of(st.sampled_from(HARD_STRINGS), st.text(max_size=3))
    return st.one_of(
        st.text(max_size=max_size),
        st.sampled_from(HARD_STRINGS),
        st.lists(piece, min_size=2, max_size=4).map("".join),
    )


def signal_keys() -> st.SearchStrategy[str]:
    """A difficulty_signals key: any string, favouring the ones that order or quote oddly."""
    return st.one_of(st.sampled_from(_ORDER_KEYS), texts(max_size=6))


def int64s() -> st.SearchStrategy[int]:
    """Any int64, with the extremes and their neighbours drawn often."""
    edges = (INT64_MIN, INT64_MIN + 1, -1, 0, 1, INT64_MAX - 1, INT64_MAX)
    return st.one_of(st.sampled_from(edges), st.integers(INT64_MIN, INT64_MAX))


def _required_text() -> st.SearchStrategy[str]:
    """A string that is not blank by Go's strings.TrimSpace (task_id and prompt)."""
    return texts().filter(lambda s: go_trim_space(s) != "")


@st.composite
def valid_specs(
    draw: st.DrawFn,
    *,
    build_cmd: st.SearchStrategy[list[str]] | None = None,
    test_cmd: st.SearchStrategy[list[str]] | None = None,
) -> TaskSpec:
    """A TaskSpec that passes validate().

    *build_cmd* and *test_cmd* replace the strategies for those argument
    vectors (a *test_cmd* strategy must draw non-empty lists), so a test
    can plant recognisable values in them.
    """
    spec = TaskSpec(
        task_spec_version=1,
        task_id=draw(_required_text()),
        language=draw(st.sampled_from(Language)).to_proto(),
        difficulty=draw(st.sampled_from(Difficulty)).to_proto(),
        prompt=draw(_required_text()),
    )
    spec.difficulty_signals.update(draw(st.dictionaries(signal_keys(), int64s(), max_size=6)))

    gen = spec.generated_from
    gen.kind = draw(st.sampled_from(GeneratedKind)).to_proto()
    gen.template_id = draw(st.one_of(st.just(""), texts()))
    kg_query = draw(st.sampled_from(["unset", "empty", "set"]))
    if kg_query == "empty":
        gen.kg_query.SetInParent()
    elif kg_query == "set":
        gen.kg_query.SetInParent()
        gen.kg_query.intent = draw(texts())
        gen.kg_query.seed_symbol = draw(texts())

    for path, role in draw(st.lists(st.tuples(texts(), texts()), max_size=3)):
        spec.solution_artifacts.add(path=path, role=role)

    ver = spec.verification
    if build_cmd is None:
        build_cmd = st.lists(texts(), max_size=3)
    if test_cmd is None:
        test_cmd = st.lists(texts(), min_size=1, max_size=4)
    ver.build_cmd.extend(draw(build_cmd))
    ver.test_cmd.extend(draw(test_cmd))
    ver.timeout_seconds = draw(
        st.one_of(st.sampled_from((0, 1, INT64_MAX)), st.integers(0, INT64_MAX))
    )
    return spec


#: How many specs the generated corpus holds: enough to meet every style in
#: every position, few enough to stay a fast test.
CORPUS_SIZE: Final = 120


@cache
def generated_corpus() -> tuple[TaskSpec, ...]:
    """CORPUS_SIZE specs drawn from :func:`valid_specs`, once per run.

    They are drawn up front rather than checked one by one under ``@given``
    so that Go can check all of them in one pipelined batch.
    """
    drawn: list[TaskSpec] = []

    @settings(
        max_examples=CORPUS_SIZE,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(valid_specs())
    def draw(spec: TaskSpec) -> None:
        drawn.append(spec)

    draw()
    return tuple(drawn)
