"""Reading one scalar node as a string or an int64, by yaml.v3's rules.

The composer leaves plain scalars unresolved (see
:mod:`taskspec.bridge._decode_load`), so what a scalar means depends on the
field it is read for, as in yaml.v3: a string field takes ``5`` as the text
"5", an integer field takes it as 5. Numbers are read by Go's ASCII-only
rules (:mod:`taskspec.bridge._resolve`), never by Python's ``int()``, which
takes other scripts' digits and refuses more than 4,300 of them; and an
integer field refuses every number yaml.v3 would store as a different one
(a fraction, a float past float64's precision, a value outside int64).

A distinction libyaml does not report (``! 5`` against ``5``) is read from
the source text between the node's marks, so each function takes the
document's *source* too.
"""

from __future__ import annotations

import math
from decimal import Decimal, InvalidOperation
from typing import Final

from yaml.nodes import Node, ScalarNode

from taskspec._errors import DecodeError
from taskspec._forms_gen import (
    MSG_WRONG_TYPE_EXPECTED,
    MSG_WRONG_TYPE_FLOAT64,
    MSG_WRONG_TYPE_INTEGER_RANGE,
    MSG_WRONG_TYPE_NOT_INT,
    MSG_WRONG_TYPE_NUMBER_RANGE,
    REASON_UNSUPPORTED_STRING_TAG,
    REASON_UNSUPPORTED_TAGGED_STRING_INT,
    WORD_A_STRING,
    WORD_AN_INTEGER,
    WORD_NON_INTEGRAL,
)
from taskspec._values import INT64_MAX, INT64_MIN
from taskspec._words import render
from taskspec.bridge._decode_load import PLAIN, QUOTED, SCALAR, TAG_PREFIX
from taskspec.bridge._decode_msg import describe, fail, q, refuse, short_tag
from taskspec.bridge._resolve import resolve

__all__ = ["NULL_TAG", "integer", "is_null", "null_text", "string"]

_INT_TAG: Final = TAG_PREFIX + "int"
_FLOAT_TAG: Final = TAG_PREFIX + "float"
NULL_TAG: Final = TAG_PREFIX + "null"
_STR_TAG: Final = TAG_PREFIX + "str"


def null_text(value: str) -> bool:
    """Whether a scalar's text spells null (``""``, ``~``, ``null``, ``Null``, ``NULL``).

    The first-character test skips the resolver for almost every string.
    """
    return not value or (value[0] in "~nN" and resolve(value)[0] == "!!null")


def is_null(node: ScalarNode) -> bool:
    """Whether *node* is null: plain text that spells it, or an explicit ``!!null`` on such text.

    libyaml reports ``! "~"`` (the non-specific tag on a quoted scalar) as
    untagged, like ``~``; the quotes make it the string "~", as yaml.v3 reads it.
    """
    tag = node.tag
    if tag == PLAIN:
        return not node.style and null_text(node.value)
    # "!!null x" is not null: yaml.v3 refuses to read it as one.
    return tag == NULL_TAG and null_text(node.value)


def _has_bang_tag(node: ScalarNode, source: str) -> bool:
    # libyaml reports "! 5" exactly like "5". YAML reads the former as a
    # string and yaml.v3 as the integer 5 (it ignores a "!" tag), so an
    # integer field rejects it. Look at the node's properties in the
    # source to tell.
    start, end = node.start_mark.index, node.end_mark.index
    if end - start == len(node.value) and not node.value.startswith("!"):
        return False
    text = source[start:end]
    while text[:1] in ("&", "!"):
        if text[0] == "!":
            return True
        cut = 0
        while cut < len(text) and text[cut] not in " \t\r\n":
            cut += 1
        text = text[cut:].lstrip(" \t\r\n")
    return False


def string(node: Node, path: str, source: str) -> str:
    """*node* read for a string field at *path* (null reads as "")."""
    if type(node) is not SCALAR:
        raise fail(
            path, MSG_WRONG_TYPE_EXPECTED, node, want=render(WORD_A_STRING), got=describe(node)
        )
    tag = node.tag
    if tag == PLAIN:
        value: str = node.value
        return "" if not node.style and null_text(value) else value
    if tag in (QUOTED, _STR_TAG):
        return str(node.value)
    if tag == NULL_TAG and null_text(node.value):
        return ""
    raise refuse(path, REASON_UNSUPPORTED_STRING_TAG, node, tag=q(short_tag(tag)))


def integer(node: Node, path: str, source: str) -> int:
    """*node* read for an integer field at *path*, exactly the int64 yaml.v3 would store."""
    if type(node) is not SCALAR:
        raise fail(
            path, MSG_WRONG_TYPE_EXPECTED, node, want=render(WORD_AN_INTEGER), got=describe(node)
        )
    tag = node.tag
    value: str = node.value
    if tag == PLAIN:
        if _has_bang_tag(node, source):
            raise refuse(path, REASON_UNSUPPORTED_TAGGED_STRING_INT, node, value=q(value))
    elif tag in (_INT_TAG, _FLOAT_TAG):
        pass
    elif tag == NULL_TAG and null_text(value):
        return 0
    else:
        raise fail(
            path, MSG_WRONG_TYPE_EXPECTED, node, want=render(WORD_AN_INTEGER), got=describe(node)
        )
    if (
        tag != _FLOAT_TAG
        and value.isdigit()
        and value.isascii()  # isdigit() alone takes any Unicode digit, which Go rejects
        and len(value) < 19
        and (value[0] != "0" or len(value) == 1)
    ):
        return int(value)  # fast path: plain decimal that fits
    rtag, resolved = resolve(value)
    if rtag == "!!null" and tag == PLAIN:
        return 0
    if tag == _INT_TAG and rtag != "!!int":
        # yaml.v3 converts an !!int into a !!float, never the reverse.
        raise fail(path, MSG_WRONG_TYPE_NOT_INT, node, value=q(value), got=rtag[2:])
    exact: int | Decimal | None = None
    if tag == _FLOAT_TAG and rtag == "!!int":
        assert isinstance(resolved, int)
        exact, rtag, resolved = resolved, "!!float", float(resolved)  # as yaml.v3 does
    if rtag == "!!int":
        assert isinstance(resolved, int)
        if INT64_MIN <= resolved <= INT64_MAX:
            return resolved
        raise fail(path, MSG_WRONG_TYPE_INTEGER_RANGE, node, value=q(value))
    if rtag == "!!float":
        assert isinstance(resolved, float)
        return _integral_float(value, resolved, exact, path, node)
    raise fail(
        path, MSG_WRONG_TYPE_EXPECTED, node, want=render(WORD_AN_INTEGER), got=describe(node)
    )


def _fraction(path: str, value: str, node: Node) -> DecodeError:
    """A non-integral number where an integer goes."""
    got = render(WORD_NON_INTEGRAL, value=q(value))
    return fail(path, MSG_WRONG_TYPE_EXPECTED, node, want=render(WORD_AN_INTEGER), got=got)


def _integral_float(
    value: str, number: float, exact: int | Decimal | None, path: str, node: Node
) -> int:
    """The int of a float-valued scalar, when yaml.v3 would store exactly that number.

    yaml.v3 stores int64(f) for any float f up to the int64 maximum: it
    truncates fractions, wraps out-of-range values and keeps float64's
    rounding of large integers. Each of those changes the number
    written, so each is rejected here.
    """
    if math.isinf(number):
        raise fail(path, MSG_WRONG_TYPE_NUMBER_RANGE, node, value=q(value))
    if math.isnan(number) or number != int(number):
        raise _fraction(path, value, node)
    if exact is None:
        try:
            exact = Decimal(value.replace("_", ""))
        except InvalidOperation:
            # An exponent past Decimal's range. float64 holds the value as 0
            # when it is tiny: a mantissa with a digit but 0 makes it a
            # fraction, as the Go library also says.
            mantissa = value.replace("_", "").lower().partition("e")[0]
            if number == 0 and any(c in "123456789" for c in mantissa):
                raise _fraction(path, value, node) from None
            exact = None
    result = int(number)
    if exact is not None and exact != result:
        if isinstance(exact, Decimal) and exact != exact.to_integral_value():
            raise _fraction(path, value, node)
        if INT64_MIN <= exact <= INT64_MAX:
            raise fail(path, MSG_WRONG_TYPE_FLOAT64, node, value=q(value))
        raise fail(path, MSG_WRONG_TYPE_NUMBER_RANGE, node, value=q(value))
    if not INT64_MIN <= result <= INT64_MAX:
        raise fail(path, MSG_WRONG_TYPE_NUMBER_RANGE, node, value=q(value))
    return result
