"""Conversion between the three encodings of a TaskSpec.

The YAML sidecar is what people read and edit; the same record also crosses
process boundaries as binary protobuf and as proto3 JSON. All three carry
exactly the same information, so conversion is lossless: any valid spec
survives YAML -> JSON -> binary -> YAML byte for byte.

Two rules make the other formats as safe to read as the YAML one:

- Every input is validated against the same contract as a sidecar, so a
  conversion never launders an invalid document into another format.
- Bytes that are not a TaskSpec raise :class:`~taskspec.DecodeError` with
  a one-line message, and a spec that breaks a rule raises
  :class:`~taskspec.ValidationError`, as for YAML. No protobuf or ``json``
  exception escapes, because callers catch :class:`~taskspec.TaskSpecError`
  and nothing else.

Readers are strict where protobuf's own would lose data silently: unknown
fields are rejected in binary input too (protobuf would keep them as opaque
bytes that no YAML can carry), and a JSON object that names one field twice
(``taskId`` and ``task_id``) is rejected instead of keeping the last value.
Writers are deterministic and write what Go writes: binary as Go's
deterministic ``proto.Marshal`` and JSON as ``protojson`` orders it, with
every map, at any depth, in Go's key order. The fields and maps to order are
found by walking the message's own descriptors (see :mod:`taskspec._gowire`),
so a map added to the proto is written Go's way with no change here.
"""

from __future__ import annotations

import enum
import json
import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import PurePath
from typing import Any, Final, NoReturn, cast

from google.protobuf import json_format
from google.protobuf import message as pb_message
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.unknown_fields import UnknownFieldSet

from taskspec import _validate
from taskspec._api import marshal_yaml, parse_task_spec
from taskspec._codes import (
    BINARY_SYNTAX,
    DUPLICATE_KEY,
    ENCODING,
    JSON_SYNTAX,
    LIMIT,
    UNKNOWN_KEY,
    UNSUPPORTED_FORMAT,
    WRONG_TYPE,
)
from taskspec._errors import (
    DecodeError,
    TaskSpecError,
    Violation,
    require_document,
    require_task_spec,
)
from taskspec._forms_gen import (
    HINT_UNKNOWN_KEY_DID_YOU_MEAN,
    HINT_UNKNOWN_KEY_ONE_OF,
    HINT_UNSUPPORTED_FORMAT_ONE_OF,
    HINT_WRONG_TYPE_ONE_OF,
    MSG_BINARY_SYNTAX_REASON,
    MSG_DUPLICATE_KEY_FIELD_TWICE,
    MSG_ENCODING_LONE_SURROGATE,
    MSG_ENCODING_NOT_UTF8,
    MSG_JSON_SYNTAX_ARRAY_END,
    MSG_JSON_SYNTAX_COLON,
    MSG_JSON_SYNTAX_CONTROL,
    MSG_JSON_SYNTAX_ESCAPE,
    MSG_JSON_SYNTAX_OBJECT_END,
    MSG_JSON_SYNTAX_PROPERTY_NAME,
    MSG_JSON_SYNTAX_REASON,
    MSG_JSON_SYNTAX_STOPPED,
    MSG_JSON_SYNTAX_STRING_NOT_CLOSED,
    MSG_JSON_SYNTAX_TEXT_AFTER_DOCUMENT,
    MSG_JSON_SYNTAX_VALUE,
    MSG_LIMIT_DEPTH,
    MSG_UNKNOWN_KEY_IN_PARENT,
    MSG_UNKNOWN_KEY_PLAIN,
    MSG_UNKNOWN_KEY_WIRE_NUMBER,
    MSG_UNKNOWN_KEY_WIRE_NUMBER_IN,
    MSG_UNSUPPORTED_FORMAT_PLAIN,
    MSG_WRONG_TYPE_ENUM_NAME,
    MSG_WRONG_TYPE_EXPECTED,
    MSG_WRONG_TYPE_JSON_INTEGER_RANGE,
    MSG_WRONG_TYPE_JSON_TOP,
    MSG_WRONG_TYPE_JSON_VALUE,
    MSG_WRONG_TYPE_WIRE_TYPE,
    REASON_BINARY_SYNTAX_FIELD_ZERO,
    REASON_BINARY_SYNTAX_FIXED32_CUT,
    REASON_BINARY_SYNTAX_FIXED64_CUT,
    REASON_BINARY_SYNTAX_GROUP,
    REASON_BINARY_SYNTAX_LENGTH_CUT,
    REASON_BINARY_SYNTAX_NO_WIRE_TYPE,
    REASON_BINARY_SYNTAX_NOT_PROTOBUF,
    REASON_BINARY_SYNTAX_NOT_UTF8,
    REASON_BINARY_SYNTAX_TAG_CUT,
    REASON_BINARY_SYNTAX_TOO_DEEP,
    REASON_BINARY_SYNTAX_TOO_LONG,
    REASON_BINARY_SYNTAX_VARINT_CUT,
    REASON_JSON_SYNTAX_DUPLICATE_KEY,
    REASON_JSON_SYNTAX_NOT_A_VALUE,
    REASON_UNSUPPORTED_FORMAT_NO_EXTENSION,
    WORD_A_BOOLEAN,
    WORD_A_NUMBER,
    WORD_A_STRING,
    WORD_AN_ARRAY,
    WORD_AN_ENUM_NAME,
    WORD_AN_INTEGER,
    WORD_AN_OBJECT,
    WORD_CLIPPED,
    WORD_NULL,
    WORD_NUMBER,
    WORD_OR_PACKED,
    WORD_STRING,
    WORD_WIRE_BYTES,
    WORD_WIRE_FIXED32,
    WORD_WIRE_FIXED64,
    WORD_WIRE_GROUP_END,
    WORD_WIRE_GROUP_START,
    WORD_WIRE_VARINT,
)
from taskspec._gowire import go_binary, go_json, is_map
from taskspec._limits import MAX_DEPTH
from taskspec._suggest import suggest
from taskspec._words import render
from taskspec._writable import check_nodes, check_size
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import taskspec_pb2

__all__ = [
    "Format",
    "convert",
    "format_for_path",
    "marshal",
    "marshal_binpb",
    "marshal_json",
    "parse",
    "parse_binpb",
    "parse_json",
]

Data = bytes | bytearray | memoryview


class Format(enum.StrEnum):
    """An encoding of a TaskSpec; the value is the name the command line uses."""

    #: Canonical YAML, byte-identical to the Go package's ``MarshalYAML``.
    YAML = "yaml"
    #: Proto3 JSON with the standard lowerCamelCase field names.
    JSON = "json"
    #: Binary protobuf, serialized deterministically.
    BINPB = "binpb"


_EXTENSIONS = {
    ".yaml": Format.YAML,
    ".yml": Format.YAML,
    ".json": Format.JSON,
    ".binpb": Format.BINPB,
    ".pb": Format.BINPB,
}


def format_for_path(path: str | os.PathLike[str]) -> Format | None:
    """The format a file name's extension names (case-insensitive), or None."""
    return _EXTENSIONS.get(PurePath(path).suffix.lower())


def file_format(path: str | os.PathLike[str], fmt: Format | str | None = None) -> Format:
    """The format :func:`taskspec.load` and :func:`taskspec.save` read and write *path* in.

    *fmt* when given (an unknown name is a :class:`~taskspec.TaskSpecError`),
    else the one the extension names (:func:`format_for_path`). A name whose
    extension names no format is a :class:`~taskspec.TaskSpecError` with
    code TS903 whose hint lists the extensions, in the Go library's words
    (its ``FormatError``).
    """
    if fmt is not None:
        return _format(fmt)
    found = format_for_path(path)
    if found is not None:
        return found
    name = os.fspath(path).rstrip("/")
    name = os.path.basename(name) if name else os.fspath(path)[:1] or "."
    raise TaskSpecError(
        [
            Violation(
                "",
                render(
                    MSG_UNSUPPORTED_FORMAT_PLAIN,
                    reason=render(REASON_UNSUPPORTED_FORMAT_NO_EXTENSION, name=go_quote(name)),
                ),
                hint=render(HINT_UNSUPPORTED_FORMAT_ONE_OF, extensions=", ".join(_EXTENSIONS)),
                code=UNSUPPORTED_FORMAT,
            )
        ]
    )


# -- reading -------------------------------------------------------------------


def parse(data: Data | str, fmt: Format | str) -> taskspec_pb2.TaskSpec:
    """Decode *data* in format *fmt* and validate it, as :func:`taskspec.parse_task_spec` does.

    *fmt* is a :class:`Format` or its name; an unknown name is a
    :class:`~taskspec.TaskSpecError`. Binary protobuf must be bytes.
    """
    match _format(fmt):
        case Format.YAML:
            return parse_task_spec(data)
        case Format.JSON:
            return parse_json(data)
        case Format.BINPB:
            if isinstance(data, str):
                raise DecodeError("binary protobuf must be bytes, got str")
            return parse_binpb(data)


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
    message = render(MSG_LIMIT_DEPTH, n=MAX_DEPTH)
    return DecodeError([Violation("", message, line, column, code=LIMIT)])


def parse_json(data: Data | str) -> taskspec_pb2.TaskSpec:
    """Decode a proto3 JSON TaskSpec strictly, then validate it.

    Both the lowerCamelCase names and the proto field names are accepted,
    as proto3 JSON requires; unknown fields, duplicate keys, a field given
    under both of its names, and anything but an object at the top are
    rejected. A UTF-8 byte order mark is allowed. A failure raises every
    problem of the document (see :func:`taskspec.check`), the first the
    one a reader that stops at one meets.
    """
    try:
        spec, _ = read_json(data)
    except TaskSpecError as err:
        _raise_all(err.violations[0], data, Format.JSON)
    broken = _validate.check(spec)
    if broken:
        _raise_all(broken[0], data, Format.JSON)
    return spec


def _raise_all(first: Violation, data: Data | str, fmt: Format) -> NoReturn:
    """Raise every problem of *data*, *first* (the fast reader's) first."""
    from taskspec._check import raise_all  # noqa: PLC0415 - only a failure needs it

    raise_all(first, data, fmt)


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
                    render(MSG_ENCODING_NOT_UTF8, byte=f"0x{data[offset]:02x}", offset=offset),
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
                    render(MSG_WRONG_TYPE_JSON_TOP, got=_json_kind(obj)),
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
        v = Violation("", render(MSG_WRONG_TYPE_JSON_VALUE, path=where), code=WRONG_TYPE)
        if not collect:
            raise DecodeError([v]) from None
        problems.append(v)
        spec = taskspec_pb2.TaskSpec()
    return spec, problems


def _json_error(reason: str) -> DecodeError:
    return DecodeError(
        [Violation("", render(MSG_JSON_SYNTAX_REASON, reason=reason), code=JSON_SYNTAX)]
    )


#: Python's json messages, by their start, as the catalogue words them.
_JSON_MESSAGES: Final = (
    ("Expecting value", MSG_JSON_SYNTAX_VALUE),
    ("Expecting property name", MSG_JSON_SYNTAX_PROPERTY_NAME),
    ("Expecting ':'", MSG_JSON_SYNTAX_COLON),
    ("Unterminated string", MSG_JSON_SYNTAX_STRING_NOT_CLOSED),
    ("Invalid control character", MSG_JSON_SYNTAX_CONTROL),
    ("Invalid \\", MSG_JSON_SYNTAX_ESCAPE),
    ("Extra data", MSG_JSON_SYNTAX_TEXT_AFTER_DOCUMENT),
    ("Illegal trailing comma before end of object", MSG_JSON_SYNTAX_PROPERTY_NAME),
    ("Illegal trailing comma before end of array", MSG_JSON_SYNTAX_VALUE),
    # A second byte order mark: no value can start with one.
    ("Unexpected UTF-8 BOM", MSG_JSON_SYNTAX_VALUE),
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
        in_array = _open_at(text, pos) == "["
        return render(MSG_JSON_SYNTAX_ARRAY_END if in_array else MSG_JSON_SYNTAX_OBJECT_END)
    for start, form in _JSON_MESSAGES:
        if msg.startswith(start):
            return render(form)
    return render(MSG_JSON_SYNTAX_STOPPED)


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


def parse_binpb(data: Data) -> taskspec_pb2.TaskSpec:
    """Decode a binary protobuf TaskSpec, reject unknown fields, then validate it.

    A known field with the wrong wire type (a string sent as a varint) is
    refused, naming the field; protobuf would keep it aside as an unknown
    field. A singular field that occurs more than once keeps its last value
    (and a message field merges its occurrences), as the protobuf encoding
    specifies and every protobuf library, Go's included, does. A failure
    raises every problem of the data (see :func:`taskspec.check`).
    """
    try:
        spec, _ = read_binpb(data)
    except TaskSpecError as err:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise
        _raise_all(err.violations[0], data, Format.BINPB)
    broken = _validate.check(spec)
    if broken:
        _raise_all(broken[0], data, Format.BINPB)
    return spec


def read_binpb(
    data: Data, *, collect: bool = False
) -> tuple[taskspec_pb2.TaskSpec, list[Violation]]:
    """The TaskSpec binary protobuf *data* holds, not validated, and its decode problems.

    Without *collect* the first is raised; with it, every unknown field and
    field of the wrong wire type is returned (data that is not protobuf at
    all is still raised, alone).
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise DecodeError(f"expected bytes, got {type(data).__name__}")
    data = require_document(data)
    spec = taskspec_pb2.TaskSpec()
    try:
        spec.ParseFromString(data)
    except pb_message.Error:
        raise DecodeError(
            [
                Violation(
                    "",
                    render(MSG_BINARY_SYNTAX_REASON, reason=_binpb_reason(data)),
                    code=BINARY_SYNTAX,
                )
            ]
        ) from None
    problems: list[Violation] = []
    for path, number, message_name, wire_type in _unknown_fields(spec, ""):
        known = _field_by_number(message_name, number)
        if known is not None:
            field_path = f"{path}.{known.name}" if path else known.name
            got = render(_WIRE_TYPES[wire_type]) if wire_type in _WIRE_TYPES else str(wire_type)
            message = render(
                MSG_WRONG_TYPE_WIRE_TYPE,
                path=field_path,
                n=number,
                got=got,
                want=_expected_wire(known),
            )
            v = Violation(field_path, message, code=WRONG_TYPE)
        else:
            message = (
                render(MSG_UNKNOWN_KEY_WIRE_NUMBER_IN, n=number, path=path, wire=message_name)
                if path
                else render(MSG_UNKNOWN_KEY_WIRE_NUMBER, n=number, wire=message_name)
            )
            v = Violation(path, message, code=UNKNOWN_KEY)
        if not collect:
            raise DecodeError([v])
        problems.append(v)
    return spec, problems


def _binpb_reason(data: bytes) -> str:
    """Why *data*, which protobuf refused, is not a TaskSpec, in the catalogue's words.

    protobuf says only that the wire format was corrupt; the first field
    that cannot be read is found by walking the encoding here.
    """
    desc = cast(Descriptor, taskspec_pb2.TaskSpec.DESCRIPTOR)
    return _wire_problem(data, desc, "", 0) or render(REASON_BINARY_SYNTAX_NOT_PROTOBUF)


def _wire_problem(data: bytes, desc: Descriptor, path: str, depth: int) -> str:
    """The first problem of the wire encoding of a *desc* message at *path*, or ""."""
    if depth > 100:
        return render(REASON_BINARY_SYNTAX_TOO_DEEP)
    at = 0
    end = len(data)
    while at < end:
        tag, at = _varint(data, at)
        if tag is None:
            return render(REASON_BINARY_SYNTAX_TAG_CUT)
        number, wire = tag >> 3, tag & 7
        if number == 0:
            return render(REASON_BINARY_SYNTAX_FIELD_ZERO)
        fd = desc.fields_by_number.get(number)
        name = (f"{path}.{fd.name}" if path else fd.name) if fd is not None else str(number)
        if wire == 0:
            value, at = _varint(data, at)
            if value is None:
                return render(REASON_BINARY_SYNTAX_VARINT_CUT, field=name)
        elif wire == 1:
            if at + 8 > end:
                return render(REASON_BINARY_SYNTAX_FIXED64_CUT, field=name)
            at += 8
        elif wire == 5:
            if at + 4 > end:
                return render(REASON_BINARY_SYNTAX_FIXED32_CUT, field=name)
            at += 4
        elif wire == 2:
            size, at = _varint(data, at)
            if size is None:
                return render(REASON_BINARY_SYNTAX_LENGTH_CUT, field=name)
            if at + size > end:
                return render(REASON_BINARY_SYNTAX_TOO_LONG, field=name)
            body = data[at : at + size]
            at += size
            if fd is not None and fd.message_type is not None:
                problem = _wire_problem(body, fd.message_type, name, depth + 1)
                if problem:
                    return problem
            elif fd is not None and fd.type == FieldDescriptor.TYPE_STRING:
                try:
                    body.decode("utf-8")
                except UnicodeDecodeError:
                    return render(REASON_BINARY_SYNTAX_NOT_UTF8, field=name)
        elif wire in (3, 4):
            return render(REASON_BINARY_SYNTAX_GROUP, field=name)
        else:
            return render(REASON_BINARY_SYNTAX_NO_WIRE_TYPE, field=name, n=wire)
    return ""


def _varint(data: bytes, at: int) -> tuple[int | None, int]:
    value = shift = 0
    while at < len(data) and shift < 70:
        b = data[at]
        at += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, at
        shift += 7
    return None, at


# -- writing -------------------------------------------------------------------


def marshal(spec: taskspec_pb2.TaskSpec, fmt: Format | str) -> bytes:
    """Write *spec* in format *fmt*. Like :func:`taskspec.marshal_yaml`, it does not validate.

    *fmt* is a :class:`Format` or its name; an unknown name, or a *spec*
    that is not a TaskSpec, is a :class:`~taskspec.TaskSpecError`.
    """
    match _format(fmt):
        case Format.YAML:
            return marshal_yaml(spec)
        case Format.JSON:
            return marshal_json(spec)
        case Format.BINPB:
            return marshal_binpb(spec)


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


def marshal_binpb(spec: taskspec_pb2.TaskSpec) -> bytes:
    """Binary protobuf, byte-identical to Go's ``proto.MarshalOptions{Deterministic: true}``.

    Fields come in field-number order, unknown fields last, and the entries
    of every map, at every depth, sorted by key as Go sorts them (which
    Python's own deterministic mode does not do for string keys).
    """
    require_task_spec(spec)
    return go_binary(spec)


def convert(data: Data | str, source: Format | str, target: Format | str) -> bytes:
    """Decode and validate *data* in format *source*, then write it in format *target*.

    The same as ``marshal(parse(data, source), target)``, except that output
    a reader would refuse is refused with a :class:`~taskspec.TaskSpecError`
    (see :mod:`taskspec._writable`): a spec within the limits in one format
    can be over them in another, as a JSON of 200,000 signals is YAML of
    400,000 nodes, or a prompt of 9 MiB of ``"`` is 18 MiB of JSON.
    """
    spec = parse(data, source)
    target = _format(target)
    if target is Format.YAML:
        # parse validated it, and Validate refuses YAML over the size limit (TS107).
        check_nodes(spec)
        return marshal_yaml(spec)
    return check_size(spec, marshal(spec, target), target.value)


# -- helpers -------------------------------------------------------------------


def _format(fmt: Format | str) -> Format:
    try:
        return Format(fmt)
    except ValueError:
        names = ", ".join(f.value for f in Format)
        shown = go_quote(fmt) if isinstance(fmt, str) else type(fmt).__name__
        raise TaskSpecError(
            [Violation("", f"unknown format {shown}", hint=f"expected one of: {names}")]
        ) from None


def _one_line(text: str) -> str:
    return " ".join(text.split())


#: Most characters of an offending value (or of protobuf's own message,
#: which quotes the value whole) that a message carries.
_QUOTE_CHARS: Final = 80


def _clipped(text: str, limit: int = _QUOTE_CHARS) -> str:
    return text if len(text) <= limit else render(WORD_CLIPPED, text=text[:limit], n=len(text))


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
            raise _JSONValueError(render(REASON_JSON_SYNTAX_DUPLICATE_KEY, key=_quoted(same)))
        seen.add(same)
        out[key] = value
    return out


def _no_constants(name: str) -> NoReturn:
    raise _JSONValueError(render(REASON_JSON_SYNTAX_NOT_A_VALUE, name=name))


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
        return render(WORD_NULL)
    if isinstance(value, bool):
        return render(WORD_A_BOOLEAN)
    if isinstance(value, (int, float, _LongInteger)):
        return render(WORD_A_NUMBER)
    if isinstance(value, str):
        return render(WORD_A_STRING)
    if isinstance(value, dict):
        return render(WORD_AN_OBJECT)
    return render(WORD_AN_ARRAY)


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
                render(MSG_UNKNOWN_KEY_IN_PARENT, key=_quoted(shown), parent=path)
                if path
                else render(MSG_UNKNOWN_KEY_PLAIN, key=_quoted(shown)),
                hint=_unknown_key_hint(shown, desc),
                code=UNKNOWN_KEY,
            )
        else:
            field_path = f"{path}.{fd.name}" if path else fd.name
            if fd.name in seen:
                problem = Violation(
                    field_path,
                    render(
                        MSG_DUPLICATE_KEY_FIELD_TWICE,
                        path=field_path,
                        first=_quoted(seen[fd.name]),
                        second=_quoted(key),
                    ),
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
        return render(
            HINT_UNKNOWN_KEY_DID_YOU_MEAN, key=go_quote(desc.fields_by_name[guess].json_name)
        )
    return render(HINT_UNKNOWN_KEY_ONE_OF, fields=", ".join(f.json_name for f in desc.fields))


def _check_value(
    fd: FieldDescriptor, value: Any, path: str, problems: list[Violation], collect: bool
) -> Violation | None:
    """The problem of *value* for field *fd*, or None; message values are checked in turn."""
    if value is None:
        return None  # proto3 JSON: null is the field's default
    if is_map(fd):
        if not isinstance(value, dict):
            return _wrong(path, render(WORD_AN_OBJECT), value)
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
            return _wrong(path, render(WORD_AN_ARRAY), value)
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
        message = render(
            MSG_WRONG_TYPE_EXPECTED, path=path, want=render(WORD_AN_OBJECT), got=_json_kind(value)
        )
        return Violation(path, message, code=WRONG_TYPE)
    _check_fields(value, fd.message_type, path, problems, collect)
    return None


_INTEGER_TEXT: Final = re.compile(r"-?(?:0|[1-9][0-9]*)")
#: A lone surrogate, which a JSON escape (``"\\ud800"``) can write and UTF-8 cannot.
_SURROGATE: Final = re.compile("[\ud800-\udfff]")
_INT_RANGES: Final = {
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1, "int64"),
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1, "int32"),
}


def _scalar_problem(fd: FieldDescriptor, value: Any, path: str) -> Violation | None:
    """The problem of a string, integer or enum *value* for field *fd*, or None."""
    if fd.type == FieldDescriptor.TYPE_STRING:
        if not isinstance(value, str):
            return _wrong(path, render(WORD_A_STRING), value)
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
                render(
                    MSG_WRONG_TYPE_ENUM_NAME,
                    path=path,
                    enum=fd.enum_type.full_name,
                    value=_quoted(value),
                ),
                hint=render(
                    HINT_WRONG_TYPE_ONE_OF, values=", ".join(v.name for v in fd.enum_type.values)
                ),
                code=WRONG_TYPE,
            )
        if isinstance(value, int) and not isinstance(value, bool) and -(2**31) <= value < 2**31:
            return None
        return _wrong(path, render(WORD_AN_ENUM_NAME), value)
    low, high, name = _INT_RANGES.get(fd.type, (-(2**63), 2**63 - 1, "int64"))
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
        return _wrong(path, render(WORD_AN_INTEGER), value)
    if not low <= number <= high:
        shown = value if isinstance(value, str) else _number_text(value) or str(number)
        message = render(
            MSG_WRONG_TYPE_JSON_INTEGER_RANGE, path=path, value=_quoted(shown), type=name
        )
        return Violation(path, message, code=WRONG_TYPE)
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
        render(
            MSG_ENCODING_LONE_SURROGATE,
            path=path,
            value=go_quote(surrogate.group()).strip(chr(34)),
        ),
        code=ENCODING,
    )


def _wrong(path: str, expected: str, value: Any) -> Violation:
    message = render(MSG_WRONG_TYPE_EXPECTED, path=path, want=expected, got=_json_shown(value))
    return Violation(path, message, code=WRONG_TYPE)


def _json_shown(value: Any) -> str:
    """*value* for a message: its kind, and a string's or number's text."""
    if isinstance(value, str):
        return render(WORD_STRING, value=_quoted(_as_decoded(value)))
    number = _number_text(value)
    if number is not None:
        return render(WORD_NUMBER, value=_clipped(number))
    return _json_kind(value)


def _quoted(text: str) -> str:
    """*text* quoted as Go's ``%q`` quotes it, cut past _QUOTE_CHARS characters."""
    if len(text) <= _QUOTE_CHARS:
        return go_quote(text)
    return render(WORD_CLIPPED, text=go_quote(text[:_QUOTE_CHARS]), n=len(text))


def _json_format_path(err: Exception) -> str:
    """The dotted field names json_format's message *err* nests its failure in ("" for none)."""
    text = _one_line(str(err))
    names: list[str] = []
    prefix, marker = "Failed to parse ", " field: "
    while text.startswith(prefix) and marker in text:
        name, _, text = text[len(prefix) :].partition(marker)
        names.append(name)
    return ".".join(names)


#: The wire types of the protobuf encoding, as messages name them.
_WIRE_TYPES: Final = {
    0: WORD_WIRE_VARINT,
    1: WORD_WIRE_FIXED64,
    2: WORD_WIRE_BYTES,
    3: WORD_WIRE_GROUP_START,
    4: WORD_WIRE_GROUP_END,
    5: WORD_WIRE_FIXED32,
}


def _field_by_number(message_name: str, number: int) -> FieldDescriptor | None:
    """The field numbered *number* of the message named *message_name*, if it has one."""
    from google.protobuf import descriptor_pool  # noqa: PLC0415

    desc = descriptor_pool.Default().FindMessageTypeByName(message_name)
    return desc.fields_by_number.get(number)


def _expected_wire(fd: FieldDescriptor) -> str:
    if fd.type in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES) or (
        fd.message_type is not None
    ):
        return render(_WIRE_TYPES[2])
    if fd.type in (
        FieldDescriptor.TYPE_DOUBLE,
        FieldDescriptor.TYPE_FIXED64,
        FieldDescriptor.TYPE_SFIXED64,
    ):
        expected = render(_WIRE_TYPES[1])
    elif fd.type in (
        FieldDescriptor.TYPE_FLOAT,
        FieldDescriptor.TYPE_FIXED32,
        FieldDescriptor.TYPE_SFIXED32,
    ):
        expected = render(_WIRE_TYPES[5])
    else:
        expected = render(_WIRE_TYPES[0])
    # A repeated scalar may also come packed, length-delimited.
    return render(WORD_OR_PACKED, want=expected) if fd.is_repeated else expected


def _unknown_fields(msg: pb_message.Message, path: str) -> Iterator[tuple[str, int, str, int]]:
    """(field path, field number, message name, wire type) of every unknown field, depth first."""
    unknown = UnknownFieldSet(msg)
    for i in range(len(unknown)):
        yield path, unknown[i].field_number, msg.DESCRIPTOR.full_name, unknown[i].wire_type
    for fd, value in msg.ListFields():
        if fd.message_type is None:
            continue
        sub = f"{path}.{fd.name}" if path else fd.name
        if is_map(fd):
            if fd.message_type.fields_by_name["value"].message_type is not None:
                for key in sorted(value):
                    yield from _unknown_fields(value[key], f"{sub}[{go_quote(key)}]")
        elif fd.is_repeated:
            for i, item in enumerate(value):
                yield from _unknown_fields(item, f"{sub}[{i}]")
        else:
            yield from _unknown_fields(value, sub)
