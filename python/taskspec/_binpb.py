"""The binary protobuf format: a strict reader, and Go's deterministic writer.

The reader refuses unknown fields (protobuf would keep them as bytes no YAML
can carry) and fields of the wrong wire type; it returns problems and never
validates (the API does). The writer writes Go's ``proto.Marshal`` bytes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, cast

from google.protobuf import message as pb_message
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.unknown_fields import UnknownFieldSet

from taskspec._codes import BINARY_SYNTAX, UNKNOWN_KEY, WRONG_TYPE
from taskspec._errors import DecodeError, Violation, require_document, require_task_spec
from taskspec._format import Data
from taskspec._forms_gen import (
    MSG_BINARY_SYNTAX_REASON,
    MSG_UNKNOWN_KEY_WIRE_NUMBER,
    MSG_UNKNOWN_KEY_WIRE_NUMBER_IN,
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
    WORD_OR_PACKED,
    WORD_WIRE_BYTES,
    WORD_WIRE_FIXED32,
    WORD_WIRE_FIXED64,
    WORD_WIRE_GROUP_END,
    WORD_WIRE_GROUP_START,
    WORD_WIRE_VARINT,
)
from taskspec._gowire import go_binary, is_map
from taskspec._words import render
from taskspec.bridge._gostr import go_quote
from taskspec.v1 import taskspec_pb2

__all__ = ["marshal_binpb", "read_binpb"]


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


def marshal_binpb(spec: taskspec_pb2.TaskSpec) -> bytes:
    """Binary protobuf, byte-identical to Go's ``proto.MarshalOptions{Deterministic: true}``.

    Fields come in field-number order, unknown fields last, and the entries
    of every map, at every depth, sorted by key as Go sorts them (which
    Python's own deterministic mode does not do for string keys).
    """
    require_task_spec(spec)
    return go_binary(spec)


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
