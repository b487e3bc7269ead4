from taskspec.v1 import options_pb2 as _options_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Literal as _Literal, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Language(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LANGUAGE_UNSPECIFIED: _ClassVar[Language]
    LANGUAGE_GO: _ClassVar[Language]
    LANGUAGE_PYTHON: _ClassVar[Language]
    LANGUAGE_TYPESCRIPT: _ClassVar[Language]

class Difficulty(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DIFFICULTY_UNSPECIFIED: _ClassVar[Difficulty]
    DIFFICULTY_EASY: _ClassVar[Difficulty]
    DIFFICULTY_MEDIUM: _ClassVar[Difficulty]
    DIFFICULTY_HARD: _ClassVar[Difficulty]

class GeneratedKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GENERATED_KIND_UNSPECIFIED: _ClassVar[GeneratedKind]
    GENERATED_KIND_KG_TEMPLATE: _ClassVar[GeneratedKind]
    GENERATED_KIND_BENCHMARK_SEED: _ClassVar[GeneratedKind]
LANGUAGE_UNSPECIFIED: Language
LANGUAGE_GO: Language
LANGUAGE_PYTHON: Language
LANGUAGE_TYPESCRIPT: Language
DIFFICULTY_UNSPECIFIED: Difficulty
DIFFICULTY_EASY: Difficulty
DIFFICULTY_MEDIUM: Difficulty
DIFFICULTY_HARD: Difficulty
GENERATED_KIND_UNSPECIFIED: GeneratedKind
GENERATED_KIND_KG_TEMPLATE: GeneratedKind
GENERATED_KIND_BENCHMARK_SEED: GeneratedKind

class TaskSpec(_message.Message):
    __slots__ = ("task_spec_version", "task_id", "language", "difficulty", "difficulty_signals", "generated_from", "prompt", "solution_artifacts", "verification")
    class DifficultySignalsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    TASK_SPEC_VERSION_FIELD_NUMBER: _ClassVar[int]
    TASK_ID_FIELD_NUMBER: _ClassVar[int]
    LANGUAGE_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    DIFFICULTY_SIGNALS_FIELD_NUMBER: _ClassVar[int]
    GENERATED_FROM_FIELD_NUMBER: _ClassVar[int]
    PROMPT_FIELD_NUMBER: _ClassVar[int]
    SOLUTION_ARTIFACTS_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    task_spec_version: int
    task_id: str
    language: Language
    difficulty: Difficulty
    difficulty_signals: _containers.ScalarMap[str, int]
    generated_from: GeneratedFrom
    prompt: str
    solution_artifacts: _containers.RepeatedCompositeFieldContainer[SolutionArtifact]
    verification: Verification
    def __init__(self, task_spec_version: _Optional[int] = ..., task_id: _Optional[str] = ..., language: _Optional[_Union[Language, _Literal["LANGUAGE_UNSPECIFIED", "LANGUAGE_GO", "LANGUAGE_PYTHON", "LANGUAGE_TYPESCRIPT"]]] = ..., difficulty: _Optional[_Union[Difficulty, _Literal["DIFFICULTY_UNSPECIFIED", "DIFFICULTY_EASY", "DIFFICULTY_MEDIUM", "DIFFICULTY_HARD"]]] = ..., difficulty_signals: _Optional[_Mapping[str, int]] = ..., generated_from: _Optional[_Union[GeneratedFrom, _Mapping]] = ..., prompt: _Optional[str] = ..., solution_artifacts: _Optional[_Iterable[_Union[SolutionArtifact, _Mapping]]] = ..., verification: _Optional[_Union[Verification, _Mapping]] = ...) -> None: ...

class GeneratedFrom(_message.Message):
    __slots__ = ("kind", "template_id", "kg_query")
    KIND_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    KG_QUERY_FIELD_NUMBER: _ClassVar[int]
    kind: GeneratedKind
    template_id: str
    kg_query: KGQuery
    def __init__(self, kind: _Optional[_Union[GeneratedKind, _Literal["GENERATED_KIND_UNSPECIFIED", "GENERATED_KIND_KG_TEMPLATE", "GENERATED_KIND_BENCHMARK_SEED"]]] = ..., template_id: _Optional[str] = ..., kg_query: _Optional[_Union[KGQuery, _Mapping]] = ...) -> None: ...

class KGQuery(_message.Message):
    __slots__ = ("intent", "seed_symbol")
    INTENT_FIELD_NUMBER: _ClassVar[int]
    SEED_SYMBOL_FIELD_NUMBER: _ClassVar[int]
    intent: str
    seed_symbol: str
    def __init__(self, intent: _Optional[str] = ..., seed_symbol: _Optional[str] = ...) -> None: ...

class SolutionArtifact(_message.Message):
    __slots__ = ("path", "role")
    PATH_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    path: str
    role: str
    def __init__(self, path: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class Verification(_message.Message):
    __slots__ = ("build_cmd", "test_cmd", "timeout_seconds")
    BUILD_CMD_FIELD_NUMBER: _ClassVar[int]
    TEST_CMD_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    build_cmd: _containers.RepeatedScalarFieldContainer[str]
    test_cmd: _containers.RepeatedScalarFieldContainer[str]
    timeout_seconds: int
    def __init__(self, build_cmd: _Optional[_Iterable[str]] = ..., test_cmd: _Optional[_Iterable[str]] = ..., timeout_seconds: _Optional[int] = ...) -> None: ...

class GenerateOptions(_message.Message):
    __slots__ = ("difficulty", "template_id")
    DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    TEMPLATE_ID_FIELD_NUMBER: _ClassVar[int]
    difficulty: Difficulty
    template_id: str
    def __init__(self, difficulty: _Optional[_Union[Difficulty, _Literal["DIFFICULTY_UNSPECIFIED", "DIFFICULTY_EASY", "DIFFICULTY_MEDIUM", "DIFFICULTY_HARD"]]] = ..., template_id: _Optional[str] = ...) -> None: ...
