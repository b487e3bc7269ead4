"""The proto3 JSON format: a strict reader, and a writer in Go's ``protojson`` order.

The reader refuses what protobuf's would lose silently (a field named twice,
as ``taskId`` and ``task_id``), unknown keys and values of the wrong type,
each by its field path; it returns problems and never validates (the API
does). The writer orders every map, at any depth, as Go does (:mod:`taskspec._gowire`).
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any, Final, NoReturn, cast

from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from taskspec._codes import DUPLICATE_KEY, ENCODING, JSON_SYNTAX, LIMIT, UNKNOWN_KEY, WRONG_TYPE
from taskspec._errors import DecodeError, Violation, require_document, require_task_spec
from taskspec._format import Data
from taskspec._gowire import go_json, is_map
from taskspec._limits import MAX_DEPTH
from taskspec._suggest import suggest
from taskspec._values import INT64_MAX, INT64_MIN
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import taskspec_pb2

__all__ = ["marshal_json", "read_json"]


#: A JSON string, a quote that starts no string (one that a control
#: character or the end of the text breaks off), or a bracket outside a string.
_JSON_TOKEN: Final = re.compile(r'"(?:[^"\\\x00-\x1f]|\\[^\x00-\x1f])*"|"|[\[\]{}]')


def _too_deep_at(text: str) -> int | None:
    """The offset of the bracket that nests *text* past MAX_DEPTH, or None.

    The contract's depth limit holds in every format. Finding it before
    json.loads reads the text also keeps the reader out of deep recursion,
    where Python's own limit would refuse at a depth of its choosing.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        c = match.group()
        if c == '"':  # the reader stops in this string, before any bracket after it
            return None
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return match.start()
        elif c in "]}":
            depth -= 1
    return None


def _too_deep_error(text: str, at: int) -> DecodeError:
    """The refusal of *text* at offset *at*, the bracket that nests it past MAX_DEPTH."""
    line = text.count("\n", 0, at) + 1
    column = at - text.rfind("\n", 0, at)
    message = f"document is nested deeper than {MAX_DEPTH} levels"
    return DecodeError([Violation("", message, line, column, code=LIMIT)])


def read_json(
    data: Data | str, *, collect: bool = False
) -> tuple[taskspec_pb2.TaskSpec, list[Violation]]:
    """The TaskSpec a proto3 JSON document holds, not validated, and its decode problems.

    Without *collect* the first decode problem is raised. With it, an
    unknown key, a field given twice and a value of the wrong type are
    returned and left out of the spec, so that every one of them is found in
    one run; JSON that cannot be read is still raised, alone.
    """
    data = require_document(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        offset = err.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        raise DecodeError(
            [
                Violation(
                    "",
                    f"input is not valid UTF-8 (byte 0x{data[offset]:02x} at offset {offset})",
                    code=ENCODING,
                )
            ]
        ) from None

    # Past the depth limit only the text before the bracket that goes past
    # it is read: a problem there comes first, as in a reader that stops at
    # the bracket.
    too_deep = _too_deep_at(text)
    try:
        obj = json.loads(
            text if too_deep is None else text[:too_deep],
            object_pairs_hook=_no_duplicates,
            parse_constant=_no_constants,
            parse_int=_json_integer,
            parse_float=_WrittenFloat,
        )
    except json.JSONDecodeError as err:
        pos = _json_stop(err.msg, text, err.pos)
        if too_deep is not None and pos >= too_deep:
            raise _too_deep_error(text, too_deep) from None
        line = text.count("\n", 0, pos) + 1
        column = pos - text.rfind("\n", 0, pos)
        raise DecodeError(
            [
                Violation(
                    "",
                    _json_message(err.msg, text, pos),
                    line,
                    column,
                    code=JSON_SYNTAX,
                )
            ]
        ) from None
    except _JSONValueError as err:
        raise _json_error(str(err)) from None
    if too_deep is not None:  # the cut text always ends inside a bracket
        raise _too_deep_error(text, too_deep)
    if not isinstance(obj, dict):
        raise DecodeError(
            [
                Violation(
                    "",
                    f"expected a JSON object at the top, got {_json_kind(obj)}",
                    code=WRONG_TYPE,
                )
            ]
        )
    problems: list[Violation] = []
    _check_fields(obj, cast(Descriptor, taskspec_pb2.TaskSpec.DESCRIPTOR), "", problems, collect)

    spec = taskspec_pb2.TaskSpec()
    try:
        json_format.ParseDict(obj, spec, ignore_unknown_fields=False)
    except (json_format.Error, TypeError, ValueError) as err:  # pragma: no cover - checked above
        where = _json_format_path(err) or "the document"
        v = Violation(
            "", f"invalid TaskSpec JSON: a value of {where} cannot be read", code=WRONG_TYPE
        )
        if not collect:
            raise DecodeError([v]) from None
        problems.append(v)
        spec = taskspec_pb2.TaskSpec()
    return spec, problems


def _json_error(reason: str) -> DecodeError:
    return DecodeError([Violation("", f"invalid JSON: {reason}", code=JSON_SYNTAX)])


#: Python's json messages, by their start, as the catalogue words them.
_JSON_MESSAGES: Final = (
    ("Expecting value", "expected a value"),
    ("Expecting property name", "expected a property name in double quotes"),
    ("Expecting ':'", "expected ':'"),
    ("Unterminated string", "a string is not closed"),
    ("Invalid control character", "a control character must be escaped in a string"),
    ("Invalid \\", "unknown escape in a string"),
    ("Extra data", "text after the end of the document"),
    ("Illegal trailing comma before end of object", "expected a property name in double quotes"),
    ("Illegal trailing comma before end of array", "expected a value"),
    # A second byte order mark: no value can start with one.
    ("Unexpected UTF-8 BOM", "expected a value"),
)


def _json_stop(msg: str, text: str, pos: int) -> int:
    """The offset where the contract places Python's json problem *msg*, reported at *pos*.

    Python 3.13 reports a trailing comma at the comma; earlier versions (and
    the Go library) at the closer after it, where the text stops being JSON.
    The contract's position is the closer, whatever Python runs it. A
    ``\\uXXXX`` escape without its four hex digits is reported at its ``u``;
    the contract's position is the escape's backslash.
    """
    if msg.startswith("Invalid \\uXXXX"):
        return pos - 1
    if msg.startswith("Illegal trailing comma"):
        after = pos + 1
        while after < len(text) and text[after] in " \t\r\n":
            after += 1
        return after
    return pos


def _json_message(msg: str, text: str, pos: int) -> str:
    """The catalogue's message for Python's json message *msg*, met at offset *pos* of *text*.

    A missing comma is worded by what it is missing in: the innermost
    array or object open at *pos*.
    """
    if msg.startswith("Expecting ',' delimiter"):
        closer = "]" if _open_at(text, pos) == "[" else "}"
        return f"invalid JSON: expected ',' or '{closer}'"
    for start, words in _JSON_MESSAGES:
        if msg.startswith(start):
            return f"invalid JSON: {words}"
    return "invalid JSON: the text cannot be read past this point"


def _open_at(text: str, pos: int) -> str:
    """The innermost bracket (``[`` or ``{``) still open at offset *pos* of *text*, or ""."""
    stack: list[str] = []
    for match in _JSON_TOKEN.finditer(text, 0, pos):
        c = match.group()
        if c in "[{":
            stack.append(c)
        elif c in "]}" and stack:
            stack.pop()
    return stack[-1] if stack else ""


def marshal_json(spec: taskspec_pb2.TaskSpec) -> bytes:
    """Proto3 JSON, ordered as Go's ``protojson.Marshal``; two-space indent, a final newline.

    Fields come in declaration order and the keys of every map in Go's key
    order, at every depth, so the bytes depend only on the spec. As proto3
    JSON specifies, int64 values are strings, enums are their proto names
    and fields at their default value are left out; an unset kg_query is
    absent while an empty one is ``{}``, so that distinction survives.
    """
    require_task_spec(spec)
    obj = go_json(spec, json_format.MessageToDict(spec))
    return (json.dumps(obj, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _one_line(text: str) -> str:
    return " ".join(text.split())


#: Most characters of an offending value (or of protobuf's own message,
#: which quotes the value whole) that a message carries.
_QUOTE_CHARS: Final = 80


def _clipped(text: str, limit: int = _QUOTE_CHARS) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


class _JSONValueError(ValueError):
    """JSON that json.loads would accept and misread.

    A repeated key (json.loads keeps the last one silently), or NaN and
    Infinity (which are not JSON at all).
    """


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of *pairs*, refusing a key given twice.

    Keys are compared with each lone surrogate read as U+FFFD, as a reader
    that decodes to UTF-8 (the Go library) reads them.
    """
    out: dict[str, Any] = {}
    seen: set[str] = set()
    for key, value in pairs:
        same = _as_decoded(key)
        if same in seen:
            raise _JSONValueError(f"duplicate key {_quoted(same)}")
        seen.add(same)
        out[key] = value
    return out


def _no_constants(name: str) -> NoReturn:
    raise _JSONValueError(f"{name} is not a JSON value")


class _LongInteger:
    """An integer literal of more digits than an int64 has, kept as its text.

    No field can hold it, so its value is never needed, only its text for
    the problem; and ``int()`` would take time quadratic in its length, and
    refuse it past ``sys.get_int_max_str_digits()`` digits.
    """

    __slots__ = ("negative", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.negative = text.startswith("-")


class _NegativeZero(int):
    """The integer literal ``-0``: the integer 0, which a message shows as written."""

    __slots__ = ()


class _WrittenFloat(float):
    """A JSON number with a fraction or an exponent, which keeps its text for messages.

    A message shows a number as the document writes it (``1E2``, not
    ``100.0``), so that it shows what the reader can find in the text, in
    both libraries alike.
    """

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> _WrittenFloat:
        number = super().__new__(cls, text)
        number.text = text
        return number


def _json_integer(text: str) -> int | _LongInteger:
    """A JSON integer literal: an int, or past 20 digits a :class:`_LongInteger`."""
    if len(text) > 21:
        return _LongInteger(text)
    return _NegativeZero() if text == "-0" else int(text)


def _number_text(value: object) -> str | None:
    """A JSON number's text as the document writes it, or None for any other value."""
    if isinstance(value, (_WrittenFloat, _LongInteger)):
        return value.text
    if isinstance(value, _NegativeZero):
        return "-0"
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _json_kind(value: object) -> str:
    """What a decoded JSON *value* is, for "expected X, got Y" messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float, _LongInteger)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, dict):
        return "an object"
    return "an array"


@cache
def _json_fields(desc: Descriptor) -> dict[str, FieldDescriptor]:
    """Both accepted JSON names of every field of *desc*."""
    names: dict[str, FieldDescriptor] = {}
    for fd in desc.fields:
        names[fd.name] = fd
        names[fd.json_name] = fd
    return names


def _check_fields(
    obj: dict[str, Any], desc: Descriptor, path: str, problems: list[Violation], collect: bool
) -> None:
    """Refuse unknown keys, one field given under both of its names, and values of a wrong type.

    json_format rejects unknown keys too, but its message names the proto
    types rather than the field path a person can look for, and its words
    for a value of the wrong type are the runtime's. It only compares keys
    as written, so ``{"taskId": "a", "task_id": "b"}`` would quietly become
    ``task_id: b``. A key at fault is removed from *obj* and its problem
    added to *problems*; without *collect* the first is raised.
    """
    fields = _json_fields(desc)
    seen: dict[str, str] = {}
    for key, value in list(obj.items()):
        fd = fields.get(key)
        problem: Violation | None = None
        if fd is None:
            shown = _as_decoded(key)
            problem = Violation(
                f"{path}.{shown}" if path else shown,
                f"unknown field {_quoted(shown)}{f' in {path}' if path else ''}",
                hint=_unknown_key_hint(shown, desc),
                code=UNKNOWN_KEY,
            )
        else:
            field_path = f"{path}.{fd.name}" if path else fd.name
            if fd.name in seen:
                problem = Violation(
                    field_path,
                    f"field {field_path} is given twice, as {_quoted(seen[fd.name])}"
                    f" and {_quoted(key)}",
                    code=DUPLICATE_KEY,
                )
            else:
                seen[fd.name] = key
                problem = _check_value(fd, value, field_path, problems, collect)
        if problem is not None:
            del obj[key]
            if not collect:
                raise DecodeError([problem])
            problems.append(problem)


def _unknown_key_hint(key: str, desc: Descriptor) -> str:
    """The field an unknown JSON *key* most likely misspells, or every field of *desc*.

    The guess is made among the proto field names, as for a YAML key, so a
    misspelling gets the same guess in both formats; the hint names the
    field by its JSON name, the one a JSON writer uses (both are read).
    """
    guess = suggest(key, [f.name for f in desc.fields])
    if guess is not None:
        return f"did you mean {go_quote(desc.fields_by_name[guess].json_name)}?"
    return "expected one of: " + ", ".join(f.json_name for f in desc.fields)


def _check_value(
    fd: FieldDescriptor, value: Any, path: str, problems: list[Violation], collect: bool
) -> Violation | None:
    """The problem of *value* for field *fd*, or None; message values are checked in turn."""
    if value is None:
        return None  # proto3 JSON: null is the field's default
    if is_map(fd):
        if not isinstance(value, dict):
            return _wrong(path, "an object", value)
        value_fd = cast(Descriptor, fd.message_type).fields_by_name["value"]
        for k, item in value.items():
            surrogate = _surrogate_problem(k, path)
            if surrogate is not None:
                return surrogate
            wrong = _scalar_problem(value_fd, item, f"{path}[{go_quote(k)}]")
            if wrong is not None:
                return wrong
        return None
    if fd.is_repeated:
        if not isinstance(value, list):
            return _wrong(path, "an array", value)
        for i, item in enumerate(value):
            wrong = _item_problem(fd, item, f"{path}[{i}]", problems, collect)
            if wrong is not None:
                return wrong
        return None
    return _item_problem(fd, value, path, problems, collect)


def _item_problem(
    fd: FieldDescriptor, value: Any, path: str, problems: list[Violation], collect: bool
) -> Violation | None:
    if fd.message_type is None:
        return _scalar_problem(fd, value, path)
    if not isinstance(value, dict):
        return Violation(
            path, f"{path}: expected an object, got {_json_kind(value)}", code=WRONG_TYPE
        )
    _check_fields(value, fd.message_type, path, problems, collect)
    return None


_INTEGER_TEXT: Final = re.compile(r"-?(?:0|[1-9][0-9]*)")
#: A lone surrogate, which a JSON escape (``"\\ud800"``) can write and UTF-8 cannot.
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_INT_RANGES: Final = {
    FieldDescriptor.TYPE_INT64: (INT64_MIN, INT64_MAX, "int64"),
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1, "int32"),
}


def _scalar_problem(fd: FieldDescriptor, value: Any, path: str) -> Violation | None:
    """The problem of a string, integer or enum *value* for field *fd*, or None."""
    if fd.type == FieldDescriptor.TYPE_STRING:
        if not isinstance(value, str):
            return _wrong(path, "a string", value)
        return _surrogate_problem(value, path)
    if fd.enum_type is not None:
        if isinstance(value, str):
            # Before the lookup: the runtime cannot even encode such a name.
            surrogate = _surrogate_problem(value, path)
            if surrogate is not None:
                return surrogate
            if value in fd.enum_type.values_by_name:
                return None
            return Violation(
                path,
                f"{path}: expected a {fd.enum_type.full_name} value name,"
                f" got the string {_quoted(value)}",
                hint="expected one of: " + ", ".join(v.name for v in fd.enum_type.values),
                code=WRONG_TYPE,
            )
        if isinstance(value, int) and not isinstance(value, bool) and -(2**31) <= value < 2**31:
            return None
        return _wrong(path, "an enum value name", value)
    low, high, name = _INT_RANGES.get(fd.type, _INT_RANGES[FieldDescriptor.TYPE_INT64])
    number: int | None = None
    if isinstance(value, bool):
        number = None
    elif isinstance(value, int):
        number = value
    elif isinstance(value, _LongInteger):
        number, value = (low - 1 if value.negative else high + 1), value.text
    elif isinstance(value, str) and _INTEGER_TEXT.fullmatch(value):
        # Past 20 digits no integer field can hold it; int() would refuse
        # past 4,300.
        number = int(value) if len(value) <= 21 else high + 1
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    if number is None:
        return _wrong(path, "an integer", value)
    if not low <= number <= high:
        shown = value if isinstance(value, str) else _number_text(value) or str(number)
        return Violation(
            path, f"{path}: integer {_quoted(shown)} is out of the {name} range", code=WRONG_TYPE
        )
    return None


def _as_decoded(key: str) -> str:
    """*key* with each lone surrogate as U+FFFD: as a reader that decodes to UTF-8 reads it.

    A lone surrogate cannot be written out, and the Go library reads it so.
    """
    return _SURROGATE.sub("\ufffd", key)


def _surrogate_problem(text: str, path: str) -> Violation | None:
    """The problem of a string (a value, an enum's name or a map's key) at *path* that holds
    a lone surrogate, which UTF-8 cannot carry; None for any other string."""
    surrogate = _SURROGATE.search(text)
    if surrogate is None:
        return None
    return Violation(
        path,
        f"{path}: the string holds a lone surrogate"
        f" ({go_quote(surrogate.group()).strip(chr(34))}), which UTF-8 cannot carry",
        code=ENCODING,
    )


def _wrong(path: str, expected: str, value: Any) -> Violation:
    return Violation(
        path, f"{path}: expected {expected}, got {_json_shown(value)}", code=WRONG_TYPE
    )


def _json_shown(value: Any) -> str:
    """*value* for a message: its kind, and a string's or number's text."""
    if isinstance(value, str):
        return f"the string {_quoted(_as_decoded(value))}"
    number = _number_text(value)
    if number is not None:
        return f"the number {_clipped(number)}"
    return _json_kind(value)


def _quoted(text: str) -> str:
    """*text* quoted as Go's ``%q`` quotes it, cut past _QUOTE_CHARS characters."""
    if len(text) <= _QUOTE_CHARS:
        return go_quote(text)
    return f"{go_quote(text[:_QUOTE_CHARS])}... ({len(text)} characters)"


def _json_format_path(err: Exception) -> str:
    """The dotted field names json_format's message *err* nests its failure in ("" for none)."""
    text = _one_line(str(err))
    names: list[str] = []
    prefix, marker = "Failed to parse ", " field: "
    while text.startswith(prefix) and marker in text:
        name, _, text = text[len(prefix) :].partition(marker)
        names.append(name)
    return ".".join(names)
