"""Descriptor-derived tables that drive the YAML bridge.

Everything the decoder and the emitter need to know about a message (its
fields in canonical YAML key order, which is their declaration order, their
YAML kind, the enum spellings, and when a field is written) is read from
the generated descriptors once, at import, so a field added to the proto
flows through with no hand edits. When a field is written is the Go struct
tag's ``omitempty`` and pointer, declared in the proto as the field's
``(taskspec.v1.field).presence`` and read through :mod:`taskspec._contract`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final, cast

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

from taskspec._contract import field_contract, reachable_fields
from taskspec._values import EnumInfo
from taskspec.v1 import options_pb2, taskspec_pb2

__all__ = [
    "K_ENUM",
    "K_INT",
    "K_INT_MAP",
    "K_MESSAGE",
    "K_MESSAGE_LIST",
    "K_STRING",
    "K_STRING_LIST",
    "OMITEMPTY",
    "POINTER",
    "TASK_SPEC",
    "EnumInfo",
    "FieldInfo",
    "Kind",
    "MessageInfo",
    "enum_info",
    "message_info",
]


def _presence_fields(*presences: int) -> frozenset[str]:
    return frozenset(
        fd.full_name for fd, _ in reachable_fields() if field_contract(fd).presence in presences
    )


#: Fields whose Go struct tag carries ``omitempty``: dropped from YAML when
#: empty or zero (PRESENCE_OMIT_EMPTY, and PRESENCE_OMIT_UNSET when unset).
#: Keyed by proto full name.
OMITEMPTY: frozenset[str] = _presence_fields(
    options_pb2.PRESENCE_OMIT_EMPTY, options_pb2.PRESENCE_OMIT_UNSET
)

#: Message fields that are Go pointers (PRESENCE_OMIT_UNSET): unset and
#: set-but-empty differ, and a set-but-empty one is written as ``{}``. Every
#: other message field is a Go value struct, always present.
POINTER: frozenset[str] = _presence_fields(options_pb2.PRESENCE_OMIT_UNSET)


class Kind(enum.Enum):
    """The YAML shape of a field, which decides how it is read and written."""

    STRING = "string"
    INT = "int"
    ENUM = "enum"
    MESSAGE = "message"
    STRING_LIST = "string list"
    MESSAGE_LIST = "message list"
    INT_MAP = "map of string to int"


# Enum member access costs a class-level lookup each time (about 0.2 µs on
# Python 3.11); hot loops compare against these module constants instead.
K_ENUM: Final = Kind.ENUM
K_INT: Final = Kind.INT
K_INT_MAP: Final = Kind.INT_MAP
K_MESSAGE: Final = Kind.MESSAGE
K_MESSAGE_LIST: Final = Kind.MESSAGE_LIST
K_STRING: Final = Kind.STRING
K_STRING_LIST: Final = Kind.STRING_LIST


# Plain classes rather than dataclasses: importing dataclasses (with inspect,
# ast and dis) costs more than the rest of the validate path's own modules.


class FieldInfo:
    """One field: its YAML key, shape and Go-tag facts."""

    __slots__ = (
        "descriptor",
        "enum",
        "full_name",
        "kind",
        "message",
        "name",
        "number",
        "omitempty",
        "pointer",
    )

    def __init__(
        self,
        *,
        name: str,
        full_name: str,
        number: int,
        kind: Kind,
        omitempty: bool,
        pointer: bool,
        descriptor: FieldDescriptor,
        enum: EnumInfo | None = None,
        message: MessageInfo | None = None,
    ) -> None:
        self.name = name
        self.full_name = full_name
        self.number = number
        self.kind = kind
        self.omitempty = omitempty
        self.pointer = pointer
        self.descriptor = descriptor
        self.enum = enum
        self.message = message

    def __repr__(self) -> str:
        return f"FieldInfo(name={self.name!r}, full_name={self.full_name!r}, kind={self.kind})"


class MessageInfo:
    """A message's fields in canonical YAML key order (declaration order)."""

    __slots__ = ("by_name", "cls", "expected", "fields", "full_name")

    def __init__(self, full_name: str, cls: type[Message]) -> None:
        self.full_name = full_name
        self.cls = cls
        self.fields: tuple[FieldInfo, ...] = ()
        self.by_name: Mapping[str, FieldInfo] = {}
        self.expected = ""

    def __repr__(self) -> str:
        return f"MessageInfo(full_name={self.full_name!r})"


def _enum_prefix(desc: EnumDescriptor) -> str:
    out: list[str] = []
    for i, ch in enumerate(desc.name):
        if ch.isupper() and i and (desc.name[i - 1].islower() or desc.name[i - 1].isdigit()):
            out.append("_")
        out.append(ch.upper())
    return "".join(out) + "_"


# The one rule of YAML key order, shared by both languages and the gate: a
# message's keys are written in the order its fields are declared in the
# proto, as the Go package's generated structs (go/internal/eval) declare
# them, whatever their numbers. ``scripts/check_contract.py`` refuses a
# change of that order for the fields of the released baseline.

_ENUMS: dict[str, EnumInfo] = {}
_MESSAGES: dict[str, MessageInfo] = {}


def enum_info(desc: EnumDescriptor) -> EnumInfo:
    """The cached :class:`EnumInfo` for an enum descriptor."""
    info = _ENUMS.get(desc.full_name)
    if info is None:
        prefix = _enum_prefix(desc)
        to_string: dict[int, str] = {}
        for value in desc.values:
            if not value.name.startswith(prefix):
                raise RuntimeError(f"enum value {value.name} lacks prefix {prefix}")
            spelled = value.name[len(prefix) :].lower()
            to_string[value.number] = "" if value.number == 0 else spelled
        info = EnumInfo(
            full_name=desc.full_name,
            yaml_name=desc.name,
            to_string=MappingProxyType(to_string),
            from_string=MappingProxyType({v: k for k, v in to_string.items()}),
        )
        _ENUMS[desc.full_name] = info
    return info


def _message_type(fd: FieldDescriptor) -> Descriptor:
    desc = fd.message_type
    if desc is None:  # pragma: no cover - only for TYPE_MESSAGE fields
        raise RuntimeError(f"{fd.full_name} has no message type")
    return desc


def _enum_type(fd: FieldDescriptor) -> EnumDescriptor:
    desc = fd.enum_type
    if desc is None:  # pragma: no cover - only for TYPE_ENUM fields
        raise RuntimeError(f"{fd.full_name} has no enum type")
    return desc


def _kind(fd: FieldDescriptor) -> Kind:
    repeated = fd.is_repeated
    if fd.type == FieldDescriptor.TYPE_MESSAGE:
        entry = _message_type(fd)
        if entry.GetOptions().map_entry:
            key, value = entry.fields_by_name["key"], entry.fields_by_name["value"]
            if key.type == FieldDescriptor.TYPE_STRING and value.type == FieldDescriptor.TYPE_INT64:
                return Kind.INT_MAP
            raise RuntimeError(f"unsupported map field {fd.full_name}")
        return Kind.MESSAGE_LIST if repeated else Kind.MESSAGE
    if fd.type == FieldDescriptor.TYPE_STRING:
        return Kind.STRING_LIST if repeated else Kind.STRING
    if repeated:
        raise RuntimeError(f"unsupported repeated field {fd.full_name}")
    if fd.type == FieldDescriptor.TYPE_INT64:
        return Kind.INT
    if fd.type == FieldDescriptor.TYPE_ENUM:
        return Kind.ENUM
    raise RuntimeError(f"unsupported field type for {fd.full_name}")


def message_info(desc: Descriptor) -> MessageInfo:
    """The cached :class:`MessageInfo` for a message descriptor."""
    info = _MESSAGES.get(desc.full_name)
    if info is not None:
        return info
    cls = taskspec_pb2.__dict__[desc.name] if desc.containing_type is None else None
    if cls is None:
        raise RuntimeError(f"nested message {desc.full_name} is not supported")
    info = MessageInfo(full_name=desc.full_name, cls=cls)
    _MESSAGES[desc.full_name] = info  # registered first: recursive schemas terminate
    fields: list[FieldInfo] = []
    for fd in desc.fields:  # declaration order: the YAML key order
        kind = _kind(fd)
        fi = FieldInfo(
            name=fd.name,
            full_name=fd.full_name,
            number=fd.number,
            kind=kind,
            omitempty=fd.full_name in OMITEMPTY,
            pointer=fd.full_name in POINTER,
            descriptor=fd,
        )
        if kind is Kind.ENUM:
            fi.enum = enum_info(_enum_type(fd))
        elif kind in (Kind.MESSAGE, Kind.MESSAGE_LIST):
            fi.message = message_info(_message_type(fd))
        fields.append(fi)
    info.fields = tuple(fields)
    info.by_name = MappingProxyType({f.name: f for f in fields})
    info.expected = ", ".join(f.name for f in fields)
    return info


#: The root of the schema.
TASK_SPEC: MessageInfo = message_info(cast(Descriptor, taskspec_pb2.TaskSpec.DESCRIPTOR))
