"""The hand-listed tables are pinned to the descriptors and to Go's output.

Most of a new proto field flows through the bridge by itself; three facts
cannot be read from the proto (the Go struct tags in :mod:`taskspec.bridge._layout`,
the agent view's ``HIDDEN_FIELDS`` and the validation rules in
:mod:`taskspec._rules`). :data:`DECIDED` records, for every field, that
someone decided all three; a new field fails
:func:`test_every_field_has_a_recorded_decision` until they have.
"""

from __future__ import annotations

from taskspec import TaskSpec
from taskspec.bridge import _layout
from taskspec.v1 import taskspec_pb2
from tests.conformance.gobridge import GoConsumer

#: Every field reachable from TaskSpec whose Go struct tags (``OMITEMPTY``,
#: ``POINTER``), visibility to the agent (``_agent.HIDDEN_FIELDS``) and
#: validation rules (``_rules.RULES``) have been decided. Add a field here
#: only after deciding all three; CONTRIBUTING.md says how.
DECIDED: frozenset[str] = frozenset(
    {
        "taskspec.v1.TaskSpec.task_spec_version",
        "taskspec.v1.TaskSpec.task_id",
        "taskspec.v1.TaskSpec.language",
        "taskspec.v1.TaskSpec.difficulty",
        "taskspec.v1.TaskSpec.difficulty_signals",
        "taskspec.v1.TaskSpec.generated_from",
        "taskspec.v1.GeneratedFrom.kind",
        "taskspec.v1.GeneratedFrom.template_id",
        "taskspec.v1.GeneratedFrom.kg_query",
        "taskspec.v1.KGQuery.intent",
        "taskspec.v1.KGQuery.seed_symbol",
        "taskspec.v1.TaskSpec.prompt",
        "taskspec.v1.TaskSpec.solution_artifacts",
        "taskspec.v1.SolutionArtifact.path",
        "taskspec.v1.SolutionArtifact.role",
        "taskspec.v1.TaskSpec.verification",
        "taskspec.v1.Verification.build_cmd",
        "taskspec.v1.Verification.test_cmd",
        "taskspec.v1.Verification.timeout_seconds",
    }
)


def _reachable_fields() -> set[str]:
    """Full names of every field of TaskSpec and of the messages it holds, found by descriptor."""
    found: set[str] = set()
    todo = [TaskSpec.DESCRIPTOR]
    while todo:
        for fd in todo.pop().fields:
            if fd.full_name in found:
                continue
            found.add(fd.full_name)
            msg = fd.message_type
            if msg is not None and not msg.GetOptions().map_entry:
                todo.append(msg)
    return found


def test_every_field_has_a_recorded_decision() -> None:
    fields = _reachable_fields()
    new = sorted(fields - DECIDED)
    assert not new, (
        f"new fields {new}: decide their Go struct tags (bridge/_layout.py OMITEMPTY, "
        "POINTER), whether the agent may see them (_agent.HIDDEN_FIELDS) and their "
        "validation rules (_rules.RULES), then add them to DECIDED"
    )
    assert not DECIDED - fields, f"DECIDED names removed fields: {sorted(DECIDED - fields)}"


def _all_fields() -> dict[str, _layout.FieldInfo]:
    out: dict[str, _layout.FieldInfo] = {}
    for name in ("TaskSpec", "GeneratedFrom", "KGQuery", "SolutionArtifact", "Verification"):
        info = _layout.message_info(getattr(taskspec_pb2, name).DESCRIPTOR)
        out.update({f.full_name: f for f in info.fields})
    return out


def test_tables_name_only_real_fields() -> None:
    fields = _all_fields()
    assert fields.keys() >= _layout.OMITEMPTY
    assert fields.keys() >= _layout.POINTER
    for name in _layout.POINTER:
        assert fields[name].kind is _layout.Kind.MESSAGE


def test_field_order_is_field_number_order() -> None:
    names = [f.name for f in _layout.TASK_SPEC.fields]
    assert names == [
        "task_spec_version",
        "task_id",
        "language",
        "difficulty",
        "difficulty_signals",
        "generated_from",
        "prompt",
        "solution_artifacts",
        "verification",
    ]


def test_omitempty_matches_what_go_omits(go: GoConsumer) -> None:
    """An all-zero spec marshalled by Go shows exactly which keys are always written."""
    spec = TaskSpec()
    res = go.marshal(spec)
    written = {line.split(":")[0].strip() for line in res["yaml"].decode().splitlines()}
    for full_name, fi in _all_fields().items():
        if full_name.startswith("taskspec.v1.KGQuery") or full_name.startswith(
            "taskspec.v1.SolutionArtifact"
        ):
            continue  # not reachable from an all-zero spec; covered below
        assert (fi.name in written) == (not fi.omitempty), full_name
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
