"""The canonical difficulty rubric: graph signals in, a band and its signals out.

A task's band must be reproducible (the same graph state always gives the
same band) and comparable across languages, so every generator, Go or
Python, derives it with this one rubric instead of its own. Each signal is
banded on its own and the hardest band wins, because a task is as hard as
its hardest aspect: a tiny function with tangled control flow is not easy.

========================== ============== ========== ========== ======
signal key                 argument       easy       medium     hard
========================== ============== ========== ========== ======
``involved_symbols``       node_count     1 to 3     4 to 10    11+
``edge_count``             edge_count     0 to 4     5 to 12    13+
``cyclomatic_complexity``  cyclomatic     1 to 3     4 to 7     8+
========================== ============== ========== ========== ======
"""

from __future__ import annotations

from typing import Final, NamedTuple

from taskspec._enums import Difficulty
from taskspec._errors import ValidationError, Violation
from taskspec._limits import INT64_MAX
from taskspec._problem_code import Code

__all__ = ["SIGNAL_BANDS", "SignalBand", "derive_difficulty"]


class SignalBand(NamedTuple):
    """One row of the rubric: the inclusive upper bounds of the easy and medium bands.

    ``message`` is the Go package's wording for a value below ``minimum``,
    as a format string of the value (``%d``).
    """

    key: str
    argument: str
    minimum: int
    easy_max: int
    medium_max: int
    message: str

    def band(self, value: int) -> Difficulty:
        if value <= self.easy_max:
            return Difficulty.EASY
        if value <= self.medium_max:
            return Difficulty.MEDIUM
        return Difficulty.HARD


#: The rubric, in the byte order of the signal keys (the order of
#: :func:`taskspec.signal_keys`).
SIGNAL_BANDS: Final = (
    SignalBand(
        "cyclomatic_complexity",
        "cyclomatic",
        1,
        3,
        7,
        "difficulty cyclomatic proxy must be at least 1, got %d",
    ),
    SignalBand(
        "edge_count", "edge_count", 0, 4, 12, "difficulty edge count must be non-negative, got %d"
    ),
    SignalBand(
        "involved_symbols",
        "node_count",
        1,
        3,
        10,
        "difficulty node count must be at least 1 (the seed itself), got %d",
    ),
)

_ORDER: Final = (Difficulty.EASY, Difficulty.MEDIUM, Difficulty.HARD)

#: The codes of the violations: an argument that is not an int, one below
#: its row's minimum (the code ``tests/contract/difficulty.json`` records,
#: the Go library's), and one past int64, which the Go library cannot be
#: given.
_NOT_INT: Final = Code.WRONG_TYPE.value
_BELOW_MINIMUM: Final = Code.AT_LEAST.value
_PAST_INT64: Final = Code.AT_MOST.value


def _shown(value: int) -> str:
    """*value* for a message; past 30 digits, its size instead.

    ``str()`` of an int beyond Python's digit limit (4,300) raises a bare
    ValueError, and no reader wants the digits of a huge number anyway.
    """
    if -(10**30) < value < 10**30:
        return str(value)
    sign = "a negative" if value < 0 else "an"
    return f"{sign} integer of {value.bit_length()} bits"


def derive_difficulty(
    node_count: int, edge_count: int, cyclomatic: int
) -> tuple[Difficulty, dict[str, int]]:
    """The band of a task and the signals it was derived from.

    *node_count* is the number of symbols the task involves (at least 1:
    the target itself), *edge_count* the number of graph edges between
    them, *cyclomatic* the cyclomatic complexity of the target (at least 1).
    The returned dict is ready for ``spec.difficulty_signals.update(...)``,
    keyed ``involved_symbols``, ``edge_count`` and ``cyclomatic_complexity``.

    Raises :class:`~taskspec.ValidationError` (a
    :class:`~taskspec.TaskSpecError` and a :class:`ValueError`, as the Go
    library's ``*ValidationError``) listing
    every argument that is not an ``int`` (``bool`` included: ``True`` is
    not a count), is below its minimum or does not fit the int64 signal
    field, in the order of the arguments. A value below its minimum is
    worded as the Go package's ``DeriveDifficulty`` words it ("difficulty
    node count must be at least 1 (the seed itself), got 0"), with the code
    ``TS104`` (:attr:`Code.AT_LEAST <taskspec.Code.AT_LEAST>`), so the
    error's text is the Go library's without its ``taskspec: `` prefix; an
    argument that is not an int is ``TS003``, one past int64 ``TS110``. It is the
    package's one error family, so a caller that handles
    ``TaskSpecError`` needs no second clause, and each violation's
    ``field_path`` names the signal (``difficulty_signals.edge_count``).
    """
    values = {"node_count": node_count, "edge_count": edge_count, "cyclomatic": cyclomatic}
    problems: list[Violation] = []
    for row in sorted(SIGNAL_BANDS, key=lambda r: list(values).index(r.argument)):
        value: object = values[row.argument]
        path = f"difficulty_signals.{row.key}"
        if isinstance(value, bool) or not isinstance(value, int):
            message = f"{row.argument} must be an int, got {type(value).__name__}"
            problems.append(Violation(path, message, code=_NOT_INT))
        elif value < row.minimum:
            message = row.message.replace("%d", _shown(value))
            problems.append(Violation(path, message, code=_BELOW_MINIMUM))
        elif value > INT64_MAX:
            message = f"{row.argument} must fit in int64, got {_shown(value)}"
            problems.append(Violation(path, message, code=_PAST_INT64))
    if problems:
        raise ValidationError(problems)

    signals = {row.key: int(values[row.argument]) for row in SIGNAL_BANDS}
    hardest = max((row.band(signals[row.key]) for row in SIGNAL_BANDS), key=_ORDER.index)
    return hardest, signals
