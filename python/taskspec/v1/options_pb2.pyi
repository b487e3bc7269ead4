from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Presence(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PRESENCE_UNSPECIFIED: _ClassVar[Presence]
    PRESENCE_ALWAYS: _ClassVar[Presence]
    PRESENCE_OMIT_EMPTY: _ClassVar[Presence]
    PRESENCE_OMIT_UNSET: _ClassVar[Presence]

class Visibility(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    VISIBILITY_UNSPECIFIED: _ClassVar[Visibility]
    VISIBILITY_SHOWN: _ClassVar[Visibility]
    VISIBILITY_HIDDEN: _ClassVar[Visibility]

class Check(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHECK_UNSPECIFIED: _ClassVar[Check]
    CHECK_EQUALS: _ClassVar[Check]
    CHECK_AT_LEAST: _ClassVar[Check]
    CHECK_NOT_BLANK: _ClassVar[Check]
    CHECK_DEFINED: _ClassVar[Check]
    CHECK_NOT_EMPTY: _ClassVar[Check]
PRESENCE_UNSPECIFIED: Presence
PRESENCE_ALWAYS: Presence
PRESENCE_OMIT_EMPTY: Presence
PRESENCE_OMIT_UNSET: Presence
VISIBILITY_UNSPECIFIED: Visibility
VISIBILITY_SHOWN: Visibility
VISIBILITY_HIDDEN: Visibility
CHECK_UNSPECIFIED: Check
CHECK_EQUALS: Check
CHECK_AT_LEAST: Check
CHECK_NOT_BLANK: Check
CHECK_DEFINED: Check
CHECK_NOT_EMPTY: Check
FIELD_FIELD_NUMBER: _ClassVar[int]
field: _descriptor.FieldDescriptor
LIMITS_FIELD_NUMBER: _ClassVar[int]
limits: _descriptor.FieldDescriptor

class Rule(_message.Message):
    __slots__ = ("check", "bound", "message")
    CHECK_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    check: Check
    bound: int
    message: str
    def __init__(self, check: _Optional[_Union[Check, str]] = ..., bound: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class FieldContract(_message.Message):
    __slots__ = ("presence", "visibility", "rule")
    PRESENCE_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    presence: Presence
    visibility: Visibility
    rule: Rule
    def __init__(self, presence: _Optional[_Union[Presence, str]] = ..., visibility: _Optional[_Union[Visibility, str]] = ..., rule: _Optional[_Union[Rule, _Mapping]] = ...) -> None: ...

class Limits(_message.Message):
    __slots__ = ("max_document_bytes", "max_depth", "max_nodes")
    MAX_DOCUMENT_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_DEPTH_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    max_document_bytes: int
    max_depth: int
    max_nodes: int
    def __init__(self, max_document_bytes: _Optional[int] = ..., max_depth: _Optional[int] = ..., max_nodes: _Optional[int] = ...) -> None: ...
