"""The core entry points: parse, marshal, validate.

They live together because each is a thin composition of the converter
modules, and because they define the one promise this package makes:
``parse_task_spec(marshal_yaml(s)) == s`` for every valid spec, with bytes
identical to what the Go package writes.
"""

from __future__ import annotations

from typing import NoReturn

from taskspec import _validate
from taskspec._errors import TaskSpecError, Violation, require_task_spec
from taskspec.bridge import _emit, _fastpath
from taskspec.v1 import taskspec_pb2

__all__ = ["marshal_yaml", "parse_task_spec", "signal_keys", "validate"]

validate = _validate.validate
signal_keys = _validate.signal_keys


def parse_task_spec(data: bytes | bytearray | memoryview | str) -> taskspec_pb2.TaskSpec:
    """Decode a TaskSpec from YAML strictly, then validate it.

    Strict decoding rejects unknown and duplicate keys at every level, so a
    sidecar written for another version cannot be silently misread. Decode
    problems raise :class:`~taskspec.DecodeError`; a well-formed document
    that breaks a contract rule raises :class:`~taskspec.ValidationError`,
    whose violations carry the line and column of the offending value.
    Either holds every problem of the document (:func:`taskspec.check`),
    the first the one Go's ``ParseTaskSpec`` stops at.
    """
    if isinstance(data, (bytes, str)):
        # Canonical documents (the common case) skip composing; the fast
        # path proves its result exact against the writer while reading.
        spec = _fastpath.parse_canonical(data)
        if spec is not None and not _validate.check(spec, canonical=True):
            return spec
    # The general reader (libyaml and the descriptor walk) is imported on
    # first use: a run that meets only canonical documents never loads it.
    from taskspec.bridge import _decode  # noqa: PLC0415

    try:
        decoded = _decode.decode(data)
    except TaskSpecError as err:
        if not err.violations or not isinstance(data, (bytes, bytearray, memoryview, str)):
            raise
        _raise_all(err.violations[0], data)
    violations = _validate.check(decoded.spec, decoded.raw_enums, decoded.positions)
    if violations:
        _raise_all(_locate(violations[0], decoded.positions), data)
    return decoded.spec


def _raise_all(first: Violation, data: bytes | bytearray | memoryview | str) -> NoReturn:
    """Raise every problem of *data* (see :func:`taskspec.check`), *first* first.

    Only a document that failed pays for the second, collecting read.
    """
    from taskspec._check import for_editors, raise_all  # noqa: PLC0415

    # The readers' positions are YAML's; the error's are those editors show.
    raise_all(for_editors(data, [first])[0], data, "yaml")


def _locate(violation: Violation, positions: dict[str, tuple[int, int]]) -> Violation:
    """Give a violation of a missing field the position of its nearest present parent."""
    if violation.line:
        return violation
    path = violation.field_path
    while "." in path:
        path = path.rsplit(".", 1)[0]
        if path in positions:
            line, column = positions[path]
            return violation._moved(line, column)
    return violation._moved(1, 1)


def marshal_yaml(spec: taskspec_pb2.TaskSpec) -> bytes:
    """Write *spec* as canonical YAML, byte-identical to the Go package's ``MarshalYAML``.

    Like Go, it does not validate: it writes what it is given, so that
    invalid specs can be inspected and repaired. The output is deterministic.
    A value YAML cannot carry (an undefined enum number) raises
    :class:`~taskspec.TaskSpecError` rather than being dropped.
    """
    require_task_spec(spec)
    return _emit.marshal(spec)
