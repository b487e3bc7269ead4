"""The contract options of the proto, read once from the descriptors.

``proto/taskspec/v1/options.proto`` declares, on every field reachable from
TaskSpec, how YAML writes it (presence), whether the agent may see it
(visibility) and its Validate rules, and on TaskSpec the limits of a
document. This module is the one place that reads those options; the YAML
bridge's layout, the agent view, the rules and the limits are all built
from what it returns, so a field added to the proto flows through with no
table to edit.

The options are checked once, by ``tools/protoc-gen-taskspec-go``: ``make
generate`` runs it, and stops naming the field, before this library can
read a changed proto, so this module trusts the descriptors. It checks only
what a generated tree cannot promise: that each kind of constraint the
proto declares has its hand-written Python implementation
(:func:`implementation_problems`); importing the package fails with the
first one missing (:class:`ContractError`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any, Final, NamedTuple, cast

from google.protobuf.descriptor import Descriptor, FieldDescriptor, FileDescriptor
from google.protobuf.descriptor_pb2 import FieldOptions, MessageOptions

from taskspec._constraints import IMPLEMENTATIONS
from taskspec.v1 import options_pb2, taskspec_pb2

__all__ = [
    "ContractError",
    "DeclaredKind",
    "FieldContract",
    "Limits",
    "constraint_kinds",
    "field_contract",
    "field_contract_of",
    "implementation_problems",
    "kind_fits",
    "limits",
    "limits_of",
    "reachable_fields",
]

FieldContract = options_pb2.FieldContract
Limits = options_pb2.Limits

# The generated stubs type the extensions as plain field descriptors, which
# the typed Extensions mapping does not take; both are read through these.
_FIELD_EXT: Final[Any] = options_pb2.field
_LIMITS_EXT: Final[Any] = options_pb2.limits
_CONSTRAINT_EXT: Final[Any] = options_pb2.constraint


class ContractError(RuntimeError):
    """The proto's contract options and the Python library do not fit each other."""


def _is_map(fd: FieldDescriptor) -> bool:
    msg = fd.message_type
    return msg is not None and bool(msg.GetOptions().map_entry)


def _walk(desc: Descriptor, path: str, seen: set[str]) -> Iterator[tuple[FieldDescriptor, str]]:
    for fd in sorted(desc.fields, key=lambda f: f.number):
        fpath = f"{path}.{fd.name}" if path else fd.name
        yield fd, fpath
        msg = fd.message_type
        if msg is not None and not _is_map(fd) and msg.full_name not in seen:
            yield from _walk(msg, fpath, seen | {msg.full_name})


def reachable_fields(root: Descriptor | None = None) -> list[tuple[FieldDescriptor, str]]:
    """Every field reachable from *root* (TaskSpec) with its YAML path, depth first by number.

    This is the order of the Go package's Validate checks, and so of the rules.
    """
    root = root or cast(Descriptor, taskspec_pb2.TaskSpec.DESCRIPTOR)
    return list(_walk(root, "", {root.full_name}))


def field_contract(fd: FieldDescriptor) -> options_pb2.FieldContract:
    """The ``(taskspec.v1.field)`` option of *fd* (all zero when the field has none)."""
    return field_contract_of(fd.GetOptions())


def field_contract_of(options: FieldOptions) -> options_pb2.FieldContract:
    """The ``(taskspec.v1.field)`` option in a field's options message."""
    return cast(options_pb2.FieldContract, options.Extensions[_FIELD_EXT])


def limits_of(options: MessageOptions) -> options_pb2.Limits:
    """The ``(taskspec.v1.limits)`` option in a message's options message."""
    return cast(options_pb2.Limits, options.Extensions[_LIMITS_EXT])


#: The field each type of rules fits, by its name in FieldRules' oneof: the
#: field's kind as ``(cpp_type, repeated)``. A list's rules are a list of
#: strings' (its items are strings).
_RULES_FIT: Final = {
    "string": (FieldDescriptor.CPPTYPE_STRING, False),
    "int64": (FieldDescriptor.CPPTYPE_INT64, False),
    "enum": (FieldDescriptor.CPPTYPE_ENUM, False),
    "repeated": (FieldDescriptor.CPPTYPE_STRING, True),
}

#: The messages a constraint kind's field holds: one with no parameter, one with a bound.
_DEMAND: Final = "taskspec.v1.Demand"
_BOUND: Final = "taskspec.v1.Bound"


class DeclaredKind(NamedTuple):
    """A kind of constraint as ``options.proto`` declares it.

    ``name``: the kind's full proto name (``taskspec.v1.StringRules.max_len``);
    ``field``: its declaration; ``number``: its code number; ``problem``: its
    own catalogue entry, or None for a kind whose code is a ProblemCode value;
    ``bounded``: whether it takes a bound (a ``Bound``, not a ``Demand``).
    """

    name: str
    field: FieldDescriptor
    number: int
    problem: Any
    bounded: bool


def _rules_messages(options_file: FileDescriptor) -> list[Descriptor]:
    """The rules messages FieldRules chooses among, in its order."""
    field_rules = options_file.message_types_by_name.get("FieldRules")
    if field_rules is None:
        return []
    return [fd.message_type for fd in field_rules.fields if fd.message_type is not None]


def _is_kind(fd: FieldDescriptor) -> bool:
    msg = fd.message_type
    return msg is not None and msg.full_name in (_DEMAND, _BOUND)


def constraint_kinds(options_file: FileDescriptor | None = None) -> list[DeclaredKind]:
    """Every kind of constraint ``options.proto`` declares, rules message by rules message.

    A kind is a field of a rules message (the message types of FieldRules)
    that holds a Demand or a Bound; its ``(taskspec.v1.constraint)`` gives
    its code, and its catalogue entry when the code is no ProblemCode value.
    """
    f = options_file or options_pb2.DESCRIPTOR
    out: list[DeclaredKind] = []
    for msg in _rules_messages(f):
        for fd in msg.fields:
            if not _is_kind(fd):
                continue
            declared = fd.GetOptions().Extensions[_CONSTRAINT_EXT]
            problem = declared.problem if declared.HasField("problem") else None
            bounded = fd.message_type is not None and fd.message_type.full_name == _BOUND
            out.append(DeclaredKind(fd.full_name, fd, int(declared.code), problem, bounded))
    return out


def kind_fits(fd: FieldDescriptor, kind: str, item: bool = False) -> bool:
    """Whether a constraint of *kind* (a full name) fits field *fd*, or each item of it.

    A kind fits where its rules message does (:data:`_RULES_FIT`); an item
    rule is one of a list of strings' items, in RepeatedRules' ``items``.
    """
    owner = kind.rsplit(".", 1)[0]
    field_rules = options_pb2.FieldRules.DESCRIPTOR
    if item:
        repeated = field_rules.fields_by_name["repeated"].message_type
        items = repeated.fields_by_name.get("items") if repeated is not None else None
        message = items.message_type if items is not None else None
        if message is None or message.full_name != owner:
            return False
        fits = _RULES_FIT["repeated"]
    else:
        which = [
            f.name
            for f in field_rules.fields
            if f.message_type and f.message_type.full_name == owner
        ]
        if len(which) != 1 or which[0] not in _RULES_FIT:
            return False
        fits = _RULES_FIT[which[0]]
    return _fits(fd, fits)


def _fits(fd: FieldDescriptor, kind: tuple[int, bool]) -> bool:
    """Whether *fd* is a field of *kind*, ``(cpp_type, repeated)``, and not a map."""
    cpp_type, repeated = kind
    return fd.cpp_type == cpp_type and fd.is_repeated == repeated and not _is_map(fd)


def implementation_problems(
    options_file: FileDescriptor | None = None, implemented: Collection[str] | None = None
) -> list[str]:
    """Every kind of constraint declared without a Python implementation, and the reverse.

    The one check of the options this module makes: whether each kind
    ``options.proto`` declares has its entry in *implemented* (by default
    :data:`taskspec._constraints.IMPLEMENTATIONS`), and each entry a
    declared kind. A generated tree cannot promise it, since the
    implementations are written by hand. Everything else about the options
    (a field without a decision, rules that do not fit their field, an
    attribute or value nobody reads, a kind's code) is checked once, by
    ``tools/protoc-gen-taskspec-go``, which ``make generate`` runs before
    either library reads a changed proto.
    """
    where = "proto/taskspec/v1/options.proto"
    done = IMPLEMENTATIONS.keys() if implemented is None else implemented
    kinds = constraint_kinds(options_file or options_pb2.DESCRIPTOR)
    out = [
        f"{where}: {kind.name} is a constraint kind with no Python implementation:"
        " add one to python/taskspec/_constraints.py (see CONTRIBUTING.md)"
        for kind in kinds
        if kind.name not in done
    ]
    declared = {kind.name for kind in kinds}
    out.extend(
        f"python/taskspec/_constraints.py implements {name}, a constraint kind"
        f" {where} does not declare"
        for name in sorted(done)
        if name not in declared
    )
    return out


def limits() -> options_pb2.Limits:
    """TaskSpec's ``(taskspec.v1.limits)``."""
    return limits_of(taskspec_pb2.TaskSpec.DESCRIPTOR.GetOptions())


_PROBLEMS: Final = implementation_problems()
if _PROBLEMS:
    raise ContractError(
        _PROBLEMS[0] + (f" (and {len(_PROBLEMS) - 1} more)" if len(_PROBLEMS) > 1 else "")
    )
