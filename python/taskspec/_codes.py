"""Stable codes for every kind of problem, the one list the README's table is checked against.

A code names what kind of problem a :class:`~taskspec.Violation` reports,
so that CI, editors and scripts can count, filter or silence problems
without matching on messages, whose wording may improve. A code, once
given, keeps its meaning; a new kind of problem gets a new code.

``TS0xx`` are problems with the YAML document itself (the decoder's),
``TS1xx`` broken contract rules (``Validate``'s, one code per kind of
check), ``TS2xx`` what ``taskspec fmt`` refuses, ``TS3xx`` warnings about a
valid spec, and ``TS9xx`` problems with the file rather than its content.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

__all__ = [
    "ARTIFACT_PATH",
    "CODES",
    "COMMENT",
    "DUPLICATE_KEY",
    "INTERNAL",
    "LIMIT",
    "NOT_READABLE",
    "RULE_CODES",
    "SYNTAX",
    "UNCHANGED",
    "UNKNOWN_KEY",
    "UNSUPPORTED",
    "WRONG_TYPE",
]

UNKNOWN_KEY: Final = "TS001"
DUPLICATE_KEY: Final = "TS002"
WRONG_TYPE: Final = "TS003"
UNSUPPORTED: Final = "TS004"
SYNTAX: Final = "TS005"
LIMIT: Final = "TS006"
COMMENT: Final = "TS201"
ARTIFACT_PATH: Final = "TS301"
NOT_READABLE: Final = "TS901"
UNCHANGED: Final = "TS902"
INTERNAL: Final = "TS999"

#: The code of each kind of check of a contract rule, by
#: :class:`taskspec._rules.Check` value.
RULE_CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "not blank": "TS101",
        "not empty": "TS102",
        "defined": "TS103",
        "at least": "TS104",
        "equals": "TS105",
    }
)

#: Every code, in order, with what it reports (the README's table).
CODES: Final[Mapping[str, str]] = MappingProxyType(
    {
        UNKNOWN_KEY: "unknown key",
        DUPLICATE_KEY: "duplicate key",
        WRONG_TYPE: "value of the wrong type, or a number an int64 cannot hold",
        UNSUPPORTED: "YAML that readers disagree on or that loses data "
        "(null key or item, merge key, tag, second document, ...)",
        SYNTAX: "YAML that cannot be read (syntax error, a tab indenting, not UTF-8); "
        "reported alone",
        LIMIT: "document over a size, depth or node limit; reported alone",
        "TS101": "required string missing or blank",
        "TS102": "required list missing or empty",
        "TS103": "enum value missing or not one of its values",
        "TS104": "integer below its minimum",
        "TS105": "integer other than the one value allowed",
        COMMENT: "comment that has no place in the canonical layout (fmt)",
        ARTIFACT_PATH: "solution artifact path that would lead out of the workspace "
        "(validate: a warning, a problem with --strict-paths)",
        NOT_READABLE: "file or directory that cannot be read or written",
        UNCHANGED: "file that changed while being formatted, left alone",
        INTERNAL: "internal error: a bug in taskspec",
    }
)
