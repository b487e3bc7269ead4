"""The contract options of the proto, read once from the descriptors.

``proto/taskspec/v1/options.proto`` declares, on every field reachable from
TaskSpec, how YAML writes it (presence), whether the agent may see it
(visibility) and its Validate rules, and on TaskSpec the limits of a
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

from collections.abc import Collection, Iterator, Mapping
from typing import Any, Final, NamedTuple, cast

from google.protobuf.descriptor import Descriptor, FieldDescriptor, FileDescriptor
from google.protobuf.descriptor_pb2 import FieldOptions, MessageOptions

from taskspec._constraints import IMPLEMENTATIONS
from taskspec.v1 import options_pb2, problems_pb2, taskspec_pb2

__all__ = [
    "ContractError",
    "DeclaredKind",
    "FieldContract",
    "Limits",
    "constraint_kinds",
    "contract_problems",
    "field_contract",
    "field_contract_of",
    "kind_fits",
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
_CONSTRAINT_EXT: Final[Any] = options_pb2.constraint

_PRESENCE: Final = options_pb2.Presence
_VISIBILITY: Final = options_pb2.Visibility


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


def _kind_problems(
    where: str, options_file: FileDescriptor, implemented: Collection[str]
) -> Iterator[str]:
    """What is wrong with the declarations of the constraint kinds, and their implementations."""
    numbers = {v.number for v in problems_pb2.ProblemCode.DESCRIPTOR.values}
    seen: dict[int, str] = {}
    kinds = constraint_kinds(options_file)
    for kind in kinds:
        if not kind.field.GetOptions().HasExtension(_CONSTRAINT_EXT):
            yield (
                f"{where}: {kind.name} is a constraint kind with no (taskspec.v1.constraint):"
                " declare its code (see CONTRIBUTING.md)"
            )
            continue
        if not 100 <= kind.number <= 199:
            yield f"{where}: {kind.name}: its code {kind.number} is not in the 1xx range"
        if kind.number in seen:
            yield f"{where}: {kind.name}: code {kind.number} is {seen[kind.number]}'s too"
        seen[kind.number] = kind.name
        if (kind.number in numbers) == (kind.problem is not None):
            yield (
                f"{where}: {kind.name}: give its catalogue entry either as the ProblemCode value"
                f" {kind.number} or as its (taskspec.v1.constraint).problem, not both or neither"
            )
        if kind.name not in implemented:
            yield (
                f"{where}: {kind.name} is a constraint kind with no Python implementation:"
                " add one to python/taskspec/_constraints.py (see CONTRIBUTING.md)"
            )
    declared = {kind.name for kind in kinds}
    for name in implemented:
        if name not in declared:
            yield (
                f"python/taskspec/_constraints.py implements {name}, a constraint kind"
                f" {where} does not declare"
            )


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
    if c.HasField("rule"):
        yield (
            f"{name}: rule is v1's first form of a rule: write it under rules (see CONTRIBUTING.md)"
        )
    if c.HasField("rules"):
        yield from _rules_problems(fd, c.rules)


def _rules_problems(fd: FieldDescriptor, rules: options_pb2.FieldRules) -> Iterator[str]:
    name = fd.full_name
    which = rules.WhichOneof("type")
    if which is None:
        yield f"{name}: its rules set no type: write rules.string, int64, enum or repeated"
        return
    fits = _RULES_FIT.get(which)
    if fits is None:
        yield f"{name}: rules.{which} is a type of rules taskspec/_contract.py does not know"
        return
    if not _fits(fd, fits):
        yield f"{name}: rules.{which} does not apply to a field of this type"
        return
    yield from _constraint_problems(name, f"rules.{which}", getattr(rules, which))


def _constraint_problems(name: str, where: str, rules: Any) -> Iterator[str]:
    """What is wrong with the constraints one rules message sets."""
    set_fields = rules.ListFields()
    if not set_fields:
        yield f"{name}: {where} sets no constraint"
    for fd, value in set_fields:
        if _is_kind(fd):
            if not value.message:
                yield f"{name}: {where}.{fd.name} has no message: give the Go package's wording"
        elif fd.message_type is not None:
            yield from _constraint_problems(name, f"{where}.{fd.name}", value)


#: The attributes of the option messages this module reads, and the enum
#: values it implements. An ``options.proto`` that declares any other fails
#: import (and so ``make generate``) with a message naming it, so that
#: nothing the proto says is ignored silently: teaching this module and
#: ``tools/protoc-gen-taskspec-go`` a new one is part of adding it. The
#: plugin keeps the same lists.
#:
#: The kinds of constraint (the fields of the rules messages that hold a
#: Demand or a Bound) are not listed: each is known by its implementation in
#: :mod:`taskspec._constraints`, and one without is refused naming it.
KNOWN_ATTRIBUTES: Final[Mapping[str, tuple[str, ...]]] = {
    "taskspec.v1.FieldContract": ("presence", "visibility", "rule", "rules"),
    "taskspec.v1.Rule": ("check", "bound", "message"),
    "taskspec.v1.FieldRules": ("string", "int64", "enum", "repeated"),
    "taskspec.v1.StringRules": (),
    "taskspec.v1.Int64Rules": (),
    "taskspec.v1.EnumRules": (),
    "taskspec.v1.RepeatedRules": ("items",),
    "taskspec.v1.Demand": ("message",),
    "taskspec.v1.Bound": ("value", "message"),
    "taskspec.v1.ConstraintKind": ("code", "problem"),
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
    # v1's first form of a rule's kind, read only from the released baseline.
    "taskspec.v1.Check": (
        "CHECK_UNSPECIFIED",
        "CHECK_EQUALS",
        "CHECK_AT_LEAST",
        "CHECK_NOT_BLANK",
        "CHECK_DEFINED",
        "CHECK_NOT_EMPTY",
    ),
}


def option_schema_problems(
    options_file: FileDescriptor | None = None, implemented: Collection[str] | None = None
) -> list[str]:
    """Every attribute or value ``options.proto`` declares that this module does not know.

    Also every one it reads that ``options.proto`` no longer declares, and
    every kind of constraint it declares that has no implementation among
    *implemented* (by default :data:`taskspec._constraints.IMPLEMENTATIONS`),
    or whose code is not declared as it must be.
    """
    f = options_file or options_pb2.DESCRIPTOR
    done = IMPLEMENTATIONS.keys() if implemented is None else implemented
    out: list[str] = []
    where = "proto/taskspec/v1/options.proto"
    for full, known in KNOWN_ATTRIBUTES.items():
        msg = f.message_types_by_name.get(full.rsplit(".", 1)[1])
        if msg is None:
            out.append(f"{where}: no message {full}: taskspec/_contract.py reads it")
            continue
        declared = [fd.name for fd in msg.fields if not _is_kind(fd)]
        out.extend(_unknown(where, full, "attribute", known, declared))
    for full, known in KNOWN_VALUES.items():
        enum = f.enum_types_by_name.get(full.rsplit(".", 1)[1])
        if enum is None:
            out.append(f"{where}: no enum {full}: taskspec/_contract.py reads it")
            continue
        out.extend(_unknown(where, full, "value", known, [v.name for v in enum.values]))
    out.extend(_kind_problems(where, f, done))
    return sorted(out)


def _unknown(
    where: str, full: str, what: str, known: tuple[str, ...], declared: list[str]
) -> Iterator[str]:
    for name in declared:
        if name not in known:
            yield (
                f"{where}: {full}.{name} is an option {what} taskspec/_contract.py does not know:"
                " teach tools/protoc-gen-taskspec-go and taskspec/_contract.py what it means"
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
