"""Artifact paths resolved inside a workspace, never outside it.

The contract says a solution artifact's path is relative to the task's
workspace, but the Go package accepts any string there, so the parser must
too: ``../../etc/passwd``, ``/etc/passwd`` and ``a\\0b`` are all valid
TaskSpecs. A harness that joins such a path to its workspace can be led
outside it. :func:`artifact_path` is the one safe way to make the join,
in the spirit of Go's ``filepath.IsLocal`` and ``os.Root``: it refuses a
path that is empty, absolute (on any platform: ``/x``, ``C:\\x``,
``\\\\host\\share``), holds a NUL byte, or climbs out with ``..`` (``\\``
counts as a separator too, so a path means the same on every platform);
and, since a symbolic link inside the workspace can point anywhere, it
refuses a path whose real location is outside the workspace's.
:func:`is_local_path` is the check without the file system, for linters
such as ``taskspec validate --strict-paths``. The Go library has the same
two functions, with the same rules and words.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING, Final

from taskspec._errors import TaskSpecError, Violation
from taskspec._forms_gen import (
    MSG_ARTIFACT_PATH_NOT_ALLOWED,
    REASON_ARTIFACT_PATH_ABSOLUTE,
    REASON_ARTIFACT_PATH_CLIMBS,
    REASON_ARTIFACT_PATH_EMPTY,
    REASON_ARTIFACT_PATH_NUL,
    REASON_ARTIFACT_PATH_SYMLINK,
)
from taskspec._words import render
from taskspec.bridge._gostr import go_quote

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["artifact_path", "is_local_path", "local_path_problem"]

#: A drive letter (``C:``), which makes a path absolute or drive-relative on Windows.
_DRIVE: Final = re.compile(r"^[A-Za-z]:")


def local_path_problem(path: str) -> str:
    """Why *path* is not a local path, or "" when it is."""
    if path == "":
        return render(REASON_ARTIFACT_PATH_EMPTY)
    if "\x00" in path:
        return render(REASON_ARTIFACT_PATH_NUL)
    parts = path.replace("\\", "/")
    if parts.startswith("/") or _DRIVE.match(parts):
        return render(REASON_ARTIFACT_PATH_ABSOLUTE)
    depth = 0
    for part in parts.split("/"):
        if part == "..":
            depth -= 1
            if depth < 0:
                return render(REASON_ARTIFACT_PATH_CLIMBS)
        elif part not in ("", "."):
            depth += 1
    return ""


def is_local_path(path: str) -> bool:
    """Whether *path* stays inside any directory it is joined to, as Go's ``filepath.IsLocal``.

    Lexical only: symbolic links are :func:`artifact_path`'s to check.
    """
    return local_path_problem(path) == ""


def artifact_path(workspace: str | os.PathLike[str], path: str) -> Path:
    """*path* joined to *workspace*, refused with a TaskSpecError when it would leave it.

    The result is the lexical join (``workspace/path``, normalised); the
    check also resolves symbolic links of both, so that a link inside the
    workspace that points out of it is refused too. The file need not
    exist.
    """
    # Imported here so that `taskspec validate`, which uses only
    # local_path_problem, does not pay for pathlib.
    from pathlib import Path  # noqa: PLC0415

    problem = local_path_problem(path)
    root = Path(workspace)
    if not problem:
        joined = Path(os.path.normpath(root / path.replace("\\", "/")))
        real_root = os.path.realpath(root)
        real = os.path.realpath(joined)
        if os.path.commonpath([real_root, real]) != real_root:
            problem = render(REASON_ARTIFACT_PATH_SYMLINK)
        else:
            return joined
    raise TaskSpecError(
        [
            Violation(
                "solution_artifacts.path",
                render(MSG_ARTIFACT_PATH_NOT_ALLOWED, value=go_quote(path), reason=problem),
            )
        ]
    )
