"""agent_view and ``show --agent``: the verification commands never reach the agent."""

from __future__ import annotations

from pathlib import Path

import pytest
from google.protobuf import json_format, text_format
from hypothesis import given, settings
from hypothesis import strategies as st

import taskspec
from taskspec import TaskSpec, TaskSpecError, ValidationError, agent_view
from taskspec._agent import HIDDEN_FIELDS
from taskspec._binpb import marshal_binpb
from taskspec._contract import field_contract, reachable_fields
from taskspec._json import marshal_json
from taskspec.v1 import options_pb2
from tests.cliutil import run_cli
from tests.helpers import VALID_DOC, valid_spec
from tests.strategies import texts, valid_specs

#: Planted in the commands; ASCII letters and digits only, so every encoding
#: writes them as they are (no escaping, quoting or folding splits them).
BUILD_SENTINEL = "SENTINELbuild7f3a9c"
TEST_SENTINEL = "SENTINELtest0b1e42"

VIEW_DOC = VALID_DOC.split(b"verification:\n")[0] + b"verification:\n    test_cmd: []\n"


def test_view_clears_the_verification_block_and_keeps_the_rest() -> None:
    spec = valid_spec()
    view = agent_view(spec)
    assert not view.HasField("verification")
    assert view.verification == taskspec.Verification()
    view.verification.CopyFrom(spec.verification)
    assert view == spec


def test_original_is_unchanged() -> None:
    spec = valid_spec()
    before = spec.SerializeToString(deterministic=True)
    view = agent_view(spec)
    view.prompt = "changed"
    view.solution_artifacts.add(path="x")
    assert spec.SerializeToString(deterministic=True) == before
    assert list(spec.verification.test_cmd) == ["go", "test", "./mathx/..."]


def test_hidden_fields_are_the_proto_s_hidden_fields() -> None:
    # Visibility is declared on each field in the proto; HIDDEN_FIELDS is
    # the outermost hidden ones, and this view clears exactly those.
    hidden = [
        path
        for fd, path in reachable_fields()
        if field_contract(fd).visibility == options_pb2.VISIBILITY_HIDDEN
    ]
    assert hidden, "the verification commands must be hidden from the agent"
    assert all(any(p == h or p.startswith(h + ".") for h in HIDDEN_FIELDS) for p in hidden)
    assert all(h in hidden for h in HIDDEN_FIELDS)
    assert "verification.test_cmd" in hidden


def test_unknown_fields_are_dropped() -> None:
    # Field 15 of Verification would be hidden; as an unknown field of the
    # top-level message nothing is known about it, so it is not shown either.
    unknown = bytes([0x7A, 0x03]) + b"abc"  # field 15, length-delimited
    spec = TaskSpec.FromString(valid_spec().SerializeToString() + unknown)
    assert spec.SerializeToString().endswith(unknown)
    view = agent_view(spec)
    assert unknown not in view.SerializeToString()


def test_view_is_not_a_valid_spec() -> None:
    view = agent_view(valid_spec())
    with pytest.raises(ValidationError, match=r"^verification\.test_cmd is required$"):
        taskspec.validate(view)
    assert taskspec.marshal_yaml(view) == VIEW_DOC


def test_non_spec_is_a_taskspec_error() -> None:
    with pytest.raises(TaskSpecError, match=r"expected a taskspec\.v1\.TaskSpec, got str"):
        agent_view("task_id: x")  # type: ignore[arg-type]


def _planted(sentinel: str) -> st.SearchStrategy[list[str]]:
    """An argument vector holding *sentinel* (alone or inside other text) somewhere."""

    def plant(others: list[str], at: int, before: str, after: str) -> list[str]:
        return [*others[:at], before + sentinel + after, *others[at:]]

    return st.builds(
        plant,
        st.lists(texts(), max_size=3),
        st.integers(0, 3),
        st.sampled_from(["", "--flag=", "a b\n"]),
        texts(max_size=4),
    )


def _outputs(spec: TaskSpec) -> dict[str, bytes]:
    """Every way a spec can leave the process."""
    return {
        "yaml": taskspec.marshal_yaml(spec),
        "binary": spec.SerializeToString(),
        "binpb": marshal_binpb(spec),
        "json": marshal_json(spec),
        "json_format": json_format.MessageToJson(spec).encode(),
        "dict": repr(json_format.MessageToDict(spec, preserving_proto_field_name=True)).encode(),
        "text_format": text_format.MessageToString(spec, as_utf8=True).encode(),
        "str": str(spec).encode(),
        "repr": repr(spec).encode(),
    }


@settings(max_examples=200)
@given(valid_specs(build_cmd=_planted(BUILD_SENTINEL), test_cmd=_planted(TEST_SENTINEL)))
def test_no_verification_command_leaks_through_any_output(spec: TaskSpec) -> None:
    view = agent_view(spec)
    for name, data in _outputs(spec).items():
        # The check can see a leak: each output of the full spec has both.
        assert BUILD_SENTINEL.encode() in data and TEST_SENTINEL.encode() in data, name
    for name, data in _outputs(view).items():
        assert BUILD_SENTINEL.encode() not in data, name
        assert TEST_SENTINEL.encode() not in data, name

    full = run_cli(["show", "-"], stdin=taskspec.marshal_yaml(spec))
    assert full.code == 0 and TEST_SENTINEL.encode() in full.out
    shown = run_cli(["show", "--agent", "-"], stdin=taskspec.marshal_yaml(spec))
    assert (shown.code, shown.out, shown.err) == (0, taskspec.marshal_yaml(view), "")
    for sentinel in (BUILD_SENTINEL, TEST_SENTINEL):
        assert sentinel.encode() not in shown.out


def test_show_agent_prints_the_view(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(VALID_DOC)
    assert run_cli(["show", "--agent", str(path)]) == (0, VIEW_DOC, "")
    assert run_cli(["show", str(path)]) == (0, VALID_DOC, "")


def test_show_agent_still_validates_the_file(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(VALID_DOC.replace(b"language: go", b"language: cobol"))
    assert run_cli(["show", "--agent", str(path)]) == (
        1,
        b"",
        f'{path}:3:11: TS103 invalid language "cobol"\n',
    )
