"""yaml.v3's order for string map keys (``keyList.Less`` in its ``sorter.go``).

yaml.v3 does not write a Go map's keys in byte order: it compares them rune
by rune and reads runs of digits as numbers ("a9" before "a10"), with a
letter-versus-other-character rule that depends on the rune before the
difference. ``difficulty_signals`` is written in that order, and the vector
generator needs the same comparison to tell which key sets Go orders
deterministically, so the order has this one home:

* :func:`key_less` is yaml.v3's comparison itself, rune for rune;
* :func:`sort_keys` sorts keys into the order yaml.v3 writes them;
* :func:`sorted_items` does the same for a map's items, on the writer's
  hot path.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Final

from taskspec._values import INT64_MIN, UINT64_MAX

__all__ = ["key_less", "sort_keys", "sorted_items"]

_UNIDATA_15_LETTERS: Final = (
    (0x1123F, 0x11240), (0x11F02, 0x11F02), (0x11F04, 0x11F10), (0x11F12, 0x11F33),
    (0x1342F, 0x1342F), (0x13441, 0x13446), (0x1B132, 0x1B132), (0x1B155, 0x1B155),
    (0x1DF25, 0x1DF2A), (0x1E030, 0x1E06D), (0x1E4D0, 0x1E4EB), (0x2B739, 0x2B739),
    (0x31350, 0x323AF),
)  # fmt: skip
_UNIDATA_15_DIGITS: Final = ((0x11F50, 0x11F59), (0x1E4F0, 0x1E4F9))
#: The letters Unicode 15.1 added (CJK Unified Ideographs Extension I); it
#: added no decimal digits.
_UNIDATA_15_1_LETTERS: Final = ((0x2EBF0, 0x2EE5D),)
# Go 1.21+ classifies runes with Unicode 15.0; Python 3.11 ships 14.0, 3.12
# 15.0 and 3.13 15.1. The tables above are every letter and decimal digit
# 15.0 added, for 3.11, and every letter 15.1 added, which Go does not know,
# for 3.13; tests/test_emit.py checks every code point against Go's own
# answer. (A Python with Unicode 16 or later would know more letters and
# digits than Go, and keys made of those would sort differently.)
_UNIDATA: Final = tuple(map(int, unicodedata.unidata_version.split(".")))
_PATCH_UNICODE: Final = _UNIDATA < (15,)
_NEWER_UNICODE: Final = _UNIDATA >= (15, 1)


def _in_ranges(cp: int, ranges: Iterable[tuple[int, int]]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def _is_letter(ch: str) -> bool:
    """Go's ``unicode.IsLetter`` (category L)."""
    if ch.isalpha():
        # (Every rune Go does not know is above U+2EBEF.)
        return not (
            _NEWER_UNICODE and ch > "\U0002ebef" and _in_ranges(ord(ch), _UNIDATA_15_1_LETTERS)
        )
    # (Every patched rune is above U+11000.)
    return _PATCH_UNICODE and ch > "\U00011000" and _in_ranges(ord(ch), _UNIDATA_15_LETTERS)


def _is_digit(ch: str) -> bool:
    """Go's ``unicode.IsDigit`` (category Nd)."""
    if ch.isdecimal():
        return True
    return _PATCH_UNICODE and ch > "\U00011000" and _in_ranges(ord(ch), _UNIDATA_15_DIGITS)


def _wrap64(n: int) -> int:
    return ((n - INT64_MIN) & UINT64_MAX) + INT64_MIN


def key_less(a: str, b: str) -> bool:
    """yaml.v3's ordering of two string map keys (``keyList.Less``).

    It compares rune by rune. At the first difference: two letters compare
    by code point; a letter against a non-letter puts the letter first when
    the previous (shared) rune was a digit and last otherwise; two
    non-letters compare as the numbers formed by the digit runs starting
    there (so "a9" < "a10"), then by run length (so "a1" < "a01"), then by
    code point. The digit runs are accumulated in wrapping int64 arithmetic
    with ``rune - '0'`` as the digit value, as Go does, so runs of other
    scripts' digits and overlong runs order exactly as in Go.
    """
    for i, (ca, cb) in enumerate(zip(a, b)):  # noqa: B905 - lengths differ by design
        if ca == cb:
            continue
        # Whether the last shared rune is a digit.
        digits = i > 0 and _is_digit(a[i - 1])
        al, bl = _is_letter(ca), _is_letter(cb)
        if al and bl:
            return ca < cb
        if al or bl:
            return al if digits else bl
        an = bn = 0
        if ca == "0" or cb == "0":
            for j in range(i - 1, -1, -1):
                if not _is_digit(a[j]):
                    break
                if a[j] != "0":
                    an = bn = 1
                    break
        ai = i
        while ai < len(a) and _is_digit(a[ai]):
            an = _wrap64(an * 10 + ord(a[ai]) - 48)
            ai += 1
        bi = i
        while bi < len(b) and _is_digit(b[bi]):
            bn = _wrap64(bn * 10 + ord(b[bi]) - 48)
            bi += 1
        if an != bn:
            return an < bn
        if ai != bi:
            return ai < bi
        return ca < cb
    return len(a) < len(b)


# yaml.v3's order is byte order for keys without digits (no digit runs to
# compare as numbers), with lower-case letters only, and with other
# characters all below 'a' (so "non-letter first" agrees with byte order).
_SIMPLE_KEYS = re.compile("[\x00-/:-@\\[-`a-z]*").fullmatch


_TOKENS = re.compile("[0-9]+|.", re.S).findall
# Where _token_key applies: no digit run long enough to overflow int64 ...
_NO_LONG_RUNS = re.compile("(?:[0-9]{1,18}(?![0-9])|[^0-9])*", re.S).fullmatch
# ... and no decimal digit but ASCII ones (Go gives others the value rune - '0').
_OTHER_DIGIT = re.compile("(?![0-9])[\\d\U00011f50-\U00011f59\U0001e4f0-\U0001e4f9]").search
_Token = tuple[int, int, int]


def _token_key(key: str) -> tuple[_Token, ...]:
    """A sort key equal to :func:`key_less` for keys whose digits are short ASCII runs.

    The key is split into digit runs and single characters, and a run of
    digits, a letter or another character ranks by what precedes it, because
    yaml.v3 decides "letter or not" by the previous rune: after a digit run a
    letter comes before any other character, elsewhere other characters (a
    digit run included) come first, and those before digit runs. Digit runs
    compare as numbers, then shorter first ("1" before "01"). Sorting with a
    key is much faster than with a comparison function, which matters
    because every key set with a digit needs this order.
    """
    out: list[_Token] = []
    after_digits = False
    for tok in _TOKENS(key):
        c = tok[0]
        if "0" <= c <= "9":
            out.append((1, int(tok), len(tok)))
            after_digits = True
            continue
        if _is_letter(c):
            out.append((0 if after_digits else 2, ord(c), 0))
        else:
            out.append((1 if after_digits else 0, ord(c), 0))
        after_digits = False
    return tuple(out)


def sorted_items(m: Mapping[str, int]) -> list[tuple[str, int]]:
    """The items of a string-keyed map in yaml.v3's key order (see sort_keys).

    Three ways to the same order, fastest first: byte order where it agrees
    (no digits, lower-case letters), a sort key (digits in short ASCII runs),
    and yaml.v3's comparison itself for the rest.
    """
    items = sorted(m.items())
    joined = "".join([k for k, _ in items])
    if _SIMPLE_KEYS(joined) is not None:
        return items
    if _NO_LONG_RUNS(joined) is not None and _OTHER_DIGIT(joined) is None:
        items.sort(key=lambda kv: _token_key(kv[0]))
        return items
    return _merge_sort(items)


def _merge_sort(items: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """*items*, in code point order, merge-sorted by :func:`key_less`.

    This is the fixed order for key sets yaml.v3's comparison may not order
    consistently (a digit run of 19 or more digits, or a digit of another
    script), and the Go library sorts such sets with the same algorithm
    (``fixedKeyOrder`` in go/keyorder.go): top-down, the left half of
    ``n // 2`` items first, and the left item first unless the right one is
    less. Python's own sort is a different algorithm, which would put a
    cyclic set in a different (equally valid) order; every comparison sort
    gives the same order for a consistent set.
    """
    if len(items) < 2:
        return items
    mid = len(items) // 2
    left, right = _merge_sort(items[:mid]), _merge_sort(items[mid:])
    out: list[tuple[str, int]] = []
    i = j = 0
    while i < len(left) and j < len(right):
        if key_less(right[j][0], left[i][0]):
            out.append(right[j])
            j += 1
        else:
            out.append(left[i])
            i += 1
    out += left[i:]
    out += right[j:]
    return out


def sort_keys(keys: Iterable[str]) -> list[str]:
    """String map keys in the order yaml.v3 writes them.

    yaml.v3's comparison is a strict total order on most key sets but not
    on all: digit runs of 19 or more digits overflow its int64 arithmetic
    and other scripts' digits (U+0661 ...) count as huge digit values, and
    both can make it cyclic ("9223372036854775808" < "1ze3" < "92\\U0001e4d0"
    < "9223372036854775808"). For such a set Go's output itself changes
    from run to run with Go's random map iteration order, so no writer can
    match it. Here the keys are first put in byte order, which makes the
    result deterministic for every set and identical to Go's for every set
    Go orders deterministically.
    """
    return [k for k, _ in sorted_items(dict.fromkeys(keys, 0))]
