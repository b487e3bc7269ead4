"""The canonical YAML writer: the bytes go yaml.v3's ``yaml.Marshal`` writes.

Go services write ``taskspec.yaml`` with ``yaml.Marshal`` (``go.yaml.in/yaml/v3``
v3.0.4, default settings) and compare, hash and diff the bytes, so the Python
writer must reproduce them exactly rather than produce "equivalent YAML". The
layout yaml.v3 uses for a Go struct is fixed (block mappings, 4-space indent,
indented block sequences, ``{}``/``[]`` for empty collections, no line
folding), so instead of simulating yaml.v3's event-driven emitter this module
walks the message with the descriptor tables of :mod:`taskspec._schema` and
writes each piece directly. Only scalars need real analysis: yaml.v3 picks
plain, single-quoted, double-quoted or literal style per string, and that
choice is reproduced rule for rule by :func:`_scalar` and :func:`_key`.

Where yaml.v3 writes bytes that it cannot read back itself, this module does
*not* copy them; see :data:`ROUND_TRIP_FIXES`.

The writer is on hot paths (every sidecar save), so a string that is provably
a safe single-line plain scalar takes a single regular-expression match; the
exact analysis only runs for the rest.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, MutableSequence
from functools import cmp_to_key
from typing import Any, Final, cast

from taskspec._errors import TaskSpecError, Violation
from taskspec._resolve import _M_QUOTED, needs_quotes
from taskspec._schema import TASK_SPEC, Kind, MessageInfo
from taskspec.v1 import taskspec_pb2

__all__ = ["ROUND_TRIP_FIXES", "marshal", "sort_map_keys"]

#: The inputs for which yaml.v3 v3.0.4 writes YAML that it (and PyYAML) then
#: reads back as something else or rejects, and what this writer does instead.
#: Each fix changes as little as possible of Go's bytes, and the result reads
#: back to the original value with both yaml.v3 and PyYAML.
ROUND_TRIP_FIXES: Final[Mapping[str, str]] = {
    "block scalar with indentation indicator in a sequence item": (
        "A multi-line string that starts with a space or a line break is written as a literal "
        "block with an explicit indentation indicator. yaml.v3 always writes the indicator 4, "
        "but inside a sequence item (verification.build_cmd/test_cmd entries) the content sits "
        "2 columns right of the '-' that readers measure from, so the document fails to parse. "
        "Written with indicator 2 instead (content unchanged)."
    ),
    "block scalar with indentation indicator in a mapping inside a sequence item": (
        "Same cause for solution_artifacts[].path/role: the item's keys are at column 6 and "
        "the content at column 8, so the right indicator is 2, not yaml.v3's 4; Go's bytes do "
        "not parse. Written with indicator 2 instead."
    ),
    "map key '<<'": (
        "yaml.v3's resolver does not flag '<<' (its first character has no hint), so the "
        "encoder writes a plain '<<' key, which its own parser and PyYAML read as a YAML "
        "merge key and reject. The difficulty_signals key '<<' is written double-quoted "
        'instead: "<<": N.'
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
_ONE_LINE_PRINTABLE = re.compile("[^\n\u2028\u2029" + _NOT_PRINTABLE + "]+").fullmatch
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
# As map keys, '<<' is also reserved (see ROUND_TRIP_FIXES).
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
    of its characters escaped (``"\uFEFF\x61"``). That is valid YAML and
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
        # not "4") it only matters if there is a non-empty line to misplace.
        header += "4" if s.strip(_BREAKS) == "" else indicator
    elif s[0] == "\t":
        # Round-trip fix: yaml.v3 omits the indicator here, and then cannot
        # read a first line that starts with a tab.
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
    """(plain allowed, single quotes allowed) for a non-empty block-context scalar.

    This is yaml.v3's scalar analysis, for the strings the cheaper tests in
    :func:`_scalar_exact` do not settle.
    """
    n = len(s)
    indicators = s.startswith(("---", "..."))
    breaks = space_break = break_space = False
    prev_space = prev_break = False
    preceded_by_ws = True
    for i, ch in enumerate(s):
        followed_by_ws = i + 1 == n or s[i + 1] in " \t"
        if i == 0:
            if ch in _INDICATOR_FIRST or (ch in "?:-" and followed_by_ws):
                indicators = True
        elif (ch == ":" and followed_by_ws) or (ch == "#" and preceded_by_ws):
            indicators = True
        if ch == " ":
            if prev_break:
                break_space = True
            prev_space, prev_break = True, False
        elif ch in _BREAKS:
            breaks = True
            if prev_space:
                space_break = True
            prev_space, prev_break = False, True
        else:
            prev_space = prev_break = False
        preceded_by_ws = ch in " \t\x00" or ch in _BREAKS
    special = _SPECIAL(s) is not None
    edge = s[0] == " " or s[-1] == " " or s[0] in _BREAKS or s[-1] in _BREAKS
    single_ok = not (break_space or space_break or special or "\t" in s)
    plain_ok = single_ok and not (edge or breaks or indicators)
    return plain_ok, single_ok


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
    " #", trailing space or colon, not a reserved word).
    """
    c = s[0]
    if c in _INDICATOR_FIRST or c == " ":
        return False
    if c in "-?:" and (len(s) == 1 or s[1] == " "):
        return False
    if s.startswith(("---", "...")):
        return False
    return c in "?:" or not needs_quotes(s)


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
    if "\n" in s:
        # yaml.v3 asks for a literal block for every string with an LF.
        if _block_ok(s):
            return _literal(s, pad, indicator)
        return " " + _double(s) + "\n"
    if not s or needs_quotes(s):
        return " " + _double(s) + "\n"
    if s.isascii() and s.isprintable():
        if _plain_ascii(s):
            return " " + s + "\n"
        return " '" + s.replace("'", "''") + "'\n"
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
        # Round-trip fix: see ROUND_TRIP_FIXES["map key '<<'"].
        return '"<<":'
    multiline = any(b in s for b in _BREAKS)
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
# two tables above are every letter and decimal digit 15.0 added.
_PATCH_UNICODE: Final = unicodedata.unidata_version < "15"


def _in_ranges(cp: int, ranges: Iterable[tuple[int, int]]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def _is_letter(ch: str) -> bool:
    """Go's ``unicode.IsLetter`` (category L)."""
    if ch.isalpha():
        return True
    return _PATCH_UNICODE and _in_ranges(ord(ch), _UNIDATA_15_LETTERS)


def _is_digit(ch: str) -> bool:
    """Go's ``unicode.IsDigit`` (category Nd)."""
    if ch.isdecimal():
        return True
    return _PATCH_UNICODE and _in_ranges(ord(ch), _UNIDATA_15_DIGITS)


def _wrap64(n: int) -> int:
    return ((n + (1 << 63)) & ((1 << 64) - 1)) - (1 << 63)


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
    digits = False
    for i in range(min(len(a), len(b))):
        ca, cb = a[i], b[i]
        if ca == cb:
            digits = _is_digit(ca)
            continue
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
    if _key_less(a, b):
        return -1
    return 1 if _key_less(b, a) else 0


_key_sort = cmp_to_key(_key_cmp)
# For keys made of lower-case ASCII letters and '_' yaml.v3's order is byte order.
_SIMPLE_KEYS = re.compile(r"[a-z_]*").fullmatch


def _sorted_items(m: Mapping[str, int]) -> list[tuple[str, int]]:
    """The items of a string-keyed map in yaml.v3's key order (see sort_map_keys)."""
    items = sorted(m.items())
    if _SIMPLE_KEYS("".join(m)) is None:
        items.sort(key=lambda kv: _key_sort(kv[0]))
    return items


def sort_map_keys(keys: Iterable[str]) -> list[str]:
    """String map keys in the order yaml.v3 writes them.

    yaml.v3's comparison is a strict total order on most key sets but not
    on all: digit runs of 19 or more digits overflow its int64 arithmetic
    and other scripts' digits (U+0661 ...) count as huge digit values, and
    both can make it cyclic ("9223372036854775808" < "1ze3" < "92\U0001e4d0"
    < "9223372036854775808"). For such a set Go's output itself changes
    from run to run with Go's random map iteration order, so no writer can
    match it. Here the keys are first put in byte order, which makes the
    result deterministic for every set and identical to Go's for every set
    Go orders deterministically.
    """
    ks = sorted(keys)
    if _SIMPLE_KEYS("".join(ks)) is None:
        ks.sort(key=_key_sort)
    return ks


# --- the walk ----------------------------------------------------------------
#
# One writer function per (message, key column, sequence item or not) is
# generated from the schema tables at import time and compiled with exec.
# The schema decides everything (field order, kinds, omitempty, pointer,
# enum spellings); generating code instead of looping over field records
# removes the per-field dispatch, which is most of the cost of a walk over
# a message this small. The generated source is kept on each function as
# ``__source__`` for debugging.


class _BadEnum(Exception):
    """An enum number with no YAML spelling; carries the field path outward."""

    def __init__(self, path: str, number: int, enum_name: str) -> None:
        super().__init__(path)
        self.path = path
        self.number = number
        self.enum_name = enum_name

    def under(self, prefix: str) -> _BadEnum:
        self.path = f"{prefix}.{self.path}"
        return self


_Writer = Callable[[Any, list[str]], None]


def _value_indent(key_column: int) -> int:
    """Indent yaml.v3 gives the value node of a key at ``key_column``."""
    return _BEST_INDENT * ((key_column + _BEST_INDENT) // _BEST_INDENT)


def _indicator(content: int, parent: int) -> str:
    """The block indentation indicator for content at column ``content``.

    yaml.v3 always writes the digit of its indent width (4); that is right
    only when the content really is 4 columns right of the parent node,
    which is not the case inside sequence items (see ROUND_TRIP_FIXES).
    """
    return str(content - parent)


def _fast(var: str, reserved: str = "_RESERVED") -> str:
    """Source of the fast-path test of :func:`_scalar` on variable ``var``."""
    return (
        f'{var}.isascii() and {var}.isprintable() and {var}[-1:] not in " :"'
        f' and ": " not in {var} and " #" not in {var} and {var} not in {reserved}'
        f" and ({var}[0] not in _CAREFUL_FIRST or _plain_first({var}))"
    )


class _Gen:
    """Builds the source of one writer; ``const`` registers non-literal values."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.env: dict[str, Any] = {
            "_RESERVED_KEYS": _RESERVED_KEYS,
            "_sorted_items": _sorted_items,
            "_CAREFUL_FIRST": _CAREFUL_FIRST,
            "_RESERVED": _RESERVED,
            "_scalar_exact": _scalar_exact,
            "_plain_first": _plain_first,
            "_key": _key,
            "_BadEnum": _BadEnum,
            "sort_map_keys": sort_map_keys,
        }

    def const(self, value: Any) -> str:
        name = f"_c{len(self.env)}"
        self.env[name] = value
        return name

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)


_WRITERS: dict[tuple[str, int, bool], _Writer] = {}


def _message_writer(info: MessageInfo, column: int, item: bool = False) -> _Writer:
    """The writer of a block mapping of ``info`` whose keys are at ``column``.

    With ``item`` the mapping is a sequence item: its first written key
    shares the line of the ``- `` indicator two columns to its left.
    """
    cache_key = (info.full_name, column, item)
    cached = _WRITERS.get(cache_key)
    if cached is not None:
        return cached
    g = _Gen()
    pad = " " * column
    inner = _value_indent(column)
    vpad = " " * inner
    indicator = _indicator(inner, column)
    # While it is unknown whether a key has been written yet, the prefix of
    # the next key is the variable p; after an always-written field it is
    # the constant rest prefix.
    first = " " * (column - 2) + "- " if item else pad
    dynamic = first != pad
    if dynamic:
        g.emit(1, f"p = {first!r}")

    def prefix() -> str:
        return "p + " if dynamic else repr(pad) + " + "

    for fi in info.fields:
        name = fi.name
        key = name + ":"
        d = 1
        optional_first = dynamic and fi.omitempty
        if optional_first:
            g.emit(d, "n = len(out)")
        g.emit(d, f"v = msg.{name}")
        kind = fi.kind
        if kind is Kind.STRING:
            if fi.omitempty:
                g.emit(d, "if v:")
                d += 1
            g.emit(d, f"if {_fast('v')}:")
            g.emit(d + 1, f"out.append({prefix()}{key + ' '!r} + v + '\\n')")
            g.emit(d, "else:")
            g.emit(d + 1, f"out.append({prefix()}{key!r} + _scalar_exact(v, {vpad!r}, {indicator!r}))")
        elif kind is Kind.INT:
            if fi.omitempty:
                g.emit(d, "if v:")
                d += 1
            g.emit(d, f"out.append({prefix()}{key + ' '!r} + str(v) + '\\n')")
        elif kind is Kind.ENUM:
            assert fi.enum is not None
            lines = {n: key + _scalar(t, vpad, indicator) for n, t in fi.enum.to_string.items()}
            if fi.omitempty:
                lines = {n: ln for n, ln in lines.items() if fi.enum.to_string[n]}
                skip = {n for n, t in fi.enum.to_string.items() if not t}
                g.emit(d, f"if v not in {g.const(frozenset(skip))}:")
                d += 1
            g.emit(d, f"t = {g.const(lines)}.get(v)")
            g.emit(d, "if t is None:")
            g.emit(d + 1, f"raise _BadEnum({name!r}, v, {fi.enum.full_name!r})")
            g.emit(d, f"out.append({prefix()}t)")
        elif kind is Kind.MESSAGE:
            assert fi.message is not None
            child = g.const(_message_writer(fi.message, inner))
            if fi.pointer:
                g.emit(d, f"if not msg.HasField({name!r}):")
                if fi.omitempty:
                    g.emit(d + 1, "pass  # nil pointer: omitted")
                else:
                    g.emit(d + 1, f"out.append({prefix()}{key + ' null' + chr(10)!r})")
                g.emit(d, "else:")
                d += 1
            elif fi.omitempty:
                # A Go struct value is empty when all of its fields are.
                g.emit(d, "if v.ByteSize():")
                d += 1
            g.emit(d, "mark = len(out)")
            g.emit(d, f"out.append({prefix()}{key + chr(10)!r})")
            g.emit(d, "try:")
            g.emit(d + 1, f"{child}(v, out)")
            g.emit(d, "except _BadEnum as e:")
            g.emit(d + 1, f"raise e.under({name!r}) from None")
            g.emit(d, "if len(out) == mark + 1:")
            g.emit(d + 1, f"out[mark] = {prefix()}{key + ' {}' + chr(10)!r}")
        elif kind is Kind.STRING_LIST:
            dash = vpad + "- "
            item_pad = " " * (inner + 2)
            item_ind = _indicator(inner + 2, inner)
            g.emit(d, "if v:")
            g.emit(d + 1, f"out.append({prefix()}{key + chr(10)!r})")
            g.emit(d + 1, "for s in v[:]:  # a list iterates faster than the container")
            g.emit(d + 2, f"if {_fast('s')}:")
            g.emit(d + 3, f"out.append({dash!r} + s + '\\n')")
            g.emit(d + 2, "else:")
            g.emit(d + 3, f"out.append({dash[:-1]!r} + _scalar_exact(s, {item_pad!r}, {item_ind!r}))")
            if not fi.omitempty:
                g.emit(d, "else:")
                g.emit(d + 1, f"out.append({prefix()}{key + ' []' + chr(10)!r})")
        elif kind is Kind.MESSAGE_LIST:
            assert fi.message is not None
            item_writer = g.const(_message_writer(fi.message, inner + 2, item=True))
            g.emit(d, "if v:")
            g.emit(d + 1, f"out.append({prefix()}{key + chr(10)!r})")
            g.emit(d + 1, "for i, m in enumerate(v[:]):")
            g.emit(d + 2, "mark = len(out)")
            g.emit(d + 2, "try:")
            g.emit(d + 3, f"{item_writer}(m, out)")
            g.emit(d + 2, "except _BadEnum as e:")
            g.emit(d + 3, f"raise e.under(f'{name}[{{i}}]') from None")
            g.emit(d + 2, "if len(out) == mark:")
            g.emit(d + 3, f"out.append({vpad + '- {}' + chr(10)!r})")
            if not fi.omitempty:
                g.emit(d, "else:")
                g.emit(d + 1, f"out.append({prefix()}{key + ' []' + chr(10)!r})")
        elif kind is Kind.INT_MAP:
            key_inner = _value_indent(inner)
            key_args = f"{vpad!r}, {' ' * key_inner!r}, {_indicator(key_inner, inner)!r}"
            g.emit(d, "if v:")
            g.emit(d + 1, f"out.append({prefix()}{key + chr(10)!r})")
            g.emit(d + 1, "for k, n in _sorted_items(v):")
            g.emit(d + 2, f"if {_fast('k', '_RESERVED_KEYS')} and len(k) <= {_MAX_SIMPLE_KEY_BYTES}:")
            g.emit(d + 3, f"out.append({vpad!r} + k + ': ' + str(n) + '\\n')")
            g.emit(d + 2, "else:")
            g.emit(d + 3, f"out.append({vpad!r} + _key(k, {key_args}) + ' ' + str(n) + '\\n')")
            if not fi.omitempty:
                g.emit(d, "else:")
                g.emit(d + 1, f"out.append({prefix()}{key + ' {}' + chr(10)!r})")
        else:  # pragma: no cover - _schema rejects other shapes
            raise RuntimeError(f"no YAML writer for {fi.full_name} ({kind})")
        if optional_first:
            # After an optional field the next prefix is fixed only if it was written.
            g.emit(1, "if len(out) != n:")
            g.emit(2, f"p = {pad!r}")
        elif dynamic:
            dynamic = False  # after an always-written field it is fixed
    src = f"def _write_{info.cls.__name__}_{column}(msg, out):\n" + "\n".join(g.lines) + "\n"
    code = compile(src, f"<taskspec yaml writer {info.full_name} @{column}>", "exec")
    namespace = dict(g.env)
    exec(code, namespace)
    writer: Any = namespace[f"_write_{info.cls.__name__}_{column}"]
    writer.__source__ = src
    _WRITERS[cache_key] = writer
    return cast(_Writer, writer)


_ROOT: Final = _message_writer(TASK_SPEC, 0)


def marshal(spec: taskspec_pb2.TaskSpec) -> bytes:
    """``yaml.Marshal(spec)`` of the Go struct, as UTF-8 bytes.

    Field order, omission, quoting, escaping and layout follow yaml.v3
    exactly, except for the round-trip fixes in :data:`ROUND_TRIP_FIXES`.
    Raises :class:`TaskSpecError` for an enum number that has no YAML
    spelling, naming the field, because writing it would lose the value.
    """
    out: list[str] = []
    try:
        _ROOT(spec, out)
    except _BadEnum as e:
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
