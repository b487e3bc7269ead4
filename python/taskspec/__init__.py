"""taskspec: the TaskSpec v1 contract for Python services.

A TaskSpec is one evaluable programming task: its language, difficulty,
provenance, prompt, expected files and hidden verification commands. Go
services read and write it as ``taskspec.yaml`` sidecars; this package reads
and writes the same sidecars, byte for byte, on top of the protobuf messages
generated from ``proto/taskspec/v1/taskspec.proto``. The same record also
travels as binary protobuf and proto3 JSON: :func:`convert`, :func:`parse`
and :func:`marshal` move it between the three :class:`Format` values, in
Go's order (binary byte for byte as Go's deterministic ``proto.Marshal``),
and :func:`load` and :func:`save` read and write a file in the format its
extension names.

Every error this package raises is a :class:`TaskSpecError`.
"""

from __future__ import annotations

#: ``typing.TYPE_CHECKING`` without importing typing: type checkers read the
#: block below as the real imports, and at run time it costs nothing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from taskspec._agent import agent_view
    from taskspec._api import (
        convert,
        marshal,
        marshal_yaml,
        parse,
        parse_binpb,
        parse_json,
        parse_task_spec,
        signal_keys,
        validate,
    )
    from taskspec._artifacts import artifact_path, is_local_path
    from taskspec._binpb import marshal_binpb
    from taskspec._check import check
    from taskspec._difficulty import derive_difficulty
    from taskspec._enums import Difficulty, GeneratedKind, Language
    from taskspec._errors import (
        DecodeError,
        Fix,
        InvalidDocumentError,
        TaskSpecError,
        ValidationError,
        Violation,
    )
    from taskspec._fixes import apply_fixes, format_document
    from taskspec._format import Format, format_for_path
    from taskspec._io import load, save
    from taskspec._json import marshal_json
    from taskspec._problem_code import Code
    from taskspec._registry import Generator, PluginFailure, Registry
    from taskspec._rules import CURRENT_TASK_SPEC_VERSION
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
    "Code",
    "DecodeError",
    "Difficulty",
    "Fix",
    "Format",
    "GenerateOptions",
    "GeneratedFrom",
    "GeneratedKind",
    "Generator",
    "InvalidDocumentError",
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
    "apply_fixes",
    "artifact_path",
    "check",
    "convert",
    "derive_difficulty",
    "format_document",
    "format_for_path",
    "is_local_path",
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


#: Where each public name lives. Importing the package loads none of them:
#: the first use of a name imports its module (PEP 562), so a caller that
#: only parses YAML never pays for the converter, the registry or the
#: protobuf JSON support. ``tests/test_startup.py`` pins this table to
#: ``__all__`` and to the imports above.
_LAZY: dict[str, str] = {
    "CURRENT_TASK_SPEC_VERSION": "taskspec._rules",
    "Code": "taskspec._problem_code",
    "DecodeError": "taskspec._errors",
    "Difficulty": "taskspec._enums",
    "Fix": "taskspec._errors",
    "Format": "taskspec._format",
    "GenerateOptions": "taskspec.v1.taskspec_pb2",
    "GeneratedFrom": "taskspec.v1.taskspec_pb2",
    "GeneratedKind": "taskspec._enums",
    "Generator": "taskspec._registry",
    "InvalidDocumentError": "taskspec._errors",
    "KGQuery": "taskspec.v1.taskspec_pb2",
    "Language": "taskspec._enums",
    "PluginFailure": "taskspec._registry",
    "Registry": "taskspec._registry",
    "SolutionArtifact": "taskspec.v1.taskspec_pb2",
    "TaskSpec": "taskspec.v1.taskspec_pb2",
    "TaskSpecError": "taskspec._errors",
    "ValidationError": "taskspec._errors",
    "Verification": "taskspec.v1.taskspec_pb2",
    "Violation": "taskspec._errors",
    "agent_view": "taskspec._agent",
    "apply_fixes": "taskspec._fixes",
    "artifact_path": "taskspec._artifacts",
    "check": "taskspec._check",
    "convert": "taskspec._api",
    "derive_difficulty": "taskspec._difficulty",
    "format_document": "taskspec._fixes",
    "format_for_path": "taskspec._format",
    "is_local_path": "taskspec._artifacts",
    "load": "taskspec._io",
    "marshal": "taskspec._api",
    "marshal_binpb": "taskspec._binpb",
    "marshal_json": "taskspec._json",
    "marshal_yaml": "taskspec._api",
    "parse": "taskspec._api",
    "parse_binpb": "taskspec._api",
    "parse_json": "taskspec._api",
    "parse_task_spec": "taskspec._api",
    "save": "taskspec._io",
    "signal_keys": "taskspec._api",
    "validate": "taskspec._api",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is not None:
        from importlib import import_module  # noqa: PLC0415

        value = getattr(import_module(module), name)
        globals()[name] = value  # later lookups skip this function
        return value
    # __version__ comes from the installed distribution's metadata, the one
    # place the version is written; it is looked up on first use only.
    if name == "__version__":
        from taskspec._version import version  # noqa: PLC0415

        return version()
    # __compiled__ is True when the YAML bridge's hot modules run compiled
    # (mypyc extension modules, built by ``make compiled``), False for the
    # pure-Python modules. Looked up on first use, like the names above.
    if name == "__compiled__":
        from taskspec._version import is_compiled  # noqa: PLC0415

        compiled = is_compiled()
        globals()[name] = compiled
        return compiled
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | {"__compiled__", "__version__"})
