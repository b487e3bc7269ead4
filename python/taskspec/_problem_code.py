"""The codes of the catalogue as names: ``taskspec.Code.UNKNOWN_KEY`` is ``"TS001"``.

A :class:`~taskspec.Violation`'s ``code`` is a string of the catalogue
(``"TS001"``); :class:`Code` names each one, so that a caller writes
``v.code == Code.UNKNOWN_KEY`` rather than the digits. The Go library has
the same set as constants of type ``Code`` (``taskspec.CodeUnknownKey``).
The members are written out so that type checkers see them, but not by
hand: ``make generate`` writes them from the catalogue that
:mod:`taskspec._codes` reads from the protos (``scripts/gen_code_names.py``),
one for each ``ProblemCode`` value (named without its prefix) and each kind
of constraint that gives its own entry (named as the constraint is), each
under a comment that gives its title.
"""

from __future__ import annotations

import enum

__all__ = ["Code"]


class Code(enum.StrEnum):
    """A code of the catalogue of problems; each member is its code's string, ``"TS001"``."""

    # generated members: codes
    #: unknown key
    UNKNOWN_KEY = "TS001"
    #: duplicate key
    DUPLICATE_KEY = "TS002"
    #: value of the wrong type
    WRONG_TYPE = "TS003"
    #: YAML that readers disagree on or that loses data
    UNSUPPORTED = "TS004"
    #: YAML that cannot be read
    SYNTAX = "TS005"
    #: document over a size, depth or node limit
    LIMIT = "TS006"
    #: text that is not UTF-8
    ENCODING = "TS007"
    #: control character in the text
    CONTROL_CHARACTER = "TS008"
    #: raw NEL, LS or PS that breaks a line of YAML
    RAW_LINE_BREAK = "TS009"
    #: tab that indents
    TAB_INDENT = "TS010"
    #: character that cannot start a value
    CANNOT_START_VALUE = "TS011"
    #: quoted value that is not closed
    UNCLOSED_QUOTE = "TS012"
    #: [ or { that is not closed
    UNCLOSED_FLOW = "TS013"
    #: ': ' where no mapping value is allowed
    MAPPING_VALUE = "TS014"
    #: block indented wrongly
    INDENTATION = "TS015"
    #: escape that does not exist
    BAD_ESCAPE = "TS016"
    #: block scalar header that cannot be read
    BLOCK_SCALAR_HEADER = "TS017"
    #: directive that cannot be read
    DIRECTIVE = "TS018"
    #: anchor, alias or tag that cannot be read
    ANCHOR_ALIAS_TAG = "TS019"
    #: JSON that cannot be read
    JSON_SYNTAX = "TS020"
    #: binary protobuf that cannot be read
    BINARY_SYNTAX = "TS021"
    #: required string missing or blank
    NOT_BLANK = "TS101"
    #: required list missing or empty
    NOT_EMPTY = "TS102"
    #: enum value missing or not one of its values
    DEFINED = "TS103"
    #: integer below its minimum
    AT_LEAST = "TS104"
    #: integer other than the one value allowed
    EQUALS = "TS105"
    #: string that is not UTF-8
    NOT_UTF8 = "TS106"
    #: spec too large to be written
    TOO_LARGE = "TS107"
    #: string shorter than its minimum length
    MIN_LEN = "TS108"
    #: string longer than its maximum length
    MAX_LEN = "TS109"
    #: integer above its maximum
    AT_MOST = "TS110"
    #: list with fewer items than its minimum
    MIN_ITEMS = "TS111"
    #: list with more items than its maximum
    MAX_ITEMS = "TS112"
    #: comment that has no place in the canonical layout
    COMMENT = "TS201"
    #: artifact path that leads out of the workspace
    ARTIFACT_PATH = "TS301"
    #: raw NEL, LS or PS in a value
    YAML_LINE_BREAK = "TS302"
    #: prompt that gives away a verification command
    PROMPT_HAS_COMMAND = "TS303"
    #: ' #' that ends a prompt written plain
    COMMENT_IN_VALUE = "TS304"
    #: raw byte order mark (U+FEFF) in a value
    YAML_BYTE_ORDER_MARK = "TS305"
    #: file or directory that cannot be read or written
    NOT_READABLE = "TS901"
    #: file that changed while being formatted, left alone
    UNCHANGED = "TS902"
    #: file in a format the command does not take
    UNSUPPORTED_FORMAT = "TS903"
    #: internal error: a bug in taskspec
    INTERNAL = "TS999"
    # end of generated members
