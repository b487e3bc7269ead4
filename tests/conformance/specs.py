"""The specs the canonical and round-trip-bug vectors are drawn from.

Each spec is the consumer's SPEC object (canonical YAML keys, enums as
their YAML strings) as a plain dict. The systematic specs put every atom
of :mod:`tests.conformance.atoms` into every kind of field and every key
atom into ``difficulty_signals``; the structural ones cover empty, missing
and present optional blocks and integer extremes; the random ones mix
everything, drawn from the caller's seeded ``random.Random``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from taskspec._limits import INT64_MAX, INT64_MIN
from taskspec.bridge._keyorder import key_less
from tests.conformance.atoms import (
    ATOMS,
    INT_VALUES,
    KEY_ALPHABET,
    KEY_ATOMS,
    TRICKY_ALPHABET,
    WORDS,
    go_blank,
)

__all__ = [
    "BUG_PROBES",
    "Spec",
    "base",
    "order_is_total",
    "random_spec",
    "structural",
    "systematic",
]

Spec = dict[str, Any]


# -- yaml.v3's map key order ---------------------------------------------------------


def order_is_total(keys: Iterable[str]) -> bool:
    """Whether yaml.v3's Less is a strict total order on *keys*.

    It is not, in general: a run of 19 or more digits overflows int64 and a
    non-ASCII decimal digit counts as ``ord(d) - 48``, which can make Less
    cyclic. Go's ``sort.Sort`` then puts such keys in an order that depends
    on map iteration order, so Go's own MarshalYAML output is not
    reproducible and cannot be a canonical vector.
    """
    ks = list(keys)
    less = {(a, b): key_less(a, b) for a in ks for b in ks if a != b}
    for a in ks:
        for b in ks:
            if a != b and less[a, b] == less[b, a]:
                return False
    for a in ks:
        for b in ks:
            if a == b or not less[a, b]:
                continue
            for c in ks:
                if c not in (a, b) and less[b, c] and not less[a, c]:
                    return False
    return True


# -- spec construction ---------------------------------------------------------------

_LANGUAGES = ("go", "python", "typescript")
_DIFFICULTIES = ("easy", "medium", "hard")
_KINDS = ("kg_template", "benchmark_seed")


def base(i: int) -> Spec:
    """A small valid spec; *i* rotates the enums."""
    return {
        "task_spec_version": 1,
        "task_id": f"task-{i:04d}",
        "language": _LANGUAGES[i % 3],
        "difficulty": _DIFFICULTIES[(i // 3) % 3],
        "difficulty_signals": {},
        "generated_from": {"kind": _KINDS[(i // 9) % 2], "template_id": "", "kg_query": None},
        "prompt": "Do the task.",
        "solution_artifacts": [],
        "verification": {
            "build_cmd": [],
            "test_cmd": ["go", "test", "./..."],
            "timeout_seconds": 0,
        },
    }


def _set_scalar(spec: Spec, slot: str, value: str) -> None:
    gen = spec["generated_from"]
    if slot in ("task_id", "prompt"):
        spec[slot] = value
    elif slot == "template_id":
        gen["template_id"] = value
    elif slot in ("intent", "seed_symbol"):
        gen["kg_query"] = {"intent": "", "seed_symbol": "", slot: value}
    else:
        raise ValueError(slot)


def _set_in_sequence(spec: Spec, slot: str, value: str) -> None:
    ver = spec["verification"]
    if slot == "test_cmd":
        ver["test_cmd"] = ["run", value]
    elif slot == "build_cmd":
        ver["build_cmd"] = [value, "build"]
    elif slot == "path":
        spec["solution_artifacts"] = [{"path": value, "role": "target"}]
    elif slot == "role":
        spec["solution_artifacts"] = [{"path": "a.go", "role": ""}, {"path": "b.go", "role": value}]
    else:
        raise ValueError(slot)


_SCALAR_SLOTS = ("task_id", "prompt", "template_id", "intent", "seed_symbol")
_SEQUENCE_SLOTS = ("test_cmd", "path", "build_cmd", "role")


def _describe(value: str) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:45]}... ({len(value)} chars)"


def systematic() -> list[tuple[str, Spec]]:
    """Every atom as a mapping value, as (part of) a sequence item, and key atoms as keys."""
    out: list[tuple[str, Spec]] = []
    for i, (category, atom) in enumerate(ATOMS):
        slot = _SCALAR_SLOTS[i % len(_SCALAR_SLOTS)]
        if slot in ("task_id", "prompt") and go_blank(atom):
            slot = "template_id"
        spec = base(len(out))
        _set_scalar(spec, slot, atom)
        out.append((f"{category}: {slot} = {_describe(atom)}", spec))
        seq_slot = _SEQUENCE_SLOTS[i % len(_SEQUENCE_SLOTS)]
        spec = base(len(out))
        _set_in_sequence(spec, seq_slot, atom)
        out.append((f"{category}: {seq_slot} item = {_describe(atom)}", spec))
    groups = [KEY_ATOMS[i : i + 6] for i in range(0, len(KEY_ATOMS), 6)]
    groups += [KEY_ATOMS[i::7] for i in range(7)]
    for i, group in enumerate(groups):
        keys = _ordered_subset(group)
        spec = base(len(out))
        spec["difficulty_signals"] = {
            k: INT_VALUES[(i + j) % len(INT_VALUES)] for j, k in enumerate(keys)
        }
        out.append((f"signal keys {', '.join(_describe(k) for k in keys)}", spec))
    return out


def _ordered_subset(keys: Iterable[str]) -> list[str]:
    """*keys* in order, leaving out each one that would make yaml.v3's key order partial."""
    kept: list[str] = []
    for key in keys:
        if key not in kept and order_is_total([*kept, key]):
            kept.append(key)
    return kept


def structural() -> list[tuple[str, Spec]]:
    """Empty, missing and present optional blocks, and integer extremes."""
    out: list[tuple[str, Spec]] = []

    def add(note: str, change: Callable[[Spec], None]) -> None:
        spec = base(len(out) + 7)
        change(spec)
        out.append((note, spec))

    def kg(intent: str, seed: str) -> Callable[[Spec], None]:
        def change(s: Spec) -> None:
            s["generated_from"]["kg_query"] = {"intent": intent, "seed_symbol": seed}

        return change

    add("minimal: every optional block missing", lambda s: None)
    add("kg_query: {} (present, empty)", kg("", ""))
    add("kg_query with intent only", kg("code_context", ""))
    add("kg_query with seed_symbol only", kg("", "pkg.Sym"))
    add("kg_query with both fields", kg("code_context", "pkg.Sym"))

    def full(s: Spec) -> None:
        s["difficulty_signals"] = {
            "cyclomatic_complexity": 4,
            "edge_count": 9,
            "involved_symbols": 6,
        }
        s["generated_from"]["template_id"] = "impl-pure-fn"
        s["generated_from"]["kg_query"] = {"intent": "code_context", "seed_symbol": "mathx.GCD"}
        s["solution_artifacts"] = [{"path": "mathx/gcd.go", "role": "target"}]
        s["verification"] = {
            "build_cmd": ["go", "build", "./..."],
            "test_cmd": ["go", "test", "./mathx/..."],
            "timeout_seconds": 120,
        }

    add("every field present", full)
    add(
        "artifacts with empty paths and roles",
        lambda s: s.update(
            solution_artifacts=[
                {"path": "", "role": ""},
                {"path": "", "role": "r"},
                {"path": "p", "role": ""},
            ]
        ),
    )
    add("test_cmd of one empty string", lambda s: s["verification"].update(test_cmd=[""]))
    add(
        "build_cmd and test_cmd of empty strings",
        lambda s: s["verification"].update(build_cmd=["", ""], test_cmd=["", " ", ""]),
    )

    def timeout(value: int) -> Callable[[Spec], None]:
        return lambda s: s["verification"].update(timeout_seconds=value)

    for value in (1, INT64_MAX, 2**31, 2**32, 2**53 + 1):
        add(f"timeout_seconds {value}", timeout(value))
    add(
        "signal values at the int64 extremes",
        lambda s: s.update(
            difficulty_signals={
                "min": INT64_MIN,
                "max": INT64_MAX,
                "zero": 0,
                "neg": -1,
                "2^53+1": 2**53 + 1,
            }
        ),
    )
    add("one signal of value 0", lambda s: s.update(difficulty_signals={"zero": 0}))
    add("twenty signals", lambda s: s.update(difficulty_signals={f"s{i}": i for i in range(20)}))
    add(
        "a hundred artifacts",
        lambda s: s.update(
            solution_artifacts=[
                {"path": f"f{i}.go", "role": "" if i % 3 else "target"} for i in range(100)
            ]
        ),
    )
    return out


def _random_string(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.45:
        return rng.choice(ATOMS)[1]
    if roll < 0.75:
        parts = [
            rng.choice(ATOMS)[1] if rng.random() < 0.6 else rng.choice(WORDS)
            for _ in range(rng.randint(2, 3))
        ]
        return rng.choice(["", " ", "\n", ": ", " #", "-", "\t"]).join(parts)
    return "".join(rng.choice(TRICKY_ALPHABET) for _ in range(rng.randint(1, 16)))


def _random_key(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(KEY_ATOMS)
    return "".join(rng.choice(KEY_ALPHABET) for _ in range(rng.randint(1, 6)))


def random_spec(rng: random.Random, i: int) -> Spec:
    spec = base(i)
    spec["language"] = rng.choice(_LANGUAGES)
    spec["difficulty"] = rng.choice(_DIFFICULTIES)
    spec["generated_from"]["kind"] = rng.choice(_KINDS)
    task_id = _random_string(rng)
    spec["task_id"] = task_id if not go_blank(task_id) else f"id{task_id}"
    prompt = _random_string(rng)
    spec["prompt"] = prompt if not go_blank(prompt) else f"{prompt}p"
    keys = _ordered_subset(_random_key(rng) for _ in range(rng.choice([0, 0, 1, 3, 6, 10])))
    spec["difficulty_signals"] = {
        key: rng.choice(INT_VALUES) if rng.random() < 0.3 else rng.randint(-999, 99999)
        for key in keys
    }
    gen = spec["generated_from"]
    gen["template_id"] = _random_string(rng) if rng.random() < 0.5 else ""
    shape = rng.random()
    if shape < 0.3:
        gen["kg_query"] = None
    elif shape < 0.4:
        gen["kg_query"] = {"intent": "", "seed_symbol": ""}
    else:
        gen["kg_query"] = {
            "intent": _random_string(rng) if rng.random() < 0.7 else "",
            "seed_symbol": _random_string(rng) if rng.random() < 0.7 else "",
        }
    spec["solution_artifacts"] = [
        {"path": _random_string(rng), "role": _random_string(rng) if rng.random() < 0.5 else ""}
        for _ in range(rng.choice([0, 0, 1, 2, 4]))
    ]
    ver = spec["verification"]
    ver["build_cmd"] = [_random_string(rng) for _ in range(rng.choice([0, 0, 1, 3]))]
    ver["test_cmd"] = [_random_string(rng) for _ in range(rng.choice([1, 2, 4]))]
    ver["timeout_seconds"] = rng.choice([0, 0, 30, 120, 3600, INT64_MAX, rng.randint(1, 10**6)])
    return spec


#: Specs yaml.v3 is known to write so that it cannot read them back. The
#: generator insists that Go still fails on each, so the set stays honest.
BUG_PROBES: tuple[tuple[str, Callable[[Spec], None]], ...] = (
    (
        "signal key << is read back as a merge key",
        lambda s: s.update(difficulty_signals={"<<": 1, "a": 2}),
    ),
    ("test_cmd item starting with a newline", lambda s: _set_in_sequence(s, "test_cmd", "\nfoo")),
    (
        "test_cmd item: first line starts with a space",
        lambda s: _set_in_sequence(s, "test_cmd", " foo\nbar"),
    ),
    ("artifact path starting with a newline", lambda s: _set_in_sequence(s, "path", "\n\nx")),
    (
        "artifact role: first line starts with a space",
        lambda s: _set_in_sequence(s, "role", "  a\nb\n"),
    ),
    ("build_cmd item starting with a newline", lambda s: _set_in_sequence(s, "build_cmd", "\nx\n")),
    ("prompt: first line starts with a tab", lambda s: s.update(prompt="\tfoo\nbar")),
    ("task_id: first line starts with a tab", lambda s: s.update(task_id="\tid\nx")),
    ("intent: first line starts with a tab", lambda s: _set_scalar(s, "intent", "\ta\n")),
    (
        "test_cmd item: first line starts with a tab",
        lambda s: _set_in_sequence(s, "test_cmd", "\tx\ny"),
    ),
)
