"""One string as yaml.v3 writes it: analysis, style selection, writing.

yaml.v3 decides the style of a string scalar in three steps, and this module
keeps them apart in the same way:

1. :func:`analyze` looks at the string once and returns its facts as bit
   flags: what ``yaml_emitter_analyze_scalar`` (``emitterc.go``) records
   (line breaks, flow and block indicators, leading and trailing spaces and
   breaks, a space next to a break, tabs, special characters) and the two
   facts the encoder adds (``encode.go`` ``stringv``): whether the string
   holds an LF, and whether the resolver would read it plain as something
   other than a string (:func:`taskspec.bridge._resolve.needs_quotes`).
2. :func:`select_style` is the one place that turns facts and position
   (block or flow, simple key or not) into plain, single-quoted,
   double-quoted or literal: the encoder's request, then
   ``yaml_emitter_select_scalar_style``'s downgrades.
   :func:`is_simple_key` is ``yaml_emitter_check_simple_key``.
3. The writers produce the bytes of the chosen style.

yaml.v3's encoder never limits the line width (``best_width`` is -1, so
"unlimited"), so the line-folding branches of its quoted-scalar writers
never fire and have no counterpart here. Where yaml.v3 writes bytes that it
cannot read back itself, this module does *not* copy them; see
:data:`ROUND_TRIP_FIXES`.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import Final

from taskspec.bridge._breaks import LINE_ENDS
from taskspec.bridge._resolve import needs_quotes

__all__ = [
    "BEST_INDENT",
    "BLOCK_INDICATORS",
    "BREAK_SPACE",
    "EMPTY",
    "FLOW_INDICATORS",
    "LEADING_BREAK",
    "LEADING_SPACE",
    "LF",
    "LINE_BREAKS",
    "MAX_SIMPLE_KEY_BYTES",
    "MERGE_KEY",
    "NOT_A_STRING",
    "ROUND_TRIP_FIXES",
    "SPACE_BREAK",
    "SPECIAL_CHARACTERS",
    "TAB_CHARACTERS",
    "TRAILING_BREAK",
    "TRAILING_SPACE",
    "Style",
    "analyze",
    "is_literal_value",
    "is_plain_value",
    "is_simple_key",
    "key_text",
    "scalar_text",
    "select_style",
    "value_text",
]

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

#: yaml.v3's indentation step, and the indentation indicator it writes.
BEST_INDENT: Final = 4
#: A longer key (in UTF-8 bytes) is written as an explicit ``? key``.
MAX_SIMPLE_KEY_BYTES: Final = 128


class Style(enum.Enum):
    """The scalar styles yaml.v3's encoder uses for strings."""

    PLAIN = "plain"
    SINGLE_QUOTED = "single-quoted"
    DOUBLE_QUOTED = "double-quoted"
    LITERAL = "literal"


_PLAIN: Final = Style.PLAIN
_SINGLE: Final = Style.SINGLE_QUOTED
_DOUBLE: Final = Style.DOUBLE_QUOTED
_LITERAL: Final = Style.LITERAL

# --- the facts ------------------------------------------------------------------
#
# Bit flags, so that an analysis is one int and costs nothing to build.

#: A line break (CR, LF, NEL, LS or PS) anywhere: yaml.v3's "multiline".
LINE_BREAKS: Final = 1 << 0
#: An LF: the encoder asks for a literal block (double quotes in flow context).
LF: Final = 1 << 1
#: A character that would end or start a flow collection or a comment.
FLOW_INDICATORS: Final = 1 << 2
#: A character that would start a block structure or a comment.
BLOCK_INDICATORS: Final = 1 << 3
LEADING_SPACE: Final = 1 << 4
LEADING_BREAK: Final = 1 << 5
TRAILING_SPACE: Final = 1 << 6
TRAILING_BREAK: Final = 1 << 7
#: A space right after a line break.
BREAK_SPACE: Final = 1 << 8
#: A space right before a line break.
SPACE_BREAK: Final = 1 << 9
TAB_CHARACTERS: Final = 1 << 10
#: A character yaml.v3 does not consider printable, other than TAB and LF.
SPECIAL_CHARACTERS: Final = 1 << 11
#: Read plain, it is not a string (or is a YAML 1.1 bool or base-60 float).
NOT_A_STRING: Final = 1 << 12
#: The string is ``<<``, which a plain map key turns into a merge key.
MERGE_KEY: Final = 1 << 13
#: The empty string.
EMPTY: Final = 1 << 14

# yaml_emitter_analyze_scalar's conclusions, as the facts that forbid each style.
_EDGES: Final = LEADING_SPACE | LEADING_BREAK | TRAILING_SPACE | TRAILING_BREAK
_NOT_SINGLE: Final = BREAK_SPACE | SPACE_BREAK | TAB_CHARACTERS | SPECIAL_CHARACTERS
_NOT_PLAIN: Final = _EDGES | _NOT_SINGLE | LINE_BREAKS
_NOT_BLOCK_PLAIN: Final = _NOT_PLAIN | BLOCK_INDICATORS
_NOT_FLOW_PLAIN: Final = _NOT_PLAIN | FLOW_INDICATORS | EMPTY
_NOT_LITERAL: Final = TRAILING_SPACE | SPACE_BREAK | SPECIAL_CHARACTERS | EMPTY

# yaml.v3 classifies characters byte by byte. As code points its rules are:
# "printable" is LF, ASCII 0x20-0x7E, U+00A0-U+D7FF and U+E000-U+FFFD except
# U+FEFF; everything beyond the BMP is *not* printable (its table stops at
# 3-byte UTF-8), so emoji are escaped. Line breaks are CR, LF, NEL, LS, PS.
# A "special" character is a non-printable one other than TAB.
_BREAKS: Final = LINE_ENDS
_BREAKS_BUT_LF: Final = LINE_ENDS.replace("\n", "")
# (The surrogates are written as regular-expression escapes, not as string
# escapes: a string holding a lone surrogate cannot be compiled with mypyc.)
_NOT_PRINTABLE: Final = (
    "\x00-\x09\x0b-\x1f\x7f-\x9f\\ud800-\\udfff\ufeff\ufffe\uffff\U00010000-\U0010ffff"
)
# Special characters are found in the UTF-8 bytes, where bytes.translate
# deletes every byte that can only belong to a printable character in one C
# pass (well under a nanosecond a byte, against several for a regular
# expression over the text): TAB, LF, printable ASCII, continuation bytes
# and the lead bytes of U+00C0 to U+EFFF (U+D800 to U+DFFF cannot be encoded).
# What is left is empty for most text; otherwise _SPECIAL_UTF8 decides.
_SHOWN_ASCII: Final = bytes([0x09, 0x0A, *range(0x20, 0x7F)])
_SHOWN_UTF8: Final = _SHOWN_ASCII + bytes([*range(0x80, 0xC0), *range(0xC3, 0xEF)])
# A control character, a character beyond the BMP (lead bytes F0 to F4),
# U+0080 to U+009F, U+FEFF, U+FFFE or U+FFFF, in UTF-8.
_SPECIAL_UTF8 = re.compile(
    b"[\x00-\x08\x0b-\x1f\x7f\xf0-\xf4]|\xc2[\x80-\x9f]|\xef(?:\xbb\xbf|\xbf[\xbe\xbf])"
).search
# First characters that are always indicators; '?', ':' and '-' depend on
# what follows (a blank is a space or a tab).
_INDICATOR_FIRST: Final = "#,[]{}&*!|>'\"%@`"
_BLANK_OR_END: Final = ("", " ", "\t")
# Flow indicators anywhere (the first character's rules flag each of these too).
_FLOW_CHARS = re.compile("[,?\\[\\]{}:]").search
# A '#' is an indicator after a blank, a line break or NUL.
_COMMENT_STARTS: Final = tuple(c + "#" for c in " \t\x00" + _BREAKS)

# Most scans below are substring tests rather than regular expressions: they
# run at memchr speed, which matters for long prompts.


def analyze(s: str) -> int:
    """The facts of ``s`` that decide its style, as flags (yaml_emitter_analyze_scalar)."""
    if not s:
        return EMPTY | NOT_A_STRING
    # One line of printable ASCII has no break, tab or special character.
    facts = 0 if s.isascii() and s.isprintable() else _characters(s)
    first = s[0]
    if first == " ":
        facts |= LEADING_SPACE
    if s[-1] == " ":
        facts |= TRAILING_SPACE
    # Inside the text, ':' before a blank or the end and '#' after a blank
    # start block structure or a comment. (At the start a ':' or '#' is an
    # indicator anyway, so where these tests match does not matter.)
    if (":" in s and (": " in s or ":\t" in s or s[-1] == ":")) or (
        "#" in s and any(start in s for start in _COMMENT_STARTS)
    ):
        facts |= BLOCK_INDICATORS | FLOW_INDICATORS
    elif _FLOW_CHARS(s) is not None:
        facts |= FLOW_INDICATORS
    if first in _INDICATOR_FIRST:
        facts |= FLOW_INDICATORS | BLOCK_INDICATORS
    elif first in "?:":
        facts |= FLOW_INDICATORS | (BLOCK_INDICATORS if s[1:2] in _BLANK_OR_END else 0)
    elif (first == "-" and s[1:2] in _BLANK_OR_END) or s.startswith(("---", "...")):
        facts |= FLOW_INDICATORS | BLOCK_INDICATORS
    if needs_quotes(s):
        facts |= NOT_A_STRING
    elif s == "<<":
        facts |= MERGE_KEY
    return facts


def _characters(s: str) -> int:
    """The facts about line breaks, tabs and special characters."""
    facts = 0
    is_ascii = s.isascii()
    breaks = [b for b in ("\r\n" if is_ascii else _BREAKS) if b in s]
    if breaks:
        facts = LINE_BREAKS
        if "\n" in breaks:
            facts |= LF
        if s[0] in _BREAKS:
            facts |= LEADING_BREAK
        if s[-1] in _BREAKS:
            facts |= TRAILING_BREAK
        if " " in s:
            if any(" " + b in s for b in breaks):
                facts |= SPACE_BREAK
            if any(b + " " in s for b in breaks):
                facts |= BREAK_SPACE
    if "\t" in s:
        facts |= TAB_CHARACTERS
    if _has_special(s, is_ascii):
        facts |= SPECIAL_CHARACTERS
    return facts


def _has_special(s: str, is_ascii: bool) -> bool:
    """Whether ``s`` holds a special character (see :data:`SPECIAL_CHARACTERS`)."""
    if is_ascii:
        # The ASCII special characters are the controls other than TAB and LF.
        return len(s.encode("ascii").translate(None, _SHOWN_ASCII)) > 0
    try:
        data = s.encode("utf-8")
    except UnicodeEncodeError:
        return True  # a lone surrogate
    rest = data.translate(None, _SHOWN_UTF8)
    return len(rest) > 0 and _SPECIAL_UTF8(data) is not None


def _space_break(s: str, is_ascii: bool) -> bool:
    """Whether a space comes right before a line break in ``s``: SPACE_BREAK."""
    breaks = "\r" if is_ascii else _BREAKS_BUT_LF
    return " \n" in s or any(brk in s and " " + brk in s for brk in breaks)


def is_simple_key(s: str, facts: int) -> bool:
    """Whether a mapping key ``s`` is written as a simple key (one line, at most 128 bytes).

    Otherwise yaml.v3 writes an explicit ``? key`` entry (yaml_emitter_check_simple_key).
    """
    if facts & LINE_BREAKS:
        return False
    # A UTF-8 character is at most 4 bytes, so short strings need no encoding.
    return len(s) * 4 <= MAX_SIMPLE_KEY_BYTES or len(s.encode()) <= MAX_SIMPLE_KEY_BYTES


def select_style(facts: int, *, simple_key: bool = False, flow: bool = False) -> Style:
    """The style yaml.v3 writes a string with these facts in, at this position.

    ``simple_key``: the string is a simple mapping key (see :func:`is_simple_key`);
    ``flow``: it is inside a flow collection. First the encoder's request
    (``stringv``): a literal block for text with an LF (double quotes in
    flow context), plain if the resolver reads the text back as a string,
    double quotes otherwise. Then the emitter's downgrades
    (``yaml_emitter_select_scalar_style``): plain becomes single-quoted when
    the text has indicators, edge spaces or breaks (or is an empty key or
    flow item), single-quoted becomes double-quoted when the text has a
    tab, a special character or a space next to a break, and a literal
    block becomes double-quoted in a key, in flow context, or with a
    trailing space, a special character or a space before a break.
    """
    if facts & LF:
        style = _DOUBLE if flow else _LITERAL
    elif facts & NOT_A_STRING:
        style = _DOUBLE
    else:
        style = _PLAIN
    if simple_key:
        if facts & LINE_BREAKS:
            style = _DOUBLE
        elif facts & MERGE_KEY:
            return _DOUBLE  # ROUND_TRIP_FIXES["merge-key"]
    if style is _PLAIN:
        not_plain = _NOT_FLOW_PLAIN if flow else _NOT_BLOCK_PLAIN
        if simple_key:
            not_plain |= EMPTY  # an empty plain scalar is only a block value
        if facts & not_plain:
            style = _SINGLE
    if style is _SINGLE and facts & _NOT_SINGLE:
        style = _DOUBLE
    if style is _LITERAL and (facts & _NOT_LITERAL or flow or simple_key):
        style = _DOUBLE
    return style


# --- writing ----------------------------------------------------------------------

_DQ_ESCAPED = re.compile('["\\\\\n\r\u2028\u2029' + _NOT_PRINTABLE + "]")
_LINE_SPLIT = re.compile("([\n\u2028\u2029])").split

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
    """A single-quoted scalar (only ever chosen for text without LF, CR or NEL)."""
    s = s.replace("'", "''")
    if "\u2028" in s or "\u2029" in s:
        s = _reindent(s, pad)
    return "'" + s + "'"


def _literal(s: str, pad: str, indicator: str) -> str:
    """A literal block scalar from the ``|`` on, ending at the start of a line.

    The header carries the indentation indicator when the text starts with
    a space or a line break (the reader could not detect the indentation
    otherwise) and the chomping indicator: ``-`` without a final line
    break, none for exactly one, ``+`` for more.
    """
    header = "|"
    if s[0] == " " or s[0] in _BREAKS:
        # yaml.v3 always writes BEST_INDENT. Where that is wrong (``indicator``
        # differs) it only matters if there is a non-empty line to misplace:
        # ROUND_TRIP_FIXES["indicator-in-sequence-item"] and
        # ROUND_TRIP_FIXES["indicator-in-item-mapping"].
        header += str(BEST_INDENT) if s.strip(_BREAKS) == "" else indicator
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


def scalar_text(s: str, style: Style, pad: str, indicator: str) -> str:
    """``s`` written in ``style``: the scalar alone, no separating space.

    ``pad`` is the indentation of continuation lines and ``indicator`` the
    indentation indicator a literal block gets when it needs one. A literal
    block ends with the line break that ends its last line; the other
    styles are one line and end without one.
    """
    if style is _PLAIN:
        return s
    if style is _DOUBLE:
        return _double(s)
    if style is _SINGLE:
        return _single(s, pad)
    return _literal(s, pad, indicator)


def _value_style(s: str) -> Style:
    """The style of ``s`` as a block value (an explicit key is written like one)."""
    if "\n" in s:
        # With an LF the encoder asks for a literal block, and only these
        # facts make the emitter write it double-quoted (select_style), so
        # the rest of the analysis, a scan or two of a long text, is skipped.
        is_ascii = s.isascii()
        if s[-1] == " " or _space_break(s, is_ascii) or _has_special(s, is_ascii):
            return _DOUBLE
        return _LITERAL
    return select_style(analyze(s))


def _key_style(s: str) -> Style | None:
    """The style of ``s`` as a simple block key, or None if it cannot be one."""
    facts = analyze(s)
    return select_style(facts, simple_key=True) if is_simple_key(s, facts) else None


# The same short strings come back in document after document (commands,
# roles, symbols, signal names), so their styles are remembered. They are
# pure functions of the string; the memo is bounded in entries, and in the
# memory it holds by taking short strings only.
_MEMO_MAX_LEN: Final = 64
_MEMO_SIZE: Final = 4096
# Plain dictionaries emptied when full: a lookup costs a fraction of an
# lru_cache call, and recency does not matter for strings this common.
_value_styles: dict[str, Style] = {}
_key_styles: dict[str, Style | None] = {}


def _memo_value_style(s: str) -> Style:
    style = _value_styles.get(s)
    if style is None:
        if len(_value_styles) >= _MEMO_SIZE:
            _value_styles.clear()
        style = _value_styles[s] = _value_style(s)
    return style


def _memo_key_style(s: str) -> Style | None:
    if s in _key_styles:
        return _key_styles[s]
    if len(_key_styles) >= _MEMO_SIZE:
        _key_styles.clear()
    style = _key_styles[s] = _key_style(s)
    return style


def value_text(s: str, pad: str, indicator: str) -> str:
    """A string in value position (a mapping value or a sequence item).

    Returns what follows the ``key:`` or ``-`` indicator: the separating
    space, the scalar and the final line break.
    """
    style = _memo_value_style(s) if len(s) <= _MEMO_MAX_LEN else _value_style(s)
    if style is _PLAIN:
        return " " + s + "\n"
    if style is _LITERAL:
        return " " + _literal(s, pad, indicator)
    return " " + scalar_text(s, style, pad, indicator) + "\n"


def is_plain_value(s: str) -> bool:
    """Whether :func:`value_text` writes ``s`` plain, as ``" " + s + "\\n"``.

    The canonical reader's shortcut for the common case: a plain value read
    from a line is proved by its style alone, without writing it again.
    """
    style = _memo_value_style(s) if len(s) <= _MEMO_MAX_LEN else _value_style(s)
    return style is _PLAIN


def is_literal_value(s: str) -> bool:
    """Whether :func:`value_text` writes ``s`` as a literal block."""
    return "\n" in s and _value_style(s) is _LITERAL


def key_text(s: str, pad: str, key_pad: str, indicator: str) -> str:
    """A mapping key up to and including the ``:`` indicator.

    A key that is not simple (:func:`is_simple_key`) is written as an
    explicit ``? key`` entry, with the ``:`` on the next line at the
    mapping's indentation (``pad``); its continuation lines are indented
    like a value's (``key_pad``, with ``indicator`` for a literal block
    that needs one).
    """
    style = _memo_key_style(s) if len(s) <= _MEMO_MAX_LEN else _key_style(s)
    if style is not None:
        return scalar_text(s, style, key_pad, indicator) + ":"
    style = _value_style(s)
    text = scalar_text(s, style, key_pad, indicator)
    return "? " + text + ("" if style is _LITERAL else "\n") + pad + ":"
