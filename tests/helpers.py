"""Shared test helpers, in the style of protovalidate's check_valid / check_invalid."""

from __future__ import annotations

from typing import Any

import taskspec
from taskspec import DecodeError, InvalidDocumentError, TaskSpec, TaskSpecError
from tests.conformance.handwritten import BASE

__all__ = ["VALID_DOC", "check_invalid", "check_valid", "unused_kind_codes", "valid_spec"]

#: A small valid sidecar in canonical form (tests/conformance/sources/accepted/base.yaml,
#: which is also the document most hand-written conformance vectors are edits of).
VALID_DOC: bytes = BASE

#: A small valid sidecar in canonical form: the required fields only.
SMALL_DOC = """\
task_spec_version: 1
task_id: kg-go-impl-mathx-gcd
language: go
difficulty: medium
generated_from:
    kind: kg_template
prompt: Implement mathx.GCD.
verification:
    test_cmd:
        - go
        - test
"""


def valid_spec() -> TaskSpec:
    """A fresh valid spec (parsed from VALID_DOC), safe to mutate."""
    return taskspec.parse_task_spec(VALID_DOC)


def set_field(spec: TaskSpec, path: str, value: object) -> None:
    """Set the field at the dotted *path* of *spec* to *value* (a list replaces the items)."""
    target: Any = spec
    *parents, name = path.split(".")
    for p in parents:
        target = getattr(target, p)
    if isinstance(value, list):
        field = getattr(target, name)
        del field[:]
        field.extend(value)
    else:
        setattr(target, name, value)


def check_valid(doc: bytes | str) -> TaskSpec:
    """Parse *doc*, assert it is accepted, and return the spec."""
    spec = taskspec.parse_task_spec(doc)
    assert isinstance(spec, TaskSpec)
    return spec


def check_invalid(
    doc: bytes | str,
    error: type[TaskSpecError],
    *,
    path: str,
    message: str,
    line: int | None = None,
    column: int | None = None,
) -> TaskSpecError:
    """Parse *doc*, assert it fails with *error*, and pin the first violation.

    *message* must be a substring of the first violation's message; *path*
    must equal its field path exactly.
    """
    try:
        taskspec.parse_task_spec(doc)
    except TaskSpecError as err:
        # A decode problem beside broken rules raises InvalidDocumentError,
        # which is a DecodeError too.
        raised = DecodeError if type(err) is InvalidDocumentError else type(err)
        assert raised is error, f"expected {error.__name__}, got {type(err).__name__}: {err}"
        first = err.violations[0]
        assert first.field_path == path, (first.field_path, path, str(err))
        assert message in first.message, (message, first.message)
        if line is not None:
            assert first.line == line, (first.line, line, str(err))
        if column is not None:
            assert first.column == column, (first.column, column, str(err))
        return err
    raise AssertionError(f"expected {error.__name__}, the document was accepted")


def unused_kind_codes() -> list[str]:
    """The codes of the kinds of constraint no rule of the contract uses (no document has them)."""
    from taskspec._rules import KIND_CODES, RULES  # noqa: PLC0415

    return sorted(set(KIND_CODES.values()) - {rule.code for rule in RULES})
