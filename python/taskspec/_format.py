"""The encodings of a TaskSpec, by name (as the command line names them) and by extension.

A leaf that the readers, the engine and the API all use.
"""

from __future__ import annotations

import enum
import os

from taskspec._codes import UNSUPPORTED_FORMAT
from taskspec._errors import TaskSpecError, Violation
from taskspec._forms_gen import (
    HINT_UNSUPPORTED_FORMAT_ONE_OF,
    MSG_UNSUPPORTED_FORMAT_PLAIN,
    REASON_UNSUPPORTED_FORMAT_NO_EXTENSION,
)
from taskspec._words import render
from taskspec.bridge._gostr import go_quote

__all__ = ["Data", "Format", "file_format", "format_for_path", "to_format"]

Data = bytes | bytearray | memoryview


class Format(enum.StrEnum):
    """An encoding of a TaskSpec; the value is the name the command line uses."""

    #: Canonical YAML, byte-identical to the Go package's ``MarshalYAML``.
    YAML = "yaml"
    #: Proto3 JSON with the standard lowerCamelCase field names.
    JSON = "json"
    #: Binary protobuf, serialized deterministically.
    BINPB = "binpb"


_EXTENSIONS = {
    ".yaml": Format.YAML,
    ".yml": Format.YAML,
    ".json": Format.JSON,
    ".binpb": Format.BINPB,
    ".pb": Format.BINPB,
}


def format_for_path(path: str | os.PathLike[str]) -> Format | None:
    """The format a file name's extension names (case-insensitive), or None.

    The extension is ``pathlib``'s suffix, found without importing it.
    """
    name = os.path.basename(os.fspath(path).rstrip("/"))
    dot = name.rfind(".")
    return _EXTENSIONS.get(name[dot:].lower()) if 0 < dot < len(name) - 1 else None


def file_format(path: str | os.PathLike[str], fmt: Format | str | None = None) -> Format:
    """The format :func:`taskspec.load` and :func:`taskspec.save` read and write *path* in.

    *fmt* when given (an unknown name is a :class:`~taskspec.TaskSpecError`),
    else the one the extension names (:func:`format_for_path`). A name whose
    extension names no format is a :class:`~taskspec.TaskSpecError` with
    code TS903 whose hint lists the extensions, in the Go library's words
    (its ``FormatError``).
    """
    if fmt is not None:
        return to_format(fmt)
    found = format_for_path(path)
    if found is not None:
        return found
    name = os.fspath(path).rstrip("/")
    name = os.path.basename(name) if name else os.fspath(path)[:1] or "."
    raise TaskSpecError(
        [
            Violation(
                "",
                render(
                    MSG_UNSUPPORTED_FORMAT_PLAIN,
                    reason=render(REASON_UNSUPPORTED_FORMAT_NO_EXTENSION, name=go_quote(name)),
                ),
                hint=render(HINT_UNSUPPORTED_FORMAT_ONE_OF, extensions=", ".join(_EXTENSIONS)),
                code=UNSUPPORTED_FORMAT,
            )
        ]
    )


def to_format(fmt: Format | str) -> Format:
    """*fmt* as a :class:`Format`; an unknown name is a :class:`~taskspec.TaskSpecError`."""
    try:
        return Format(fmt)
    except ValueError:
        names = ", ".join(f.value for f in Format)
        shown = go_quote(fmt) if isinstance(fmt, str) else type(fmt).__name__
        raise TaskSpecError(
            [Violation("", f"unknown format {shown}", hint=f"expected one of: {names}")]
        ) from None
