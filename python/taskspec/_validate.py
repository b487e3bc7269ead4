"""Validate: the structural rules of the TaskSpec contract.

The rules, their order and their wording are the Go package's
(``TaskSpec.Validate``), because services on both sides must agree on which
sidecars are acceptable and tell people the same thing about the ones that
are not. Go stops at the first failure; this layer collects every failure in
Go's order, so the first one is exactly Go's message and the rest save a
person a round trip per mistake.
"""

from __future__ import annotations

from collections.abc import Mapping

from taskspec._errors import TaskSpecError, ValidationError, Violation, require_task_spec
from taskspec._suggest import suggest
from taskspec.bridge import _layout
from taskspec.bridge._gostr import go_quote, go_trim_space
from taskspec.v1 import taskspec_pb2

__all__ = ["CURRENT_TASK_SPEC_VERSION", "check", "signal_keys", "validate"]

#: The TaskSpec schema version this build reads and writes.
CURRENT_TASK_SPEC_VERSION = 1

_LANGUAGE = _layout.enum_info(taskspec_pb2.Language.DESCRIPTOR)
_DIFFICULTY = _layout.enum_info(taskspec_pb2.Difficulty.DESCRIPTOR)
_KIND = _layout.enum_info(taskspec_pb2.GeneratedKind.DESCRIPTOR)

Position = tuple[int, int]


def _enum_text(
    info: _layout.EnumInfo, number: int, path: str, raw: Mapping[str, str]
) -> str | None:
    """The Go-side string of an enum field, or None when it is valid.

    A decoded document keeps the text it held (``cobol``), because a proto
    enum cannot. An in-memory message has only the number: UNSPECIFIED is
    Go's zero value ``""`` and an undefined number is shown as its digits.
    """
    if path in raw:
        return raw[path]
    spelled = info.to_string.get(number)
    if spelled is None:
        return str(number)
    return None if spelled else ""


def check(
    spec: taskspec_pb2.TaskSpec,
    raw_enums: Mapping[str, str] | None = None,
    positions: Mapping[str, Position] | None = None,
) -> list[Violation]:
    """Every contract violation of *spec*, in Go's order.

    ``raw_enums`` maps a field path to the enum text a document held when
    that text is not a known value; ``positions`` maps field paths to the
    (line, column) of their values, so violations of a parsed document say
    where to look.
    """
    raw = raw_enums or {}
    pos = positions or {}
    found: list[tuple[str, str]] = []
    hints: dict[str, str] = {}

    if spec.task_spec_version != CURRENT_TASK_SPEC_VERSION:
        found.append(
            (
                "task_spec_version",
                f"unsupported task_spec_version {spec.task_spec_version}"
                f" (this build produces v{CURRENT_TASK_SPEC_VERSION})",
            )
        )
    if not go_trim_space(spec.task_id):
        found.append(("task_id", "task_id is required"))
    for path, info, number in (
        ("language", _LANGUAGE, spec.language),
        ("difficulty", _DIFFICULTY, spec.difficulty),
        ("generated_from.kind", _KIND, spec.generated_from.kind),
    ):
        text = _enum_text(info, number, path, raw)
        if text is not None:
            found.append((path, f"invalid {path} {go_quote(text)}"))
            # Only text from a document can be misspelled; the suggestion is a
            # hint because the message itself must stay Go's.
            guess = suggest(text, info.from_string) if path in raw else None
            if guess is not None:
                hints[path] = f"did you mean {go_quote(guess)}?"
    if not go_trim_space(spec.prompt):
        found.append(("prompt", "prompt is required"))
    verification = spec.verification
    if not verification.test_cmd:
        found.append(("verification.test_cmd", "verification.test_cmd is required"))
    if verification.timeout_seconds < 0:
        found.append(
            (
                "verification.timeout_seconds",
                "verification.timeout_seconds must be non-negative,"
                f" got {verification.timeout_seconds}",
            )
        )
    return [
        Violation(path, message, *pos.get(path, (0, 0)), hints.get(path, ""))
        for path, message in found
    ]


def validate(spec: taskspec_pb2.TaskSpec) -> None:
    """Check *spec* against the contract; raise :class:`ValidationError` if it fails.

    ``err.violations`` lists every broken rule in Go's order and ``str(err)``
    begins with the first one in Go's wording (less Go's ``eval: `` prefix).
    Like Go, it does not check that referenced files or symbols exist.
    """
    try:
        require_task_spec(spec)
    except TaskSpecError as err:
        raise ValidationError([Violation("", str(err))]) from None
    violations = check(spec)
    if violations:
        raise ValidationError(violations)


def signal_keys(spec: taskspec_pb2.TaskSpec) -> list[str]:
    """The difficulty-signal keys in Go's ``SignalKeys()`` order (byte order).

    Code-point order of Python strings equals the byte order of their UTF-8
    encoding, which is what Go's ``sort.Strings`` uses. This differs from the
    key order of the canonical YAML, which follows yaml.v3's own rules.
    """
    require_task_spec(spec)
    return sorted(spec.difficulty_signals)
