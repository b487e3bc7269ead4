"""The layout tables are read from the proto's contract options, and pinned to Go's output.

Every field reachable from TaskSpec declares its presence (the Go struct
tag), its visibility to the agent and its Validate rule in the proto
(``(taskspec.v1.field)``, see ``proto/taskspec/v1/options.proto``). A field
without a decision is refused at import with one message that names it and
says what to decide; these tests prove that on scratch schemas.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import Descriptor

from taskspec import TaskSpec
from taskspec._contract import (
    contract_problems,
    field_contract,
    field_contract_of,
    reachable_fields,
)
from taskspec.bridge import _layout
from taskspec.v1 import options_pb2, taskspec_pb2
from tests.conformance.gobridge import GoConsumer

Edit = Callable[[descriptor_pb2.FileDescriptorProto], None]

ROOT = Path(__file__).resolve().parent.parent


def scratch_task_spec(edit: Edit) -> Descriptor:
    """TaskSpec of a scratch copy of taskspec.proto, changed by *edit*, in a pool of its own."""
    pool = descriptor_pool.DescriptorPool()
    for dep in (descriptor_pb2.DESCRIPTOR, options_pb2.DESCRIPTOR):
        pool.Add(descriptor_pb2.FileDescriptorProto.FromString(dep.serialized_pb))
    proto = descriptor_pb2.FileDescriptorProto.FromString(taskspec_pb2.DESCRIPTOR.serialized_pb)
    edit(proto)
    pool.Add(proto)
    return pool.FindMessageTypeByName("taskspec.v1.TaskSpec")


def _message(
    proto: descriptor_pb2.FileDescriptorProto, name: str
) -> descriptor_pb2.DescriptorProto:
    return next(m for m in proto.message_type if m.name == name)


def _add_string(message: str, contract: options_pb2.FieldContract | None) -> Edit:
    def edit(proto: descriptor_pb2.FileDescriptorProto) -> None:
        msg = _message(proto, message)
        field = msg.field.add(
            name="notes",
            number=max(f.number for f in msg.field) + 1,
            type=descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
            label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
            json_name="notes",
        )
        if contract is not None:
            field_contract_of(field.options).CopyFrom(contract)

    return edit


def test_every_field_reachable_from_task_spec_has_its_decisions() -> None:
    assert contract_problems() == []
    for fd, path in reachable_fields():
        c = field_contract(fd)
        assert c.presence != options_pb2.PRESENCE_UNSPECIFIED, path
        assert c.visibility != options_pb2.VISIBILITY_UNSPECIFIED, path


def test_a_field_without_a_decision_is_named_with_what_to_decide() -> None:
    root = scratch_task_spec(_add_string("KGQuery", None))
    assert contract_problems(root) == [
        "taskspec.v1.KGQuery.notes: no (taskspec.v1.field) option: decide its presence"
        " (PRESENCE_ALWAYS or PRESENCE_OMIT_EMPTY), its visibility to the agent"
        " (VISIBILITY_SHOWN or VISIBILITY_HIDDEN) and whether it has a Validate rule;"
        " see CONTRIBUTING.md"
    ]


@pytest.mark.parametrize(
    ("contract", "said"),
    [
        (
            options_pb2.FieldContract(visibility=options_pb2.VISIBILITY_SHOWN),
            "no (taskspec.v1.field).presence: decide whether YAML omits it when empty",
        ),
        (
            options_pb2.FieldContract(presence=options_pb2.PRESENCE_ALWAYS),
            "no (taskspec.v1.field).visibility: decide whether the agent may see it",
        ),
        (
            options_pb2.FieldContract(
                presence=options_pb2.PRESENCE_OMIT_UNSET, visibility=options_pb2.VISIBILITY_SHOWN
            ),
            "PRESENCE_OMIT_UNSET is for singular message fields only",
        ),
        (
            options_pb2.FieldContract(
                presence=options_pb2.PRESENCE_ALWAYS,
                visibility=options_pb2.VISIBILITY_SHOWN,
                rule=options_pb2.Rule(check=options_pb2.CHECK_NOT_EMPTY, message="x"),
            ),
            "CHECK_NOT_EMPTY does not apply to a field of this type",
        ),
        (
            options_pb2.FieldContract(
                presence=options_pb2.PRESENCE_ALWAYS,
                visibility=options_pb2.VISIBILITY_SHOWN,
                rule=options_pb2.Rule(check=options_pb2.CHECK_NOT_BLANK, bound=1, message="x"),
            ),
            "rule.bound goes with CHECK_EQUALS and CHECK_AT_LEAST only",
        ),
        (
            options_pb2.FieldContract(
                presence=options_pb2.PRESENCE_ALWAYS,
                visibility=options_pb2.VISIBILITY_SHOWN,
                rule=options_pb2.Rule(check=options_pb2.CHECK_NOT_BLANK),
            ),
            "its rule has no message",
        ),
    ],
    ids=["no-presence", "no-visibility", "omit-unset-string", "wrong-check", "bound", "message"],
)
def test_each_missing_or_ill_fitting_decision_is_named(
    contract: options_pb2.FieldContract, said: str
) -> None:
    problems = contract_problems(scratch_task_spec(_add_string("TaskSpec", contract)))
    assert problems == [f"taskspec.v1.TaskSpec.notes: {said}" + problems[0].split(said, 1)[1]]


def test_a_shown_field_under_a_hidden_one_is_refused() -> None:
    shown = options_pb2.FieldContract(
        presence=options_pb2.PRESENCE_OMIT_EMPTY, visibility=options_pb2.VISIBILITY_SHOWN
    )
    problems = contract_problems(scratch_task_spec(_add_string("Verification", shown)))
    assert problems == [
        "taskspec.v1.Verification.notes: VISIBILITY_SHOWN under a hidden field: the agent"
        " never sees it"
    ]


def test_a_decided_field_passes() -> None:
    decided = options_pb2.FieldContract(
        presence=options_pb2.PRESENCE_OMIT_EMPTY, visibility=options_pb2.VISIBILITY_SHOWN
    )
    assert contract_problems(scratch_task_spec(_add_string("TaskSpec", decided))) == []


def test_presence_tables_follow_the_options() -> None:
    for fd, path in reachable_fields():
        presence = field_contract(fd).presence
        omit = presence in (options_pb2.PRESENCE_OMIT_EMPTY, options_pb2.PRESENCE_OMIT_UNSET)
        assert (fd.full_name in _layout.OMITEMPTY) == omit, path
        assert (fd.full_name in _layout.POINTER) == (presence == options_pb2.PRESENCE_OMIT_UNSET), (
            path
        )


def _all_fields() -> dict[str, _layout.FieldInfo]:
    out: dict[str, _layout.FieldInfo] = {}
    for fd, _ in reachable_fields():
        assert fd.containing_type is not None
        info = _layout.message_info(fd.containing_type)
        out[fd.full_name] = info.by_name[fd.name]
    return out


def test_tables_name_only_real_fields() -> None:
    fields = _all_fields()
    assert fields.keys() >= _layout.OMITEMPTY
    assert fields.keys() >= _layout.POINTER
    for name in _layout.POINTER:
        assert fields[name].kind is _layout.Kind.MESSAGE


def _go_struct_keys() -> dict[str, list[str]]:
    """The YAML keys of each struct of the Go package's generated mirror, in order."""
    text = (ROOT / "go" / "internal" / "eval" / "eval.go").read_text()
    out: dict[str, list[str]] = {}
    for name, body in re.findall(r"^type (\w+) struct \{\n(.*?)^\}", text, re.M | re.S):
        out[name] = [key.split(",")[0] for key in re.findall(r'`yaml:"([^"]*)"`', body)]
    return out


def test_key_order_is_declaration_order_in_both_languages() -> None:
    """One rule decides YAML key order: declaration order, as Go's generated structs have it."""
    go_keys = _go_struct_keys()
    infos = {fi.message.full_name: fi.message for fi in _all_fields().values() if fi.message}
    infos[_layout.TASK_SPEC.full_name] = _layout.TASK_SPEC
    for full_name, info in infos.items():
        desc = info.cls.DESCRIPTOR
        declared = [fd.name for fd in desc.fields]
        assert [f.name for f in info.fields] == declared, full_name
        assert go_keys[desc.name] == declared, full_name


def test_omitempty_matches_what_go_omits(go: GoConsumer) -> None:
    """An all-zero spec marshalled by Go shows exactly which keys are always written."""
    spec = TaskSpec()
    res = go.marshal(spec)
    written = {line.split(":")[0].strip() for line in res["yaml"].decode().splitlines()}
    fields = _all_fields()
    by_path = {path: fields[fd.full_name] for fd, path in reachable_fields()}
    for path, fi in by_path.items():
        parents = [by_path[path[:i]] for i, ch in enumerate(path) if ch == "."]
        if any(p.omitempty or p.kind is _layout.Kind.MESSAGE_LIST for p in parents):
            continue  # not written for an all-zero spec; covered below
        assert (fi.name in written) == (not fi.omitempty), path
    spec.generated_from.kg_query.SetInParent()
    spec.solution_artifacts.add()
    text = go.marshal(spec)["yaml"].decode()
    assert "kg_query: {}" in text
    assert '- path: ""' in text
    assert "role" not in text


def test_enum_spellings_come_from_value_names() -> None:
    info = _layout.enum_info(taskspec_pb2.GeneratedKind.DESCRIPTOR)
    assert dict(info.to_string) == {0: "", 1: "kg_template", 2: "benchmark_seed"}
    assert info.from_string["benchmark_seed"] == 2
