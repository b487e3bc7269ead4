"""Check the proto's contract options against the released baseline.

``buf breaking`` compares names, numbers and types, and ignores custom
options. But the contract options are just as much a promise to readers: a
field that moves from always written to omitted when empty, a rule that
changes its message, a field that the agent could see and now cannot, or a
lower limit, each changes what v1 documents mean or which of them are
accepted. Such a change needs ``taskspec.v2``, as a renumbering does.

The check, run by ``make breaking``:

- every field of the baseline that is reachable from TaskSpec keeps its
  ``(taskspec.v1.field)`` option exactly (presence, visibility, rule);
- TaskSpec keeps its ``(taskspec.v1.limits)`` exactly;
- a field the baseline does not have must be omitted from YAML when empty
  (so documents that do not use it are written as before), and must not
  have a rule that its zero value breaks (so documents written before it
  stay valid).

Removed, renamed and renumbered fields are ``buf breaking``'s to report.

Usage: ``python scripts/check_contract.py --against release/taskspec-v1.binpb
[--buf .venv/bin/buf] [--image current.binpb]``. Exit status 1 lists every
problem, one line each.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

from google.protobuf import descriptor_pb2

from taskspec._contract import field_contract_of, limits_of
from taskspec.v1 import options_pb2

ROOT = Path(__file__).resolve().parent.parent
ROOT_MESSAGE = "taskspec.v1.TaskSpec"

_Messages = Mapping[str, descriptor_pb2.DescriptorProto]


def load_image(data: bytes) -> _Messages:
    """Every message of a buf image (or a FileDescriptorSet), by full name.

    A buf image is wire-compatible with a FileDescriptorSet. Importing
    ``options_pb2`` registers the contract extensions, so the options are
    parsed rather than kept as unknown fields.
    """
    fds = descriptor_pb2.FileDescriptorSet.FromString(data)
    out: dict[str, descriptor_pb2.DescriptorProto] = {}

    def add(prefix: str, msgs: Iterator[descriptor_pb2.DescriptorProto]) -> None:
        for msg in msgs:
            name = f"{prefix}.{msg.name}"
            out[name] = msg
            add(name, iter(msg.nested_type))

    for f in fds.file:
        add(f.package, iter(f.message_type))
    return out


def _is_map(msgs: _Messages, field: descriptor_pb2.FieldDescriptorProto) -> bool:
    target = msgs.get(field.type_name.lstrip("."))
    return target is not None and target.options.map_entry


def reachable(msgs: _Messages) -> dict[str, descriptor_pb2.FieldDescriptorProto]:
    """Every field reachable from TaskSpec, by full name."""
    out: dict[str, descriptor_pb2.FieldDescriptorProto] = {}
    todo, seen = [ROOT_MESSAGE], {ROOT_MESSAGE}
    while todo:
        name = todo.pop()
        for field in msgs[name].field:
            out[f"{name}.{field.name}"] = field
            target = field.type_name.lstrip(".")
            if (
                field.type == descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE
                and not _is_map(msgs, field)
                and target not in seen
            ):
                seen.add(target)
                todo.append(target)
    return out


def _contract(field: descriptor_pb2.FieldDescriptorProto) -> options_pb2.FieldContract:
    return field_contract_of(field.options)


def _show(msg: options_pb2.Rule | options_pb2.Limits) -> str:
    text = " ".join(str(msg).split())
    return "{" + text + "}" if text else "none"


def problems(baseline: _Messages, current: _Messages) -> list[str]:
    """Every contract change from *baseline* to *current* that breaks v1 readers."""
    out: list[str] = []
    old_fields, new_fields = reachable(baseline), reachable(current)
    for name, old_field in old_fields.items():
        new_field = new_fields.get(name)
        if new_field is None:
            continue  # buf breaking reports removed fields
        old, new = _contract(old_field), _contract(new_field)
        if old.presence != new.presence:
            out.append(
                f"{name}: presence changed from {options_pb2.Presence.Name(old.presence)} to "
                f"{options_pb2.Presence.Name(new.presence)}: v1 sidecars would be written "
                "differently; that needs taskspec.v2"
            )
        if old.visibility != new.visibility:
            out.append(
                f"{name}: visibility changed from {options_pb2.Visibility.Name(old.visibility)} to "
                f"{options_pb2.Visibility.Name(new.visibility)}: agents of v1 harnesses would "
                "see a different task; that needs taskspec.v2"
            )
        if old.rule != new.rule:
            out.append(
                f"{name}: rule changed from {_show(old.rule)} to {_show(new.rule)}: v1 "
                "documents would be judged, or reported, differently; that needs taskspec.v2"
            )
    for name in sorted(new_fields.keys() - old_fields.keys()):
        c = _contract(new_fields[name])
        if c.presence not in (options_pb2.PRESENCE_OMIT_EMPTY, options_pb2.PRESENCE_OMIT_UNSET):
            out.append(
                f"{name}: a new field must be omitted from YAML when empty "
                "(PRESENCE_OMIT_EMPTY), or every v1 sidecar written from now on would carry a "
                "key that v1 readers refuse"
            )
        if c.HasField("rule") and _zero_breaks(c.rule):
            out.append(
                f"{name}: a new field cannot have a rule that its zero value breaks "
                f"({options_pb2.Check.Name(c.rule.check)}): every v1 document written before "
                "it would become invalid"
            )
    old_limits = limits_of(baseline[ROOT_MESSAGE].options)
    new_limits = limits_of(current[ROOT_MESSAGE].options)
    if old_limits != new_limits:
        out.append(
            f"{ROOT_MESSAGE}: limits changed from {_show(old_limits)} to {_show(new_limits)}: "
            "readers of either version would refuse documents the other writes; that needs "
            "taskspec.v2"
        )
    return out


def _zero_breaks(rule: options_pb2.Rule) -> bool:
    if rule.check == options_pb2.CHECK_EQUALS:
        return rule.bound != 0
    if rule.check == options_pb2.CHECK_AT_LEAST:
        return rule.bound > 0
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, type=Path, help="the baseline buf image")
    parser.add_argument("--buf", default=str(ROOT / ".venv" / "bin" / "buf"))
    parser.add_argument("--image", type=Path, help="the current image (default: buf build)")
    args = parser.parse_args(argv)
    if args.image is not None:
        current = args.image.read_bytes()
    else:
        current = subprocess.run(
            [args.buf, "build", "--exclude-source-info", "-o", "-"],
            check=True,
            capture_output=True,
        ).stdout
    found = problems(load_image(args.against.read_bytes()), load_image(current))
    for line in found:
        print(f"contract: {line}", file=sys.stderr)
    if not found:
        print(f"contract options: no breaking change against {args.against}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
