"""Artifact paths resolve inside the workspace or are refused (Go: filepath.IsLocal, os.Root)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import taskspec
from taskspec import TaskSpecError, artifact_path, is_local_path
from taskspec.bridge._gostr import go_quote
from tests.conftest import ROOT

#: The cases both libraries' tests read: each path, whether it is local and,
#: if not, the reason.
CASES = json.loads((ROOT / "tests" / "contract" / "artifact_paths.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[repr(c["path"]) for c in CASES])
def test_local_paths_follow_the_shared_table(case: dict[str, str], tmp_path: Path) -> None:
    path = case["path"]
    assert is_local_path(path) is (case["reason"] == "")
    if case["reason"]:
        with pytest.raises(TaskSpecError) as info:
            artifact_path(tmp_path, path)
        assert str(info.value) == f"artifact path {go_quote(path)} is not allowed: {case['reason']}"
        assert info.value.violations[0].field_path == "solution_artifacts.path"
    else:
        got = artifact_path(tmp_path, path)
        assert got == Path(os.path.normpath(tmp_path / path.replace("\\", "/")))
        assert os.path.commonpath([tmp_path, got]) == str(tmp_path)


def test_a_symbolic_link_out_of_the_workspace_is_refused(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (tmp_path / "secret").write_text("x")
    (workspace / "link").symlink_to(tmp_path)
    assert is_local_path("link/secret")  # lexically local
    with pytest.raises(TaskSpecError, match="through a symbolic link"):
        artifact_path(workspace, "link/secret")


def test_a_symbolic_link_inside_the_workspace_is_followed(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    assert artifact_path(tmp_path, "alias/x.go") == tmp_path / "alias" / "x.go"


def test_parsing_still_accepts_what_the_go_package_accepts() -> None:
    from tests.helpers import valid_spec  # noqa: PLC0415

    spec = valid_spec()
    spec.solution_artifacts.add(path="../../etc/passwd")
    assert taskspec.parse_task_spec(taskspec.marshal_yaml(spec)) == spec
