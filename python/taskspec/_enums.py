"""Python enums for the TaskSpec enum types, usable on the generated messages.

A field of a generated message holds the proto enum number, so each member
*is* its proto number, an ``int`` as the :class:`enum.IntEnum` members that
proto-plus and betterproto give enum fields are. ``spec.language == Language.GO`` holds when
the field holds ``LANGUAGE_GO``, ``spec.language = Language.GO`` sets it,
and ``int(Language.GO)`` is that number.

The Go package models these as string types, so the canonical YAML
spelling (``"go"``, ``"easy"``, ``"kg_template"``) is what people read and
write: it is each member's ``value``, what ``str()`` and f-strings give,
and what the class looks a member up by (``Language("go")``; a proto
number works too, ``Language(1)``). The members are written out so that
type checkers see them, but not by hand: ``make generate`` writes each
class's block of members, ``NAME = number, "spelling"``, from the proto enum
descriptors (``scripts/gen_enums.py``), and a test pins them, so the two
cannot drift apart.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Self

from google.protobuf.descriptor import EnumDescriptor

from taskspec.bridge import _layout
from taskspec.v1 import taskspec_pb2

__all__ = ["Difficulty", "GeneratedKind", "Language"]


if TYPE_CHECKING:
    from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

    class _EnumType(enum.EnumMeta, EnumTypeWrapper):
        """For type checkers only: an enum class that is also a proto enum type."""

    # What a generated message's enum field holds, as its stub names it: a
    # member is such a value, so a type checker lets one be assigned to a
    # field and passed to a message's constructor (spec.language =
    # Language.GO, TaskSpec(language=Language.GO)).
    _LanguageField = taskspec_pb2.Language
    _DifficultyField = taskspec_pb2.Difficulty
    _GeneratedKindField = taskspec_pb2.GeneratedKind
else:
    _EnumType = enum.EnumMeta

    class _Field:
        __slots__ = ()

    _LanguageField = _DifficultyField = _GeneratedKindField = _Field


class _ProtoEnum(int, enum.Enum, metaclass=_EnumType):
    """Shared behaviour: the proto number as the int, Go's spelling as the value.

    An int enum, as :class:`enum.IntEnum` is, except that a member's
    ``value`` and text are its spelling rather than its number. Go's
    ``Valid()`` is :meth:`is_valid`; :meth:`to_proto` and :meth:`from_proto`
    convert to and from the proto number explicitly.
    """

    _value_: str

    if TYPE_CHECKING:

        @property
        def value(self) -> str:
            """The canonical YAML spelling."""
            ...

        # int's own, declared here only so that mypy's strict equality
        # lets a message's field (the stub's enum class) be compared with
        # a member, which it would otherwise call non-overlapping.
        def __eq__(self, other: object) -> bool: ...
        def __hash__(self) -> int: ...

    else:
        # Each member is written NAME = number, "spelling". Hidden from type
        # checkers, which would otherwise take this for the signature of
        # Language("go"), the look-up by value.
        def __new__(cls, number, spelled):
            member = int.__new__(cls, number)
            member._value_ = spelled
            return member

    def __str__(self) -> str:
        return self._value_

    def __format__(self, format_spec: str) -> str:
        return format(self._value_, format_spec)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"

    @classmethod
    def _missing_(cls, value: object) -> Self | None:
        # Language(1): a proto number names the member it is. UNSPECIFIED and
        # undefined numbers name none, and a bool is not a number here.
        if isinstance(value, int) and not isinstance(value, bool):
            for member in cls:
                if int(member) == value:
                    return member
        return None

    @classmethod
    def _descriptor(cls) -> EnumDescriptor:
        raise NotImplementedError

    @classmethod
    def is_valid(cls, value: object) -> bool:
        """Whether *value* is a recognised member, with Go's ``Valid()`` semantics.

        A member is valid, and so is exactly its canonical string: case
        matters, and the empty string, ``None`` and proto enum numbers are
        not valid.
        """
        if isinstance(value, cls):
            return True
        return isinstance(value, str) and value in cls._value2member_map_

    def to_proto(self) -> int:
        """The proto enum number of this member, as a plain ``int``."""
        return int(self)

    @classmethod
    def from_proto(cls, number: int) -> Self:
        """The member for a proto enum number.

        Raises :class:`ValueError` for the UNSPECIFIED value and for numbers
        the schema does not define, because neither names a member.
        """
        spelled = _layout.enum_info(cls._descriptor()).to_string.get(number, "")
        if not spelled:
            raise ValueError(f"{number!r} is not a valid {cls.__name__} proto value")
        return cls(spelled)


class Language(_LanguageField, _ProtoEnum):  # type: ignore[misc]  # see _EnumType
    """The programming language a task targets (proto ``taskspec.v1.Language``)."""

    # generated members: taskspec.v1.Language
    GO = 1, "go"
    PYTHON = 2, "python"
    TYPESCRIPT = 3, "typescript"
    # end of generated members

    @classmethod
    def _descriptor(cls) -> EnumDescriptor:
        return taskspec_pb2.Language.DESCRIPTOR


class Difficulty(_DifficultyField, _ProtoEnum):  # type: ignore[misc]  # see _EnumType
    """The difficulty band of a task (proto ``taskspec.v1.Difficulty``)."""

    # generated members: taskspec.v1.Difficulty
    EASY = 1, "easy"
    MEDIUM = 2, "medium"
    HARD = 3, "hard"
    # end of generated members

    @classmethod
    def _descriptor(cls) -> EnumDescriptor:
        return taskspec_pb2.Difficulty.DESCRIPTOR


class GeneratedKind(_GeneratedKindField, _ProtoEnum):  # type: ignore[misc]  # see _EnumType
    """The provenance of a task (proto ``taskspec.v1.GeneratedKind``)."""

    # generated members: taskspec.v1.GeneratedKind
    KG_TEMPLATE = 1, "kg_template"
    BENCHMARK_SEED = 2, "benchmark_seed"
    # end of generated members

    @classmethod
    def _descriptor(cls) -> EnumDescriptor:
        return taskspec_pb2.GeneratedKind.DESCRIPTOR
