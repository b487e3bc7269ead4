"""The StrEnums: Go's Valid() tables, proto conversion, and the pin to the descriptors."""

from __future__ import annotations

import enum

import pytest

from taskspec import Difficulty, GeneratedKind, Language
from taskspec.v1 import taskspec_pb2

ENUMS: list[tuple[type[enum.StrEnum], object, str]] = [
    (Language, taskspec_pb2.Language, "LANGUAGE_"),
    (Difficulty, taskspec_pb2.Difficulty, "DIFFICULTY_"),
    (GeneratedKind, taskspec_pb2.GeneratedKind, "GENERATED_KIND_"),
]


@pytest.mark.parametrize(("py", "pb", "prefix"), ENUMS)
def test_members_are_pinned_to_the_descriptor(
    py: type[enum.StrEnum], pb: object, prefix: str
) -> None:
    desc = pb.DESCRIPTOR  # type: ignore[attr-defined]
    expected = {
        v.name[len(prefix) :]: v.name[len(prefix) :].lower() for v in desc.values if v.number != 0
    }
    assert {m.name: m.value for m in py} == expected
    assert desc.values[0].name == prefix + "UNSPECIFIED"
    for member in py:
        assert member.to_proto() == desc.values_by_name[prefix + member.name].number  # type: ignore[attr-defined]
        assert py.from_proto(member.to_proto()) is member  # type: ignore[attr-defined]


# The validity tables of the seed: exactly these strings are Valid() in Go.
VALIDITY = [
    (
        Language,
        ["go", "python", "typescript"],
        ["", "Go", "GO", "golang", "py", "ts", "TypeScript", " go", "rust"],
    ),
    (Difficulty, ["easy", "medium", "hard"], ["", "Easy", "HARD", "trivial", "medium "]),
    (
        GeneratedKind,
        ["kg_template", "benchmark_seed"],
        ["", "kg-template", "KG_TEMPLATE", "template"],
    ),
]


@pytest.mark.parametrize(("py", "valid", "invalid"), VALIDITY)
def test_is_valid_tables(py: type[enum.StrEnum], valid: list[str], invalid: list[str]) -> None:
    for value in valid:
        assert py.is_valid(value), value  # type: ignore[attr-defined]
        assert py.is_valid(py(value))  # type: ignore[attr-defined]
    for value in invalid:
        assert not py.is_valid(value), value  # type: ignore[attr-defined]
    for other in (None, 1, b"go", 0):
        assert not py.is_valid(other)  # type: ignore[attr-defined]


def test_members_are_their_canonical_strings() -> None:
    assert str.__eq__(Language.GO, "go")
    assert f"{Difficulty.HARD}" == "hard"
    assert GeneratedKind("kg_template") is GeneratedKind.KG_TEMPLATE
    assert isinstance(Language.TYPESCRIPT, str)


@pytest.mark.parametrize("number", [0, 4, -1, 99])
def test_from_proto_rejects_unspecified_and_undefined(number: int) -> None:
    with pytest.raises(ValueError, match=f"{number} is not a valid Language proto value"):
        Language.from_proto(number)
