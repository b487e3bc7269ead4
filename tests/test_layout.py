"""The layout tables are read from the proto's contract options, and pinned to Go's output.

Every field reachable from TaskSpec declares its presence (the Go struct
tag), its visibility to the agent and its Validate rule in the proto
(``(taskspec.v1.field)``, see ``proto/taskspec/v1/options.proto``). A field
without a decision is refused by ``make generate`` (the plugin's tests, and
``tests/test_procedures.py``, prove it); the Python library refuses at
import only a kind of constraint without its implementation.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool

from taskspec import TaskSpec
from taskspec._constraints import IMPLEMENTATIONS
from taskspec._contract import (
    constraint_kinds,
    field_contract,
    implementation_problems,
    reachable_fields,
)
from taskspec.bridge import _layout
from taskspec.v1 import options_pb2, problems_pb2, taskspec_pb2
from tests.conformance.gobridge import GoConsumer

ROOT = Path(__file__).resolve().parent.parent


def _message(
    proto: descriptor_pb2.FileDescriptorProto, name: str
) -> descriptor_pb2.DescriptorProto:
    return next(m for m in proto.message_type if m.name == name)


def test_every_field_reachable_from_task_spec_has_its_decisions() -> None:
    for fd, path in reachable_fields():
        c = field_contract(fd)
        assert c.presence != options_pb2.PRESENCE_UNSPECIFIED, path
        assert c.visibility != options_pb2.VISIBILITY_UNSPECIFIED, path


def test_the_python_library_leaves_the_option_checks_to_the_plugin() -> None:
    """The options are checked once, by tools/protoc-gen-taskspec-go (see its tests).

    The Python library keeps no list of the attributes and values it knows,
    and no second copy of the field checks; what it checks is only what a
    generated tree cannot promise, each kind's hand-written implementation.
    """
    source = (ROOT / "python" / "taskspec" / "_contract.py").read_text()
    for gone in ("KNOWN_ATTRIBUTES", "KNOWN_VALUES", "contract_problems", "PRESENCE_OMIT_EMPTY"):
        assert gone not in source, gone
    gate = (ROOT / "scripts" / "check_contract.py").read_text()
    assert "repeated_blocks" not in gate  # the repeated-block check is the plugin's


def test_every_declared_kind_has_a_python_implementation() -> None:
    declared = {kind.name for kind in constraint_kinds()}
    assert declared == set(IMPLEMENTATIONS)
    assert implementation_problems() == []


def test_a_kind_declared_without_an_implementation_is_refused() -> None:
    implemented = set(IMPLEMENTATIONS) - {"taskspec.v1.StringRules.max_len"}
    assert implementation_problems(implemented=implemented) == [
        "proto/taskspec/v1/options.proto: taskspec.v1.StringRules.max_len is a constraint kind"
        " with no Python implementation: add one to python/taskspec/_constraints.py"
        " (see CONTRIBUTING.md)"
    ]


def _scratch_options(edit: Callable[[descriptor_pb2.FileDescriptorProto], None]) -> Any:
    """options.proto, changed by *edit*, in a pool of its own."""
    pool = descriptor_pool.DescriptorPool()
    for dep in (descriptor_pb2.DESCRIPTOR, problems_pb2.DESCRIPTOR):
        pool.Add(descriptor_pb2.FileDescriptorProto.FromString(dep.serialized_pb))
    proto = descriptor_pb2.FileDescriptorProto.FromString(options_pb2.DESCRIPTOR.serialized_pb)
    edit(proto)
    pool.Add(proto)
    return pool.FindFileByName(proto.name)


def _add_kind(code: int, problem: bool) -> Callable[[descriptor_pb2.FileDescriptorProto], None]:
    def edit(proto: descriptor_pb2.FileDescriptorProto) -> None:
        msg = _message(proto, "StringRules")
        field = msg.field.add(
            name="max_bytes",
            number=max(f.number for f in msg.field) + 1,
            type=descriptor_pb2.FieldDescriptorProto.TYPE_MESSAGE,
            type_name=".taskspec.v1.Bound",
            label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
            json_name="maxBytes",
        )
        constraint: Any = options_pb2.constraint
        declared: options_pb2.ConstraintKind = field.options.Extensions[constraint]
        declared.code = code
        if problem:
            declared.problem.title = "string with too many bytes"

    return edit


def test_a_new_kind_in_options_proto_needs_an_implementation() -> None:
    problems = implementation_problems(_scratch_options(_add_kind(199, problem=True)))
    assert problems == [
        "proto/taskspec/v1/options.proto: taskspec.v1.StringRules.max_bytes is a constraint kind"
        " with no Python implementation: add one to python/taskspec/_constraints.py"
        " (see CONTRIBUTING.md)"
    ]


def test_an_implementation_of_no_declared_kind_is_refused() -> None:
    implemented = {*IMPLEMENTATIONS, "taskspec.v1.StringRules.max_bytes"}
    assert implementation_problems(implemented=implemented) == [
        "python/taskspec/_constraints.py implements taskspec.v1.StringRules.max_bytes, a"
        " constraint kind proto/taskspec/v1/options.proto does not declare"
    ]


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
