"""How yaml.v3 reads an untagged plain scalar, and when its encoder must quote.

The Go side of the contract (``yaml.Marshal`` / ``yaml.Unmarshal`` from
``go.yaml.in/yaml/v3`` v3.0.4) decides the type of a plain scalar with its own
resolver, which is neither YAML 1.1 nor YAML 1.2 and not what PyYAML does:

* ``yes``/``no``/``on``/``off`` are strings (but the encoder still quotes them);
* integers follow Go's ``strconv.ParseInt``/``ParseUint`` with base 0 after
  every ``_`` is deleted, so ``0x1F``, ``0o17``, ``017`` (octal), ``0b101``,
  ``+12`` and ``1_000`` are integers, and so is the odd ``0b-1``;
* floats are Go's ``strconv.ParseFloat``, and a value that overflows
  (``1e400``) is *not* a float but a string;
* timestamps are whatever Go's ``time.Parse`` accepts for four layouts, so an
  impossible date such as ``2001-02-30`` is a string.

Two consumers need this: the emitter, which must quote exactly the strings
yaml.v3 quotes (:func:`needs_quotes`), and the decoder, which must read an
integer field exactly as Go does (:func:`resolve`). Everything here works on
ASCII rules only, as Go's byte-oriented code does; ``int()``/``float()`` are
only called on text already proven to be ASCII digits, because Python's own
parsers accept Unicode digits, spaces and underscores that Go rejects.
"""

from __future__ import annotations

import math
import re
from typing import Final

from taskspec._values import INT64_MAX, INT64_MIN, UINT64_MAX

__all__ = ["needs_quotes", "resolve"]

NULL: Final = "!!null"
BOOL: Final = "!!bool"
INT: Final = "!!int"
FLOAT: Final = "!!float"
STR: Final = "!!str"
TIMESTAMP: Final = "!!timestamp"
MERGE: Final = "!!merge"

#: Digits in the largest uint64 (18446744073709551615); a longer decimal overflows.
_UINT64_DIGITS: Final = 20

# Exact spellings yaml.v3 looks up before trying numbers. Only consulted when
# the first character is one of the hint characters below, which is why "<<"
# (first character '<') never resolves through this table for the encoder.
_WORDS: Final[dict[str, tuple[str, object]]] = {}
for _v, _tag, _spellings in (
    (True, BOOL, ("true", "True", "TRUE")),
    (False, BOOL, ("false", "False", "FALSE")),
    (None, NULL, ("", "~", "null", "Null", "NULL")),
    (math.nan, FLOAT, (".nan", ".NaN", ".NAN")),
    (math.inf, FLOAT, (".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF")),
    (-math.inf, FLOAT, ("-.inf", "-.Inf", "-.INF")),
):
    for _s in _spellings:
        _WORDS[_s] = (_tag, _v)

# First-character hints: only text starting with one of these can resolve to
# anything but a string. S = sign, D = digit, M = word in the table, . = float.
_HINT: Final[dict[str, str]] = {"+": "S", "-": "S", ".": "."}
_HINT.update(dict.fromkeys("0123456789", "D"))
_HINT.update(dict.fromkeys("yYnNtTfFoO~", "M"))

#: YAML 1.1 booleans yaml.v3 resolves as strings but still quotes on output,
#: so that YAML 1.1 readers (PyYAML among them) do not turn them into bools.
OLD_BOOLS: Final = frozenset(
    (
        "y",
        "Y",
        "yes",
        "Yes",
        "YES",
        "on",
        "On",
        "ON",
        "n",
        "N",
        "no",
        "No",
        "NO",
        "off",
        "Off",
        "OFF",
    )
)

# Strings starting with an 'M' hint character that must be quoted: the table
# words plus the YAML 1.1 booleans. Lets needs_quotes skip resolve() for them.
_M_QUOTED: Final = frozenset(w for w in _WORDS if w and w[0] in "yYnNtTfFoO~") | OLD_BOOLS

_ASCII_DIGITS: Final = frozenset("0123456789")
# The same as a string, for "x in" tests on slices ("" is in it: callers rely on that).
_DIGIT_CHARS: Final = "0123456789"
_HAS_DIGIT = re.compile(r"[0-9]").search
_YAML_FLOAT = re.compile(r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?").fullmatch
_BASE60_FLOAT = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?").fullmatch

# Digit values of the ASCII alphanumerics, as Go's ParseUint sees them.
_DIGIT_VALUE: Final[dict[str, int]] = {c: i for i, c in enumerate("0123456789")}
_DIGIT_VALUE.update({c: 10 + i for i, c in enumerate("abcdefghijklmnopqrstuvwxyz")})
_DIGIT_VALUE.update({c: 10 + i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZ")})


def _parse_uint(s: str, base: int) -> int | None:
    """Go's ``strconv.ParseUint(s, base, 64)``; ``None`` on any error.

    Callers have already removed underscores, so base 0 needs no
    underscore rules; a stray ``_`` is simply an invalid digit here.
    """
    if not s:
        return None
    if base == 0:
        base = 10
        if s[0] == "0":
            p = s[1:2]
            if len(s) >= 3 and p in ("b", "B"):
                base, s = 2, s[2:]
            elif len(s) >= 3 and p in ("o", "O"):
                base, s = 8, s[2:]
            elif len(s) >= 3 and p in ("x", "X"):
                base, s = 16, s[2:]
            else:
                base, s = 8, s[1:]
    n = 0
    for c in s:
        d = _DIGIT_VALUE.get(c)
        if d is None or d >= base:
            return None
        n = n * base + d
        if n > UINT64_MAX:
            return None  # Go's ErrRange; stopping keeps a long input linear
    return n


def _parse_int(s: str, base: int) -> int | None:
    """Go's ``strconv.ParseInt(s, base, 64)``; ``None`` on any error."""
    neg = False
    if s[:1] == "+":
        s = s[1:]
    elif s[:1] == "-":
        s, neg = s[1:], True
    un = _parse_uint(s, base)
    if un is None:
        return None
    if neg:
        return -un if un <= -INT64_MIN else None
    return un if un <= INT64_MAX else None


# Go's base-0 integer syntax once underscores are gone: optional sign, then
# 0b/0o/0x with at least one digit, a legacy octal 0..., or a decimal.
_GO_INT = re.compile(
    r"([-+]?)(?:0[bB]([01]+)|0[oO]([0-7]+)|0[xX]([0-9a-fA-F]+)|0([0-7]*)|([1-9][0-9]*))"
).fullmatch


def _parse_int_or_uint(s: str) -> int | None:
    """``ParseInt(s, 0, 64)``, else ``ParseUint(s, 0, 64)``: ``None`` if both fail.

    The same answers as trying :func:`_parse_int` and :func:`_parse_uint`,
    in one regular-expression match: this runs for every digit-led string
    the writer sees, so it avoids a Python loop per character.
    """
    m = _GO_INT(s)
    if m is None:
        return None
    sign, b, o, x, legacy, dec = m.groups()
    if b is not None:
        n = int(b, 2)
    elif o is not None:
        n = int(o, 8)
    elif x is not None:
        n = int(x, 16)
    elif legacy is not None:
        n = int(legacy, 8) if legacy else 0
    elif len(dec) > _UINT64_DIGITS:
        # Out of range for Go, and past Python's int() digit limit for
        # the longest: never convert text that cannot fit.
        return None
    else:
        n = int(dec)
    if sign == "-":
        return -n if n <= -INT64_MIN else None
    if sign == "+":  # ParseUint takes no sign: int64 range only
        return n if n <= INT64_MAX else None
    return n if n <= UINT64_MAX else None


def _underscores_ok(s: str) -> bool:
    """Go's rule for ``_`` in a number: only between digits (or after a prefix)."""
    if s[:1] in ("+", "-"):
        s = s[1:]
    saw = "^"
    i = 0
    hexa = False
    if len(s) >= 2 and s[0] == "0" and s[1] in "bBoOxX":
        i, saw, hexa = 2, "0", s[1] in "xX"
    for c in s[i:]:
        if c in _ASCII_DIGITS or (hexa and c in "abcdefABCDEF"):
            saw = "0"
        elif c == "_":
            if saw != "0":
                return False
            saw = "_"
        elif saw == "_":
            return False
        else:
            saw = "!"
    return saw != "_"


def _parse_decimal_float(s: str) -> float | None:
    """Go's ``strconv.ParseFloat(s, 64)`` for text that cannot be hex/inf/nan.

    Only reached for text starting with '.' (and, after the YAML float
    pattern matched, plain decimals), so the hexadecimal and inf/nan
    spellings Go also accepts can never occur. Returns ``None`` for a
    syntax error and for overflow, because Go reports ``ErrRange`` there
    and yaml.v3 then treats the scalar as a string.
    """
    n = len(s)
    i = 0
    if i < n and s[i] in "+-":
        i += 1
    underscores = sawdot = sawdigits = False
    while i < n:
        c = s[i]
        if c == "_":
            underscores = True
        elif c == ".":
            if sawdot:
                break
            sawdot = True
        elif c in _ASCII_DIGITS:
            sawdigits = True
        else:
            break
        i += 1
    if not sawdigits:
        return None
    if i < n and s[i] in "eE":
        i += 1
        if i >= n:
            return None
        if s[i] in "+-":
            i += 1
        if i >= n or s[i] not in _ASCII_DIGITS:
            return None
        while i < n and (s[i] in _ASCII_DIGITS or s[i] == "_"):
            if s[i] == "_":
                underscores = True
            i += 1
    if i != n:
        return None
    if underscores and not _underscores_ok(s):
        return None
    # Proven to be [sign] ASCII digits, one dot, exponent: float() agrees
    # with Go's correctly rounded conversion; infinity means Go's ErrRange.
    value = float(s.replace("_", ""))
    return None if math.isinf(value) else value


def _getnum(s: str, i: int) -> tuple[int, int] | None:
    """Go's ``time.getnum(s[i:], false)``: one or two ASCII digits."""
    if i >= len(s) or s[i] not in _ASCII_DIGITS:
        return None
    if i + 1 < len(s) and s[i + 1] in _ASCII_DIGITS:
        return int(s[i : i + 2]), i + 2
    return int(s[i]), i + 1


def _days_in(month: int, year: int) -> int:
    if month == 2:
        leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
        return 29 if leap else 28
    return 30 if month in (4, 6, 9, 11) else 31


def _clock(s: str, i: int, with_zone: bool) -> bool:
    """The ``15:4:5.999999999`` part (plus ``Z07:00`` when ``with_zone``) up to the end."""
    n = len(s)
    r = _getnum(s, i)
    if r is None or r[0] >= 24:
        return False
    for limit in (60, 60):  # minute, then second
        i = r[1]
        if i >= n or s[i] != ":":
            return False
        r = _getnum(s, i + 1)
        if r is None or r[0] >= limit:
            return False
    i = r[1]
    # Optional fraction: '.' or ',' and at least one digit; any number of digits.
    if i + 1 < n and s[i] in ".," and s[i + 1] in _ASCII_DIGITS:
        i += 2
        while i < n and s[i] in _ASCII_DIGITS:
            i += 1
    if with_zone:
        if i < n and s[i] == "Z":
            i += 1
        else:
            if n - i < 6 or s[i + 3] != ":":
                return False
            hh, mm = s[i + 1 : i + 3], s[i + 4 : i + 6]
            if not (
                s[i] in "+-"
                and hh[0] in _ASCII_DIGITS
                and hh[1] in _ASCII_DIGITS
                and mm[0] in _ASCII_DIGITS
                and mm[1] in _ASCII_DIGITS
                and int(hh) <= 24
                and int(mm) <= 60
            ):
                return False
            i += 6
    return i == n


def _is_timestamp(s: str) -> bool:
    """Whether Go's ``time.Parse`` accepts ``s`` with one of yaml.v3's layouts.

    The layouts are ``2006-1-2T15:4:5.999999999Z07:00`` (also with a lower
    case ``t``), ``2006-1-2 15:4:5.999999999`` and ``2006-1-2``. Go checks the
    day against the month (leap years included) only after the whole text
    matched, so an invalid date is never a timestamp.
    """
    n = len(s)
    if n < 5 or s[4] != "-" or not all(c in _ASCII_DIGITS for c in s[:4]):
        return False
    r = _getnum(s, 5)
    if r is None or not 1 <= r[0] <= 12:
        return False
    month, i = r
    if i >= n or s[i] != "-":
        return False
    r = _getnum(s, i + 1)
    if r is None:
        return False
    day, i = r
    if i == n:
        ok = True
    elif s[i] in "Tt":
        ok = _clock(s, i + 1, True)
    elif s[i] == " ":
        while i < n and s[i] == " ":  # a layout space matches any run of spaces
            i += 1
        ok = _clock(s, i, False)
    else:
        ok = False
    return ok and 1 <= day <= _days_in(month, int(s[:4]))


def _resolve(text: str) -> tuple[str, object]:
    """yaml.v3's ``resolve("", text)``, exactly (so ``"<<"`` is a string)."""
    hint = _HINT.get(text[:1]) if text else "M"
    if hint is None:
        return STR, text
    item = _WORDS.get(text)
    if item is not None:
        return item
    if hint == "M":
        return STR, text
    if hint == ".":
        f = _parse_decimal_float(text)
        return (FLOAT, f) if f is not None else (STR, text)
    # Sign or digit. Every numeric or date form needs an ASCII digit.
    if _HAS_DIGIT(text) is None:
        return STR, text
    if _is_timestamp(text):
        return TIMESTAMP, text
    plain = text.replace("_", "")
    v = _parse_int_or_uint(plain)
    if v is not None:
        return INT, v
    if _YAML_FLOAT(plain):
        f = _parse_decimal_float(plain)
        if f is not None:
            return FLOAT, f
    # yaml.v3 retries binary and octal prefixes by parsing the rest with an
    # explicit base, which lets a sign follow the prefix ("0b-1" is -1).
    for prefix, base in (("0b", 2), ("0o", 8)):
        if plain.startswith(prefix):
            v = _parse_int(plain[2:], base)
            if v is None:
                v = _parse_uint(plain[2:], base)
        elif plain.startswith("-" + prefix):
            v = _parse_int("-" + plain[3:], base)
        if v is not None:
            return INT, v
    return STR, text


def resolve(text: str) -> tuple[str, object]:
    """The tag and value yaml.v3 gives the untagged plain scalar ``text``.

    Returns one of ``("!!null", None)``, ``("!!bool", bool)``,
    ``("!!int", int)`` (anything in int64 or uint64 range),
    ``("!!float", float)``, ``("!!timestamp", text)``, ``("!!merge", "<<")``
    or ``("!!str", text)``.

    ``"<<"`` is the one place this differs from Go's ``resolve`` function:
    Go's resolver says string, but yaml.v3's parser tags a *plain* ``<<`` as
    a merge key before the resolver is asked, and a decoder reading plain
    scalars needs that combined answer. :func:`needs_quotes` keeps the
    encoder's view, which is the resolver's alone.
    """
    if text == "<<":
        return MERGE, text
    return _resolve(text)


def needs_quotes(text: str) -> bool:
    """Whether yaml.v3's encoder refuses to write ``text`` as a plain scalar.

    That is: it would resolve to something other than a string, or it is a
    YAML 1.1 base-60 float (``1:20``) or a YAML 1.1 boolean (``yes``, ``off``).
    It is only the resolver half of the decision; indicators, spaces and
    special characters are judged by the emitter.
    """
    if not text:
        return True
    hint = _HINT.get(text[0])
    if hint is None:
        return False
    if hint == "M":
        return text in _M_QUOTED
    # Cheap exits for common non-numbers such as "./..." and "-race": a float
    # starting with '.' needs a digit right after it, and every number, date
    # or base-60 form starting with a sign needs a digit somewhere; what is
    # left are the table words (".inf", "-.Inf", ...).
    if hint == "." and text[1:2] not in _DIGIT_CHARS:
        return text in _WORDS
    if hint == "S" and _HAS_DIGIT(text) is None:
        return text in _WORDS
    if _resolve(text)[0] != STR:
        return True
    return hint != "." and ":" in text and _BASE60_FLOAT(text) is not None
