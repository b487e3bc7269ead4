"""Binary protobuf and proto3 JSON laid out exactly as Go's protobuf runtime writes them.

The same message has many valid encodings; Go's is the one the other side
of the contract compares bytes with. Go writes

- binary (``proto.MarshalOptions{Deterministic: true}``): fields in
  field-number order, unknown fields last, and the entries of every map
  sorted by key;
- JSON (``protojson.Marshal``): fields in declaration order and the keys of
  every map sorted by key, comparing the keys themselves rather than their
  JSON text (int keys 2 and 10 come as ``"2"``, ``"10"``).

Go's key order is the natural order of the key type: false before true,
integers by value, strings by their bytes. Python's order on each key type
is the same one (code points order a ``str`` as bytes order its UTF-8), so
``sorted`` gives Go's order for every map.

Python's runtime (upb) differs from Go in these orders only: its
deterministic mode sorts a string key after every longer key it is a prefix
of (``edge_count_max`` before ``edge_count``, ``""`` last), and json_format
writes fields in number order and map keys in the map's own order. So
:func:`go_binary` takes protobuf's bytes and writes again only the fields
holding a map of two entries or more, and :func:`go_json` reorders
json_format's dict. Which fields hold a map is found by walking the
message's own descriptors, so a map added to the schema, at any depth, is
ordered with no change here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Final, cast

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

__all__ = ["go_binary", "go_json", "is_map"]


def is_map(fd: FieldDescriptor) -> bool:
    """Whether *fd* is a map field."""
    return fd.message_type is not None and fd.message_type.GetOptions().map_entry


def _map_value(fd: FieldDescriptor) -> FieldDescriptor:
    """The value field of map field *fd*'s entry."""
    return cast(Descriptor, fd.message_type).fields_by_name["value"]


def go_binary(msg: Message) -> bytes:
    """*msg* in binary protobuf, as Go's deterministic ``proto.Marshal`` writes it.

    protobuf writes the message; each field whose bytes are not Go's (one
    with a map of two entries or more in it, at any depth) is cut out and
    written again, in Go's order, in the same place. Nothing else differs:
    both write fields in number order, each map entry with its key and its
    value, and unknown fields last.
    """
    data = msg.SerializeToString(deterministic=True)
    holders = _map_holders(cast(Descriptor, msg.DESCRIPTOR))
    redo = {
        fd.number: (fd, value)
        for fd, value in msg.ListFields()
        if fd.number in holders and _differs(fd, value)
    }
    if not redo:
        return data
    parts: list[bytes] = []
    kept = i = 0  # data[:kept] is in parts; a field starts at i
    current = 0  # the number of the field being replaced while i is inside it
    while i < len(data):
        number, end = _next_field(data, i)
        if number != current:
            if current:
                kept, current = i, 0
            if not redo:
                break
            if number in redo:
                fd, value = redo.pop(number)
                parts += (data[kept:i], _go_field(type(msg), fd, value))
                current = number
        i = end
    if not current:  # what follows the last field replaced
        parts.append(data[kept:])
    return b"".join(parts)


def go_json(msg: Message, obj: dict[str, Any]) -> dict[str, Any]:
    """*obj*, json_format's ``MessageToDict`` of *msg*, reordered as protojson writes it.

    *msg* is a message of the schema, not a well-known type itself. Fields
    come in declaration order and map keys in Go's order, at every depth.
    Of the well-known types, Struct, Value and ListValue (any JSON value)
    have every object's keys sorted, as Go sorts a Struct's map; the others
    keep json_format's form (for an Any, that of the message it packs).
    """
    desc = cast(Descriptor, msg.DESCRIPTOR)
    if _json_as_is(desc):
        return obj
    out: dict[str, Any] = {}
    for name, fd, how, key_of in _json_fields(desc):
        if name not in obj:
            continue
        value = obj[name]
        if key_of is not None:  # a map
            keys = sorted(value, key=key_of)
            if how is _AS_IS:
                value = {k: value[k] for k in keys}
            else:
                entries = getattr(msg, fd.name)
                value = {k: _reorder(how, entries[key_of(k)], value[k]) for k in keys}
        elif how is not _AS_IS:
            if fd.is_repeated:
                items = zip(getattr(msg, fd.name), value, strict=True)
                value = [_reorder(how, item, v) for item, v in items]
            else:
                value = _reorder(how, getattr(msg, fd.name), value)
        out[name] = value
    return out


# -- binary --------------------------------------------------------------------


@cache
def _map_holders(desc: Descriptor) -> frozenset[int]:
    """Numbers of *desc*'s fields that hold a map, directly or at any depth."""
    return frozenset(fd.number for fd in desc.fields if _holds_map(fd, frozenset()))


def _holds_map(fd: FieldDescriptor, seen: frozenset[Descriptor]) -> bool:
    """Whether *fd* is a map or a message with a map in it, not looking into *seen* again."""
    desc = fd.message_type
    if desc is None:
        return False
    if desc.GetOptions().map_entry:
        return True
    if desc in seen:  # a cycle: any map in it is found on the first way round
        return False
    return any(_holds_map(sub, seen | {desc}) for sub in desc.fields)


def _differs(fd: FieldDescriptor, value: Any) -> bool:
    """Whether protobuf's bytes for field *fd* holding *value* are not Go's.

    They are Go's unless a map in it, at any depth, has two entries or more.
    """
    if is_map(fd):
        if len(value) > 1:
            return True
        items = list(value.values()) if _map_value(fd).message_type is not None else []
    else:
        items = value if fd.is_repeated else [value]
    for item in items:
        holders = _map_holders(item.DESCRIPTOR)
        if any(sub.number in holders and _differs(sub, v) for sub, v in item.ListFields()):
            return True
    return False


def _go_field(cls: type[Message], fd: FieldDescriptor, value: Any) -> bytes:
    """Field *fd* of a *cls* message, holding *value*, as Go writes it."""
    if is_map(fd):
        return b"".join(_map_entries(cls, fd, value))
    items = value if fd.is_repeated else [value]
    return b"".join(_framed(fd.number, go_binary(item)) for item in items)


def _read_varint(data: bytes, i: int) -> tuple[int, int]:
    """The varint at *i*, and where it ends."""
    n = shift = 0
    while data[i] & 0x80:
        n |= (data[i] & 0x7F) << shift
        shift += 7
        i += 1
    return n | data[i] << shift, i + 1


def _next_field(data: bytes, i: int) -> tuple[int, int]:
    """The number of the field whose tag is at *i*, and where the field ends.

    Only fields of the schema are read this way (unknown fields, which may
    be anything, come last and are never read), and proto3 has no groups.
    """
    tag, i = _read_varint(data, i)
    match tag & 7:
        case 0:
            i = _read_varint(data, i)[1]
        case 1:
            i += 8
        case 2:
            size, i = _read_varint(data, i)
            i += size
        case 5:
            i += 4
        case wire_type:  # pragma: no cover - a group, which proto3 cannot declare
            raise RuntimeError(f"unexpected wire type {wire_type} for field {tag >> 3}")
    return tag >> 3, i


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _framed(number: int, payload: bytes) -> bytes:
    """*payload* as length-delimited field *number*: tag, length, payload."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _payload(framed: bytes) -> bytes:
    """What follows the tag and the length of one length-delimited field."""
    return framed[_read_varint(framed, _read_varint(framed, 0)[1])[1] :]


#: A map entry's value is field 2; an empty message value is written as
#: its tag and a zero length.
_EMPTY_VALUE: Final = b"\x12\x00"


def _map_entries(
    cls: type[Message], fd: FieldDescriptor, entries: Mapping[Any, Any]
) -> list[bytes]:
    """The entries of map field *fd*, each framed as the field, in Go's key order.

    protobuf writes each entry from a message that holds only that entry,
    so the key and value bytes are its own (both always written, as Go
    writes them). A message value that itself holds a map is the exception:
    protobuf writes the entry with an empty value, and its ``0x12 0x00`` is
    replaced by the value as :func:`go_binary` writes it.
    """
    value_type = _map_value(fd).message_type
    deep = value_type is not None and bool(_map_holders(value_type))
    out: list[bytes] = []
    for key in sorted(entries):
        one = cls()
        field = getattr(one, fd.name)
        if deep:
            field.get_or_create(key)
            entry = _payload(one.SerializeToString())
            if not entry.endswith(_EMPTY_VALUE):  # pragma: no cover - upb writes it
                raise RuntimeError(f"unexpected map entry layout for {fd.full_name}")
            value = _framed(2, go_binary(entries[key]))
            out.append(_framed(fd.number, entry[: -len(_EMPTY_VALUE)] + value))
            continue
        if value_type is None:
            field[key] = entries[key]
        else:
            field[key].CopyFrom(entries[key])
        out.append(one.SerializeToString(deterministic=True))
    return out


# -- JSON ----------------------------------------------------------------------

#: Well-known types whose JSON form is any JSON value.
_JSON_VALUES: Final = frozenset(
    {"google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue"}
)


@cache
def _json_as_is(desc: Descriptor) -> bool:
    """Whether json_format's dict for any *desc* is already protojson's.

    It is when no map is in it at any depth and every message in it
    declares its fields in number order, json_format's order.
    """
    return not _map_holders(desc) and _declared_in_number_order(desc, frozenset())


def _declared_in_number_order(desc: Descriptor, seen: frozenset[Descriptor]) -> bool:
    numbers = [fd.number for fd in desc.fields]
    if numbers != sorted(numbers):
        return False
    seen |= {desc}
    return all(
        _declared_in_number_order(fd.message_type, seen)
        for fd in desc.fields
        if fd.message_type is not None and fd.message_type not in seen
    )


#: How the JSON of a field's values is put in protojson's order.
_AS_IS: Final = "as is"
_SORT_OBJECTS: Final = "sort objects"
_MESSAGE: Final = "message"


@cache
def _json_fields(
    desc: Descriptor,
) -> tuple[tuple[str, FieldDescriptor, str, Callable[[str], Any] | None], ...]:
    """*desc*'s fields in declaration order, as :func:`go_json` walks them.

    For each: its JSON name, its descriptor, how its values (a map's
    values) are reordered, and for a map how to read a key from its text.
    """
    return tuple(
        (fd.json_name, fd, _json_how(_map_value(fd)), _map_key(fd))
        if is_map(fd)
        else (fd.json_name, fd, _json_how(fd), None)
        for fd in desc.fields
    )


def _json_how(fd: FieldDescriptor) -> str:
    desc = fd.message_type
    if desc is None:
        return _AS_IS
    if desc.full_name in _JSON_VALUES:
        return _SORT_OBJECTS
    if desc.file.name.startswith("google/protobuf/") or _json_as_is(desc):
        return _AS_IS  # a well-known type has its own JSON form
    return _MESSAGE


def _reorder(how: str, value: Any, obj: Any) -> Any:
    if how is _SORT_OBJECTS:
        return _sorted_objects(obj)
    return go_json(value, obj)


def _bool_key(text: str) -> bool:
    return text == "true"


def _map_key(fd: FieldDescriptor) -> Callable[[str], Any]:
    """For map field *fd*: a JSON key's text to the key it spells, which Go sorts by."""
    key_type = cast(Descriptor, fd.message_type).fields_by_name["key"].type
    if key_type == FieldDescriptor.TYPE_STRING:
        return str
    if key_type == FieldDescriptor.TYPE_BOOL:
        return _bool_key
    return int


def _sorted_objects(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {key: _sorted_objects(obj[key]) for key in sorted(obj)}
    if isinstance(obj, list):
        return [_sorted_objects(item) for item in obj]
    return obj
