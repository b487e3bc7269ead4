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
from typing import Any

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import Descriptor

from taskspec import TaskSpec
from taskspec._constraints import IMPLEMENTATIONS
from taskspec._contract import (
    constraint_kinds,
    contract_problems,
    field_contract,
    field_contract_of,
    option_schema_problems,
    reachable_fields,
)
from taskspec.bridge import _layout
from taskspec.v1 import options_pb2, problems_pb2, taskspec_pb2
from tests.conformance.gobridge import GoConsumer

Edit = Callable[[descriptor_pb2.FileDescriptorProto], None]

ROOT = Path(__file__).resolve().parent.parent


def scratch_task_spec(edit: Edit) -> Descriptor:
    """TaskSpec of a scratch copy of taskspec.proto, changed by *edit*, in a pool of its own."""
    pool = descriptor_pool.DescriptorPool()
    for dep in (descriptor_pb2.DESCRIPTOR, problems_pb2.DESCRIPTOR, options_pb2.DESCRIPTOR):
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


def _decided(**rules: Any) -> options_pb2.FieldContract:
    return options_pb2.FieldContract(
        presence=options_pb2.PRESENCE_ALWAYS, visibility=options_pb2.VISIBILITY_SHOWN, **rules
    )


def _rules(**which: Any) -> options_pb2.FieldRules:
    return options_pb2.FieldRules(**which)


def _demand(message: str) -> options_pb2.Demand:
    return options_pb2.Demand(message=message)


def _bound(value: int, message: str) -> options_pb2.Bound:
    return options_pb2.Bound(value=value, message=message)


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
            _decided(rule=options_pb2.Rule(check=options_pb2.CHECK_NOT_BLANK, message="x")),
            "rule is v1's first form of a rule: write it under rules (see CONTRIBUTING.md)",
        ),
        (
            _decided(rules=_rules(repeated=options_pb2.RepeatedRules(not_empty=_demand("x")))),
            "rules.repeated does not apply to a field of this type",
        ),
        (
            _decided(rules=_rules(int64=options_pb2.Int64Rules(at_most=_bound(3, "x")))),
            "rules.int64 does not apply to a field of this type",
        ),
        (
            _decided(rules=_rules(enum=options_pb2.EnumRules(defined=_demand("x")))),
            "rules.enum does not apply to a field of this type",
        ),
        (
            _decided(rules=options_pb2.FieldRules()),
            "its rules set no type: write rules.string, int64, enum or repeated",
        ),
        (
            _decided(rules=_rules(string=options_pb2.StringRules())),
            "rules.string sets no constraint",
        ),
        (
            _decided(rules=_rules(string=options_pb2.StringRules(max_len=_bound(3, "")))),
            "rules.string.max_len has no message: give the Go package's wording",
        ),
    ],
    ids=[
        "no-presence",
        "no-visibility",
        "omit-unset-string",
        "v1-rule",
        "repeated-on-string",
        "int64-on-string",
        "enum-on-string",
        "no-type",
        "no-constraint",
        "message",
    ],
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


def test_fitting_rules_of_every_kind_pass() -> None:
    string = options_pb2.StringRules(
        not_blank=_demand("x"), min_len=_bound(1, "%q"), max_len=_bound(3, "%[2]d %[1]q")
    )
    decided = _decided(rules=_rules(string=string))
    assert contract_problems(scratch_task_spec(_add_string("TaskSpec", decided))) == []


def test_the_rule_refusal_names_the_field() -> None:
    contract = _decided(rule=options_pb2.Rule(check=options_pb2.CHECK_NOT_BLANK, message="x"))
    problems = contract_problems(scratch_task_spec(_add_string("KGQuery", contract)))
    assert problems == [
        "taskspec.v1.KGQuery.notes: rule is v1's first form of a rule: write it under rules"
        " (see CONTRIBUTING.md)"
    ]


def test_every_declared_kind_has_a_python_implementation() -> None:
    declared = {kind.name for kind in constraint_kinds()}
    assert declared == set(IMPLEMENTATIONS)
    assert option_schema_problems() == []


def test_a_kind_declared_without_an_implementation_is_refused() -> None:
    implemented = set(IMPLEMENTATIONS) - {"taskspec.v1.StringRules.max_len"}
    assert option_schema_problems(implemented=implemented) == [
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
    problems = option_schema_problems(_scratch_options(_add_kind(199, problem=True)))
    assert problems == [
        "proto/taskspec/v1/options.proto: taskspec.v1.StringRules.max_bytes is a constraint kind"
        " with no Python implementation: add one to python/taskspec/_constraints.py"
        " (see CONTRIBUTING.md)"
    ]


def test_a_kind_s_code_is_declared_once_and_in_one_place() -> None:
    implemented = {*IMPLEMENTATIONS, "taskspec.v1.StringRules.max_bytes"}
    problems = option_schema_problems(_scratch_options(_add_kind(109, True)), implemented)
    assert problems == [
        "proto/taskspec/v1/options.proto: taskspec.v1.StringRules.max_bytes: code 109 is"
        " taskspec.v1.StringRules.max_len's too"
    ]
    problems = option_schema_problems(_scratch_options(_add_kind(199, False)), implemented)
    assert problems == [
        "proto/taskspec/v1/options.proto: taskspec.v1.StringRules.max_bytes: give its catalogue"
        " entry either as the ProblemCode value 199 or as its (taskspec.v1.constraint).problem,"
        " not both or neither"
    ]
    problems = option_schema_problems(_scratch_options(_add_kind(101, True)), implemented)
    assert any("not both or neither" in p for p in problems)


def test_an_implementation_of_no_declared_kind_is_refused() -> None:
    implemented = {*IMPLEMENTATIONS, "taskspec.v1.StringRules.max_bytes"}
    assert option_schema_problems(implemented=implemented) == [
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
