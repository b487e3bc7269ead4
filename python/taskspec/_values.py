"""Values every layer shares: the int64 range and :class:`EnumInfo`.

A leaf, importing nothing of the package, so that the contract's
constraints (:mod:`taskspec._constraints`), the limits, the readers and
the writer can all use them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

__all__ = ["INT64_MAX", "INT64_MIN", "UINT64_MAX", "EnumInfo"]

#: The range of Go's ``int64`` and protobuf's ``int64``: every integer field
#: of a TaskSpec holds one.
INT64_MIN: Final = -(1 << 63)
INT64_MAX: Final = (1 << 63) - 1

#: The largest ``uint64``: yaml.v3 resolves plain integers up to it before
#: Go's decoder refuses what does not fit the target field.
UINT64_MAX: Final = (1 << 64) - 1


class EnumInfo:
    """Two-way table between proto enum numbers and canonical YAML strings.

    The YAML spelling of a value is its proto name without the enum's
    UPPER_SNAKE prefix, lower-cased: ``LANGUAGE_GO`` is ``"go"``,
    ``GENERATED_KIND_KG_TEMPLATE`` is ``"kg_template"``. The UNSPECIFIED
    value is ``""``, which is the Go zero value of the string type.
    """

    __slots__ = ("from_string", "full_name", "to_string", "yaml_name")

    def __init__(
        self,
        full_name: str,
        yaml_name: str,
        to_string: Mapping[int, str],
        from_string: Mapping[str, int],
    ) -> None:
        self.full_name = full_name
        self.yaml_name = yaml_name
        self.to_string = to_string
        self.from_string = from_string

    def __repr__(self) -> str:
        return f"EnumInfo(full_name={self.full_name!r}, yaml_name={self.yaml_name!r})"
