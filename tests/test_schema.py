"""The hand-listed Go-tag tables are pinned to the descriptors and to Go's output."""

from __future__ import annotations

from taskspec import TaskSpec
from taskspec.bridge import _layout
from taskspec.v1 import taskspec_pb2
from tests.gobridge import GoConsumer


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
