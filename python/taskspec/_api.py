"""The entry points: parse, marshal, validate and convert, in every format.

Each composes a format's reader or writer (the bridge, :mod:`taskspec._json`,
:mod:`taskspec._binpb`) with the engine (:mod:`taskspec._validate`,
:mod:`taskspec._check`), to keep one promise: ``parse_task_spec(marshal_yaml(s))
== s`` for every valid spec, with Go's bytes, and any valid spec survives
YAML -> JSON -> binary -> YAML. Every input is validated as a sidecar is, and
no protobuf or ``json`` exception escapes.
"""

from __future__ import annotations

from typing import NoReturn

from taskspec import _check, _validate
from taskspec._errors import DecodeError, TaskSpecError, Violation, require_task_spec
from taskspec._format import Data, Format, to_format
from taskspec._writable import check_nodes, check_size
from taskspec.bridge import _emit, _fastpath
from taskspec.v1 import taskspec_pb2

__all__ = [
    "convert",
    "marshal",
    "marshal_yaml",
    "parse",
    "parse_binpb",
    "parse_json",
    "parse_task_spec",
    "signal_keys",
    "validate",
]

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
        _raise_all(err.violations[0], data, Format.YAML)
    violations = _validate.check(decoded.spec, decoded.raw_enums, decoded.positions)
    if violations:
        _raise_all(_locate(violations[0], decoded.positions), data, Format.YAML)
    return decoded.spec


def _raise_all(first: Violation, data: Data | str, fmt: Format) -> NoReturn:
    """Raise every problem of *data* (see :func:`taskspec.check`), *first* first.

    Only a document that failed pays for the second, collecting read.
    """
    if fmt is Format.YAML:
        # The readers' positions are YAML's; the error's are those editors show.
        first = _check.for_editors(data, [first])[0]
    _check.raise_all(first, data, fmt)


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


def parse(data: Data | str, fmt: Format | str) -> taskspec_pb2.TaskSpec:
    """Decode *data* in format *fmt* and validate it, as :func:`taskspec.parse_task_spec` does.

    *fmt* is a :class:`Format` or its name; an unknown name is a
    :class:`~taskspec.TaskSpecError`. Binary protobuf must be bytes.
    """
    match to_format(fmt):
        case Format.YAML:
            return parse_task_spec(data)
        case Format.JSON:
            return parse_json(data)
        case Format.BINPB:
            if isinstance(data, str):
                raise DecodeError("binary protobuf must be bytes, got str")
            return parse_binpb(data)


def parse_json(data: Data | str) -> taskspec_pb2.TaskSpec:
    """Decode a proto3 JSON TaskSpec strictly, then validate it.

    Both the lowerCamelCase names and the proto field names are accepted,
    as proto3 JSON requires; unknown fields, duplicate keys, a field given
    under both of its names, and anything but an object at the top are
    rejected. A UTF-8 byte order mark is allowed. A failure raises every
    problem of the document (see :func:`taskspec.check`), the first the
    one a reader that stops at one meets.
    """
    from taskspec._json import read_json  # noqa: PLC0415 - protobuf's JSON support, for JSON only

    try:
        spec, _ = read_json(data)
    except TaskSpecError as err:
        _raise_all(err.violations[0], data, Format.JSON)
    broken = _validate.check(spec)
    if broken:
        _raise_all(broken[0], data, Format.JSON)
    return spec


def parse_binpb(data: Data) -> taskspec_pb2.TaskSpec:
    """Decode a binary protobuf TaskSpec, reject unknown fields, then validate it.

    A known field with the wrong wire type (a string sent as a varint) is
    refused, naming the field; protobuf would keep it aside as an unknown
    field. A singular field that occurs more than once keeps its last value
    (and a message field merges its occurrences), as the protobuf encoding
    specifies and every protobuf library, Go's included, does. A failure
    raises every problem of the data (see :func:`taskspec.check`).
    """
    from taskspec._binpb import read_binpb  # noqa: PLC0415 - for binary protobuf only

    try:
        spec, _ = read_binpb(data)
    except TaskSpecError as err:
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise
        _raise_all(err.violations[0], data, Format.BINPB)
    broken = _validate.check(spec)
    if broken:
        _raise_all(broken[0], data, Format.BINPB)
    return spec


def marshal(spec: taskspec_pb2.TaskSpec, fmt: Format | str) -> bytes:
    """Write *spec* in format *fmt*. Like :func:`taskspec.marshal_yaml`, it does not validate.

    *fmt* is a :class:`Format` or its name; an unknown name, or a *spec*
    that is not a TaskSpec, is a :class:`~taskspec.TaskSpecError`.
    """
    from taskspec import _binpb, _json  # noqa: PLC0415 - the other formats only

    match to_format(fmt):
        case Format.YAML:
            return marshal_yaml(spec)
        case Format.JSON:
            return _json.marshal_json(spec)
        case Format.BINPB:
            return _binpb.marshal_binpb(spec)


def convert(data: Data | str, source: Format | str, target: Format | str) -> bytes:
    """Decode and validate *data* in format *source*, then write it in format *target*.

    The same as ``marshal(parse(data, source), target)``, except that output
    a reader would refuse is refused with a :class:`~taskspec.TaskSpecError`
    (see :mod:`taskspec._writable`): a spec within the limits in one format
    can be over them in another, as a JSON of 200,000 signals is YAML of
    400,000 nodes, or a prompt of 9 MiB of ``"`` is 18 MiB of JSON.
    """
    spec = parse(data, source)
    target = to_format(target)
    if target is Format.YAML:
        # parse validated it, and Validate refuses YAML over the size limit (TS107).
        check_nodes(spec)
        return marshal_yaml(spec)
    return check_size(spec, marshal(spec, target), target.value)
