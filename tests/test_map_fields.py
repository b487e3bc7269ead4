"""Map fields the code has never seen are written as Go writes them, in every format.

The converter finds the maps to order by walking descriptors, never by
name. These tests prove it on a scratch schema (see
:mod:`tests.scratchproto`): a copy of taskspec.proto with a new map on
TaskSpec and one on the nested KGQuery, and a MapProbe message with a map
for every key type at several depths. Its stubs are generated for Python and
Go with the project's own tools; Python writes each message from a child
process running on the scratch stubs, and a Go program built on the scratch
Go stubs writes the same message with proto.Marshal (deterministic),
protojson and the Go package's YAML.

For YAML the Go package's structs have no field for the new maps, so the Go
side writes what they would write with one: the package's YAML for the
known fields, and each new map as yaml.v3 marshals a map[string]int64,
appended to its mapping (both new fields are the last by number, which is
where the YAML writer puts them).

Without Go or buf these tests are skipped, unless TASKSPEC_REQUIRE_GO=1.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from google.protobuf import struct_pb2

import taskspec
from taskspec import _binpb
from tests.conftest import _require_go
from tests.scratchproto import STRING_KEYS, Scratch, ToolMissingError, build, run_go, run_python

Written = dict[str, Any]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Scratch:
    try:
        return build(tmp_path_factory.mktemp("scratch"))
    except ToolMissingError as err:
        if _require_go():
            pytest.fail(f"TASKSPEC_REQUIRE_GO is set but {err}")
        pytest.skip(f"{err}: the scratch-schema checks are skipped")


@pytest.fixture(scope="module")
def python(scratch: Scratch) -> Written:
    """What taskspec writes, running on the scratch stubs."""
    return run_python(scratch)


@pytest.fixture(scope="module")
def go(scratch: Scratch, python: Written) -> dict[str, Written]:
    """What Go writes for the same two messages."""
    spec, probe = run_go(
        scratch,
        [
            ("taskspec.v1.TaskSpec", python["spec"]["binpb"]),
            ("taskspec.v1.MapProbe", python["probe"]["binpb"]),
        ],
    )
    return {"spec": spec, "probe": probe}


def pairs(text: str) -> Any:
    """JSON with every object as its list of (key, value) pairs, so that order counts."""
    return json.loads(text, object_pairs_hook=list)


def b64(text: str) -> bytes:
    return base64.b64decode(text)


def test_the_child_runs_on_the_scratch_schema_and_this_process_does_not(python: Written) -> None:
    assert python["task_spec_fields"][-1] == "extra_counts"
    assert "extra_counts" not in taskspec.TaskSpec.DESCRIPTOR.fields_by_name


def test_binpb_of_the_new_maps_is_gos(python: Written, go: dict[str, Written]) -> None:
    assert b64(python["spec"]["binpb"]) == b64(go["spec"]["binpb"])
    # Not vacuous: protobuf's own deterministic bytes are not Go's here.
    assert python["spec"]["upb_binpb"] != python["spec"]["binpb"]


def test_json_of_the_new_maps_is_gos(python: Written, go: dict[str, Written]) -> None:
    ours = pairs(python["spec"]["json"])
    assert ours == pairs(go["spec"]["json"])
    obj = json.loads(python["spec"]["json"])
    # Keys by their bytes; weights is declared first in KGQuery, so comes first.
    assert list(obj["extraCounts"]) == sorted(STRING_KEYS, key=lambda k: k.encode())
    assert list(obj["generatedFrom"]["kgQuery"]) == ["weights", "intent", "seedSymbol"]


def test_yaml_of_the_new_maps_is_gos(python: Written, go: dict[str, Written]) -> None:
    assert python["spec"]["yaml"] == go["spec"]["yaml"]
    yaml = python["spec"]["yaml"]
    assert "\n        weights:\n" in yaml
    assert "\nextra_counts:\n" in yaml
    # yaml.v3's order, which is not byte order: a9 before a10.
    assert yaml.index("\n    a9: ") < yaml.index("\n    a10: ")


def test_every_conversion_and_the_command_line_write_the_same_bytes(python: Written) -> None:
    spec = python["spec"]
    for path, data in spec["converted"].items():
        target = path.split("->")[1]
        assert data == spec["encoded"][target], path
    assert spec["cli"] == spec["encoded"]


def test_every_key_type_at_every_depth_is_gos(python: Written, go: dict[str, Written]) -> None:
    probe = python["probe"]
    assert b64(probe["binpb"]) == b64(go["probe"]["binpb"])
    assert pairs(probe["json"]) == pairs(go["probe"]["json"])
    assert probe["upb_binpb"] != probe["binpb"]
    assert pairs(probe["upb_json"]) != pairs(probe["json"])


# -- without Go -----------------------------------------------------------------


def test_unknown_fields_inside_map_values_are_found() -> None:
    value = struct_pb2.Value(string_value="x")
    value.MergeFromString(b"\xf8\x06\x01")  # field 111, not in Value
    msg = struct_pb2.Struct()
    msg.fields["a"].CopyFrom(value)
    # The key is quoted as Go quotes it, as in every field path.
    assert list(_binpb._unknown_fields(msg, "")) == [
        ('fields["a"]', 111, "google.protobuf.Value", 0)
    ]
