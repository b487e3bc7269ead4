from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Literal as _Literal, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Severity(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEVERITY_UNSPECIFIED: _ClassVar[Severity]
    SEVERITY_ERROR: _ClassVar[Severity]
    SEVERITY_WARNING: _ClassVar[Severity]

class ProblemCode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PROBLEM_CODE_UNSPECIFIED: _ClassVar[ProblemCode]
    PROBLEM_CODE_UNKNOWN_KEY: _ClassVar[ProblemCode]
    PROBLEM_CODE_DUPLICATE_KEY: _ClassVar[ProblemCode]
    PROBLEM_CODE_WRONG_TYPE: _ClassVar[ProblemCode]
    PROBLEM_CODE_UNSUPPORTED: _ClassVar[ProblemCode]
    PROBLEM_CODE_SYNTAX: _ClassVar[ProblemCode]
    PROBLEM_CODE_LIMIT: _ClassVar[ProblemCode]
    PROBLEM_CODE_ENCODING: _ClassVar[ProblemCode]
    PROBLEM_CODE_CONTROL_CHARACTER: _ClassVar[ProblemCode]
    PROBLEM_CODE_RAW_LINE_BREAK: _ClassVar[ProblemCode]
    PROBLEM_CODE_TAB_INDENT: _ClassVar[ProblemCode]
    PROBLEM_CODE_CANNOT_START_VALUE: _ClassVar[ProblemCode]
    PROBLEM_CODE_UNCLOSED_QUOTE: _ClassVar[ProblemCode]
    PROBLEM_CODE_UNCLOSED_FLOW: _ClassVar[ProblemCode]
    PROBLEM_CODE_MAPPING_VALUE: _ClassVar[ProblemCode]
    PROBLEM_CODE_INDENTATION: _ClassVar[ProblemCode]
    PROBLEM_CODE_BAD_ESCAPE: _ClassVar[ProblemCode]
    PROBLEM_CODE_BLOCK_SCALAR_HEADER: _ClassVar[ProblemCode]
    PROBLEM_CODE_DIRECTIVE: _ClassVar[ProblemCode]
    PROBLEM_CODE_ANCHOR_ALIAS_TAG: _ClassVar[ProblemCode]
    PROBLEM_CODE_JSON_SYNTAX: _ClassVar[ProblemCode]
    PROBLEM_CODE_BINARY_SYNTAX: _ClassVar[ProblemCode]
    PROBLEM_CODE_NOT_BLANK: _ClassVar[ProblemCode]
    PROBLEM_CODE_NOT_EMPTY: _ClassVar[ProblemCode]
    PROBLEM_CODE_DEFINED: _ClassVar[ProblemCode]
    PROBLEM_CODE_AT_LEAST: _ClassVar[ProblemCode]
    PROBLEM_CODE_EQUALS: _ClassVar[ProblemCode]
    PROBLEM_CODE_NOT_UTF8: _ClassVar[ProblemCode]
    PROBLEM_CODE_TOO_LARGE: _ClassVar[ProblemCode]
    PROBLEM_CODE_COMMENT: _ClassVar[ProblemCode]
    PROBLEM_CODE_ARTIFACT_PATH: _ClassVar[ProblemCode]
    PROBLEM_CODE_YAML_LINE_BREAK: _ClassVar[ProblemCode]
    PROBLEM_CODE_PROMPT_HAS_COMMAND: _ClassVar[ProblemCode]
    PROBLEM_CODE_COMMENT_IN_VALUE: _ClassVar[ProblemCode]
    PROBLEM_CODE_YAML_BYTE_ORDER_MARK: _ClassVar[ProblemCode]
    PROBLEM_CODE_NOT_READABLE: _ClassVar[ProblemCode]
    PROBLEM_CODE_UNCHANGED: _ClassVar[ProblemCode]
    PROBLEM_CODE_UNSUPPORTED_FORMAT: _ClassVar[ProblemCode]
    PROBLEM_CODE_INTERNAL: _ClassVar[ProblemCode]
SEVERITY_UNSPECIFIED: Severity
SEVERITY_ERROR: Severity
SEVERITY_WARNING: Severity
PROBLEM_CODE_UNSPECIFIED: ProblemCode
PROBLEM_CODE_UNKNOWN_KEY: ProblemCode
PROBLEM_CODE_DUPLICATE_KEY: ProblemCode
PROBLEM_CODE_WRONG_TYPE: ProblemCode
PROBLEM_CODE_UNSUPPORTED: ProblemCode
PROBLEM_CODE_SYNTAX: ProblemCode
PROBLEM_CODE_LIMIT: ProblemCode
PROBLEM_CODE_ENCODING: ProblemCode
PROBLEM_CODE_CONTROL_CHARACTER: ProblemCode
PROBLEM_CODE_RAW_LINE_BREAK: ProblemCode
PROBLEM_CODE_TAB_INDENT: ProblemCode
PROBLEM_CODE_CANNOT_START_VALUE: ProblemCode
PROBLEM_CODE_UNCLOSED_QUOTE: ProblemCode
PROBLEM_CODE_UNCLOSED_FLOW: ProblemCode
PROBLEM_CODE_MAPPING_VALUE: ProblemCode
PROBLEM_CODE_INDENTATION: ProblemCode
PROBLEM_CODE_BAD_ESCAPE: ProblemCode
PROBLEM_CODE_BLOCK_SCALAR_HEADER: ProblemCode
PROBLEM_CODE_DIRECTIVE: ProblemCode
PROBLEM_CODE_ANCHOR_ALIAS_TAG: ProblemCode
PROBLEM_CODE_JSON_SYNTAX: ProblemCode
PROBLEM_CODE_BINARY_SYNTAX: ProblemCode
PROBLEM_CODE_NOT_BLANK: ProblemCode
PROBLEM_CODE_NOT_EMPTY: ProblemCode
PROBLEM_CODE_DEFINED: ProblemCode
PROBLEM_CODE_AT_LEAST: ProblemCode
PROBLEM_CODE_EQUALS: ProblemCode
PROBLEM_CODE_NOT_UTF8: ProblemCode
PROBLEM_CODE_TOO_LARGE: ProblemCode
PROBLEM_CODE_COMMENT: ProblemCode
PROBLEM_CODE_ARTIFACT_PATH: ProblemCode
PROBLEM_CODE_YAML_LINE_BREAK: ProblemCode
PROBLEM_CODE_PROMPT_HAS_COMMAND: ProblemCode
PROBLEM_CODE_COMMENT_IN_VALUE: ProblemCode
PROBLEM_CODE_YAML_BYTE_ORDER_MARK: ProblemCode
PROBLEM_CODE_NOT_READABLE: ProblemCode
PROBLEM_CODE_UNCHANGED: ProblemCode
PROBLEM_CODE_UNSUPPORTED_FORMAT: ProblemCode
PROBLEM_CODE_INTERNAL: ProblemCode
PROBLEM_TABLES_FIELD_NUMBER: _ClassVar[int]
problem_tables: _descriptor.FieldDescriptor
PROBLEM_FIELD_NUMBER: _ClassVar[int]
problem: _descriptor.FieldDescriptor

class Problem(_message.Message):
    __slots__ = ("code", "field_path", "line", "column", "message", "hint", "severity", "fix")
    CODE_FIELD_NUMBER: _ClassVar[int]
    FIELD_PATH_FIELD_NUMBER: _ClassVar[int]
    LINE_FIELD_NUMBER: _ClassVar[int]
    COLUMN_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    HINT_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    FIX_FIELD_NUMBER: _ClassVar[int]
    code: str
    field_path: str
    line: int
    column: int
    message: str
    hint: str
    severity: Severity
    fix: Fix
    def __init__(self, code: _Optional[str] = ..., field_path: _Optional[str] = ..., line: _Optional[int] = ..., column: _Optional[int] = ..., message: _Optional[str] = ..., hint: _Optional[str] = ..., severity: _Optional[_Union[Severity, _Literal["SEVERITY_UNSPECIFIED", "SEVERITY_ERROR", "SEVERITY_WARNING"]]] = ..., fix: _Optional[_Union[Fix, _Mapping]] = ...) -> None: ...

class Fix(_message.Message):
    __slots__ = ("text", "start_line", "start_column", "end_line", "end_column")
    TEXT_FIELD_NUMBER: _ClassVar[int]
    START_LINE_FIELD_NUMBER: _ClassVar[int]
    START_COLUMN_FIELD_NUMBER: _ClassVar[int]
    END_LINE_FIELD_NUMBER: _ClassVar[int]
    END_COLUMN_FIELD_NUMBER: _ClassVar[int]
    text: str
    start_line: int
    start_column: int
    end_line: int
    end_column: int
    def __init__(self, text: _Optional[str] = ..., start_line: _Optional[int] = ..., start_column: _Optional[int] = ..., end_line: _Optional[int] = ..., end_column: _Optional[int] = ...) -> None: ...

class Problems(_message.Message):
    __slots__ = ("problems",)
    PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    problems: _containers.RepeatedCompositeFieldContainer[Problem]
    def __init__(self, problems: _Optional[_Iterable[_Union[Problem, _Mapping]]] = ...) -> None: ...

class ProblemKind(_message.Message):
    __slots__ = ("title", "severity", "stage", "messages", "hints", "explanation", "example", "fixed", "message_forms", "hint_forms", "reasons")
    TITLE_FIELD_NUMBER: _ClassVar[int]
    SEVERITY_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    HINTS_FIELD_NUMBER: _ClassVar[int]
    EXPLANATION_FIELD_NUMBER: _ClassVar[int]
    EXAMPLE_FIELD_NUMBER: _ClassVar[int]
    FIXED_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FORMS_FIELD_NUMBER: _ClassVar[int]
    HINT_FORMS_FIELD_NUMBER: _ClassVar[int]
    REASONS_FIELD_NUMBER: _ClassVar[int]
    title: str
    severity: Severity
    stage: str
    messages: _containers.RepeatedScalarFieldContainer[str]
    hints: _containers.RepeatedScalarFieldContainer[str]
    explanation: str
    example: str
    fixed: str
    message_forms: _containers.RepeatedCompositeFieldContainer[Form]
    hint_forms: _containers.RepeatedCompositeFieldContainer[Form]
    reasons: _containers.RepeatedCompositeFieldContainer[Form]
    def __init__(self, title: _Optional[str] = ..., severity: _Optional[_Union[Severity, _Literal["SEVERITY_UNSPECIFIED", "SEVERITY_ERROR", "SEVERITY_WARNING"]]] = ..., stage: _Optional[str] = ..., messages: _Optional[_Iterable[str]] = ..., hints: _Optional[_Iterable[str]] = ..., explanation: _Optional[str] = ..., example: _Optional[str] = ..., fixed: _Optional[str] = ..., message_forms: _Optional[_Iterable[_Union[Form, _Mapping]]] = ..., hint_forms: _Optional[_Iterable[_Union[Form, _Mapping]]] = ..., reasons: _Optional[_Iterable[_Union[Form, _Mapping]]] = ...) -> None: ...

class Form(_message.Message):
    __slots__ = ("id", "text")
    ID_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    id: str
    text: str
    def __init__(self, id: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class ParserProblem(_message.Message):
    __slots__ = ("parser", "context", "phrases", "code", "form")
    PARSER_FIELD_NUMBER: _ClassVar[int]
    CONTEXT_FIELD_NUMBER: _ClassVar[int]
    PHRASES_FIELD_NUMBER: _ClassVar[int]
    CODE_FIELD_NUMBER: _ClassVar[int]
    FORM_FIELD_NUMBER: _ClassVar[int]
    parser: str
    context: str
    phrases: _containers.RepeatedScalarFieldContainer[str]
    code: ProblemCode
    form: str
    def __init__(self, parser: _Optional[str] = ..., context: _Optional[str] = ..., phrases: _Optional[_Iterable[str]] = ..., code: _Optional[_Union[ProblemCode, _Literal["PROBLEM_CODE_UNSPECIFIED", "PROBLEM_CODE_UNKNOWN_KEY", "PROBLEM_CODE_DUPLICATE_KEY", "PROBLEM_CODE_WRONG_TYPE", "PROBLEM_CODE_UNSUPPORTED", "PROBLEM_CODE_SYNTAX", "PROBLEM_CODE_LIMIT", "PROBLEM_CODE_ENCODING", "PROBLEM_CODE_CONTROL_CHARACTER", "PROBLEM_CODE_RAW_LINE_BREAK", "PROBLEM_CODE_TAB_INDENT", "PROBLEM_CODE_CANNOT_START_VALUE", "PROBLEM_CODE_UNCLOSED_QUOTE", "PROBLEM_CODE_UNCLOSED_FLOW", "PROBLEM_CODE_MAPPING_VALUE", "PROBLEM_CODE_INDENTATION", "PROBLEM_CODE_BAD_ESCAPE", "PROBLEM_CODE_BLOCK_SCALAR_HEADER", "PROBLEM_CODE_DIRECTIVE", "PROBLEM_CODE_ANCHOR_ALIAS_TAG", "PROBLEM_CODE_JSON_SYNTAX", "PROBLEM_CODE_BINARY_SYNTAX", "PROBLEM_CODE_NOT_BLANK", "PROBLEM_CODE_NOT_EMPTY", "PROBLEM_CODE_DEFINED", "PROBLEM_CODE_AT_LEAST", "PROBLEM_CODE_EQUALS", "PROBLEM_CODE_NOT_UTF8", "PROBLEM_CODE_TOO_LARGE", "PROBLEM_CODE_COMMENT", "PROBLEM_CODE_ARTIFACT_PATH", "PROBLEM_CODE_YAML_LINE_BREAK", "PROBLEM_CODE_PROMPT_HAS_COMMAND", "PROBLEM_CODE_COMMENT_IN_VALUE", "PROBLEM_CODE_YAML_BYTE_ORDER_MARK", "PROBLEM_CODE_NOT_READABLE", "PROBLEM_CODE_UNCHANGED", "PROBLEM_CODE_UNSUPPORTED_FORMAT", "PROBLEM_CODE_INTERNAL"]]] = ..., form: _Optional[str] = ...) -> None: ...

class ProblemTables(_message.Message):
    __slots__ = ("parser_problems", "words", "service_messages")
    PARSER_PROBLEMS_FIELD_NUMBER: _ClassVar[int]
    WORDS_FIELD_NUMBER: _ClassVar[int]
    SERVICE_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    parser_problems: _containers.RepeatedCompositeFieldContainer[ParserProblem]
    words: _containers.RepeatedCompositeFieldContainer[Form]
    service_messages: _containers.RepeatedCompositeFieldContainer[Form]
    def __init__(self, parser_problems: _Optional[_Iterable[_Union[ParserProblem, _Mapping]]] = ..., words: _Optional[_Iterable[_Union[Form, _Mapping]]] = ..., service_messages: _Optional[_Iterable[_Union[Form, _Mapping]]] = ...) -> None: ...
