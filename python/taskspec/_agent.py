"""The agent's view of a task: everything except what is hidden from it.

The verification commands are hidden from the agent by contract: an agent
that can read the test command can tailor its solution to the tests instead
of solving the task. The whole ``verification`` block is hidden, not just
``test_cmd``: ``build_cmd`` names the targets that will be built, and
``timeout_seconds`` is part of how the solution is judged, and neither is
needed to solve the task.
"""

from __future__ import annotations

from typing import Final

from google.protobuf.message import Message

from taskspec._contract import field_contract, reachable_fields
from taskspec._errors import require_task_spec
from taskspec.v1 import options_pb2, taskspec_pb2

__all__ = ["HIDDEN_FIELDS", "agent_view"]


def _hidden_paths() -> tuple[str, ...]:
    out: list[str] = []
    for fd, path in reachable_fields():
        if field_contract(fd).visibility != options_pb2.VISIBILITY_HIDDEN:
            continue
        if not any(path.startswith(outer + ".") for outer in out):
            out.append(path)
    return tuple(out)


#: YAML paths of the fields the agent must not see, outermost first: each
#: field whose ``(taskspec.v1.field).visibility`` is VISIBILITY_HIDDEN and
#: that is not under a hidden field already (clearing a field clears what
#: is under it). Read from the proto, where every field must decide.
HIDDEN_FIELDS: Final = _hidden_paths()


def _clear(msg: Message, path: str) -> None:
    """Clear the field at dotted *path*, in every item of a list along the way."""
    head, _, rest = path.partition(".")
    if not rest:
        msg.ClearField(head)
        return
    fd = msg.DESCRIPTOR.fields_by_name[head]
    if fd.is_repeated:
        for item in getattr(msg, head):
            _clear(item, rest)
    elif msg.HasField(head):
        _clear(getattr(msg, head), rest)


def agent_view(spec: taskspec_pb2.TaskSpec) -> taskspec_pb2.TaskSpec:
    """A copy of *spec* with the hidden fields cleared; *spec* is left unchanged.

    The view is for showing, not for running: with no ``test_cmd`` it is
    not a valid spec, so :func:`taskspec.validate` and :func:`taskspec.save`
    reject it, while :func:`taskspec.marshal_yaml` writes it (with an empty
    ``verification`` block, ``test_cmd: []``). Unknown fields (those of a
    newer schema, kept by protobuf's binary parser) are dropped too, because
    nothing is known about whether they may be shown. The input is not
    validated: any TaskSpec has a view.
    """
    require_task_spec(spec)
    view = taskspec_pb2.TaskSpec()
    view.CopyFrom(spec)
    for path in HIDDEN_FIELDS:
        _clear(view, path)
    view.DiscardUnknownFields()
    return view
