"""yaml.v3's order for string map keys (``keyList.Less`` in its ``sorter.go``).

yaml.v3 does not write a Go map's keys in byte order: it compares them rune
by rune and reads runs of digits as numbers ("a9" before "a10"), with a
letter-versus-other-character rule that depends on the rune before the
difference. ``difficulty_signals`` is written in that order, and the vector
generator needs the same comparison to tell which key sets Go orders
deterministically, so the order has this one home:

* :func:`key_less` is yaml.v3's comparison itself, rune for rune;
* :func:`order_key` is a sort key equal to it wherever it is a total order,
  which cuts each key into tokens once, not once per comparison;
* :func:`sort_keys` sorts keys into the order yaml.v3 writes them;
* :func:`sorted_items` does the same for a map's items, on the writer's
  hot path;
* :func:`in_order` tells whether keys already are in that order, for the
  fast reader, by comparing neighbours instead of sorting.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Final

from taskspec._values import INT64_MIN, UINT64_MAX

__all__ = ["in_order", "key_less", "order_key", "sort_keys", "sorted_items"]

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


def _letter(cp: int) -> bool:
    """:func:`_is_letter` of the character *cp*, without a call for ASCII."""
    if cp < 0x80:
        return 0x61 <= cp <= 0x7A or 0x41 <= cp <= 0x5A
    return _is_letter(chr(cp))


def _digit(cp: int) -> bool:
    """:func:`_is_digit` of the character *cp*, without a call for ASCII."""
    if cp < 0x80:
        return 0x30 <= cp <= 0x39
    return _is_digit(chr(cp))


#: Numbers this small are their own int64 wrap.
_SHORT: Final = 10**18


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
    n = min(len(a), len(b))
    i = 0
    while i < n and ord(a[i]) == ord(b[i]):
        i += 1
    if i == n:
        return len(a) < len(b)
    ca, cb = ord(a[i]), ord(b[i])
    # Whether the last shared rune is a digit.
    digits = i > 0 and _digit(ord(a[i - 1]))
    al, bl = _letter(ca), _letter(cb)
    if al and bl:
        return ca < cb
    if al or bl:
        return al if digits else bl
    an = bn = 0
    if ca == 0x30 or cb == 0x30:
        for j in range(i - 1, -1, -1):
            c = ord(a[j])
            if not _digit(c):
                break
            if c != 0x30:
                an = bn = 1
                break
    # Wrapping once at the end is wrapping at each step (arithmetic modulo
    # 2**64); a long run wraps as it goes, so that its number stays small.
    ai = i
    while ai < len(a) and _digit(ord(a[ai])):
        an = an * 10 + ord(a[ai]) - 0x30
        ai += 1
        if ai - i > 18:
            an = _wrap64(an)
    bi = i
    while bi < len(b) and _digit(ord(b[bi])):
        bn = bn * 10 + ord(b[bi]) - 0x30
        bi += 1
        if bi - i > 18:
            bn = _wrap64(bn)
    if not 0 <= an < _SHORT:
        an = _wrap64(an)
    if not 0 <= bn < _SHORT:
        bn = _wrap64(bn)
    if an != bn:
        return an < bn
    if ai != bi:
        return ai < bi
    return ca < cb


# yaml.v3's order is byte order for keys without digits (no digit runs to
# compare as numbers), with lower-case letters only, and with other
# characters all below 'a' (so "non-letter first" agrees with byte order).
_SIMPLE_KEYS = re.compile("[\x00-/:-@\\[-`a-z]*").fullmatch


def _total(keys: Iterable[str]) -> bool:
    """Whether yaml.v3's comparison is a total order on *keys*.

    It is unless a key has a digit run of 19 or more digits (which overflow
    int64) or a decimal digit but ASCII ones (Go gives those the value
    rune - '0'). Only a key that long, or one not all ASCII, is read.
    """
    for key in keys:
        ascii_only = key.isascii()
        if ascii_only and len(key) < 19:
            continue
        run = 0
        for i in range(len(key)):
            c = ord(key[i])
            if 0x30 <= c <= 0x39:
                run += 1
                if run >= 19:
                    return False
                continue
            run = 0
            if not ascii_only and c >= 0x80 and _is_digit(chr(c)):
                return False
    return True


# The order key's tokens, as bytes. yaml.v3 puts, at the first difference of
# two keys, other characters before a digit run and a digit run before
# letters, except right after a digit run, where letters come before other
# characters. Each token is coded in its rank (c' is the character's UTF-8):
#
#   not after a digit run                after a digit run
#   \x01-\x42  other ASCII characters     \x01-\x34  ASCII letters
#   \x43 c'    other characters           \x35 c'    letters
#   \x44 ...   a digit run                \x36-\x77  other ASCII characters
#   \x45-\x78  ASCII letters              \x78 c'    other characters
#   c'         letters (U+0080 and up: a lead byte of \xc2 or more)
#
# UTF-8 keeps code point order and no character's bytes begin another's, so
# within a rank the codes keep the characters' order, no token's code begins
# another's, and comparing the codes as bytes compares the tokens.
_OTHERS: Final = [c for c in range(0x80) if not chr(c).isalnum()]
_LETTERS: Final = [c for c in range(0x80) if chr(c).isalpha()]
_CODES: Final = bytes(range(0x100)).translate(
    bytes.maketrans(
        bytes(_OTHERS + _LETTERS),
        bytes(range(0x01, 0x01 + len(_OTHERS))) + bytes(range(0x45, 0x45 + len(_LETTERS))),
    )
)
_AFTER_DIGITS: Final = bytes(range(0x100)).translate(
    bytes.maketrans(
        bytes(_LETTERS + _OTHERS),
        bytes(range(0x01, 0x01 + len(_LETTERS))) + bytes(range(0x36, 0x36 + len(_OTHERS))),
    )
)


#: A digit run's code up to its digits, by the count of its digits after
#: leading zeros, and a length's byte (runs of up to 18 digits: see _total).
_RUN_HEADS: Final = tuple(bytes((0x44, n)) for n in range(19))
_LENGTHS: Final = tuple(bytes((n,)) for n in range(19))


def _text_key(text: str, after_digits: bool) -> bytes:
    """The tokens of *text*, which holds no ASCII digit; *after_digits* if a run precedes it."""
    if after_digits:
        first = _after_digits(text[0])
        return first + _text_key(text[1:], False) if len(text) > 1 else first
    if text.isascii():
        return text.encode("ascii").translate(_CODES)
    return b"".join([_char_code(c) for c in text])


def _char_code(c: str) -> bytes:
    if c < "\x80":
        return c.encode("ascii").translate(_CODES)
    code = c.encode("utf-8", "surrogatepass")
    return code if _is_letter(c) else b"\x43" + code


def _after_digits(c: str) -> bytes:
    if c < "\x80":
        return c.encode("ascii").translate(_AFTER_DIGITS)
    return (b"\x35" if _is_letter(c) else b"\x78") + c.encode("utf-8", "surrogatepass")


def _run_key(run: str) -> bytes:
    digits = run.lstrip("0")
    if len(run) < len(_LENGTHS):
        return _RUN_HEADS[len(digits)] + digits.encode("ascii") + _LENGTHS[len(run)]
    return bytes((0x44, len(digits) & 0xFF)) + digits.encode("ascii") + bytes((len(run) & 0xFF,))


def order_key(key: str) -> bytes:
    """Bytes whose order is yaml.v3's order, for keys it orders consistently.

    That is for keys without a digit run of 19 or more digits and without a
    decimal digit but ASCII ones (see :func:`_total`). The key is cut once
    into digit runs and single characters, and each is coded by its rank
    (see the table above): a digit run compares as a number, then shorter
    first ("1" before "01"), so it is written as the count of its digits
    after leading zeros, those digits, and its length. The sort then
    compares bytes, in C, instead of cutting two keys up again for each
    comparison.
    """
    n = len(key)
    out: list[bytes] = []
    start = i = 0  # the text since the last run, and where the scan is
    while i < n:
        c = ord(key[i])
        if c < 0x30 or c > 0x39:
            i += 1
            continue
        end = i + 1
        while end < n and 0x30 <= ord(key[end]) <= 0x39:
            end += 1
        if i > start:
            out.append(_text_key(key[start:i], bool(out)))
        out.append(_run_key(key[i:end]))
        start = i = end
    if start < n:
        out.append(_text_key(key[start:], bool(out)))
    return out[0] if len(out) == 1 else b"".join(out)


def _order_key_of(item: tuple[str, int]) -> bytes:
    return order_key(item[0])


def sorted_items(m: Mapping[str, int]) -> list[tuple[str, int]]:
    """The items of a string-keyed map in yaml.v3's key order (see sort_keys).

    Three ways to the same order, fastest first: byte order where it agrees
    (no digits, lower-case letters), a sort key (:func:`order_key`) where
    yaml.v3's comparison is a total order, and the fixed order for the rest.
    """
    items = sorted(m.items())
    keys = [k for k, _ in items]
    if _SIMPLE_KEYS("".join(keys)) is not None:
        return items
    if _total(keys):
        items.sort(key=_order_key_of)
        return items
    return _merge_sort(items)


def in_order(keys: list[str]) -> bool:
    """Whether *keys* (distinct) are in the order :func:`sorted_items` puts them in.

    Where yaml.v3's comparison is a total order, keys are in its order when
    each is less than the next, so only neighbours are compared; a set of
    keys that needs the fixed order is sorted to compare.
    """
    if _SIMPLE_KEYS("".join(keys)) is not None:
        return all(keys[i - 1] < keys[i] for i in range(1, len(keys)))
    if _total(keys):
        return all(key_less(keys[i - 1], keys[i]) for i in range(1, len(keys)))
    return sort_keys(keys) == keys


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
