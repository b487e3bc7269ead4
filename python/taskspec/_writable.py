"""Writers never write what readers refuse.

A reader refuses a document over the limits of the contract (its size,
and for YAML its node count and depth; see :mod:`taskspec._limits`), so a
writer that produced one would leave a file that nothing can load: a
harness's record of a run, lost at the next read. Every writer of this
package (:func:`taskspec.save`, :func:`taskspec.convert`, ``taskspec fmt``
and ``taskspec convert``) checks its output here before anything is written,
and refuses with a :class:`~taskspec.TaskSpecError` naming the limit and the
field that takes most of it. The ``marshal`` functions do not: like Go's,
they write what they are given, so that any spec can be inspected.

The checks cost next to nothing: the size is that of the bytes already
produced, the depth of a TaskSpec's YAML depends on the schema alone and is
checked once, at import, and the nodes are counted on the message (a list
or a map by its length; see :func:`taskspec.bridge._emit.nodes`), never by
reading the output back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from taskspec._codes import LIMIT
from taskspec._contract import ContractError
from taskspec._errors import TaskSpecError, Violation
from taskspec._forms_gen import (
    MSG_LIMIT_CANNOT_WRITE,
    REASON_LIMIT_TOO_LARGE,
    REASON_LIMIT_TOO_LARGE_COMMENTS,
    REASON_LIMIT_TOO_LARGE_FIELD,
    REASON_LIMIT_TOO_MANY_NODES,
)
from taskspec._limits import MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_NODES
from taskspec._words import render
from taskspec.bridge import _emit
from taskspec.v1 import taskspec_pb2

__all__ = ["check_nodes", "check_size"]

#: How the formats are named in messages, by their command-line names.
_NAMES: Final = {"yaml": "YAML", "json": "JSON", "binpb": "binary protobuf"}

if _emit.DEPTH > MAX_DEPTH:  # pragma: no cover - a schema this deep is refused at import
    raise ContractError(
        f"taskspec.v1.TaskSpec: its YAML nests {_emit.DEPTH} levels deep, more than"
        f" (taskspec.v1.limits).max_depth ({MAX_DEPTH}): no reader could read a spec"
    )


def check_nodes(spec: taskspec_pb2.TaskSpec) -> None:
    """Refuse a spec whose YAML has more nodes than a reader accepts.

    It needs only the message, so writers call it before writing the YAML,
    which for a spec of a million signals would be the costly part.
    """
    count = _emit.nodes(spec)
    if count <= MAX_NODES:
        return
    field, part = max(
        ((f.name, f.nodes(spec)) for f in _emit.DOCUMENT.fields), key=lambda pair: pair[1]
    )
    raise TaskSpecError(
        [
            Violation(
                field,
                render(
                    MSG_LIMIT_CANNOT_WRITE,
                    reason=render(
                        REASON_LIMIT_TOO_MANY_NODES,
                        n=f"{count:,}",
                        limit=f"{MAX_NODES:,}",
                        field=field,
                        part=f"{part:,}",
                    ),
                ),
                code=LIMIT,
            )
        ]
    )


def check_size(spec: taskspec_pb2.TaskSpec, data: bytes, fmt: str, *, comments: int = 0) -> bytes:
    """*data*, *spec* written in format *fmt*, if it is within a reader's size limit.

    A spec within the limit in one format may be over it in another: a
    prompt of 9 MiB of ``"`` is 9 MiB of YAML and 18 MiB of JSON, where
    every ``"`` is escaped. *comments* is how many of the bytes are
    comments ``fmt`` keeps (indented, they can grow too), which the message
    then names rather than a field.
    """
    if len(data) <= MAX_DOCUMENT_BYTES:
        return data
    name = _NAMES.get(fmt, fmt)
    sizes = {"format": name, "n": f"{len(data):,}", "limit": f"{MAX_DOCUMENT_BYTES:,}"}
    if comments:
        field = ""
        reason = render(REASON_LIMIT_TOO_LARGE_COMMENTS, part=f"{comments:,}", **sizes)
    else:
        field, part = _largest_field(spec, fmt)
        reason = (
            render(REASON_LIMIT_TOO_LARGE_FIELD, field=field, part=f"{part:,}", **sizes)
            if field
            else render(REASON_LIMIT_TOO_LARGE, **sizes)
        )
    raise TaskSpecError(
        [
            Violation(
                field,
                render(MSG_LIMIT_CANNOT_WRITE, reason=reason),
                code=LIMIT,
            )
        ]
    )


def _largest_field(spec: taskspec_pb2.TaskSpec, fmt: str) -> tuple[str, int]:
    """The top-level field that adds most to the document in *fmt*, and how much.

    Only on the way to an error: each set field is written alone, and
    measured against an empty spec.
    """
    marshal = _writer(fmt)
    empty = len(marshal(taskspec_pb2.TaskSpec()))
    best = ("", 0)
    for fd, value in spec.ListFields():
        alone = taskspec_pb2.TaskSpec()
        _copy_field(alone, fd.name, fd, value)
        size = len(marshal(alone)) - empty
        if size > best[1]:
            best = (fd.name, size)
    return best


def _writer(fmt: str) -> Callable[[taskspec_pb2.TaskSpec], bytes]:
    """The writer of the format named *fmt*, from the format layer."""
    from taskspec import _binpb, _json  # noqa: PLC0415 - the other formats only, on an error

    return {"json": _json.marshal_json, "binpb": _binpb.marshal_binpb}.get(fmt, _emit.marshal)


def _copy_field(target: Any, name: str, fd: Any, value: Any) -> None:
    if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
        field = getattr(target, name)
        for key in value:
            if fd.message_type.fields_by_name["value"].message_type is None:
                field[key] = value[key]
            else:
                field[key].CopyFrom(value[key])
    elif fd.is_repeated:
        getattr(target, name).extend(value)
    elif fd.message_type is not None:
        getattr(target, name).CopyFrom(value)
    else:
        setattr(target, name, value)
