"""The contract options of the proto, read once from the descriptors.

``proto/taskspec/v1/options.proto`` declares, on every field reachable from
TaskSpec, how YAML writes it (presence), whether the agent may see it
(visibility) and its Validate rule, and on TaskSpec the limits of a
document. This module is the one place that reads those options; the YAML
bridge's layout, the agent view, the rules and the limits are all built
from what it returns, so a field added to the proto flows through with no
table to edit.

A field without a decision is an error of the schema, not of a document:
:func:`contract_problems` names each one with what there is to decide, and
importing the package fails with the first of them (:class:`ContractError`),
so the mistake shows as one message instead of a thousand failing tests.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final, NamedTuple, cast

from google.protobuf.descriptor import Descriptor, FieldDescriptor, FileDescriptor
from google.protobuf.descriptor_pb2 import FieldOptions, MessageOptions

from taskspec.v1 import options_pb2, taskspec_pb2

__all__ = [
    "ContractError",
    "FieldContract",
    "Limits",
    "contract_problems",
    "field_contract",
    "field_contract_of",
    "limits",
    "limits_of",
    "option_schema_problems",
    "reachable_fields",
]

FieldContract = options_pb2.FieldContract
Limits = options_pb2.Limits

# The generated stubs type the extensions as plain field descriptors, which
# the typed Extensions mapping does not take; both are read through these.
_FIELD_EXT: Final[Any] = options_pb2.field
_LIMITS_EXT: Final[Any] = options_pb2.limits

_PRESENCE: Final = options_pb2.Presence
_VISIBILITY: Final = options_pb2.Visibility
_CHECK: Final = options_pb2.Check


class ContractError(RuntimeError):
    """The proto's contract options are missing or do not fit their field."""


class _Walked(NamedTuple):
    field: FieldDescriptor
    path: str
    hidden_parent: bool


def _is_map(fd: FieldDescriptor) -> bool:
    msg = fd.message_type
    return msg is not None and bool(msg.GetOptions().map_entry)


def _walk(desc: Descriptor, path: str, hidden: bool, seen: set[str]) -> Iterator[_Walked]:
    for fd in sorted(desc.fields, key=lambda f: f.number):
        fpath = f"{path}.{fd.name}" if path else fd.name
        yield _Walked(fd, fpath, hidden)
        msg = fd.message_type
        if msg is not None and not _is_map(fd) and msg.full_name not in seen:
            child_hidden = hidden or _visibility(fd) == _VISIBILITY.VISIBILITY_HIDDEN
            yield from _walk(msg, fpath, child_hidden, seen | {msg.full_name})


def reachable_fields(root: Descriptor | None = None) -> list[tuple[FieldDescriptor, str]]:
    """Every field reachable from *root* (TaskSpec) with its YAML path, depth first by number.

    This is the order of the Go package's Validate checks, and so of the rules.
    """
    root = root or cast(Descriptor, taskspec_pb2.TaskSpec.DESCRIPTOR)
    return [(w.field, w.path) for w in _walk(root, "", False, {root.full_name})]


def _visibility(fd: FieldDescriptor) -> int:
    return int(field_contract(fd).visibility)


def field_contract(fd: FieldDescriptor) -> options_pb2.FieldContract:
    """The ``(taskspec.v1.field)`` option of *fd* (all zero when the field has none)."""
    return field_contract_of(fd.GetOptions())


def field_contract_of(options: FieldOptions) -> options_pb2.FieldContract:
    """The ``(taskspec.v1.field)`` option in a field's options message."""
    return cast(options_pb2.FieldContract, options.Extensions[_FIELD_EXT])


def limits_of(options: MessageOptions) -> options_pb2.Limits:
    """The ``(taskspec.v1.limits)`` option in a message's options message."""
    return cast(options_pb2.Limits, options.Extensions[_LIMITS_EXT])


#: What a rule's check demands of the field's type: the field's kind as
#: ``(cpp_type, repeated)``, and whether the check takes a bound.
_CHECK_FITS: Final = {
    _CHECK.CHECK_EQUALS: ((FieldDescriptor.CPPTYPE_INT64, False), True),
    _CHECK.CHECK_AT_LEAST: ((FieldDescriptor.CPPTYPE_INT64, False), True),
    _CHECK.CHECK_NOT_BLANK: ((FieldDescriptor.CPPTYPE_STRING, False), False),
    _CHECK.CHECK_DEFINED: ((FieldDescriptor.CPPTYPE_ENUM, False), False),
    _CHECK.CHECK_NOT_EMPTY: ((FieldDescriptor.CPPTYPE_STRING, True), False),
}


def _field_problems(fd: FieldDescriptor, hidden_parent: bool) -> Iterator[str]:
    name = fd.full_name
    if not fd.GetOptions().HasExtension(_FIELD_EXT):
        yield (
            f"{name}: no (taskspec.v1.field) option: decide its presence (PRESENCE_ALWAYS or"
            " PRESENCE_OMIT_EMPTY), its visibility to the agent (VISIBILITY_SHOWN or"
            " VISIBILITY_HIDDEN) and whether it has a Validate rule; see CONTRIBUTING.md"
        )
        return
    c = field_contract(fd)
    if c.presence == _PRESENCE.PRESENCE_UNSPECIFIED:
        yield (
            f"{name}: no (taskspec.v1.field).presence: decide whether YAML omits it when empty"
            " (PRESENCE_OMIT_EMPTY) or always writes it (PRESENCE_ALWAYS)"
        )
    elif c.presence == _PRESENCE.PRESENCE_OMIT_UNSET and (
        fd.type != FieldDescriptor.TYPE_MESSAGE or fd.is_repeated
    ):
        yield f"{name}: PRESENCE_OMIT_UNSET is for singular message fields only"
    if c.visibility == _VISIBILITY.VISIBILITY_UNSPECIFIED:
        yield (
            f"{name}: no (taskspec.v1.field).visibility: decide whether the agent may see it"
            " (VISIBILITY_SHOWN) or not (VISIBILITY_HIDDEN)"
        )
    elif hidden_parent and c.visibility == _VISIBILITY.VISIBILITY_SHOWN:
        yield f"{name}: VISIBILITY_SHOWN under a hidden field: the agent never sees it"
    if not c.HasField("rule"):
        return
    rule = c.rule
    if rule.check not in _CHECK_FITS:
        yield f"{name}: its rule has no check: set rule.check"
        return
    (cpp_type, repeated), takes_bound = _CHECK_FITS[rule.check]
    check = _CHECK.Name(rule.check)
    if fd.cpp_type != cpp_type or fd.is_repeated != repeated or _is_map(fd):
        yield f"{name}: {check} does not apply to a field of this type"
    if rule.HasField("bound") != takes_bound:
        yield (
            f"{name}: rule.bound goes with CHECK_EQUALS and CHECK_AT_LEAST only, and they need one"
        )
    if not rule.message:
        yield f"{name}: its rule has no message: give the Go package's wording"


#: The attributes of the option messages this module reads, and the enum
#: values it implements. An ``options.proto`` that declares any other fails
#: import (and so ``make generate``) with a message naming it, so that
#: nothing the proto says is ignored silently: teaching this module and
#: ``go/cmd/protoc-gen-taskspec-go`` a new one is part of adding it. The
#: plugin keeps the same lists.
KNOWN_ATTRIBUTES: Final[Mapping[str, tuple[str, ...]]] = {
    "taskspec.v1.FieldContract": ("presence", "visibility", "rule"),
    "taskspec.v1.Rule": ("check", "bound", "message"),
    "taskspec.v1.Limits": ("max_document_bytes", "max_depth", "max_nodes"),
}
KNOWN_VALUES: Final[Mapping[str, tuple[str, ...]]] = {
    "taskspec.v1.Presence": (
        "PRESENCE_UNSPECIFIED",
        "PRESENCE_ALWAYS",
        "PRESENCE_OMIT_EMPTY",
        "PRESENCE_OMIT_UNSET",
    ),
    "taskspec.v1.Visibility": ("VISIBILITY_UNSPECIFIED", "VISIBILITY_SHOWN", "VISIBILITY_HIDDEN"),
    "taskspec.v1.Check": (
        "CHECK_UNSPECIFIED",
        "CHECK_EQUALS",
        "CHECK_AT_LEAST",
        "CHECK_NOT_BLANK",
        "CHECK_DEFINED",
        "CHECK_NOT_EMPTY",
    ),
}


def option_schema_problems(options_file: FileDescriptor | None = None) -> list[str]:
    """Every attribute or value ``options.proto`` declares that this module does not know.

    Also every one it reads that ``options.proto`` no longer declares.
    """
    f = options_file or options_pb2.DESCRIPTOR
    out: list[str] = []
    where = "proto/taskspec/v1/options.proto"
    for full, known in KNOWN_ATTRIBUTES.items():
        msg = f.message_types_by_name.get(full.rsplit(".", 1)[1])
        if msg is None:
            out.append(f"{where}: no message {full}: taskspec/_contract.py reads it")
            continue
        out.extend(_unknown(where, full, "attribute", known, [fd.name for fd in msg.fields]))
    for full, known in KNOWN_VALUES.items():
        enum = f.enum_types_by_name.get(full.rsplit(".", 1)[1])
        if enum is None:
            out.append(f"{where}: no enum {full}: taskspec/_contract.py reads it")
            continue
        out.extend(_unknown(where, full, "value", known, [v.name for v in enum.values]))
    return sorted(out)


def _unknown(
    where: str, full: str, what: str, known: tuple[str, ...], declared: list[str]
) -> Iterator[str]:
    for name in declared:
        if name not in known:
            yield (
                f"{where}: {full}.{name} is an option {what} taskspec/_contract.py does not know:"
                " teach go/cmd/protoc-gen-taskspec-go and taskspec/_contract.py what it means"
                " (see CONTRIBUTING.md)"
            )
    for name in known:
        if name not in declared:
            yield f"{where}: {full} has no {what} {name}, which taskspec/_contract.py reads"


def contract_problems(root: Descriptor | None = None) -> list[str]:
    """Every missing or ill-fitting contract option reachable from *root*, one line each."""
    root = root or cast(Descriptor, taskspec_pb2.TaskSpec.DESCRIPTOR)
    out: list[str] = []
    for walked in _walk(root, "", False, {root.full_name}):
        out.extend(_field_problems(walked.field, walked.hidden_parent))
    lim = limits_of(root.GetOptions())
    for name in ("max_document_bytes", "max_depth", "max_nodes"):
        if getattr(lim, name) <= 0:
            out.append(f"{root.full_name}: (taskspec.v1.limits).{name} must be set and positive")
    return out


def limits() -> options_pb2.Limits:
    """TaskSpec's ``(taskspec.v1.limits)``."""
    return limits_of(taskspec_pb2.TaskSpec.DESCRIPTOR.GetOptions())


_SCHEMA_PROBLEMS: Final = option_schema_problems()
if _SCHEMA_PROBLEMS:
    raise ContractError(
        _SCHEMA_PROBLEMS[0]
        + (f" (and {len(_SCHEMA_PROBLEMS) - 1} more)" if len(_SCHEMA_PROBLEMS) > 1 else "")
    )
_PROBLEMS: Final = contract_problems()
if _PROBLEMS:
    raise ContractError(
        f"proto/taskspec/v1/taskspec.proto: {_PROBLEMS[0]}"
        + (f" (and {len(_PROBLEMS) - 1} more)" if len(_PROBLEMS) > 1 else "")
    )
