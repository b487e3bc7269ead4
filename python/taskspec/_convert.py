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
from taskspec._codes import DUPLICATE_KEY, UNKNOWN_KEY, WRONG_TYPE
from taskspec._errors import (
    DecodeError,
    TaskSpecError,
    Violation,
    require_document,
    require_task_spec,
)
from taskspec._gowire import go_binary, go_json, is_map
from taskspec._writable import check_nodes, check_size
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


#: Deepest nesting of JSON arrays and objects read, in every Python version
#: (3.11's json recursed, and refused about this deep; 3.13's does not), and
#: in the Go library, which refuses at the same depth in the same words.
_MAX_JSON_DEPTH: Final = 1000

#: A JSON string, or a bracket outside one.
_JSON_TOKEN: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _too_deep_at(text: str) -> int | None:
    """The offset of the bracket that nests *text* past _MAX_JSON_DEPTH, or None."""
    if text.count("[") + text.count("{") <= _MAX_JSON_DEPTH:
        return None
    depth = 0
    for match in _JSON_TOKEN.finditer(text):
        c = match.group()
        if c in "[{":
            depth += 1
            if depth > _MAX_JSON_DEPTH:
                return match.start()
        elif c in "]}":
            depth -= 1
    return None


def parse_json(data: Data | str) -> taskspec_pb2.TaskSpec:
    """Decode a proto3 JSON TaskSpec strictly, then validate it.

    Both the lowerCamelCase names and the proto field names are accepted,
    as proto3 JSON requires; unknown fields, duplicate keys, a field given
    under both of its names, and anything but an object at the top are
    rejected. A UTF-8 byte order mark is allowed.
    """
    data = require_document(data)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        offset = err.start + (3 if data.startswith(b"\xef\xbb\xbf") else 0)
        raise DecodeError(
            f"input is not valid UTF-8 (byte 0x{data[offset]:02x} at offset {offset})"
        ) from None

    too_deep = _too_deep_at(text)
    try:
        obj = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except json.JSONDecodeError as err:
        if too_deep is not None and err.pos >= too_deep:
            raise DecodeError("invalid JSON: nested too deeply") from None
        raise DecodeError(
            [Violation("", f"invalid JSON: {err.msg}", err.lineno, err.colno)]
        ) from None
    except _JSONValueError as err:
        raise DecodeError(f"invalid JSON: {err}") from None
    except RecursionError:
        raise DecodeError("invalid JSON: nested too deeply") from None
    except ValueError:  # only an integer literal too long for int() is left
        raise DecodeError("invalid JSON: a number has too many digits") from None
    if too_deep is not None:
        raise DecodeError("invalid JSON: nested too deeply")
    if not isinstance(obj, dict):
        raise DecodeError(f"expected a JSON object at the top, got {_json_kind(obj)}")
    _check_fields(obj, cast(Descriptor, taskspec_pb2.TaskSpec.DESCRIPTOR), "")

    spec = taskspec_pb2.TaskSpec()
    try:
        json_format.ParseDict(obj, spec, ignore_unknown_fields=False)
    except json_format.Error as err:
        raise DecodeError(f"invalid TaskSpec JSON: {_json_format_reason(err)}") from None
    _validate.validate(spec)
    return spec


def parse_binpb(data: Data) -> taskspec_pb2.TaskSpec:
    """Decode a binary protobuf TaskSpec, reject unknown fields, then validate it.

    A known field with the wrong wire type (a string sent as a varint) is
    refused, naming the field; protobuf would keep it aside as an unknown
    field. A singular field that occurs more than once keeps its last value
    (and a message field merges its occurrences), as the protobuf encoding
    specifies and every protobuf library, Go's included, does.
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise DecodeError(f"expected bytes, got {type(data).__name__}")
    data = require_document(data)
    spec = taskspec_pb2.TaskSpec()
    try:
        spec.ParseFromString(data)
    except pb_message.Error as err:
        raise DecodeError(f"invalid binary TaskSpec: {_reason(err)}") from None
    for path, number, message_name, wire_type in _unknown_fields(spec, ""):
        where = f" in {path}" if path else ""
        known = _field_by_number(message_name, number)
        if known is not None:
            field_path = f"{path}.{known.name}" if path else known.name
            raise DecodeError(
                [
                    Violation(
                        field_path,
                        f"wrong wire type for field {field_path} (number {number}):"
                        f" {_WIRE_TYPES.get(wire_type, str(wire_type))}, where"
                        f" {_expected_wire(known)} was expected",
                    )
                ]
            )
        raise DecodeError(
            [
                Violation(
                    path,
                    f"unknown field number {number}{where} ({message_name}): "
                    "the data is not a TaskSpec v1 or was written by a newer schema",
                )
            ]
        )
    _validate.validate(spec)
    return spec


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
        check_nodes(spec)
    return check_size(spec, marshal(spec, target), target.value)


# -- helpers -------------------------------------------------------------------


def _format(fmt: Format | str) -> Format:
    try:
        return Format(fmt)
    except ValueError:
        names = ", ".join(f.value for f in Format)
        raise TaskSpecError(f"unknown format {fmt!r}; expected one of: {names}") from None


def _one_line(text: str) -> str:
    return " ".join(text.split())


#: Most characters of an offending value (or of protobuf's own message,
#: which quotes the value whole) that a message carries.
_QUOTE_CHARS: Final = 80


def _clipped(text: str, limit: int = _QUOTE_CHARS) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def _json_quote(key: str) -> str:
    """*key* as JSON for a message, cut past _QUOTE_CHARS characters."""
    if len(key) <= _QUOTE_CHARS:
        return json.dumps(key, ensure_ascii=False)
    return f"{json.dumps(key[:_QUOTE_CHARS], ensure_ascii=False)}... ({len(key)} characters)"


def _reason(err: Exception) -> str:
    # upb's messages name the message type first; the reason follows the colon.
    text = _one_line(str(err))
    _, sep, rest = text.partition("': ")
    return rest if sep else text


class _JSONValueError(ValueError):
    """JSON that json.loads would accept and misread.

    A repeated key (json.loads keeps the last one silently), or NaN and
    Infinity (which are not JSON at all).
    """


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _JSONValueError(f"duplicate key {_json_quote(key)}")
        out[key] = value
    return out


def _no_constants(name: str) -> NoReturn:
    raise _JSONValueError(f"{name} is not a JSON value")


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array"


@cache
def _json_fields(desc: Descriptor) -> dict[str, FieldDescriptor]:
    """Both accepted JSON names of every field of *desc*."""
    names: dict[str, FieldDescriptor] = {}
    for fd in desc.fields:
        names[fd.name] = fd
        names[fd.json_name] = fd
    return names


def _check_fields(obj: dict[str, Any], desc: Descriptor, path: str) -> None:
    """Reject unknown keys, and one field given under both of its names.

    json_format rejects unknown keys too, but its message names the proto
    types rather than the field path a person can look for. It only
    compares keys as written, so ``{"taskId": "a", "task_id": "b"}`` would
    quietly become ``task_id: b``. Values of the wrong shape are left for
    json_format to report, except that a message must be an object:
    json_format would read ``[]`` as an empty message.
    """
    fields = _json_fields(desc)
    seen: dict[str, str] = {}
    for key, value in obj.items():
        fd = fields.get(key)
        if fd is None:
            expected = ", ".join(f.json_name for f in desc.fields)
            raise DecodeError(
                [
                    Violation(
                        f"{path}.{key}" if path else key,
                        f"unknown field {_json_quote(key)}"
                        f"{f' in {path}' if path else ''}; expected one of: {expected}",
                        code=UNKNOWN_KEY,
                    )
                ]
            )
        field_path = f"{path}.{fd.name}" if path else fd.name
        if fd.name in seen:
            raise DecodeError(
                [
                    Violation(
                        field_path,
                        f"field {field_path} is given twice, as {json.dumps(seen[fd.name])} "
                        f"and {json.dumps(key)}",
                        code=DUPLICATE_KEY,
                    )
                ]
            )
        seen[fd.name] = key
        if fd.message_type is None or is_map(fd) or value is None:
            continue
        if not fd.is_repeated:
            items = [(field_path, value)]
        elif isinstance(value, list):
            items = [(f"{field_path}[{i}]", item) for i, item in enumerate(value)]
        else:
            continue  # json_format reports a list field that is not a list
        for item_path, item in items:
            if not isinstance(item, dict):
                raise DecodeError(
                    [
                        Violation(
                            item_path,
                            f"{item_path}: expected an object, got {_json_kind(item)}",
                            code=WRONG_TYPE,
                        )
                    ]
                )
            _check_fields(item, fd.message_type, item_path)


def _json_format_reason(err: Exception) -> str:
    """json_format's message without its nesting: ``taskId: expected string ...``.

    json_format wraps an error once per enclosing field ("Failed to parse
    generatedFrom field: Failed to parse kgQuery field: ..."); the chain of
    field names becomes a dotted prefix.
    """
    text = _one_line(str(err))
    names: list[str] = []
    prefix, marker = "Failed to parse ", " field: "
    while text.startswith(prefix) and marker in text:
        name, _, text = text[len(prefix) :].partition(marker)
        names.append(name)
    text = _clipped(text.rstrip("."), 2 * _QUOTE_CHARS)
    return f"{'.'.join(names)}: {text}" if names else text


#: The wire types of the protobuf encoding, as messages name them.
_WIRE_TYPES: Final = {
    0: "a varint",
    1: "a fixed 64-bit value",
    2: "a length-delimited value",
    3: "a group start",
    4: "a group end",
    5: "a fixed 32-bit value",
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
        return _WIRE_TYPES[2]
    if fd.type in (
        FieldDescriptor.TYPE_DOUBLE,
        FieldDescriptor.TYPE_FIXED64,
        FieldDescriptor.TYPE_SFIXED64,
    ):
        expected = _WIRE_TYPES[1]
    elif fd.type in (
        FieldDescriptor.TYPE_FLOAT,
        FieldDescriptor.TYPE_FIXED32,
        FieldDescriptor.TYPE_SFIXED32,
    ):
        expected = _WIRE_TYPES[5]
    else:
        expected = _WIRE_TYPES[0]
    # A repeated scalar may also come packed, length-delimited.
    return f"{expected} or a packed list" if fd.is_repeated else expected


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
                    yield from _unknown_fields(value[key], f"{sub}[{key!r}]")
        elif fd.is_repeated:
            for i, item in enumerate(value):
                yield from _unknown_fields(item, f"{sub}[{i}]")
        else:
            yield from _unknown_fields(value, sub)
