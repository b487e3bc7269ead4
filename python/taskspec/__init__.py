"""taskspec: the TaskSpec v1 contract for Python services.

A TaskSpec is one evaluable programming task: its language, difficulty,
provenance, prompt, expected files and hidden verification commands. Go
services read and write it as ``taskspec.yaml`` sidecars; this package reads
and writes the same sidecars, byte for byte, on top of the protobuf messages
generated from ``proto/taskspec/v1/taskspec.proto``. The same record also
travels as binary protobuf and proto3 JSON: :func:`convert`, :func:`parse`
and :func:`marshal` move it between the three :class:`Format` values, in
Go's order (binary byte for byte as Go's deterministic ``proto.Marshal``).

Every error this package raises is a :class:`TaskSpecError`.
"""

from __future__ import annotations

from taskspec._agent import agent_view
from taskspec._api import marshal_yaml, parse_task_spec, signal_keys, validate
from taskspec._convert import (
    Format,
    convert,
    format_for_path,
    marshal,
    marshal_binpb,
    marshal_json,
    parse,
    parse_binpb,
    parse_json,
)
from taskspec._difficulty import derive_difficulty
from taskspec._enums import Difficulty, GeneratedKind, Language
from taskspec._errors import DecodeError, TaskSpecError, ValidationError, Violation
from taskspec._io import load, save
from taskspec._registry import Generator, PluginFailure, Registry
from taskspec._validate import CURRENT_TASK_SPEC_VERSION
from taskspec.v1.taskspec_pb2 import (
    GeneratedFrom,
    GenerateOptions,
    KGQuery,
    SolutionArtifact,
    TaskSpec,
    Verification,
)

__all__ = [
    "CURRENT_TASK_SPEC_VERSION",
    "DecodeError",
    "Difficulty",
    "Format",
    "GenerateOptions",
    "GeneratedFrom",
    "GeneratedKind",
    "Generator",
    "KGQuery",
    "Language",
    "PluginFailure",
    "Registry",
    "SolutionArtifact",
    "TaskSpec",
    "TaskSpecError",
    "ValidationError",
    "Verification",
    "Violation",
    "agent_view",
    "convert",
    "derive_difficulty",
    "format_for_path",
    "load",
    "marshal",
    "marshal_binpb",
    "marshal_json",
    "marshal_yaml",
    "parse",
    "parse_binpb",
    "parse_json",
    "parse_task_spec",
    "save",
    "signal_keys",
    "validate",
]


def __getattr__(name: str) -> str:
    # __version__ comes from the installed distribution's metadata, the one
    # place the version is written; it is looked up on first use only.
    if name == "__version__":
        from taskspec._version import version  # noqa: PLC0415

        return version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _is_compiled() -> bool:
    from importlib.machinery import ExtensionFileLoader  # noqa: PLC0415
    from importlib.util import find_spec  # noqa: PLC0415

    spec = find_spec("taskspec.bridge._emit")
    return spec is not None and isinstance(spec.loader, ExtensionFileLoader)


#: True when the YAML bridge's hot modules run compiled (mypyc extension
#: modules, built by ``make compiled``), False for the pure-Python modules.
__compiled__: bool = _is_compiled()
