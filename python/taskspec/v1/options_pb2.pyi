from google.protobuf import descriptor_pb2 as _descriptor_pb2
from taskspec.v1 import problems_pb2 as _problems_pb2
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Literal as _Literal, Optional as _Optional, Union as _Union

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

class Ignore(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    IGNORE_UNSPECIFIED: _ClassVar[Ignore]
    IGNORE_IF_ZERO_VALUE: _ClassVar[Ignore]

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
IGNORE_UNSPECIFIED: Ignore
IGNORE_IF_ZERO_VALUE: Ignore
CHECK_UNSPECIFIED: Check
CHECK_EQUALS: Check
CHECK_AT_LEAST: Check
CHECK_NOT_BLANK: Check
CHECK_DEFINED: Check
CHECK_NOT_EMPTY: Check
FIELD_FIELD_NUMBER: _ClassVar[int]
field: _descriptor.FieldDescriptor
CONSTRAINT_FIELD_NUMBER: _ClassVar[int]
constraint: _descriptor.FieldDescriptor
LIMITS_FIELD_NUMBER: _ClassVar[int]
limits: _descriptor.FieldDescriptor

class FieldContract(_message.Message):
    __slots__ = ("presence", "visibility", "rule", "rules")
    PRESENCE_FIELD_NUMBER: _ClassVar[int]
    VISIBILITY_FIELD_NUMBER: _ClassVar[int]
    RULE_FIELD_NUMBER: _ClassVar[int]
    RULES_FIELD_NUMBER: _ClassVar[int]
    presence: Presence
    visibility: Visibility
    rule: Rule
    rules: FieldRules
    def __init__(self, presence: _Optional[_Union[Presence, _Literal["PRESENCE_UNSPECIFIED", "PRESENCE_ALWAYS", "PRESENCE_OMIT_EMPTY", "PRESENCE_OMIT_UNSET"]]] = ..., visibility: _Optional[_Union[Visibility, _Literal["VISIBILITY_UNSPECIFIED", "VISIBILITY_SHOWN", "VISIBILITY_HIDDEN"]]] = ..., rule: _Optional[_Union[Rule, _Mapping]] = ..., rules: _Optional[_Union[FieldRules, _Mapping]] = ...) -> None: ...

class FieldRules(_message.Message):
    __slots__ = ("string", "int64", "enum", "repeated", "ignore")
    STRING_FIELD_NUMBER: _ClassVar[int]
    INT64_FIELD_NUMBER: _ClassVar[int]
    ENUM_FIELD_NUMBER: _ClassVar[int]
    REPEATED_FIELD_NUMBER: _ClassVar[int]
    IGNORE_FIELD_NUMBER: _ClassVar[int]
    string: StringRules
    int64: Int64Rules
    enum: EnumRules
    repeated: RepeatedRules
    ignore: Ignore
    def __init__(self, string: _Optional[_Union[StringRules, _Mapping]] = ..., int64: _Optional[_Union[Int64Rules, _Mapping]] = ..., enum: _Optional[_Union[EnumRules, _Mapping]] = ..., repeated: _Optional[_Union[RepeatedRules, _Mapping]] = ..., ignore: _Optional[_Union[Ignore, _Literal["IGNORE_UNSPECIFIED", "IGNORE_IF_ZERO_VALUE"]]] = ...) -> None: ...

class StringRules(_message.Message):
    __slots__ = ("not_blank", "min_len", "max_len")
    NOT_BLANK_FIELD_NUMBER: _ClassVar[int]
    MIN_LEN_FIELD_NUMBER: _ClassVar[int]
    MAX_LEN_FIELD_NUMBER: _ClassVar[int]
    not_blank: Demand
    min_len: Bound
    max_len: Bound
    def __init__(self, not_blank: _Optional[_Union[Demand, _Mapping]] = ..., min_len: _Optional[_Union[Bound, _Mapping]] = ..., max_len: _Optional[_Union[Bound, _Mapping]] = ...) -> None: ...

class Int64Rules(_message.Message):
    __slots__ = ("equals", "at_least", "at_most")
    EQUALS_FIELD_NUMBER: _ClassVar[int]
    AT_LEAST_FIELD_NUMBER: _ClassVar[int]
    AT_MOST_FIELD_NUMBER: _ClassVar[int]
    equals: Bound
    at_least: Bound
    at_most: Bound
    def __init__(self, equals: _Optional[_Union[Bound, _Mapping]] = ..., at_least: _Optional[_Union[Bound, _Mapping]] = ..., at_most: _Optional[_Union[Bound, _Mapping]] = ...) -> None: ...

class EnumRules(_message.Message):
    __slots__ = ("defined",)
    DEFINED_FIELD_NUMBER: _ClassVar[int]
    defined: Demand
    def __init__(self, defined: _Optional[_Union[Demand, _Mapping]] = ...) -> None: ...

class RepeatedRules(_message.Message):
    __slots__ = ("not_empty", "min_items", "max_items", "items")
    NOT_EMPTY_FIELD_NUMBER: _ClassVar[int]
    MIN_ITEMS_FIELD_NUMBER: _ClassVar[int]
    MAX_ITEMS_FIELD_NUMBER: _ClassVar[int]
    ITEMS_FIELD_NUMBER: _ClassVar[int]
    not_empty: Demand
    min_items: Bound
    max_items: Bound
    items: StringRules
    def __init__(self, not_empty: _Optional[_Union[Demand, _Mapping]] = ..., min_items: _Optional[_Union[Bound, _Mapping]] = ..., max_items: _Optional[_Union[Bound, _Mapping]] = ..., items: _Optional[_Union[StringRules, _Mapping]] = ...) -> None: ...

class Demand(_message.Message):
    __slots__ = ("message",)
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class Bound(_message.Message):
    __slots__ = ("value", "message")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    value: int
    message: str
    def __init__(self, value: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class ConstraintKind(_message.Message):
    __slots__ = ("code", "problem")
    CODE_FIELD_NUMBER: _ClassVar[int]
    PROBLEM_FIELD_NUMBER: _ClassVar[int]
    code: int
    problem: _problems_pb2.ProblemKind
    def __init__(self, code: _Optional[int] = ..., problem: _Optional[_Union[_problems_pb2.ProblemKind, _Mapping]] = ...) -> None: ...

class Rule(_message.Message):
    __slots__ = ("check", "bound", "message")
    CHECK_FIELD_NUMBER: _ClassVar[int]
    BOUND_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    check: Check
    bound: int
    message: str
    def __init__(self, check: _Optional[_Union[Check, _Literal["CHECK_UNSPECIFIED", "CHECK_EQUALS", "CHECK_AT_LEAST", "CHECK_NOT_BLANK", "CHECK_DEFINED", "CHECK_NOT_EMPTY"]]] = ..., bound: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class Limits(_message.Message):
    __slots__ = ("max_document_bytes", "max_depth", "max_nodes")
    MAX_DOCUMENT_BYTES_FIELD_NUMBER: _ClassVar[int]
    MAX_DEPTH_FIELD_NUMBER: _ClassVar[int]
    MAX_NODES_FIELD_NUMBER: _ClassVar[int]
    max_document_bytes: int
    max_depth: int
    max_nodes: int
    def __init__(self, max_document_bytes: _Optional[int] = ..., max_depth: _Optional[int] = ..., max_nodes: _Optional[int] = ...) -> None: ...
