"""Strict YAML -> TaskSpec decoding: the entry point and what it refuses on purpose.

:func:`decode` reads a document the way Go's ``ParseTaskSpec`` does (yaml.v3
with unknown fields rejected), and is stricter wherever yaml.v3 would lose
data silently; each such case is listed in :data:`STRICTER_THAN_GO`. It is
a pipeline of three stages, each in its own module:

- :mod:`taskspec.bridge._decode_load`: the source text, the event pre-scans
  (node budget, depth, ``%YAML``, stray byte order marks) and libyaml's
  composer with resolution off, with :mod:`taskspec.bridge._decode_tags`
  for the tags libyaml and yaml.v3 end in different places and the escape
  only libyaml knows;
- :mod:`taskspec.bridge._decode_walk`: the walk by the message descriptors,
  threading the field path through every call, so a problem is reported
  once, at the exact field, line and column;
- :mod:`taskspec.bridge._decode_scalar`: strings and int64s by yaml.v3's
  rules (worded through :mod:`taskspec.bridge._decode_msg`).

Those stages are compiled in the compiled build (setup.py's ``COMPILED``);
this module, which only strings them together, is not, on purpose: its
node budget (:data:`MAX_NODES`, read at each call) and :func:`decode`
itself stay ordinary module globals that tests can replace, in either build.

Safety: the YAML is parsed by libyaml through PyYAML's C parser and composed
into plain nodes. No constructor runs, so no tag can instantiate anything.
Input size is bounded before parsing, node count and nesting depth on the
parser's events before anything is composed, and alias expansion while the
tree is walked, so a hostile document fails fast with a :class:`DecodeError`
instead of exhausting the stack, the CPU or memory. Whatever the input, no
exception but a :class:`~taskspec.TaskSpecError` leaves this module; the
numbers in a document are read by Go's ASCII-only rules
(:mod:`taskspec.bridge._resolve`), never by Python's ``int()``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

import yaml
from yaml.nodes import MappingNode, ScalarNode

from taskspec._codes import RAW_LINE_BREAK
from taskspec._errors import DecodeError, Violation
from taskspec._forms_gen import MSG_WRONG_TYPE_EMPTY_DOCUMENT, MSG_WRONG_TYPE_TOP_NOT_MAPPING
from taskspec._limits import MAX_NODES
from taskspec.bridge._decode_bom import check_bom_values, check_inner_boms
from taskspec.bridge._decode_load import (
    check_bounds,
    check_yaml_version,
    compose,
    control_character,
    source_of,
    yaml_error,
)
from taskspec.bridge._decode_msg import describe, fail
from taskspec.bridge._decode_scalar import is_null
from taskspec.bridge._decode_tags import check_events
from taskspec.bridge._decode_walk import Decoded, Walker
from taskspec.bridge._syntax import prompt_fix, prompt_hint, raw_break_problem, syntax_problem

__all__ = [
    "STRICTER_THAN_GO",
    "Decoded",
    "decode",
]

#: Documents Go's ParseTaskSpec accepts and this decoder rejects on purpose,
#: each with the reason. Every one of them either loses data silently in Go,
#: depends on a YAML feature whose meaning differs between YAML readers, or
#: is beyond libyaml, which this decoder is built on. The conformance vectors
#: hold an example of each (tests/conformance/stricter.json).
STRICTER_THAN_GO: Final[Mapping[str, str]] = {
    "non-integral number in an integer field (timeout_seconds: 1.5)": (
        "yaml.v3 truncates it to 1 silently; that is data loss."
    ),
    "number outside int64 in an integer field (-1e300, -.inf, -9223372036854775809, 2**63)": (
        "yaml.v3 converts such a float to int64 with undefined results (the int64 minimum"
        " on amd64); an out-of-range integer it does reject."
    ),
    "more than one YAML document": ("Go reads the first document and ignores the rest silently."),
    "null keys (~: 1, null: 1, an empty key) in any mapping": (
        "yaml.v3 skips an entry whose key is null silently, even with unknown fields"
        " rejected; in difficulty_signals that loses the entry."
    ),
    "null items in a list (test_cmd: [go, ~], solution_artifacts: [~])": (
        "yaml.v3 drops such an item silently; an empty string is written ''."
    ),
    "an integer written as a float that float64 cannot hold (9.2233720368547748e18)": (
        "yaml.v3 reads the number through float64 and stores a different integer silently."
    ),
    "a duplicate key spelled through an alias (&k edge_count: 2, then *k : 3)": (
        "yaml.v3 compares a key's kind and text, so the alias slips past its duplicate"
        " check and the last value wins silently; that is data loss."
    ),
    "merge keys (<<)": (
        "YAML 1.1 merge keys are not part of YAML 1.2 and readers disagree on them."
    ),
    "tags other than the standard ones for the field (!!binary, !custom, !!int on a string)": (
        "they change how a value is read in reader-specific ways."
    ),
    "the non-specific tag ! on an integer (timeout_seconds: ! 5)": (
        "YAML makes '! 5' the string \"5\", which an integer field rejects; yaml.v3 ignores"
        " the tag and reads 5, so readers disagree."
    ),
    "the non-specific tag ! alone where a list, a mapping or a list item goes (- !)": (
        "YAML makes it the empty string; yaml.v3 forgets the tag and reads null, so it drops"
        " the item from a list silently, which is data loss, and reads an absent field where"
        " a mapping or a list goes."
    ),
    "a byte order mark that starts a line past the start of the text, or stands outside a value": (
        "libyaml skips one that starts a line and yaml.v3 reads it as text, so the two read"
        " different values; and yaml.v3 can skip a character of a later line after one."
        " Inside a value, plain, quoted or block, both read it as text: it is read, with"
        " warning TS305. A string that holds U+FEFF is written with the escape \\uFEFF."
    ),
    "a plain scalar ending in ':' inside [] or {} ([go, a:, b])": (
        "libyaml, which this decoder is built on, cannot read it; yaml.v3 reads 'a:'."
        " Quote the string."
    ),
    "a tag running into '[', ']' or ',' (task_id: !x[1] id, test_cmd: [!!str, go])": (
        "libyaml ends the tag there: a syntax error, or, before a comma inside [] or {},"
        " the tag of an empty item ([!!str, go] is ['', go]); yaml.v3 reads the characters"
        " into the tag ([go]), so the readers disagree. Put a space after the tag."
    ),
    "the escape \\' in a double-quoted string (\"don\\'t\")": (
        "YAML has no such escape: libyaml, which this decoder is built on, cannot read it;"
        " yaml.v3 reads an apostrophe. Write the apostrophe unescaped."
    ),
    "a line a tab starts among comment lines (# a, then a tab, then # b)": (
        "libyaml, which this decoder is built on, fails on a tab that starts a line outside"
        " [] and {}; yaml.v3 reads the line with the comments around it. Indent with spaces."
    ),
    "a tab between a block ? or : indicator and a comment (?\t# key)": (
        "libyaml, which this decoder is built on, reads a tab after a block '?' or ':'"
        " indicator as indentation and fails on it; yaml.v3 reads it with the comment after"
        " it. Use spaces."
    ),
    "UTF-16 or UTF-32 input": ("sidecars are UTF-8; yaml.v3 also accepts UTF-16 with a BOM."),
    "documents larger than MAX_DOCUMENT_BYTES or nested deeper than MAX_DEPTH": (
        "bounds that keep hostile input cheap; no valid sidecar comes near them."
    ),
    "documents of more than MAX_NODES nodes, or expanding to more through aliases": (
        "a bound that keeps hostile input cheap, checked before anything is built;"
        " a TaskSpec has a few dozen nodes. yaml.v3 bounds only the aliasing ratio."
    ),
}


def decode(data: bytes | bytearray | memoryview | str, *, collect: bool = False) -> Decoded:
    """Decode one TaskSpec document strictly, without validating it.

    With *collect*, a problem the walk meets (an unknown or duplicate key, a
    value of the wrong type) goes into the result's ``problems`` and the walk
    goes on, so that every such problem is found in one run; YAML that
    cannot be read, or a document past a limit, is still raised.
    """
    raw, source = source_of(data)
    if source.startswith("\ufeff"):
        # libyaml's marks do not count a leading BOM; keep the source in step.
        source = source[1:]
    try:
        return _decode(raw, source, collect)
    except UnicodeDecodeError:
        raise _undecodable_escape(source) from None
    except DecodeError as err:
        if len(err.violations) != 1:
            raise
        v = err.violations[0]
        found = raw_break_problem(v.code, source, v.line)
        if found is None:
            raise
        message, hint, line, column = found
        raise DecodeError([Violation("", message, line, column, hint, RAW_LINE_BREAK)]) from None


#: A character libyaml's reader refuses (yaml_parser_update_buffer): any
#: outside YAML's printable set.
_UNPRINTABLE: Final = re.compile(
    "[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)


def _undecodable_escape(source: str) -> DecodeError:
    """The refusal of *source*, whose tag %-escapes octets that are not UTF-8.

    libyaml checks only the shape of escaped octets
    (yaml_parser_scan_uri_escapes), so ``!a%C0%80`` reads as a tag that
    PyYAML then fails to decode, with no mark. PyYAML's own scanner decodes
    each run of escapes as it scans, and refuses the run that is not UTF-8
    "while scanning a tag" (or a %TAG directive), at the run's start: that
    refusal is the one given.
    """
    try:
        for _ in yaml.scan(source, Loader=yaml.SafeLoader):
            pass
    except yaml.MarkedYAMLError as err:
        if "codec can't decode" in (err.problem or ""):
            return yaml_error(err, source)
    code, message = syntax_problem("while scanning a tag", None)
    return DecodeError([Violation("", message, code=code)])


def _decode(raw: bytes, source: str, collect: bool) -> Decoded:
    """:func:`decode` of the bytes *raw*, whose text is *source* (without a leading BOM)."""
    budget = MAX_NODES  # read at each call: tests lower it to reach the bound cheaply
    unprintable = _UNPRINTABLE.search(source)
    if unprintable is not None:
        # Refused before anything is read, whatever the text's length: libyaml
        # decodes 16 KiB at a time, so past that a syntax error before the
        # character would be met first (the Go library checks its input whole).
        raise control_character(source, ord(unprintable.group()), unprintable.start())
    boms = "\ufeff" in source
    if boms:
        check_inner_boms(source)
    check_bounds(raw, budget, source)
    if "%YAML" in source:
        check_yaml_version(raw, source)
    check_events(raw, source)
    root = compose(raw, source)
    if root is None:
        raise fail("", MSG_WRONG_TYPE_EMPTY_DOCUMENT, None)
    if boms:
        # Last of the refusals of the text, once it is read, before the walk.
        check_bom_values(raw, source)
    walker = Walker(source, out := Decoded(), budget, collect)
    if type(root) is not MappingNode and not (type(root) is ScalarNode and is_null(root)):
        # A null document ("---", "~") decodes to the zero spec, as in Go, and
        # then fails Validate with Go's message.
        raise fail("", MSG_WRONG_TYPE_TOP_NOT_MAPPING, root, got=describe(root))
    try:
        walker.document(root)
    except DecodeError as err:
        raise DecodeError(_hinted(err.violations, source)) from None
    if out.problems:
        out.problems = _hinted(out.problems, source)
    return out


def _hinted(violations: list[Violation], source: str) -> list[Violation]:
    """*violations* with the prompt-mistake hint where one applies and none is given.

    A value of the wrong type or tag (``prompt: [see] the docs``) is most
    often a prompt that starts with an indicator; the walk does not keep
    the text, so the hint is worked out here, from the line.
    """
    out = []
    for v in violations:
        hint = prompt_hint(v.code, v.message, source, v.line) if not v.hint and v.line else ""
        fix = prompt_fix(v.code, v.message, source, v.line, v.column) if hint else None
        out.append(v._with(hint=hint, fix=fix) if hint else v)
    return out
