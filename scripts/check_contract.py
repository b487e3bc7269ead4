"""Check the proto's contract options against the released baseline.

``buf breaking`` compares names, numbers and types, and ignores custom
options and declaration order. But both are just as much a promise to
readers: a field that moves from always written to omitted when empty, a
rule that changes its message, a field that the agent could see and now
cannot, a lower limit, or two fields declared in a new order (the YAML key
order, in both languages) each changes what v1 documents mean, how they are
written, or which of them are accepted. Such a change needs a new contract
version (CONTRIBUTING.md, "Cutting a new contract version"), as a
renumbering does.

The check, run by ``make breaking``:

- every field of the baseline that is reachable from TaskSpec keeps its
  ``(taskspec.v1.field)`` option exactly, attribute by attribute, and its
  rules constraint by constraint (the baseline's ``rule``, v1's first form,
  is read as the constraint that replaced it);
- every message reachable from TaskSpec declares the baseline's fields in
  the baseline's order, since that order is the YAML key order;
- TaskSpec keeps its ``(taskspec.v1.limits)`` exactly;
- a field the baseline does not have must be omitted from YAML when empty
  (so documents that do not use it are written as before), and must not
  have a constraint that its zero value breaks (so documents written before
  it stay valid; asked of the kind's implementation in
  ``taskspec/_constraints.py``), unless its rules apply only when it is set
  (``ignore: IGNORE_IF_ZERO_VALUE``);
- a change to the options' own schema (``options.proto``) is reported in one
  line: an additive one (a new attribute, a new value, a new kind of
  constraint) as a note, any other (a renumbered extension, a removed or
  retyped attribute, a kind's code changed) as a breaking change.

Each image is read through its own options schema (a descriptor pool built
from the image), never through the generated stubs, so the check works from
any state of ``options.proto`` and the two sides never need the same one.
Removed, renamed and renumbered fields are ``buf breaking``'s to report.
Whether the options are well formed (every field decided, rules that fit,
one block per attribute) is not checked here: ``tools/protoc-gen-taskspec-go``
checks it once, in ``make generate``.

Usage: ``python scripts/check_contract.py --against release/taskspec-v1.binpb
[--buf .venv/bin/buf] [--image current.binpb] [--release]``. Exit status 1
lists every problem, one line each. With ``--release`` (``make
release-baseline``) it says whether the current proto may become the new
baseline: when it has breaking changes of the contract options, only with
the schema version (the value of task_spec_version's Int64Rules.equals
constraint) bumped; when ``buf breaking`` finds a change that breaks the
wire (a removed enum value, a renumbered field) in a file of package
``taskspec.v1``, never, whatever the schema version says: v1 readers would
misread the bytes, so such a change goes into a new package
(``taskspec.v2``).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, cast

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

ROOT = Path(__file__).resolve().parent.parent
ROOT_MESSAGE = "taskspec.v1.TaskSpec"
OPTIONS_FILE = "taskspec/v1/options.proto"
FIELD_EXTENSION = "taskspec.v1.field"
LIMITS_EXTENSION = "taskspec.v1.limits"
CONSTRAINT_EXTENSION = "taskspec.v1.constraint"
VERSION_FIELD = f"{ROOT_MESSAGE}.task_spec_version"
#: The directory of package taskspec.v1's files, as buf names them.
V1_FILES = "taskspec/v1/"
NEW_VERSION = (
    "that needs a new contract version (CONTRIBUTING.md, 'Cutting a new contract version')"
)

_Field = descriptor_pb2.FieldDescriptorProto


class Image:
    """A buf image (wire-compatible with a FileDescriptorSet), read through its own options."""

    def __init__(self, data: bytes) -> None:
        self.fds = descriptor_pb2.FileDescriptorSet.FromString(data)
        self.msgs: dict[str, descriptor_pb2.DescriptorProto] = {}
        for f in self.fds.file:
            self._add(f.package, f.message_type)
        self.pool = descriptor_pool.DescriptorPool()
        for f in self.fds.file:
            self.pool.Add(f)
        self.field_ext = self._extension(FIELD_EXTENSION)
        self.limits_ext = self._extension(LIMITS_EXTENSION)
        self.constraint_ext = self._extension(CONSTRAINT_EXTENSION)
        self._field_options = message_factory.GetMessageClass(
            self.pool.FindMessageTypeByName("google.protobuf.FieldOptions")
        )
        self._message_options = message_factory.GetMessageClass(
            self.pool.FindMessageTypeByName("google.protobuf.MessageOptions")
        )

    def _add(self, prefix: str, msgs: Iterable[descriptor_pb2.DescriptorProto]) -> None:
        for msg in msgs:
            name = f"{prefix}.{msg.name}"
            self.msgs[name] = msg
            self._add(name, msg.nested_type)

    def _extension(self, name: str) -> Any:
        try:
            return self.pool.FindExtensionByName(name)
        except KeyError:
            return None

    def options_file(self) -> descriptor_pb2.FileDescriptorProto | None:
        for f in self.fds.file:
            if f.name == OPTIONS_FILE:
                out = descriptor_pb2.FileDescriptorProto()
                out.CopyFrom(f)
                out.ClearField("source_code_info")
                return out
        return None

    def contract(self, field: _Field) -> Message | None:
        """The field's ``(taskspec.v1.field)`` as a message of this image's schema."""
        if self.field_ext is None:
            return None
        opts = self._field_options.FromString(field.options.SerializeToString())
        if not opts.HasExtension(self.field_ext):
            return None
        return cast(Message, opts.Extensions[self.field_ext])

    def constraint_code(self, field: _Field) -> str:
        """``code N`` for the declaration of a constraint kind, else ``""``."""
        if self.constraint_ext is None or not field.HasField("options"):
            return ""
        opts = self._field_options.FromString(field.options.SerializeToString())
        if not opts.HasExtension(self.constraint_ext):
            return ""
        return f"code {opts.Extensions[self.constraint_ext].code}"

    def limits(self, name: str) -> Message | None:
        if self.limits_ext is None:
            return None
        opts = self._message_options.FromString(self.msgs[name].options.SerializeToString())
        return cast(Message, opts.Extensions[self.limits_ext])


def load_image(data: bytes) -> Image:
    """An image of the schema, read through its own options schema."""
    return Image(data)


def _is_map(image: Image, field: _Field) -> bool:
    target = image.msgs.get(field.type_name.lstrip("."))
    return target is not None and target.options.map_entry


def reachable(image: Image) -> dict[str, _Field]:
    """Every field reachable from TaskSpec, by full name."""
    out: dict[str, _Field] = {}
    todo, seen = [ROOT_MESSAGE], {ROOT_MESSAGE}
    while todo:
        name = todo.pop()
        for field in image.msgs[name].field:
            out[f"{name}.{field.name}"] = field
            target = field.type_name.lstrip(".")
            if (
                field.type == _Field.TYPE_MESSAGE
                and not _is_map(image, field)
                and target not in seen
            ):
                seen.add(target)
                todo.append(target)
    return out


def _show(value: object) -> str:
    if isinstance(value, Message):
        text = " ".join(str(value).split())
        return "{" + text + "}" if text else "none"
    return str(value)


def _attributes(msg: Message | None) -> dict[str, object]:
    """The attributes *msg* sets, by name: an enum by its value's name."""
    out: dict[str, object] = {}
    if msg is None:
        return out
    for fd, value in msg.ListFields():
        if fd.type == FieldDescriptor.TYPE_ENUM and not fd.is_repeated:
            enum = fd.enum_type
            assert enum is not None
            v = enum.values_by_number.get(value)
            out[fd.name] = v.name if v is not None else value
        else:
            out[fd.name] = value
    return out


def _enum_attribute(msg: Message | None, name: str) -> str:
    value = _attributes(msg).get(name)
    return str(value) if value is not None else "none"


_WHY = {
    "presence": "v1 sidecars would be written differently",
    "visibility": "agents of v1 harnesses would see a different task",
}

#: The attributes that hold a field's rules: ``rules`` (typed constraints)
#: and v1's first form, ``rule``, in which the released baseline is written.
_RULE_ATTRIBUTES = ("rule", "rules")

#: v1's first form of a rule named its kind with a ``Check`` value; each is
#: the constraint kind that replaced it. The table is closed: ``Check`` is
#: deprecated and gains no value, new kinds are declared in the rules
#: messages of options.proto.
_LEGACY_KINDS = {
    "CHECK_EQUALS": "taskspec.v1.Int64Rules.equals",
    "CHECK_AT_LEAST": "taskspec.v1.Int64Rules.at_least",
    "CHECK_NOT_BLANK": "taskspec.v1.StringRules.not_blank",
    "CHECK_DEFINED": "taskspec.v1.EnumRules.defined",
    "CHECK_NOT_EMPTY": "taskspec.v1.RepeatedRules.not_empty",
}

#: One constraint on a field: its kind (the full name of its declaration),
#: its bound (None for a constraint without one), its message, whether it
#: applies to each item of the list rather than to the field, and whether
#: it applies only when the field is set (FieldRules.ignore).
Constraint = tuple[str, int | None, str, bool, bool]


def constraints(contract: Message | None) -> list[Constraint]:
    """The constraints a field's option sets, in either form, in Validate's order.

    Reading both forms into one shape lets a baseline written with ``rule``
    be compared with a proto written with ``rules``: the same rule in the
    other form is no change.
    """
    attrs = _attributes(contract)
    out: list[Constraint] = []
    legacy = attrs.get("rule")
    if isinstance(legacy, Message):
        a = _attributes(legacy)
        check = str(a.get("check", "CHECK_UNSPECIFIED"))
        bound = a.get("bound")
        kind = _LEGACY_KINDS.get(check, check)
        out.append(
            (
                kind,
                bound if isinstance(bound, int) else None,
                str(a.get("message", "")),
                False,
                False,
            )
        )
    rules = attrs.get("rules")
    if isinstance(rules, Message):
        when_set = _enum_attribute(rules, "ignore") == "IGNORE_IF_ZERO_VALUE"
        for _, typed in rules.ListFields():  # the one field of the oneof, and ignore
            if isinstance(typed, Message):
                out.extend(_typed_constraints(typed, item=False, when_set=when_set))
    return out


def _typed_constraints(typed: Message, *, item: bool, when_set: bool) -> Iterator[Constraint]:
    """The constraints of a rules message (StringRules, ...), by declaration number."""
    for fd, value in typed.ListFields():
        described = value.DESCRIPTOR
        if "message" not in described.fields_by_name:
            # items: each item's rules, which apply to every item there is
            yield from _typed_constraints(value, item=True, when_set=False)
            continue
        bound: int | None = None
        if "value" in described.fields_by_name:
            bound = int(value.value)
        yield (fd.full_name, bound, str(value.message), item, when_set)


def _show_constraints(found: list[Constraint]) -> str:
    if not found:
        return "none"
    parts = []
    for kind, bound, message, item, when_set in found:
        said = kind.removeprefix("taskspec.v1.")
        if bound is not None:
            said += f" {bound}"
        if when_set:
            said += " when set"
        parts.append(f"{'each item: ' if item else ''}{said} {message!r}")
    return "[" + "; ".join(parts) + "]"


def _contract_changes(name: str, old: Message | None, new: Message | None) -> Iterator[str]:
    before_rules, after_rules = constraints(old), constraints(new)
    if before_rules != after_rules:
        yield (
            f"{name}: rules changed from {_show_constraints(before_rules)} to "
            f"{_show_constraints(after_rules)}: v1 documents would be judged, or reported, "
            f"differently; {NEW_VERSION}"
        )
    a, b = _attributes(old), _attributes(new)
    for attr in sorted(a.keys() | b.keys(), key=lambda k: (k not in _WHY, k)):
        if attr in _RULE_ATTRIBUTES:
            continue
        before, after = a.get(attr), b.get(attr)
        if _show(before) == _show(after):
            continue
        why = _WHY.get(attr, "v1 documents would be treated differently")
        yield (
            f"{name}: {attr} changed from {_show(before) if before is not None else 'none'} to "
            f"{_show(after) if after is not None else 'none'}: {why}; {NEW_VERSION}"
        )


def _declaration_order(baseline: Image, current: Image) -> Iterator[str]:
    """Messages whose v1 fields are declared in a new order: the YAML key order changed."""
    messages = {name.rpartition(".")[0] for name in reachable(baseline)}
    for message in sorted(messages):
        new_msg = current.msgs.get(message)
        if new_msg is None:
            continue
        old_names = [f.name for f in baseline.msgs[message].field]
        new_names = [f.name for f in new_msg.field if f.name in old_names]
        old_names = [n for n in old_names if n in new_names]
        if old_names != new_names:
            yield (
                f"{message}: fields declared in a new order ({', '.join(old_names)} became "
                f"{', '.join(new_names)}): declaration order is the YAML key order of both "
                f"languages, so v1 sidecars would be written differently; {NEW_VERSION}"
            )


def _schema_changes(baseline: Image, current: Image) -> tuple[list[str], bool]:
    """What changed in the options' own schema, and whether all of it is additive.

    A constraint kind's declared code is part of its declaration: the
    catalogue's meaning of a code never changes.
    """
    old, new = baseline.options_file(), current.options_file()
    if old is None or new is None or old == new:
        return [], True
    changes: list[str] = []
    additive = True

    def compare(kind: str, before: dict[str, object], after: dict[str, object], of: str) -> None:
        nonlocal additive
        for key in sorted(before.keys() | after.keys()):
            if key not in before:
                changes.append(f"{of} gained {kind} {key}")
            elif key not in after:
                changes.append(f"{of} lost {kind} {key}")
                additive = False
            elif before[key] != after[key]:
                changes.append(f"{of}.{key} changed ({_show(before[key])} to {_show(after[key])})")
                additive = False

    def fields(image: Image, fs: Iterable[_Field]) -> dict[str, object]:
        return {
            f.name: " ".join(
                filter(
                    None,
                    (
                        f"number {f.number} {_Field.Type.Name(f.type)} {f.type_name}".rstrip(),
                        image.constraint_code(f),
                    ),
                )
            )
            for f in fs
        }

    old_msgs = {m.name: m for m in old.message_type}
    new_msgs = {m.name: m for m in new.message_type}
    compare("message", dict.fromkeys(old_msgs, ""), dict.fromkeys(new_msgs, ""), new.package)
    for name in sorted(old_msgs.keys() & new_msgs.keys()):
        compare(
            "attribute",
            fields(baseline, old_msgs[name].field),
            fields(current, new_msgs[name].field),
            name,
        )
    old_enums = {e.name: e for e in old.enum_type}
    new_enums = {e.name: e for e in new.enum_type}
    compare("enum", dict.fromkeys(old_enums, ""), dict.fromkeys(new_enums, ""), new.package)
    for name in sorted(old_enums.keys() & new_enums.keys()):
        before = {v.name: v.number for v in old_enums[name].value}
        after = {v.name: v.number for v in new_enums[name].value}
        compare("value", dict(before), dict(after), name)
    before_ext = {
        e.name: f"{e.extendee} number {e.number} {e.type_name}".strip() for e in old.extension
    }
    after_ext = {
        e.name: f"{e.extendee} number {e.number} {e.type_name}".strip() for e in new.extension
    }
    compare("extension", dict(before_ext), dict(after_ext), new.package)
    if not changes:
        changes.append("declarations other than messages, enums and extensions changed")
        additive = False
    return changes, additive


def problems(baseline: Image, current: Image) -> tuple[list[str], list[str]]:
    """Every contract change from *baseline* to *current* that breaks v1 readers, and notes."""
    out: list[str] = []
    notes: list[str] = []
    changes, additive = _schema_changes(baseline, current)
    if changes:
        line = f"{OPTIONS_FILE}: the options' own schema changed: {'; '.join(changes)}"
        if additive:
            notes.append(
                f"{line} (additive: each field's options are compared attribute by attribute)"
            )
        else:
            out.append(f"{line}: every v1 option would be read differently; {NEW_VERSION}")
    old_fields, new_fields = reachable(baseline), reachable(current)
    for name, old_field in old_fields.items():
        new_field = new_fields.get(name)
        if new_field is None:
            continue  # buf breaking reports removed fields
        out.extend(
            _contract_changes(name, baseline.contract(old_field), current.contract(new_field))
        )
    out.extend(_declaration_order(baseline, current))
    for name in sorted(new_fields.keys() - old_fields.keys()):
        c = current.contract(new_fields[name])
        if _enum_attribute(c, "presence") not in ("PRESENCE_OMIT_EMPTY", "PRESENCE_OMIT_UNSET"):
            out.append(
                f"{name}: a new field must be omitted from YAML when empty "
                "(PRESENCE_OMIT_EMPTY; PRESENCE_OMIT_UNSET for a message), or every v1 "
                "sidecar written from now on would carry a key that v1 readers refuse"
            )
        for kind, bound, _, item, when_set in constraints(c):
            if not item and not when_set and _zero_breaks(kind, bound):
                out.append(
                    f"{name}: a new field cannot have a rule that its zero value breaks "
                    f"({kind.removeprefix('taskspec.v1.')}): every v1 document written before "
                    "it would become invalid; say that it applies only when the field is set "
                    "(ignore: IGNORE_IF_ZERO_VALUE)"
                )
    old_limits, new_limits = baseline.limits(ROOT_MESSAGE), current.limits(ROOT_MESSAGE)
    if _show(old_limits) != _show(new_limits):
        out.append(
            f"{ROOT_MESSAGE}: limits changed from {_show(old_limits)} to {_show(new_limits)}: "
            f"readers of either version would refuse documents the other writes; {NEW_VERSION}"
        )
    return out, notes


def _zero_breaks(kind: str, bound: int | None) -> bool:
    """Whether a field left out of a document (its zero value) breaks the constraint.

    Asked of the constraint kind's one Python implementation, so that a new
    kind needs no edit here; an item's constraint never breaks an empty list.
    """
    from taskspec._constraints import zero_breaks  # noqa: PLC0415 - the gate alone needs it

    return zero_breaks(kind, bound)


def schema_version(image: Image) -> int | None:
    """The bound of task_spec_version's Int64Rules.equals constraint: the schema version."""
    field = reachable(image).get(VERSION_FIELD)
    found = constraints(image.contract(field) if field is not None else None)
    return next((b for k, b, _, _, _ in found if k == _LEGACY_KINDS["CHECK_EQUALS"]), None)


def _build(buf: str) -> bytes:
    argv = [buf, "build", "--exclude-source-info", "-o", "-"]
    return subprocess.run(argv, check=True, capture_output=True).stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--against", required=True, type=Path, help="the baseline buf image")
    parser.add_argument("--buf", default=str(ROOT / ".venv" / "bin" / "buf"))
    parser.add_argument("--image", type=Path, help="the current image (default: buf build)")
    parser.add_argument(
        "--release",
        action="store_true",
        help="say whether the current proto may become the new baseline (make release-baseline)",
    )
    args = parser.parse_args(argv)
    data = args.image.read_bytes() if args.image is not None else _build(args.buf)
    baseline, current = load_image(args.against.read_bytes()), load_image(data)
    found, notes = problems(baseline, current)
    for line in notes:
        print(f"contract: note: {line}")
    if args.release:
        return _release(args, baseline, current, found)
    for line in found:
        print(f"contract: {line}", file=sys.stderr)
    if found:
        print(
            f"contract: {len(found)} breaking change(s) against {args.against}. Undo them, or "
            "ship them as a new contract version: bump the schema version (the value of "
            "task_spec_version's Int64Rules.equals constraint) and cut it with "
            "`make release-baseline` (CONTRIBUTING.md, 'Cutting a new contract version')",
            file=sys.stderr,
        )
    else:
        print(f"contract options: no breaking change against {args.against}")
    return 1 if found else 0


def _release(args: argparse.Namespace, baseline: Image, current: Image, found: list[str]) -> int:
    buf_breaking = subprocess.run(
        [args.buf, "breaking", "--against", str(args.against)],
        capture_output=True,
        text=True,
        check=False,
    )
    breaks = list(found)
    wire: list[str] = []
    if buf_breaking.returncode != 0:
        for line in buf_breaking.stdout.splitlines():
            if line:
                breaks.append(f"buf breaking: {line}")
                if _in_v1(line):
                    wire.append(line)
    if not breaks:
        print(f"release: no breaking change against {args.against}: recording the proto as it is")
        return 0
    old, new = schema_version(baseline), schema_version(current)
    for line in breaks:
        print(f"release: {line}", file=sys.stderr)
    if wire:
        print(
            f"release: refused: {len(wire)} of these change(s) break the wire inside package "
            "taskspec.v1, which no schema version can make safe: v1 readers would misread the "
            "bytes. Undo them, or make them in a new package (taskspec.v2, beside v1) "
            "(CONTRIBUTING.md, 'Cutting a new contract version')",
            file=sys.stderr,
        )
        return 1
    if old == new:
        print(
            f"release: refused: these {len(breaks)} breaking change(s) make a new contract "
            f"version, and the schema version is still {new}: bump the value of "
            "task_spec_version's Int64Rules.equals constraint (CONTRIBUTING.md, 'Cutting a "
            "new contract version')",
            file=sys.stderr,
        )
        return 1
    print(f"release: cutting contract version {new} (was {old}) with the changes above")
    return 0


def _in_v1(line: str) -> bool:
    """Whether a line of ``buf breaking`` names a file of package taskspec.v1.

    buf prints ``path:line:column:message``; the path is under ``proto/``
    or, for a file that no longer exists, the baseline's name of it.
    """
    path = line.split(":", 1)[0]
    return V1_FILES in path


if __name__ == "__main__":
    sys.exit(main())
