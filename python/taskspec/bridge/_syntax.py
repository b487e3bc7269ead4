"""YAML syntax problems in the catalogue's words: the parser's problem to a code and message.

libyaml (and yaml.v3, its port) says what went wrong in its own terms
("while scanning for the next token, found character that cannot start any
token"). Those words are the parser's, not the contract's: the Go library
meets the same problems worded by yaml.v3. So each parser problem is mapped
here, in one table (:data:`_TABLE`, the design's in ``docs/problems.md``),
to a code of the catalogue and that code's message; no parser text reaches
a user.

The mistakes people make in prompts and commands (a value that starts with
a backtick, ``: `` inside a plain value, a key indented too deep) get a
hint computed from the text of the line alone (:func:`prompt_hint`), the
same way in both libraries.

This module also holds YAML's notion of a line break (:data:`LINE_ENDS`),
which libyaml counts lines by and the decoder's other scans share.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

from taskspec._codes import (
    ANCHOR_ALIAS_TAG,
    BAD_ESCAPE,
    BLOCK_SCALAR_HEADER,
    CANNOT_START_VALUE,
    CATALOGUE,
    DIRECTIVE,
    INDENTATION,
    MAPPING_VALUE,
    SYNTAX,
    TAB_INDENT,
    UNCLOSED_FLOW,
    UNCLOSED_QUOTE,
    UNSUPPORTED,
    WRONG_TYPE,
)
from taskspec._errors import Fix
from taskspec._forms_gen import (
    HINT_MAPPING_VALUE_QUOTE_COLON,
    HINT_MAPPING_VALUE_QUOTE_VALUE,
    HINT_MAPPING_VALUE_TOO_DEEP,
    HINT_RAW_LINE_BREAK_ESCAPE,
    LIBYAML_PROBLEMS,
    MSG_CONTROL_CHARACTER_CHARACTER,
    MSG_RAW_LINE_BREAK_BREAKS,
    MSG_SYNTAX_STOPPED,
    MSG_SYNTAX_TEXT_AFTER_DOCUMENT,
    MSG_TAB_INDENT_TAB,
    MSG_WRONG_TYPE_EXPECTED,
    REASON_UNSUPPORTED_STRING_TAG,
    WORD_A_STRING,
    WORD_MAPPING,
    WORD_SEQUENCE,
)
from taskspec._words import pieces, render, render_at
from taskspec.bridge._breaks import LINE_BREAK, LINE_ENDS, RAW_BREAKS
from taskspec.bridge._fixes import replace_at
from taskspec.bridge._gostr import go_quote

__all__ = [
    "LINE_BREAK",
    "LINE_ENDS",
    "TAB",
    "TEXT_AFTER_DOCUMENT",
    "control_character_message",
    "line_text",
    "prompt_fix",
    "prompt_hint",
    "raw_break_problem",
    "syntax_problem",
]


#: The message of a tab where YAML takes only spaces (our tab rule, and
#: libyaml's two problems that name a tab).
TAB: Final = render(MSG_TAB_INDENT_TAB)
#: The message of text right after the root node with no marker to start a
#: second document ("did not find expected <document start>" with no
#: directive before it).
TEXT_AFTER_DOCUMENT: Final = render(MSG_SYNTAX_TEXT_AFTER_DOCUMENT)

_FALLBACK: Final = MSG_SYNTAX_STOPPED


def control_character_message(character: int) -> str:
    """The message of raw control character *character* (TS008)."""
    return render(MSG_CONTROL_CHARACTER_CHARACTER, n=f"#x{character:04X}")


def syntax_problem(context: str | None, problem: str | None) -> tuple[str, str]:
    """The (code, message) of the libyaml problem *problem* met *context* (either may be None)."""
    context = context or ""
    problem = problem or ""
    form = _FALLBACK
    for where, phrases, row in LIBYAML_PROBLEMS:
        if where and not context.startswith(where):
            continue
        if phrases and not (problem.startswith(phrases) or context.startswith(phrases)):
            continue
        form = row
        break
    return form.code, render(form)


def line_text(source: str, line: int) -> str:
    """Line *line* (1-based) of *source*, lines as YAML counts them; "" past the end."""
    if line < 1:
        return ""
    start = 0
    for _ in range(line - 1):
        match = LINE_BREAK.search(source, start)
        if match is None:
            return ""
        start = match.end()
    match = LINE_BREAK.search(source, start)
    return source[start : match.start() if match else len(source)]


#: ``KEY: VALUE``: a key of ASCII letters, digits and ``_``, one ``:``, spaces, a value.
_KEY_VALUE: Final = re.compile(r"([A-Za-z0-9_]+): +([^ ].*)", re.DOTALL)
#: The characters that cannot start a plain value as text.
_INDICATORS: Final = frozenset("`@%*&!|>[{\"'")
#: The codes the prompt-mistake hint applies to (TS003 and TS004 for some messages).
_PROMPT_CODES: Final = frozenset(
    {
        CANNOT_START_VALUE,
        UNCLOSED_QUOTE,
        UNCLOSED_FLOW,
        MAPPING_VALUE,
        INDENTATION,
        BAD_ESCAPE,
        BLOCK_SCALAR_HEADER,
        DIRECTIVE,
        ANCHOR_ALIAS_TAG,
    }
)
#: The words of TS004's unsupported tag on a string field, around the tag.
_STRING_TAG: Final = pieces(REASON_UNSUPPORTED_STRING_TAG)
_WRONG_TYPE_SHAPES: Final = tuple(
    render_at(MSG_WRONG_TYPE_EXPECTED, "", want=render(WORD_A_STRING), got=render(got))
    for got in (WORD_SEQUENCE, WORD_MAPPING)
)


#: The codes whose own hint is given when the line names no prompt mistake:
#: those the design names, each with one hint that has nothing to fill in.
_FIXED_HINT_CODES: Final = frozenset(
    {TAB_INDENT, UNCLOSED_QUOTE, UNCLOSED_FLOW, BAD_ESCAPE, BLOCK_SCALAR_HEADER, DIRECTIVE}
)


#: The codes that always get their own hint, whatever the line holds.
_OWN_HINT_ONLY: Final = frozenset({TAB_INDENT, UNCLOSED_QUOTE, BAD_ESCAPE})


def _fixed_hint(code: str) -> str:
    """The own hint of *code*, one of _FIXED_HINT_CODES: its hint with nothing to fill in."""
    kind = CATALOGUE.get(code)
    if kind is None or code not in _FIXED_HINT_CODES:
        return ""
    fixed = [h for h in kind.hints if "{" not in h]
    return fixed[0] if len(fixed) == 1 else ""


def _applies(code: str, message: str) -> bool:
    if code in _PROMPT_CODES:
        return True
    if code == WRONG_TYPE:
        return message.endswith(_WRONG_TYPE_SHAPES)
    if code != UNSUPPORTED:
        return False
    before, after = _STRING_TAG
    return before in message and after in message


def prompt_hint(code: str, message: str, source: str, line: int) -> str:
    """The hint for a problem of *code* at *line* of *source*: the prompt mistake it names.

    The design's algorithm (docs/problems.md, "The prompt-mistake hint"):
    the line, less its indentation and any leading ``- ``, read as
    ``KEY: VALUE``; a value that starts with an indicator must be quoted, a
    value that holds ``: `` too, and for a mapping value with neither, the
    key is indented too deep. Otherwise the code's own fixed hint, if any.

    A tab (TS010), an unclosed quote (TS012) and a bad escape (TS016) always
    get their code's own hint: the value they are met in is quoted already
    (or the line is not a value at all), so "must be quoted" would be wrong.
    """
    if code in _OWN_HINT_ONLY:
        return _fixed_hint(code)
    if not _applies(code, message):
        return ""
    text = line_text(source, line).lstrip(" ")
    while text.startswith("- "):
        text = text[2:]
    match = _KEY_VALUE.fullmatch(text)
    if match is not None:
        value = match.group(2)
        if value[0] in _INDICATORS or value.startswith("- "):
            return render(HINT_MAPPING_VALUE_QUOTE_VALUE, value=go_quote(value[0]))
        if code == MAPPING_VALUE:
            if ": " in value:
                return render(HINT_MAPPING_VALUE_QUOTE_COLON)
            return render(HINT_MAPPING_VALUE_TOO_DEEP)
    return _fixed_hint(code) if code in _PROMPT_CODES else ""


@cache
def _string_fields() -> frozenset[str]:
    """The names of the schema's string fields that hold one string: those a quote makes right."""
    from taskspec.v1 import taskspec_pb2  # noqa: PLC0415

    names: set[str] = set()
    todo = [taskspec_pb2.TaskSpec.DESCRIPTOR]
    seen = set()
    while todo:
        desc = todo.pop()
        if desc.full_name in seen:
            continue
        seen.add(desc.full_name)
        for fd in desc.fields:
            if fd.message_type is not None:
                if not fd.message_type.GetOptions().map_entry:
                    todo.append(fd.message_type)
            elif fd.type == fd.TYPE_STRING and not fd.is_repeated:
                names.add(fd.name)
    return frozenset(names)


def prompt_fix(code: str, message: str, source: str, line: int, column: int) -> Fix | None:
    """The fix of the prompt-mistake hint *prompt_hint* gives for the same problem, or None.

    Where the hint says a value must be quoted (it starts with an indicator
    or holds ``: ``), the fix writes the value double-quoted, escaped as the
    Go package quotes a string. There is none when the value goes on past
    its line (the next line is indented deeper than its key), or holds
    `` #`` (a comment, or text: only the writer knows), since then what the
    value is cannot be told from the line; nor under a key that names no
    field of one string, which a quote would not make right; nor for a
    value of the wrong type or tag that the problem's *column* does not
    place at the line's value (a mapping in a list item, whose value is not
    the one read).
    """
    if code in _OWN_HINT_ONLY or not _applies(code, message):
        return None
    whole = line_text(source, line)
    text = whole.lstrip(" ")
    while text.startswith("- "):
        text = text[2:]
    match = _KEY_VALUE.fullmatch(text)
    if match is None:
        return None
    if match.group(1) not in _string_fields():
        return None  # quoting would make a string of a list, a mapping or a number
    value = match.group(2)
    quoted = value[0] in _INDICATORS or value.startswith("- ")
    if not quoted and not (code == MAPPING_VALUE and ": " in value):
        return None
    value = value.rstrip(" \t")
    if " #" in value or "\t#" in value:
        return None
    key_column = len(whole) - len(text)
    after = line_text(source, line + 1)
    if (
        after.strip(" \t")
        and not after.lstrip(" ").startswith("#")
        and len(after) - len(after.lstrip(" ")) > key_column
    ):
        return None  # the value goes on on the next line
    at = len(whole) - len(match.group(2)) + 1
    if code in (WRONG_TYPE, UNSUPPORTED) and column != at:
        return None
    return replace_at(source, line, at, value, go_quote(value))


#: The syntax problems a raw NEL, LS or PS can cause, by ending a line
#: where the text after it cannot stand (TS009 names the character instead).
_RAW_BREAK_CODES: Final = frozenset(
    {
        SYNTAX,
        TAB_INDENT,
        CANNOT_START_VALUE,
        UNCLOSED_QUOTE,
        UNCLOSED_FLOW,
        MAPPING_VALUE,
        INDENTATION,
        BAD_ESCAPE,
        BLOCK_SCALAR_HEADER,
        DIRECTIVE,
        ANCHOR_ALIAS_TAG,
    }
)


def raw_break_problem(code: str, source: str, line: int) -> tuple[str, str, int, int] | None:
    """TS009 for a syntax problem *code* at YAML line *line* that a raw NEL, LS or PS caused.

    The character is the one that ends YAML line *line* - 1 or *line* - 2
    (it started the line the parser could not read, which the parser names,
    or the line after it, where it found that a key has no ':'), else the
    one that ends *line* (the parser names the line the character ends):
    (message, hint, line, column) of the character, lines as YAML counts
    them, or None when none of those lines ends with one.
    """
    if code not in _RAW_BREAK_CODES or line < 1 or not any(c in source for c in RAW_BREAKS):
        return None
    ends: dict[int, tuple[str, int]] = {}  # YAML line: its break and the break's column
    number, start = 1, 0
    for match in LINE_BREAK.finditer(source):
        if number >= line - 2:
            ends[number] = (match.group(), match.start() - start + 1)
        if number >= line:
            break
        number += 1
        start = match.end()
    for at in (line - 1, line - 2, line):
        char, column = ends.get(at, ("", 0))
        if char in RAW_BREAKS:
            what, _, escape = RAW_BREAKS[char]
            message = render(MSG_RAW_LINE_BREAK_BREAKS, what=what)
            hint = render(HINT_RAW_LINE_BREAK_ESCAPE, value=escape)
            return message, hint, at, column
    return None
