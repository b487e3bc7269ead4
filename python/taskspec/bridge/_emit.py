"""The canonical YAML writer: the bytes go yaml.v3's ``yaml.Marshal`` writes.

Go services write ``taskspec.yaml`` with ``yaml.Marshal`` (``go.yaml.in/yaml/v3``
v3.0.4, default settings) and compare, hash and diff the bytes, so the Python
writer must reproduce them exactly rather than produce "equivalent YAML". The
layout yaml.v3 uses for a Go struct is fixed (block mappings, 4-space indent,
indented block sequences, ``{}``/``[]`` for empty collections, no line
folding), so instead of simulating yaml.v3's event-driven emitter this module
walks the message with the descriptor tables of :mod:`taskspec.bridge._layout` and
writes each piece directly. Only scalars need real analysis: yaml.v3 picks
plain, single-quoted, double-quoted or literal style per string, and that
choice is reproduced rule for rule by :func:`_scalar` and :func:`_key`.

Where yaml.v3 writes bytes that it cannot read back itself, this module does
*not* copy them; see :data:`ROUND_TRIP_FIXES`.

The writer is on hot paths (every sidecar save) and must be at least twice as
fast as Go's ``yaml.Marshal``. So the walk is one function generated from the
schema (see "the walk" below), and a string that a handful of C-level ``str``
tests prove to be a safe one-line plain scalar is written as is; the exact
analysis only runs for the rest.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import cmp_to_key
from typing import Any, Final, cast

from taskspec._errors import TaskSpecError, Violation
from taskspec._limits import INT64_MIN, UINT64_MAX
from taskspec.bridge._layout import TASK_SPEC, Kind, MessageInfo
from taskspec.bridge._resolve import _DIGIT_CHARS, _HAS_DIGIT, _M_QUOTED, _WORDS, needs_quotes
from taskspec.v1 import taskspec_pb2

__all__ = ["ROUND_TRIP_FIXES", "marshal", "sort_map_keys"]

#: The inputs for which yaml.v3 v3.0.4 writes YAML that it cannot read back
#: (it fails, or reads another value), and what this writer does instead.
#: Each fix changes as little of Go's bytes as possible, and the result reads
#: back to the original value with both yaml.v3 and PyYAML. Found by
#: differential fuzzing against yaml.v3 with a round-trip check; everything
#: else is byte-identical to Go.
ROUND_TRIP_FIXES: Final[Mapping[str, str]] = {
    "indicator-in-sequence-item": (
        "A multi-line string starting with a space or a line break gets a literal block "
        "with an explicit indentation indicator, and yaml.v3 always writes 4. In a "
        "sequence item (verification.build_cmd / test_cmd entries) the content is only 2 "
        "columns right of the '-' that readers measure from, so yaml.v3 fails to parse "
        "the document whenever the string has a non-empty line. Written with indicator 2 "
        "instead; nothing else changes. (A string of line breaks only is copied as is: "
        "there is no line to misplace and yaml.v3 reads it back.)"
    ),
    "indicator-in-item-mapping": (
        "The same for solution_artifacts[].path and .role: the item's keys are at column "
        "6 and the content at column 8, so the right indicator is 2, not yaml.v3's 4."
    ),
    "tab-first-literal": (
        "A multi-line string whose first character is a tab gets a literal block without "
        "an indentation indicator, and yaml.v3's scanner rejects a tab where it is still "
        "detecting the indentation ('found a tab character where an indentation space is "
        "expected'). Written with the indicator (4, or 2 in the two positions above), "
        "which fixes the indentation so the tab is content."
    ),
    "merge-key": (
        "yaml.v3's resolver never flags '<<' (no first-character hint for '<'), so its "
        "encoder writes a plain '<<' map key, which its parser (and PyYAML) then treat as "
        "a YAML merge key and reject. A difficulty_signals key '<<' is written "
        'double-quoted, as yaml.v3 quotes other special keys: "<<": N.'
    ),
}

_BEST_INDENT: Final = 4
_MAX_SIMPLE_KEY_BYTES: Final = 128

# --- scalar analysis ---------------------------------------------------------
#
# yaml.v3 classifies characters byte by byte. As code points its rules are:
# "printable" is LF, ASCII 0x20-0x7E, U+00A0-U+D7FF and U+E000-U+FFFD except
# U+FEFF; everything beyond the BMP is *not* printable (its table stops at
# 3-byte UTF-8), so emoji are escaped. Line breaks are CR, LF, NEL, LS, PS.
# A "special" character is a non-printable one other than TAB.
_BREAKS: Final = "\r\n\x85\u2028\u2029"
_NOT_PRINTABLE: Final = (
    "\x00-\x09\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufeff\ufffe\uffff\U00010000-\U0010ffff"
)
_SPECIAL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufeff\ufffe\uffff\U00010000-\U0010ffff]"
).search
_SPACE_BREAK = re.compile("[ ][\r\n\x85\u2028\u2029]").search
_HAS_BREAK = re.compile("[\r\n\x85\u2028\u2029]").search
_BREAK_SPACE = re.compile("[\r\n\x85\u2028\u2029][ ]").search
# After the first character: ':' before a blank or the end, '#' after a blank,
# a break or NUL (yaml.v3's "preceded by whitespace" includes those).
_INNER_INDICATOR = re.compile(
    "(?<=.)(?::(?=[ \t]|\\Z)|(?<=[ \t\x00\r\n\x85\u2028\u2029])#)", re.S
).search
# Characters a double-quoted scalar escapes: not printable, line breaks, '"', '\'.
_DQ_ESCAPED = re.compile('["\\\\\n\r\u2028\u2029' + _NOT_PRINTABLE + "]")
_LINE_SPLIT = re.compile("([\n\u2028\u2029])").split
_ASCII_SPECIAL = re.compile("[\x00-\x08\x0b-\x1f\x7f]").search

# Indicators that make a plain scalar impossible when they come first.
_INDICATOR_FIRST: Final = "#,[]{}&*!|>'\"%@`"
# The fast path sends every string starting with one of these to the exact
# rules: indicators, space, and characters that may start a number, a date,
# a document marker or a "- "/"? "/": " indicator. (A string, so that an
# empty value, whose [:1] is "", is never "not in" it.)
_CAREFUL_FIRST: Final = " " + _INDICATOR_FIRST + "-?:.+0123456789"
# Whole values the resolver turns into bool/null or yaml.v3 quotes as YAML
# 1.1 booleans; with the check above this settles the resolver question.
_RESERVED: Final = _M_QUOTED
# As map keys, '<<' is also reserved (ROUND_TRIP_FIXES["merge-key"]).
_RESERVED_KEYS: Final = _M_QUOTED | {"<<"}

_NAMED_ESCAPES: Final[Mapping[str, str]] = {
    "\x00": "\\0",
    "\x07": "\\a",
    "\x08": "\\b",
    "\x09": "\\t",
    "\x0a": "\\n",
    "\x0b": "\\v",
    "\x0c": "\\f",
    "\x0d": "\\r",
    "\x1b": "\\e",
    '"': '\\"',
    "\\": "\\\\",
    "\x85": "\\N",
    "\xa0": "\\_",
    "\u2028": "\\L",
    "\u2029": "\\P",
}


def _escape_char(ch: str) -> str:
    named = _NAMED_ESCAPES.get(ch)
    if named is not None:
        return named
    cp = ord(ch)
    if cp <= 0xFF:
        return f"\\x{cp:02X}"
    if cp <= 0xFFFF:
        return f"\\u{cp:04X}"
    return f"\\U{cp:08X}"


def _escape_match(m: re.Match[str]) -> str:
    return _escape_char(m.group())


def _double(s: str) -> str:
    """A double-quoted scalar, escaped the way yaml.v3 escapes.

    yaml.v3's BOM test looks at the start of the whole value rather than at
    the current character, so a value that *starts* with U+FEFF has every one
    of its characters escaped (``"\\uFEFF\\x61"``). That is valid YAML and
    reads back correctly, so it is reproduced.
    """
    if s[:1] == "\ufeff":
        return '"' + "".join(_escape_char(ch) for ch in s) + '"'
    return '"' + _DQ_ESCAPED.sub(_escape_match, s) + '"'


def _reindent(s: str, pad: str) -> str:
    """Pad the text after every line break of ``s``.

    yaml.v3 writes U+2028/U+2029 raw and then indents the next character as
    if it started a new line (its column counter is reset by any break), so
    this is used for those two as well as for LF.
    """
    parts = _LINE_SPLIT(s)
    for i in range(2, len(parts), 2):
        if parts[i]:
            parts[i] = pad + parts[i]
    return "".join(parts)


def _single(s: str, pad: str) -> str:
    """A single-quoted scalar (yaml.v3 only picks it for text without LF)."""
    s = s.replace("'", "''")
    if "\u2028" in s or "\u2029" in s:
        s = _reindent(s, pad)
    return "'" + s + "'"


def _literal(s: str, pad: str, indicator: str) -> str:
    """A literal block scalar from the header on, ending at the start of a line.

    The header carries the indentation indicator when the text starts with
    a space or a line break (the reader could not detect the indentation
    otherwise) and the chomping indicator: ``-`` without a final line
    break, none for exactly one, ``+`` for more.
    """
    header = " |"
    if s[0] == " " or s[0] in _BREAKS:
        # yaml.v3 always writes "4". Where that is wrong (``indicator`` is
        # not "4") it only matters if there is a non-empty line to misplace:
        # ROUND_TRIP_FIXES["indicator-in-sequence-item"] and
        # ROUND_TRIP_FIXES["indicator-in-item-mapping"].
        header += "4" if s.strip(_BREAKS) == "" else indicator
    elif s[0] == "\t":
        # ROUND_TRIP_FIXES["tab-first-literal"]
        header += indicator
    if s[-1] not in _BREAKS:
        header += "-"
    elif len(s) == 1 or s[-2] in _BREAKS:
        header += "+"
    if not s.isascii() and ("\u2028" in s or "\u2029" in s):
        body = _reindent(s, pad)
        if s[0] not in _BREAKS:
            body = pad + body
    else:
        # Indent every line, but leave empty lines empty. (No line is all
        # spaces: a space before a line break rules out a block scalar.)
        body = pad + s.replace("\n", "\n" + pad)
        if "\n\n" in s:
            empty = "\n" + pad + "\n"
            while empty in body:  # each pass fixes every other line of a run
                body = body.replace(empty, "\n\n")
        if s[0] == "\n":
            body = body[len(pad) :]
        if s[-1] == "\n":
            body = body[: -len(pad)]
    # After a final line break yaml.v3 is already at the start of a line.
    return header + "\n" + body + ("" if s[-1] in _BREAKS else "\n")


def _flow_styles(s: str) -> tuple[bool, bool]:
    """(plain allowed, single quotes allowed) for a non-empty one-line string.

    This is yaml.v3's scalar analysis for the strings the cheaper tests in
    :func:`_scalar_exact` do not settle (non-ASCII or non-printable text).
    Single quotes cannot hold a tab, a special character, or a line break
    next to a space; plain style also refuses line breaks, edge spaces and
    indicators.
    """
    if "\t" in s or _SPECIAL(s) is not None:
        return False, False
    if _SPACE_BREAK(s) is not None or _BREAK_SPACE(s) is not None:
        return False, False
    c = s[0]
    plain_ok = not (
        c == " "
        or s[-1] == " "
        or c in _INDICATOR_FIRST
        or (c in "?:-" and s[1:2] in ("", " "))
        or s.startswith(("---", "..."))
        or _HAS_BREAK(s) is not None
        or _INNER_INDICATOR(s) is not None
    )
    return plain_ok, True


def _block_ok(s: str) -> bool:
    """Whether yaml.v3 may write ``s`` as a literal block.

    Not with a special character, a space right before a line break, or a
    trailing space.
    """
    if s[-1] == " ":
        return False
    if s.isascii():
        if " \n" in s:
            return False
        # Printable once LF is blanked out, or else free of other controls.
        return s.replace("\n", " ").isprintable() or _ASCII_SPECIAL(s) is None
    return _SPECIAL(s) is None and _SPACE_BREAK(s) is None


def _plain_ascii(s: str) -> bool:
    """Whether plain style is allowed for printable one-line ASCII text.

    (Single quotes always are for such text, so this settles the style.)
    """
    c = s[0]
    if c in _INDICATOR_FIRST or c == " " or s[-1] in " :":
        return False
    if c in "-?:" and (len(s) == 1 or s[1] == " "):
        return False
    return ": " not in s and " #" not in s and not s.startswith(("---", "..."))


def _plain_first(s: str) -> bool:
    """Plain style for printable one-line ASCII that starts with a careful character.

    The caller has checked everything else the fast path checks (no ": ",
    " #", trailing space or colon, not a reserved word). Only the cheap
    cases are settled here ("./...", "-race", "?x"); for the rest (digits,
    signs followed by digits) it answers False and :func:`_scalar_exact`
    decides, so that the resolver runs once per string.
    """
    c = s[0]
    if c in _INDICATOR_FIRST or c == " ":
        return False
    if c in "-?:" and (len(s) == 1 or s[1] == " "):
        return False
    if s.startswith(("---", "...")):
        return False
    if c in "?:":
        return True
    if c == ".":  # a float needs a digit right after the dot
        return s[1:2] not in _DIGIT_CHARS and s not in _WORDS
    if c in "+-":  # every number or date needs a digit
        return _HAS_DIGIT(s) is None and s not in _WORDS
    return False


def _scalar(s: str, pad: str, indicator: str) -> str:
    """A string in value position (mapping value or sequence item).

    Returns the text that follows the ``key:`` or ``-`` indicator, from the
    separating space to the end of the line(s) including the final line
    break. ``pad`` is the indentation of the scalar's continuation lines and
    ``indicator`` the indentation indicator a literal block gets when it
    needs one. The generated writers inline the first test.
    """
    if (
        s.isascii()
        and s.isprintable()
        and s[-1:] not in " :"
        and ": " not in s
        and " #" not in s
        and s not in _RESERVED
        and (s[0] not in _CAREFUL_FIRST or _plain_first(s))
    ):
        return " " + s + "\n"
    return _scalar_exact(s, pad, indicator)


def _scalar_exact(s: str, pad: str, indicator: str) -> str:
    """:func:`_scalar` by yaml.v3's full rules, for text the fast test declined."""
    if s.isascii() and s.isprintable():
        # One line of printable ASCII (or empty): only the resolver and the
        # indicators matter, and single quotes are always possible.
        if not s or needs_quotes(s):
            return ' "' + s.replace("\\", "\\\\").replace('"', '\\"') + '"\n'
        if _plain_ascii(s):
            return " " + s + "\n"
        return " '" + s.replace("'", "''") + "'\n"
    if "\n" in s:
        # yaml.v3 asks for a literal block for every string with an LF.
        if _block_ok(s):
            return _literal(s, pad, indicator)
        return " " + _double(s) + "\n"
    if needs_quotes(s):
        return " " + _double(s) + "\n"
    plain_ok, single_ok = _flow_styles(s)
    if plain_ok:
        return " " + s + "\n"
    if single_ok:
        return " " + _single(s, pad) + "\n"
    return " " + _double(s) + "\n"


def _key(s: str, pad: str, key_pad: str, indicator: str) -> str:
    """A mapping key up to and including the ``:`` indicator.

    A key that spans lines or is longer than 128 bytes cannot be a simple
    key, so yaml.v3 writes it as an explicit ``? key`` entry with the ``:``
    on the next line at the mapping's indentation (``pad``); its
    continuation lines are indented like a value's (``key_pad``, with
    ``indicator`` for a literal block that needs one).
    """
    if s == "<<":
        # ROUND_TRIP_FIXES["merge-key"]
        return '"<<":'
    multiline = _HAS_BREAK(s) is not None
    if multiline or (len(s) > 32 and len(s.encode("utf-8")) > _MAX_SIMPLE_KEY_BYTES):
        return "?" + _scalar(s, key_pad, indicator) + pad + ":"
    # A simple key is never multi-line, so this is a one-line quoted or plain scalar.
    return _scalar(s, key_pad, indicator)[1:-1] + ":"


# --- map key order -----------------------------------------------------------

_UNIDATA_15_LETTERS: Final = (
    (0x1123F, 0x11240), (0x11F02, 0x11F02), (0x11F04, 0x11F10), (0x11F12, 0x11F33),
    (0x1342F, 0x1342F), (0x13441, 0x13446), (0x1B132, 0x1B132), (0x1B155, 0x1B155),
    (0x1DF25, 0x1DF2A), (0x1E030, 0x1E06D), (0x1E4D0, 0x1E4EB), (0x2B739, 0x2B739),
    (0x31350, 0x323AF),
)  # fmt: skip
_UNIDATA_15_DIGITS: Final = ((0x11F50, 0x11F59), (0x1E4F0, 0x1E4F9))
# Go 1.21+ classifies runes with Unicode 15.0; Python 3.11 ships 14.0. The
# two tables above are every letter and decimal digit 15.0 added. (A Python
# with newer data than Go's would know a few letters Go does not; only keys
# made of those would then sort differently.)
_PATCH_UNICODE: Final = tuple(map(int, unicodedata.unidata_version.split("."))) < (15,)


def _in_ranges(cp: int, ranges: Iterable[tuple[int, int]]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def _is_letter(ch: str) -> bool:
    """Go's ``unicode.IsLetter`` (category L)."""
    if ch.isalpha():
        return True
    # (Every patched rune is above U+11000.)
    return _PATCH_UNICODE and ch > "\U00011000" and _in_ranges(ord(ch), _UNIDATA_15_LETTERS)


def _is_digit(ch: str) -> bool:
    """Go's ``unicode.IsDigit`` (category Nd)."""
    if ch.isdecimal():
        return True
    return _PATCH_UNICODE and ch > "\U00011000" and _in_ranges(ord(ch), _UNIDATA_15_DIGITS)


def _wrap64(n: int) -> int:
    return ((n - INT64_MIN) & UINT64_MAX) + INT64_MIN


def _key_less(a: str, b: str) -> bool:
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


def _key_cmp(a: str, b: str) -> int:
    # Map keys are distinct, and for distinct keys exactly one of
    # _key_less(a, b) and _key_less(b, a) holds, so one call decides.
    return -1 if _key_less(a, b) else 1


_key_sort = cmp_to_key(_key_cmp)
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
    """A sort key equal to :func:`_key_less` for keys whose digits are short ASCII runs.

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


def _sorted_items(m: Mapping[str, int]) -> list[tuple[str, int]]:
    """The items of a string-keyed map in yaml.v3's key order (see sort_map_keys).

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
    else:
        items.sort(key=lambda kv: _key_sort(kv[0]))
    return items


def sort_map_keys(keys: Iterable[str]) -> list[str]:
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
    return [k for k, _ in _sorted_items(dict.fromkeys(keys, 0))]


# --- the walk ----------------------------------------------------------------
#
# The writer is one function generated from the schema tables at import
# time and compiled with exec: every nested message is inlined, so key
# prefixes, indentation, field paths and enum spellings are constants in
# its source. The schema decides everything (field order, kinds, omitempty,
# pointer, enum spellings); generating code instead of looping over field
# records removes the per-field dispatch and the calls, which are most of
# the cost of walking a message this small. The source is kept on the
# function as ``__source__`` for debugging.


class _BadEnumError(Exception):
    """An enum number with no YAML spelling, with the path of its field."""

    def __init__(self, path: str, number: int, enum_name: str) -> None:
        super().__init__(path)
        self.path = path
        self.number = number
        self.enum_name = enum_name


def _value_indent(key_column: int) -> int:
    """Indent yaml.v3 gives the value node of a key at ``key_column``."""
    return _BEST_INDENT * ((key_column + _BEST_INDENT) // _BEST_INDENT)


def _indicator(content: int, parent: int) -> str:
    """The block indentation indicator for content at column ``content``.

    yaml.v3 always writes the digit of its indent width (4); that is right
    only when the content really is 4 columns right of the parent node,
    which is not the case inside sequence items (ROUND_TRIP_FIXES).
    """
    return str(content - parent)


def _fast(var: str, reserved: str = "_RESERVED") -> str:
    """Source of the fast-path test of :func:`_scalar` on variable ``var``."""
    return (
        f'{var}.isascii() and {var}.isprintable() and {var}[-1:] not in " :"'
        f' and ": " not in {var} and " #" not in {var} and {var} not in {reserved}'
        f" and ({var}[0] not in _CAREFUL_FIRST or _plain_first({var}))"
    )


def _lit(text: str) -> str:
    """``text`` as the inside of an f-string literal."""
    return repr(text)[1:-1].replace("{", "{{").replace("}", "}}")


class _Gen:
    """Accumulates the writer's source; ``const`` binds non-literal values."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.env: dict[str, Any] = {
            "_CAREFUL_FIRST": _CAREFUL_FIRST,
            "_RESERVED": _RESERVED,
            "_RESERVED_KEYS": _RESERVED_KEYS,
            "_BadEnumError": _BadEnumError,
            "_key": _key,
            "_plain_first": _plain_first,
            "_scalar_exact": _scalar_exact,
            "_sorted_items": _sorted_items,
        }
        self.serial = 0

    def const(self, value: Any) -> str:
        name = f"_c{len(self.env)}"
        self.env[name] = value
        return name

    def fresh(self, stem: str) -> str:
        self.serial += 1
        return f"{stem}{self.serial}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)


def _can_be_empty(info: MessageInfo) -> bool:
    """Whether a mapping of ``info`` may have no keys (all fields omitempty)."""
    return all(fi.omitempty for fi in info.fields)


def _gen_mapping(
    g: _Gen, info: MessageInfo, msg: str, column: int, depth: int, *, first: str, path: str
) -> None:
    """Emit source writing the block mapping of message variable ``msg``.

    Keys sit at ``column``; the first key written is prefixed by ``first``
    (which holds "- " for a sequence item), later ones by spaces. ``path``
    is the source of an expression giving the field-path prefix, for errors.
    """
    pad = " " * column
    inner = _value_indent(column)
    vpad = " " * inner
    indicator = _indicator(inner, column)
    # While no key has been written the prefix is ``first``; when that is
    # not plain indentation and the leading fields are optional, a variable
    # tracks it until a field is known to have been written.
    dynamic = first != pad
    pvar = ""
    if dynamic and info.fields and info.fields[0].omitempty:
        pvar = g.fresh("p")
        g.emit(depth, f"{pvar} = {first!r}")

    for fi in info.fields:
        name = fi.name
        d = depth
        if dynamic:
            if pvar:
                pre = "{" + pvar + "}"
                mark = g.fresh("n")
                g.emit(d, f"{mark} = len(out)")
            else:
                pre = _lit(first)
        else:
            pre = _lit(pad)
        key = pre + name + ":"
        v = g.fresh("v")
        kind = fi.kind
        if kind is Kind.STRING:
            g.emit(d, f"{v} = {msg}.{name}")
            if fi.omitempty:
                g.emit(d, f"if {v}:")
                d += 1
            g.emit(d, f"if {_fast(v)}:")
            g.emit(d + 1, f'a(f"{key} {{{v}}}\\n")')
            g.emit(d, "else:")
            g.emit(d + 1, f'a(f"{key}{{_scalar_exact({v}, {vpad!r}, {indicator!r})}}")')
        elif kind is Kind.INT:
            g.emit(d, f"{v} = {msg}.{name}")
            if fi.omitempty:
                g.emit(d, f"if {v}:")
                d += 1
            g.emit(d, f'a(f"{key} {{{v}}}\\n")')
        elif kind is Kind.ENUM:
            assert fi.enum is not None
            spelled = fi.enum.to_string
            # Whole lines, key included, unless the prefix is only known at run time.
            line_start = "" if pvar else (first if dynamic else pad) + name + ":"
            rendered = {n: line_start + _scalar(t, vpad, indicator) for n, t in spelled.items()}
            table = g.const(rendered)
            g.emit(d, f"{v} = {msg}.{name}")
            t = g.fresh("t")
            g.emit(d, f"{t} = {table}.get({v})")
            g.emit(d, f"if {t} is None:")
            g.emit(d + 1, f"raise _BadEnumError({path} + {name!r}, {v}, {fi.enum.full_name!r})")
            if fi.omitempty:
                zero = g.const(frozenset(n for n in spelled if not spelled[n]))
                g.emit(d, f"if {v} not in {zero}:")
                d += 1
            g.emit(d, f'a(f"{key}{{{t}}}")' if pvar else f"a({t})")
        elif kind is Kind.MESSAGE:
            assert fi.message is not None
            if fi.pointer:
                if not fi.omitempty:
                    g.emit(d, f"if not {msg}.HasField({name!r}):")
                    g.emit(d + 1, f'a(f"{key} null\\n")')
                    g.emit(d, "else:")
                else:
                    g.emit(d, f"if {msg}.HasField({name!r}):")
                d += 1
            g.emit(d, f"{v} = {msg}.{name}")
            if fi.omitempty and not fi.pointer:
                # A Go struct value is empty when all of its fields are.
                g.emit(d, f"if {v}.ByteSize():")
                d += 1
            empty = _can_be_empty(fi.message)
            if empty:
                m = g.fresh("n")
                g.emit(d, f"{m} = len(out)")
            g.emit(d, f'a(f"{key}\\n")')
            _gen_mapping(g, fi.message, v, inner, d, first=vpad, path=f"{path} + {name + '.'!r}")
            if empty:
                g.emit(d, f"if len(out) == {m} + 1:")
                g.emit(d + 1, f'out[{m}] = f"{key} {{{{}}}}\\n"')
        elif kind is Kind.STRING_LIST:
            dash = vpad + "- "
            item_pad = " " * (inner + 2)
            item_ind = _indicator(inner + 2, inner)
            item = g.fresh("s")
            g.emit(d, f"{v} = {msg}.{name}")
            g.emit(d, f"if {v}:")
            g.emit(d + 1, f'a(f"{key}\\n")')
            g.emit(d + 1, f"for {item} in {v}[:]:  # a list iterates faster than the container")
            g.emit(d + 2, f"if {_fast(item)}:")
            g.emit(d + 3, f'a(f"{_lit(dash)}{{{item}}}\\n")')
            g.emit(d + 2, "else:")
            g.emit(
                d + 3,
                f'a(f"{_lit(dash[:-1])}{{_scalar_exact({item}, {item_pad!r}, {item_ind!r})}}")',
            )
            if not fi.omitempty:
                g.emit(d, "else:")
                g.emit(d + 1, f'a(f"{key} []\\n")')
        elif kind is Kind.MESSAGE_LIST:
            assert fi.message is not None
            i, m = g.fresh("i"), g.fresh("m")
            g.emit(d, f"{v} = {msg}.{name}")
            g.emit(d, f"if {v}:")
            g.emit(d + 1, f'a(f"{key}\\n")')
            g.emit(d + 1, f"for {i}, {m} in enumerate({v}[:]):")
            empty = _can_be_empty(fi.message)
            if empty:
                n = g.fresh("n")
                g.emit(d + 2, f"{n} = len(out)")
            item_path = f"{path} + f'{name}[{{{i}}}].'"
            _gen_mapping(g, fi.message, m, inner + 2, d + 2, first=vpad + "- ", path=item_path)
            if empty:
                g.emit(d + 2, f"if len(out) == {n}:")
                g.emit(d + 3, f'a(f"{_lit(vpad)}- {{{{}}}}\\n")')
            if not fi.omitempty:
                g.emit(d, "else:")
                g.emit(d + 1, f'a(f"{key} []\\n")')
        elif kind is Kind.INT_MAP:
            key_inner = _value_indent(inner)
            key_args = f"{vpad!r}, {' ' * key_inner!r}, {_indicator(key_inner, inner)!r}"
            k, n = g.fresh("k"), g.fresh("x")
            g.emit(d, f"{v} = {msg}.{name}")
            g.emit(d, f"if {v}:")
            g.emit(d + 1, f'a(f"{key}\\n")')
            g.emit(d + 1, f"for {k}, {n} in _sorted_items({v}):")
            simple = f"{_fast(k, '_RESERVED_KEYS')} and len({k}) <= {_MAX_SIMPLE_KEY_BYTES}"
            g.emit(d + 2, f"if {simple}:")
            g.emit(d + 3, f'a(f"{_lit(vpad)}{{{k}}}: {{{n}}}\\n")')
            g.emit(d + 2, "else:")
            g.emit(d + 3, f'a(f"{_lit(vpad)}{{_key({k}, {key_args})}} {{{n}}}\\n")')
            if not fi.omitempty:
                g.emit(d, "else:")
                g.emit(d + 1, f'a(f"{key} {{{{}}}}\\n")')
        else:  # pragma: no cover - _schema rejects other shapes
            raise RuntimeError(f"no YAML writer for {fi.full_name} ({kind})")
        if pvar:
            # After an optional field the prefix is settled only if it wrote.
            g.emit(depth, f"if len(out) != {mark}:")
            g.emit(depth + 1, f"{pvar} = {pad!r}")
            if not fi.omitempty:
                dynamic = False
        elif dynamic:
            dynamic = False  # the first field is always written


def _compile_writer(info: MessageInfo) -> Callable[[Any, list[str]], None]:
    """Generate and compile the writer of a top-level message."""
    g = _Gen()
    g.emit(1, "a = out.append")
    _gen_mapping(g, info, "msg", 0, 1, first="", path="''")
    name = f"_write_{info.cls.__name__}"
    src = f"def {name}(msg, out):\n" + "\n".join(g.lines) + "\n"
    namespace = dict(g.env)
    exec(compile(src, f"<taskspec yaml writer for {info.full_name}>", "exec"), namespace)
    writer: Any = namespace[name]
    writer.__source__ = src
    return cast(Callable[[Any, list[str]], None], writer)


_WRITE: Final = _compile_writer(TASK_SPEC)


def marshal(spec: taskspec_pb2.TaskSpec) -> bytes:
    """``yaml.Marshal(spec)`` of the Go struct, as UTF-8 bytes.

    Field order, omission, quoting, escaping and layout follow yaml.v3
    exactly, except for the round-trip fixes in :data:`ROUND_TRIP_FIXES`.
    Raises :class:`TaskSpecError` for an enum number that has no YAML
    spelling, naming the field, because writing it would lose the value.
    """
    out: list[str] = []
    try:
        _WRITE(spec, out)
    except _BadEnumError as e:
        raise TaskSpecError(
            [
                Violation(
                    e.path,
                    f"{e.path}: enum value {e.number} is not defined in {e.enum_name} "
                    "and cannot be written as YAML",
                )
            ]
        ) from None
    return "".join(out).encode("utf-8")
