"""Suggestions ("did you mean ...?") for misspelled keys and enum values.

A person fixing a sidecar by hand is helped most by the one spelling they
probably meant, not by the full list of valid ones. Suggestions are made
only when they are likely right: a case or separator slip (``Go``,
``kg-template``), a known alias (``golang``, ``py``, ``ts``), one or two
typing mistakes (``taskid``, ``pyhton``), or a unique key that the word
begins or ends (``timeout`` for ``timeout_seconds``), or that it
shortens part by part (``timeout_secs``). A tie, or anything
further away, gives no suggestion, because a wrong guess costs more than
none.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

__all__ = ["ALIASES", "distance", "suggest"]

#: Other names people use for a canonical value. An alias is offered only
#: when its target is one of the candidates, so one table serves every field.
ALIASES: Final[Mapping[str, str]] = {
    "golang": "go",
    "py": "python",
    "py3": "python",
    "python3": "python",
    "cpython": "python",
    "ts": "typescript",
    "tsx": "typescript",
    "moderate": "medium",
    "intermediate": "medium",
    "normal": "medium",
    "simple": "easy",
    "trivial": "easy",
    "difficult": "hard",
}


def distance(a: str, b: str) -> int:
    """Edit distance counting insertions, deletions, substitutions and adjacent swaps.

    This is the optimal-string-alignment form of Damerau-Levenshtein: a
    swapped pair of letters (``pyhton``) is one mistake, as a person sees it.
    """
    if a == b:
        return 0
    if not a or not b:
        return len(a) or len(b)
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = ca != cb
            best = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, prev2[j - 2] + 1)
            row[j] = best
        prev2, prev = prev, row
    return prev[-1]


def _normal(word: str) -> str:
    return word.strip().lower().replace("-", "_").replace(" ", "_")


def _unique(found: list[str]) -> str | None:
    return found[0] if len(found) == 1 else None


def suggest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate *word* most likely meant, or None when no guess is safe.

    Candidates are canonical spellings (lower case, ``_`` separated). The
    result is never *word* itself.
    """
    options = [c for c in candidates if c]
    norm = _normal(word)
    if not norm:
        return None
    by_norm = {c.lower(): c for c in options}
    choice = by_norm.get(norm)
    if choice is None and ALIASES.get(norm) in by_norm:
        choice = by_norm[ALIASES[norm]]
    if choice is None:
        # Two mistakes are allowed from six characters on, one below: short
        # words are too close to each other for more.
        limit = 1 if len(norm) < 6 else 2
        # Lengths that differ by more than the limit cannot be close enough.
        scored = [
            (distance(norm, c.lower()), c) for c in options if abs(len(c) - len(norm)) <= limit
        ]
        best = min((d for d, _ in scored), default=limit + 1)
        if best <= limit:
            choice = _unique([c for d, c in scored if d == best])
    if choice is None and len(norm) >= 2:
        choice = _unique(
            [
                c
                for c in options
                if c.lower().startswith(norm + "_")
                or c.lower().endswith("_" + norm)
                or (len(norm) >= 4 and c.lower().startswith(norm))
            ]
        )
    if choice is None:
        choice = _unique([c for c in options if _abbreviates(norm, c.lower())])
    return None if choice == word else choice


def _abbreviates(word: str, name: str) -> bool:
    """Whether *word* shortens each ``_`` part of *name* (``timeout_secs``, ``tmpl_id``).

    Each part of *word* keeps the first letter of its part of *name* and
    some of the others, in order; the two have as many parts, two or more.
    """
    parts, names = word.split("_"), name.split("_")
    return len(parts) == len(names) > 1 and all(
        p and p[0] == n[0] and _in_order(p, n) for p, n in zip(parts, names, strict=True)
    )


def _in_order(part: str, name: str) -> bool:
    """Whether the letters of *part* all appear in *name*, in the same order."""
    rest = iter(name)
    return all(c in rest for c in part)
