"""Idiomatic Python enums for the TaskSpec enum types.

The Go package models these as string types, so the canonical YAML values
(``"go"``, ``"easy"``, ``"kg_template"``) are what people read, write and
compare. :class:`enum.StrEnum` gives the same feel in Python: a member *is*
its canonical string. The members are written out so that type checkers
see them, but not by hand: ``make generate`` writes each class's block of
members from the proto enum descriptors (``scripts/gen_enums.py``), and a
test pins them, so the two cannot drift apart.
"""

from __future__ import annotations

import enum
from typing import Self

from google.protobuf.descriptor import EnumDescriptor

from taskspec.bridge import _layout
from taskspec.v1 import taskspec_pb2

__all__ = ["Difficulty", "GeneratedKind", "Language"]


class _ProtoStrEnum(enum.StrEnum):
    """Shared behaviour: Go's ``Valid()`` and conversion to the proto enum."""

    @classmethod
    def _descriptor(cls) -> EnumDescriptor:
        raise NotImplementedError

    @classmethod
    def is_valid(cls, value: object) -> bool:
        """Whether *value* is a recognised member, with Go's ``Valid()`` semantics.

        Only the exact canonical string (or a member) is valid: case
        matters, and the empty string, ``None`` and proto enum numbers are
        not valid.
        """
        return isinstance(value, str) and value in cls._value2member_map_

    def to_proto(self) -> int:
        """The proto enum number of this member."""
        return _layout.enum_info(self._descriptor()).from_string[self.value]

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


class Language(_ProtoStrEnum):
    """The programming language a task targets (proto ``taskspec.v1.Language``)."""

    # generated members: taskspec.v1.Language
    GO = "go"
    PYTHON = "python"
    TYPESCRIPT = "typescript"
    # end of generated members

    @classmethod
    def _descriptor(cls) -> EnumDescriptor:
        return taskspec_pb2.Language.DESCRIPTOR


class Difficulty(_ProtoStrEnum):
    """The difficulty band of a task (proto ``taskspec.v1.Difficulty``)."""

    # generated members: taskspec.v1.Difficulty
    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    # end of generated members

    @classmethod
    def _descriptor(cls) -> EnumDescriptor:
        return taskspec_pb2.Difficulty.DESCRIPTOR


class GeneratedKind(_ProtoStrEnum):
    """The provenance of a task (proto ``taskspec.v1.GeneratedKind``)."""

    # generated members: taskspec.v1.GeneratedKind
    KG_TEMPLATE = "kg_template"
    BENCHMARK_SEED = "benchmark_seed"
    # end of generated members

    @classmethod
    def _descriptor(cls) -> EnumDescriptor:
        return taskspec_pb2.GeneratedKind.DESCRIPTOR
