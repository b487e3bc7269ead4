"""yaml.v3's key order, three ways: the comparison, the writer's sort key, the reader's check.

The writer sorts ``difficulty_signals`` by :func:`_keyorder.order_key`, which
cuts each key once, and the fast reader checks only that neighbouring keys
are in order (:func:`_keyorder.in_order`). Both must give exactly yaml.v3's
order (:func:`_keyorder.key_less`, and the orders recorded from Go in the
shared table ``tests/data/emit/key_orders.json``) on every key: numeric-
looking, escaped, quoted, long, non-ASCII and of mixed digits and letters.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Final

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

import taskspec
from taskspec import TaskSpec
from taskspec.bridge import _decode, _fastpath, _keyorder
from tests.conformance.gobridge import GoConsumer
from tests.helpers import valid_spec

TABLE: Final = json.loads(
    (Path(__file__).parent / "data" / "emit" / "key_orders.json").read_text(encoding="ascii")
)
#: Sets yaml.v3 orders consistently, in its order, and sets it orders
#: cyclically, in the fixed order both libraries write instead.
ORDERS: Final[list[list[str]]] = TABLE["orders"]
FIXED: Final[list[list[str]]] = TABLE["fixed"]

#: Characters that each take another branch of yaml.v3's comparison or of
#: the order key: digits (ASCII and of other scripts), letters (ASCII,
#: Latin-1, CJK, non-BMP, a title-case one), other characters (ASCII,
#: escaped, a combining mark, a superscript digit, non-BMP), byte edges.
ALPHABET: Final = "0019aAzZ_-.~ :#'\"\t\x00\x7f\x80\x85\u2028é²ǅ中Ω\u0301\U0001f680\u0661\U0001e4f0"
keys = st.text(alphabet=ALPHABET, max_size=8)


def _total(*ks: str) -> bool:
    return _keyorder._total(ks)


@settings(max_examples=3000)
@given(keys, keys)
def test_the_order_key_is_yaml_v3_s_comparison(a: str, b: str) -> None:
    if not _total(a, b):
        return  # no sort key can follow a comparison that is not an order
    assert (_keyorder.order_key(a) < _keyorder.order_key(b)) == _keyorder.key_less(a, b)
    assert (_keyorder.order_key(a) == _keyorder.order_key(b)) == (a == b)


@pytest.mark.parametrize("order", ORDERS, ids=lambda o: f"{len(o)}-keys")
def test_the_order_key_agrees_on_every_pair_of_a_recorded_set(order: list[str]) -> None:
    if _keyorder._total(order):  # (one set holds a digit of another script)
        coded = [_keyorder.order_key(k) for k in order]
        assert coded == sorted(coded)
    for a, b in itertools.combinations(order, 2):
        assert _keyorder.key_less(a, b)
        assert not _keyorder.key_less(b, a)


def test_long_digit_runs_and_other_digits_need_the_fixed_order() -> None:
    assert _total("1" * 18, "a" * 200, "é9", "x²")  # ² is no decimal digit
    assert not _total("1" * 19)
    assert not _total("a" + "1" * 19 + "b")
    assert not _total("x\u0661")  # ARABIC-INDIC DIGIT ONE
    assert not _total("\U0001e4f0")  # a digit Unicode 15.0 added


@pytest.mark.parametrize("order", ORDERS + FIXED, ids=lambda o: f"{len(o)}-keys")
def test_neighbours_in_order_are_the_writer_s_order(order: list[str]) -> None:
    assert _keyorder.in_order(order)
    for i in range(1, len(order)):
        swapped = [*order[: i - 1], order[i], order[i - 1], *order[i + 1 :]]
        assert not _keyorder.in_order(swapped)
    rng = random.Random(len(order))
    for _ in range(20):
        shuffled = rng.sample(order, len(order))
        assert _keyorder.in_order(shuffled) == (shuffled == order)


@settings(max_examples=1000)
@given(st.lists(keys, min_size=1, max_size=8, unique=True))
def test_in_order_is_whether_the_writer_would_keep_the_order(ks: list[str]) -> None:
    written = _keyorder.sort_keys(ks)
    assert _keyorder.in_order(written)
    assert _keyorder.in_order(ks) == (ks == written)


def _with_signals(keys: list[str]) -> TaskSpec:
    spec = valid_spec()
    spec.difficulty_signals.clear()
    for i, key in enumerate(keys):
        spec.difficulty_signals[key] = i
    return spec


def _signal_lines(doc: str) -> tuple[int, list[tuple[int, int]]]:
    """Where the signals start and end (line numbers), and each key's lines."""
    lines = doc.split("\n")
    start = lines.index("difficulty_signals:") + 1
    spans: list[tuple[int, int]] = []
    i = start
    while lines[i].startswith("    "):
        # A key is one line, or an explicit "? key" entry up to its ":" line.
        end = i + 1
        if lines[i].startswith("    ? "):
            while not lines[end - 1].startswith("    : "):
                end += 1
        spans.append((i, end))
        i = end
    return start, spans


@pytest.mark.parametrize("order", ORDERS + FIXED, ids=lambda o: f"{len(o)}-keys")
def test_the_fast_reader_takes_the_writer_s_order_only(order: list[str]) -> None:
    spec = _with_signals(order)
    doc = taskspec.marshal_yaml(spec)
    assert _fastpath.parse_canonical(doc) == spec
    # Two neighbouring entries swapped: the same spec, but not the writer's
    # text, so the fast reader declines it and the general reader reads it.
    text = doc.decode("utf-8")
    lines = text.split("\n")
    _, spans = _signal_lines(text)
    for (a, b), (c, d) in itertools.pairwise(spans):
        swapped = "\n".join([*lines[:a], *lines[c:d], *lines[a:b], *lines[d:]]).encode()
        assert _fastpath.parse_canonical(swapped) is None
        assert _decode.decode(swapped).spec == spec
        assert taskspec.parse_task_spec(swapped) == spec


def test_go_writes_every_recorded_order(go: GoConsumer) -> None:
    """The Go package (yaml.v3) writes each consistent set in the table's order."""
    for order in ORDERS:
        for shift in (0, len(order) // 2):
            res = go.marshal(_with_signals(order[shift:] + order[:shift]))
            assert res["ok"], res
            node = yaml.compose(res["yaml"], Loader=yaml.SafeLoader)
            assert node is not None
            signals = next(v for k, v in node.value if k.value == "difficulty_signals")
            assert [k.value for k, _ in signals.value] == order
