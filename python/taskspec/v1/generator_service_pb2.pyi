from taskspec.v1 import taskspec_pb2 as _taskspec_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Literal as _Literal, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GenerateRequest(_message.Message):
    __slots__ = ("language", "options")
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    language: _taskspec_pb2.Language
    options: _taskspec_pb2.GenerateOptions
    def __init__(self, language: _Optional[_Union[_taskspec_pb2.Language, _Literal["LANGUAGE_UNSPECIFIED", "LANGUAGE_GO", "LANGUAGE_PYTHON", "LANGUAGE_TYPESCRIPT"]]] = ..., options: _Optional[_Union[_taskspec_pb2.GenerateOptions, _Mapping]] = ...) -> None: ...

class GenerateResponse(_message.Message):
    __slots__ = ("task_spec",)
    TASK_SPEC_FIELD_NUMBER: _ClassVar[int]
    task_spec: _taskspec_pb2.TaskSpec
    def __init__(self, task_spec: _Optional[_Union[_taskspec_pb2.TaskSpec, _Mapping]] = ...) -> None: ...

class ListLanguagesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListLanguagesResponse(_message.Message):
    __slots__ = ("languages",)
    LANGUAGES_FIELD_NUMBER: _ClassVar[int]
    languages: _containers.RepeatedScalarFieldContainer[_taskspec_pb2.Language]
    def __init__(self, languages: _Optional[_Iterable[_Union[_taskspec_pb2.Language, _Literal["LANGUAGE_UNSPECIFIED", "LANGUAGE_GO", "LANGUAGE_PYTHON", "LANGUAGE_TYPESCRIPT"]]]] = ...) -> None: ...
