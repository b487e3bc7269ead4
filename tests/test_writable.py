"""Writers never write what readers refuse: save, convert and fmt check the limits first.

Each case of the hostile audit is here (a 17 MiB prompt, 60,000 signals, a
JSON of 200,000 signals converted to YAML, a YAML of 9 MiB of ``"``
converted to JSON), with the count of nodes proven equal to what a reader
counts, and the limits met exactly at their edge.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings

import taskspec
from taskspec import DecodeError, TaskSpec, TaskSpecError, ValidationError, Violation
from taskspec._limits import MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_NODES
from taskspec.bridge import _emit
from tests.cliutil import run_cli
from tests.helpers import VALID_DOC, valid_spec
from tests.strategies import generated_corpus, valid_specs

_NODE_EVENTS = (yaml.ScalarEvent, yaml.AliasEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)


def _reader_count(doc: bytes) -> tuple[int, int]:
    """The nodes and the depth a reader counts in *doc*, from libyaml's events."""
    count = depth = deepest = 0
    for event in yaml.parse(doc, Loader=yaml.CSafeLoader):
        if isinstance(event, _NODE_EVENTS):
            count += 1
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return count, deepest


def _check_count(spec: TaskSpec) -> None:
    count, depth = _reader_count(taskspec.marshal_yaml(spec))
    assert _emit.nodes(spec) == count
    assert depth <= _emit.DEPTH <= MAX_DEPTH


@settings(max_examples=300, deadline=None)
@given(valid_specs())
def test_nodes_are_what_a_reader_counts(spec: TaskSpec) -> None:
    _check_count(spec)


def test_nodes_of_the_corpus_and_of_empty_and_partial_specs() -> None:
    for spec in generated_corpus():
        _check_count(spec)
    _check_count(valid_spec())
    empty_parts = valid_spec()
    empty_parts.generated_from.kg_query.Clear()  # set but empty: {}
    empty_parts.solution_artifacts.add()  # an item with every field omitted: - {}
    del empty_parts.verification.build_cmd[:]
    empty_parts.difficulty_signals.clear()
    _check_count(empty_parts)


def test_depth_is_the_deepest_a_full_spec_nests() -> None:
    spec = valid_spec()
    assert _reader_count(taskspec.marshal_yaml(spec))[1] == _emit.DEPTH


def _signals(spec: TaskSpec, count: int) -> TaskSpec:
    spec.difficulty_signals.update({f"s{i:06}": i for i in range(count)})
    return spec


def test_the_node_limit_is_met_exactly(tmp_path: Path) -> None:
    """MAX_NODES nodes are saved and loaded; one more is refused by both."""
    spec = valid_spec()
    spec = _signals(spec, (MAX_NODES - _emit.nodes(spec)) // 2)
    assert _emit.nodes(spec) == MAX_NODES
    path = tmp_path / "taskspec.yaml"
    taskspec.save(path, spec)
    assert taskspec.load(path) == spec

    spec.verification.test_cmd.append("-v")
    assert _emit.nodes(spec) == MAX_NODES + 1
    with pytest.raises(TaskSpecError) as info:
        taskspec.save(path, spec)
    assert info.value.field_path == "difficulty_signals"
    with pytest.raises(DecodeError, match=f"more than {MAX_NODES} nodes"):
        taskspec.parse_task_spec(taskspec.marshal_yaml(spec))


def test_the_size_limit_is_met_exactly(tmp_path: Path) -> None:
    spec = valid_spec()
    spec.prompt = "x"
    spare = MAX_DOCUMENT_BYTES - len(taskspec.marshal_yaml(spec))
    spec.prompt = "x" * (1 + spare)
    path = tmp_path / "taskspec.yaml"
    taskspec.save(path, spec)
    assert path.stat().st_size == MAX_DOCUMENT_BYTES
    assert taskspec.load(path) == spec
    spec.prompt += "x"
    with pytest.raises(ValidationError) as info:
        taskspec.save(path, spec)
    assert str(info.value) == (
        f"task spec is too large: its canonical YAML is {MAX_DOCUMENT_BYTES + 1} bytes,"
        f" more than the limit of {MAX_DOCUMENT_BYTES}"
    )
    assert info.value.violations[0].code == "TS107"
    with pytest.raises(DecodeError, match="larger than"):
        taskspec.parse_task_spec(taskspec.marshal_yaml(spec))


def _assert_nothing_written(tmp_path: Path, path: Path, before: bytes) -> None:
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_save_refuses_a_17_mib_prompt_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(VALID_DOC)
    spec = valid_spec()
    spec.prompt = "p" * (17 << 20)
    with pytest.raises(ValidationError) as info:
        taskspec.save(path, spec)
    # Validate refuses it (TS107): a spec no reader could read back is not valid.
    assert info.value.violations == [
        Violation(
            "",
            "task spec is too large: its canonical YAML is 17826320 bytes, more than the limit"
            " of 16777216",
            code="TS107",
        )
    ]
    _assert_nothing_written(tmp_path, path, VALID_DOC)


def test_save_refuses_60000_signals_and_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(VALID_DOC)
    spec = _signals(valid_spec(), 60_000)
    with pytest.raises(TaskSpecError) as info:
        taskspec.save(path, spec)
    assert str(info.value) == (
        "cannot write: the YAML would have 120,050 nodes, more than the 100,000 a reader"
        " accepts (difficulty_signals has 120,006 of them)"
    )
    assert info.value.field_path == "difficulty_signals"
    _assert_nothing_written(tmp_path, path, VALID_DOC)


def test_convert_to_yaml_refuses_200000_signals() -> None:
    """A valid JSON (it is read, then refused on the way out) whose YAML no reader reads."""
    spec = _signals(valid_spec(), 200_000)
    data = taskspec.marshal_json(spec)
    assert len(data) <= MAX_DOCUMENT_BYTES
    with pytest.raises(TaskSpecError, match="cannot write: the YAML would have 400,050 nodes"):
        taskspec.convert(data, "json", "yaml")
    result = run_cli(["convert", "--from", "json", "--to", "yaml", "-"], data)
    assert (result.code, result.out) == (1, b"")
    assert result.err == (
        "-: TS006 cannot write: the YAML would have 400,050 nodes, more than the 100,000 a reader"
        " accepts (difficulty_signals has 400,006 of them)\n"
    )


def _quotes_doc() -> bytes:
    """A valid YAML of 9.4 MB whose prompt is 9 MiB of '"': 18.9 MB of JSON."""
    spec = valid_spec()
    spec.prompt = '"' * (9 << 20)
    doc = taskspec.marshal_yaml(spec)
    assert len(doc) <= MAX_DOCUMENT_BYTES
    return doc


def test_convert_to_json_refuses_9_mib_of_quotes() -> None:
    doc = _quotes_doc()
    with pytest.raises(TaskSpecError) as info:
        taskspec.convert(doc, "yaml", "json")
    assert info.value.field_path == "prompt"
    assert str(info.value).startswith("cannot write: the JSON would be 18,875,")
    result = run_cli(["convert", "--to", "json", "-"], doc)
    assert (result.code, result.out) == (1, b"")
    assert "cannot write: the JSON would be" in result.err
    assert taskspec.convert(doc, "yaml", "yaml") == doc  # YAML and binary carry it
    assert len(taskspec.convert(doc, "yaml", "binpb")) < MAX_DOCUMENT_BYTES


def _expanding_doc(copies: int) -> bytes:
    """A 1 MiB document whose aliases expand to *copies* MiB: a reader accepts it."""
    big = b"x" * (1 << 20)
    items = b", ".join([b"&a " + big] + [b"*a"] * (copies - 1))
    return VALID_DOC.replace(
        b"    test_cmd:\n        - go\n        - test\n        - ./mathx/...\n",
        b"    test_cmd: [" + items + b"]\n",
    )


def test_a_spec_whose_aliases_expand_past_the_limit_is_invalid() -> None:
    """A 1 MiB document is read, and the 20 MiB spec it expands to breaks TS107."""
    doc = _expanding_doc(20)
    assert len(doc) < 2 << 20
    for read in (
        taskspec.parse_task_spec,
        lambda d: taskspec.convert(d, "yaml", "binpb"),
    ):
        with pytest.raises(ValidationError) as info:
            read(doc)
        assert [v.code for v in info.value.violations] == ["TS107"]
        assert str(info.value).startswith("task spec is too large: its canonical YAML is 20972")
    assert [v.code for v in taskspec.check(doc)] == ["TS107"]


@pytest.mark.parametrize("comments", [False, True])
def test_fmt_refuses_what_aliases_expand_past_the_limit(tmp_path: Path, comments: bool) -> None:
    doc = _expanding_doc(20)
    if comments:
        doc = b"# a note\n" + doc
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(doc)
    result = run_cli(["fmt", str(path)])
    assert (result.code, result.out) == (1, b"")
    # The spec it reads is invalid (TS107), so there is nothing fmt may write.
    assert result.err.startswith(f"{path}: TS107 ")
    _assert_nothing_written(tmp_path, path, doc)


def test_fmt_refuses_output_its_kept_comments_push_past_the_limit(tmp_path: Path) -> None:
    """The canonical YAML fits, but with the comment fmt keeps it would not.

    The input fits too: its 100 extra arguments are a flow list, 10 bytes
    shorter each than the block list fmt writes.
    """
    spec = valid_spec()
    spec.verification.test_cmd.extend(["a"] * 100)
    spec.prompt = "x"
    spec.prompt = "x" * (MAX_DOCUMENT_BYTES - len(taskspec.marshal_yaml(spec)) - 50)
    canonical = taskspec.marshal_yaml(spec)
    flow = ", ".join(spec.verification.test_cmd).encode()
    doc = (
        b"# "
        + b"n" * 98
        + b"\n"
        + re.sub(
            rb"    test_cmd:\n(        - .*\n)+", b"    test_cmd: [" + flow + b"]\n", canonical
        )
    )
    assert len(doc) < MAX_DOCUMENT_BYTES < len(canonical) + 101
    assert taskspec.parse_task_spec(doc) == spec
    path = tmp_path / "taskspec.yaml"
    path.write_bytes(doc)
    result = run_cli(["fmt", str(path)])
    assert (result.code, result.out) == (1, b"")
    assert result.err.startswith(f"{path}: TS006 cannot write: the YAML would be 16,777,26")
    _assert_nothing_written(tmp_path, path, doc)
    assert run_cli(["fmt", "--strip-comments", str(path)]).code == 0


def test_json_of_the_limit_sizes_round_trips() -> None:
    """The JSON writer's check uses the JSON reader's own limit: at it, it reads back."""
    spec = valid_spec()
    spec.prompt = "x"
    spare = MAX_DOCUMENT_BYTES - len(taskspec.marshal_json(spec))
    spec.prompt = "x" * (1 + spare)
    data = taskspec.convert(taskspec.marshal_binpb(spec), "binpb", "json")
    assert len(data) == MAX_DOCUMENT_BYTES
    assert json.loads(data)["prompt"] == spec.prompt
    assert taskspec.parse_json(data) == spec
