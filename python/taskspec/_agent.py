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

from taskspec._errors import require_task_spec
from taskspec.v1 import taskspec_pb2

__all__ = ["HIDDEN_FIELDS", "agent_view"]

#: TaskSpec fields the agent must not see. A test pins this list against the
#: schema, so a field added to the proto forces a decision here.
HIDDEN_FIELDS: Final = ("verification",)


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
    for name in HIDDEN_FIELDS:
        view.ClearField(name)
    view.DiscardUnknownFields()
    return view
