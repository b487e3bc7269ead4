"""Generate the shared conformance vectors in ``tests/conformance/vectors/``.

The vectors are Go's answers, recorded as data, so that the Python tests can
hold the Python layer to them even on a machine without Go. Every expected
outcome comes from the Go consumer (``taskspec-conform serve``, real yaml.v3):

``canonical/``
    Go's ``MarshalYAML`` output for generated specs full of hard strings,
    signal keys and integer extremes, each of which Go reads back to the
    same spec. The manifest holds the decoded value of each.
``roundtrip_bugs/``
    Specs for which yaml.v3 writes bytes it cannot read back as written,
    with Go's bytes and Go's round-trip error.
``rejected/``
    Hand-written documents Go's ``ParseTaskSpec`` rejects, with Go's error
    and whether yaml.v3 (``decode``) or ``Validate`` (``validate``) failed.
``accepted/``
    Hand-written documents Go accepts, with Go's decoded value and Go's
    re-marshal of it.

The specs are drawn from a seeded ``random.Random``, so regenerating with
the same seed (and the same Go consumer) reproduces every byte.

Usage, from the repository root::

    python -m scripts.gen_vectors [--seed N] [--out DIR] [--binary PATH]
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from scripts.vector_docs import ACCEPTED, REJECTED, STRICTER, STRICTER_REJECTED, Doc
from taskspec.bridge._emit import _key_less as _emit_key_less
from tests.gobridge import GoConsumer, GoResult

__all__ = ["CLASSES", "DEFAULT_SEED", "generate", "main"]

Spec = dict[str, Any]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "conformance" / "vectors"
DEFAULT_BINARY = ROOT / ".bin" / "taskspec-conform"
DEFAULT_SEED = 20260629

#: The vector classes, one directory each.
CLASSES = ("canonical", "roundtrip_bugs", "rejected", "accepted")

#: How many fully random specs join the systematic ones.
RANDOM_SPECS = 160

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

#: Go's unicode.IsSpace, which strings.TrimSpace (and so Validate) uses.
_GO_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

# -- the hard strings ------------------------------------------------------------


def _yaml11_booleans() -> list[str]:
    words = ["y", "n", "yes", "no", "on", "off", "true", "false"]
    out: list[str] = []
    for w in words:
        for form in (w, w.capitalize(), w.upper()):
            if form not in out:
                out.append(form)
    # Mixed case is not a boolean in any YAML version: these stay plain.
    out += ["yEs", "tRUE", "oFF", "nO"]
    return out


_INDICATORS = "-?:,[]{}#&*!|>'\"%@`"


def _indicator_strings() -> list[str]:
    out: list[str] = []
    for c in _INDICATORS:
        out += [c, c + "x", "x" + c, "x" + c + "y", c + " x", "x " + c, "x " + c + " y"]
    out += ["- x", "? x", ": x", "x: y", "x:y", "x #y", "x#y", "a, b", "[a]", "{a: b}", "a]"]
    out += ["---", "...", "--- x", "... x", "--", "-1x", "::", "<<", "=", "~x", "x~"]
    out += ["!!str", "!x", "&a", "*a", "%YAML 1.2", "@x", "`x`", "\\", "x\\y", "a'b", 'a"b']
    out += ["http://example.com/a?b=c#d", "C:\\path\\file", "x -", "x ?", "- ", "-\t"]
    return out


#: (category, string) pairs: every string the canonical set must carry.
ATOMS: tuple[tuple[str, str], ...] = tuple(
    [("bool", s) for s in _yaml11_booleans()]
    + [("null", s) for s in ["null", "Null", "NULL", "nULL", "~", ""]]
    + [
        ("number", s)
        for s in [
            "0",
            "-0",
            "+0",
            "1",
            "-1",
            "+1",
            "0x1F",
            "0X1F",
            "0x",
            "-0x1F",
            "1e3",
            "1E3",
            "1e+3",
            "1e-3",
            "1.50",
            ".5",
            "5.",
            "-.5",
            "0o17",
            "0O17",
            "017",
            "08",
            "09",
            "0b101",
            "0b2",
            "1_000",
            "1,000",
            "_1",
            "1_",
            ".inf",
            ".Inf",
            ".INF",
            "-.inf",
            "+.inf",
            ".nan",
            ".NaN",
            ".NAN",
            "inf",
            "nan",
            "Infinity",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775809",
            "1e400",
            "0.",
            "1.2.3",
            "1e",
            "e3",
            "0e0",
            "1:20",
            "1:20:30",
            "-1:20",
            "190:20:30.15",
            "0:0",
            "12:30:00",
        ]
    ]
    + [
        ("date", s)
        for s in [
            "2001-12-14",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2001-12-15T02:59:43.1Z",
            "2002-1-1",
            "20:00",
            "T12:00",
            "2001-12-14T",
        ]
    ]
    + [("indicator", s) for s in _indicator_strings()]
    + [
        ("space", s)
        for s in [" x", "x ", " x ", " ", "  ", "\t", "\tx", "x\t", " \t ", "x  y", "x \t y"]
    ]
    + [
        ("multiline", s)
        for s in [
            "a\nb",
            "a\nb\n",
            "a\nb\n\n",
            "a\n\nb",
            "a\n",
            "a\n\n",
            "\n",
            "\n\n",
            "a \nb",
            "a\t\nb",
            "a\n b",
            "a\n\tb",
            "a\nb ",
            "a\nb\t",
            "a\r\nb",
            "a\r\nb\r\n",
            "a\rb",
            "\r",
            "a\r",
            "a\u2028b",
            "a\u2029b",
            "a\x85b",
            "a\nb\x85",
            "# a\nb",
            "- a\n- b",
            "a: b\nc: d",
            "|\na",
            "---\na",
            "a\n---\nb",
            "a\n...\nb",
            "a\n  b\n    c",
            "x" * 90 + "\n" + "y" * 90,
            "one\ntwo\nthree\n",
            "a\n\n\nb\n\n\n",
        ]
    ]
    + [
        ("unicode", s)
        for s in [
            "a\xa0b",
            "\xa0",
            "\xa0x",
            "x\xa0",
            "\ufeff",
            "\ufeffa",
            "a\ufeff",
            "\x00",
            "a\x00b",
            "\x07",
            "\x08",
            "\x1b[0m",
            "\x7f",
            "\x80",
            "\x9f",
            "\u200b",
            "\u200d",
            "\ue000",
            "\ufffd",
            "\ufffe",
            "\U0010ffff",
            "e\u0301",
            "\u202e",
            "\u3000",
            "\u1680",
            "caf\u00e9",
            "na\u00efve",
            "\U0001f600",
            "a\U0001f600b",
            "\U0001f468\u200d\U0001f469\u200d\U0001f467",
            "\u6f22\u5b57",
            "\u65e5\u672c\u8a9e\u30c6\u30ad\u30b9\u30c8",
            "\ud55c\uad6d\uc5b4",
            "\u0627\u0644\u0639\u0631\u0628\u064a\u0629",
            "\u0663\u0664",
        ]
    ]
    + [
        ("long", s)
        for s in [
            "x" * 200,
            "word " * 60 + "end",
            "a" * 5000,
            "a b" * 100 + "\n" + "c" * 300,
            ("lorem ipsum " * 30 + "\n") * 3,
        ]
    ]
    + [("empty", "")]
)

#: Signal keys that exercise yaml.v3's natural key order.
KEY_ATOMS: tuple[str, ...] = (
    "a9",
    "a10",
    "a09",
    "a010",
    "a1",
    "a01",
    "a001",
    "9",
    "10",
    "09",
    "010",
    "0",
    "00",
    "1",
    "a",
    "A",
    "b",
    "B",
    "z",
    "Z",
    "_",
    "-",
    ".",
    "_a",
    "a_",
    "a-",
    "a.",
    "a1b",
    "a01b",
    "a1a",
    "a10a",
    "a9z",
    "x.1",
    "x.10",
    "x.9",
    "v1.2",
    "v1.10",
    "v1.2.3",
    "1a",
    "1_",
    "1.",
    "10a",
    "1a1",
    "a1_",
    "a_1",
    "\u00e9",
    "\u00ea",
    "\u0663",
    "1\u0663",
    "\u6f22",
    "\U0001f600",
    "",
    " ",
    "~",
    "null",
    "true",
    "y",
    "Yes",
    "1e3",
    "0x1F",
    "-1",
    ".5",
    "a b",
    "a:b",
    "a: b",
    "#",
    "- a",
    "k" * 128,
    "k" * 129,
    "a\nb",
    "\ta",
    "a ",
    "99999999999999999999",
    "18446744073709551617",
    "a18446744073709551617",
    "cyclomatic_complexity",
    "edge_count",
    "involved_symbols",
    "kg_nodes",
    "kg_edges",
)

_KEY_ALPHABET = "aAbZ019_-. \u00e9\u0663"
_TRICKY_ALPHABET = "aZ09 \t\n:#-?{}[],&*!|>'\"%@`\\~\xa0\u2028\x85\x00\x1b\u00e9\u6f22\U0001f600\r"

_INT_VALUES = (0, 1, -1, 2, 42, 100, 1000, 10**9, 10**18, INT64_MAX, INT64_MIN, INT64_MAX - 1)
_WORDS = ("go", "test", "./...", "build", "pytest", "-q", "npm", "run", "lint", "make", "check")


def _go_blank(s: str) -> bool:
    return not s.strip(_GO_SPACE)


def _describe(value: str) -> str:
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:45]}... ({len(value)} chars)"


# -- yaml.v3's map key order ---------------------------------------------------------


def _yaml_v3_less(a: str, b: str) -> bool:
    """yaml.v3's ``keyList.Less`` for two string keys, as the writer reproduces it."""
    return _emit_key_less(a, b)


def order_is_total(keys: Iterable[str]) -> bool:
    """Whether yaml.v3's Less is a strict total order on *keys*.

    It is not, in general: a run of 19 or more digits overflows int64 and a
    non-ASCII decimal digit counts as ``ord(d) - 48``, which can make Less
    cyclic. Go's ``sort.Sort`` then puts such keys in an order that depends
    on map iteration order, so Go's own MarshalYAML output is not
    reproducible and cannot be a canonical vector.
    """
    ks = list(keys)
    less = {(a, b): _yaml_v3_less(a, b) for a in ks for b in ks if a != b}
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


def _base(i: int) -> Spec:
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


def _systematic() -> list[tuple[str, Spec]]:
    """Every atom as a mapping value, as (part of) a sequence item, and key atoms as keys."""
    out: list[tuple[str, Spec]] = []
    for i, (category, atom) in enumerate(ATOMS):
        slot = _SCALAR_SLOTS[i % len(_SCALAR_SLOTS)]
        if slot in ("task_id", "prompt") and _go_blank(atom):
            slot = "template_id"
        spec = _base(len(out))
        _set_scalar(spec, slot, atom)
        out.append((f"{category}: {slot} = {_describe(atom)}", spec))
        seq_slot = _SEQUENCE_SLOTS[i % len(_SEQUENCE_SLOTS)]
        spec = _base(len(out))
        _set_in_sequence(spec, seq_slot, atom)
        out.append((f"{category}: {seq_slot} item = {_describe(atom)}", spec))
    groups = [KEY_ATOMS[i : i + 6] for i in range(0, len(KEY_ATOMS), 6)]
    groups += [KEY_ATOMS[i::7] for i in range(7)]
    for i, group in enumerate(groups):
        keys = _ordered_subset(group)
        spec = _base(len(out))
        spec["difficulty_signals"] = {
            k: _INT_VALUES[(i + j) % len(_INT_VALUES)] for j, k in enumerate(keys)
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


def _structural() -> list[tuple[str, Spec]]:
    """Empty, missing and present optional blocks, and integer extremes."""
    out: list[tuple[str, Spec]] = []

    def add(note: str, change: Callable[[Spec], None]) -> None:
        spec = _base(len(out) + 7)
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
            rng.choice(ATOMS)[1] if rng.random() < 0.6 else rng.choice(_WORDS)
            for _ in range(rng.randint(2, 3))
        ]
        return rng.choice(["", " ", "\n", ": ", " #", "-", "\t"]).join(parts)
    return "".join(rng.choice(_TRICKY_ALPHABET) for _ in range(rng.randint(1, 16)))


def _random_key(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(KEY_ATOMS)
    return "".join(rng.choice(_KEY_ALPHABET) for _ in range(rng.randint(1, 6)))


def _random_spec(rng: random.Random, i: int) -> Spec:
    spec = _base(i)
    spec["language"] = rng.choice(_LANGUAGES)
    spec["difficulty"] = rng.choice(_DIFFICULTIES)
    spec["generated_from"]["kind"] = rng.choice(_KINDS)
    task_id = _random_string(rng)
    spec["task_id"] = task_id if not _go_blank(task_id) else f"id{task_id}"
    prompt = _random_string(rng)
    spec["prompt"] = prompt if not _go_blank(prompt) else f"{prompt}p"
    keys = _ordered_subset(_random_key(rng) for _ in range(rng.choice([0, 0, 1, 3, 6, 10])))
    spec["difficulty_signals"] = {
        key: rng.choice(_INT_VALUES) if rng.random() < 0.3 else rng.randint(-999, 99999)
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


# -- talking to Go ---------------------------------------------------------------------


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _check_ok(results: Iterable[GoResult], what: str) -> None:
    for res in results:
        if not res.get("ok"):
            raise RuntimeError(f"Go {what} failed: {res.get('error')}")


def _marshal_all(go: GoConsumer, specs: Sequence[Spec]) -> list[GoResult]:
    """Go's MarshalYAML of each spec, insisting that it is reproducible.

    Only map order can vary between runs, so specs with two or more signals
    are marshalled twice and must come out the same both times.
    """
    first = go.batch([{"op": "marshal", "spec": s} for s in specs])
    _check_ok(first, "marshal")
    again = [i for i, s in enumerate(specs) if len(s["difficulty_signals"]) > 1]
    second = go.batch([{"op": "marshal", "spec": specs[i]} for i in again])
    for i, res in zip(again, second, strict=True):
        if res["yaml"] != first[i]["yaml"]:
            raise RuntimeError(
                f"Go's MarshalYAML is not reproducible:\n{first[i]['yaml']!r}\n{res['yaml']!r}"
            )
    return first


def _normalized(spec: Spec) -> str:
    return json.dumps(spec, sort_keys=True)


def _canonical_and_bugs(go: GoConsumer, rng: random.Random) -> tuple[list[Spec], list[Spec]]:
    candidates = _systematic() + _structural()
    candidates += [(f"random spec {i}", _random_spec(rng, i)) for i in range(RANDOM_SPECS)]
    probes = []
    for i, (note, change) in enumerate(BUG_PROBES):
        spec = _base(i)
        change(spec)
        probes.append((note, spec))

    seen: set[str] = set()
    unique: list[tuple[str, Spec]] = []
    for note, spec in probes + candidates:
        key = _normalized(spec)
        if key not in seen:
            seen.add(key)
            unique.append((note, spec))
    marshalled = _marshal_all(go, [spec for _, spec in unique])

    canonical: list[tuple[str, Spec, bytes]] = []
    bugs: list[Spec] = []
    seen_docs: set[bytes] = set()
    for index, ((note, spec), res) in enumerate(zip(unique, marshalled, strict=True)):
        doc: bytes = res["yaml"]
        if index < len(probes) and res["roundtrip_ok"]:
            raise RuntimeError(f"bug probe {note!r} now round-trips in Go: {doc!r}")
        if doc in seen_docs:
            continue
        seen_docs.add(doc)
        if res["roundtrip_ok"]:
            canonical.append((note, spec, doc))
        else:
            bugs.append({"note": note, "spec": spec, "yaml": doc, "error": res["roundtrip_error"]})

    for bug, res in zip(bugs, go.parse_all([b["yaml"] for b in bugs]), strict=True):
        bug["parse_error"] = "" if res.get("ok") else res["error"]
        bug["parse_spec"] = res["spec"] if res.get("ok") else None

    parsed = go.parse_all([doc for _, _, doc in canonical])
    entries: list[Spec] = []
    for (note, spec, doc), res in zip(canonical, parsed, strict=True):
        if not res.get("ok") or res["yaml"] != doc:
            raise RuntimeError(
                f"canonical document does not survive Go's ParseTaskSpec: {doc!r}: {res}"
            )
        if _normalized(res["spec"]) != _normalized(spec):
            raise RuntimeError(f"Go reads back a different spec for {doc!r}")
        entries.append({"note": note, "spec": res["spec"], "yaml": doc})
    return entries, bugs


def _hand_written(go: GoConsumer) -> tuple[list[Spec], list[Spec]]:
    rejected_docs = list(REJECTED) + list(STRICTER_REJECTED)
    accepted_docs = list(ACCEPTED) + list(STRICTER)
    _unique_names(rejected_docs)
    _unique_names(accepted_docs)

    parse = go.parse_all([d.data for d in rejected_docs])
    decode = go.batch([{"op": "decode", "yaml_b64": _b64(d.data)} for d in rejected_docs])
    rejected: list[Spec] = []
    for doc, p, d in zip(rejected_docs, parse, decode, strict=True):
        if p.get("ok"):
            raise RuntimeError(f"Go accepts rejected/{doc.name}: {doc.note}")
        stage = "validate" if d.get("ok") else "decode"
        if stage != doc.stage:
            raise RuntimeError(
                f"rejected/{doc.name}: Go fails in {stage}, expected {doc.stage}: {p['error']}"
            )
        if stage == "validate" and d["validate_error"] != p["error"]:
            raise RuntimeError(f"rejected/{doc.name}: decode+Validate and ParseTaskSpec disagree")
        rejected.append(
            {
                "name": doc.name,
                "note": doc.note,
                "yaml": doc.data,
                "stage": stage,
                "error": p["error"],
            }
        )

    parse = go.parse_all([d.data for d in accepted_docs])
    for doc, p in zip(accepted_docs, parse, strict=True):
        if not p.get("ok"):
            raise RuntimeError(f"Go rejects accepted/{doc.name}: {p['error']}")
    remarshal = _marshal_all(go, [p["spec"] for p in parse])
    accepted: list[Spec] = []
    for doc, p, m in zip(accepted_docs, parse, remarshal, strict=True):
        if m["yaml"] != p["yaml"]:
            raise RuntimeError(f"accepted/{doc.name}: two re-marshals of one spec differ")
        accepted.append(
            {
                "name": doc.name,
                "note": doc.note,
                "yaml": doc.data,
                "spec": p["spec"],
                "go_yaml": p["yaml"],
                "roundtrip_ok": m["roundtrip_ok"],
            }
        )
    return rejected, accepted


def _unique_names(docs: Sequence[Doc]) -> None:
    names = [d.name for d in docs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"duplicate vector names: {dupes}")


# -- writing ----------------------------------------------------------------------------

_README = """\
# Conformance vectors

Generated by `make vectors` (`python -m scripts.gen_vectors`) from the Go
consumer; do not edit by hand. Each directory holds the documents as
`*.yaml`, byte for byte, and a `manifest.json` whose `cases` describe them
in order. Strings in the manifests are JSON strings; `spec` objects use the
canonical YAML keys with enums as their YAML strings and a null `kg_query`
when it is absent.

- `canonical/`: Go's MarshalYAML output; `spec` is what Go reads back.
- `roundtrip_bugs/`: Go's MarshalYAML output that Go cannot read back as
  written; `spec` is the value that was marshalled, `go_roundtrip_error`
  what went wrong, and `go_parse_error` / `go_parse_spec` what Go's
  ParseTaskSpec makes of the bytes.
- `rejected/`: documents Go's ParseTaskSpec rejects; `go_error` is Go's
  error and `go_stage` says whether yaml.v3 (`decode`) or Validate
  (`validate`) failed.
- `accepted/`: documents Go accepts; `spec` is Go's decoded value, `go_yaml`
  Go's re-marshal of it and `go_roundtrip_ok` whether that re-marshal reads
  back (false for the yaml.v3 bugs).

Python is deliberately stricter than Go on a few accepted documents; they
are listed, with the reason, in `../stricter.json`.
"""

_DESCRIPTIONS = {
    "canonical": "Go's MarshalYAML output of generated specs; each reads back to spec in Go.",
    "roundtrip_bugs": "Go's MarshalYAML output that Go cannot read back to the marshalled spec.",
    "rejected": "Documents Go's ParseTaskSpec rejects, with Go's error.",
    "accepted": "Hand-written documents Go's ParseTaskSpec accepts, with Go's decoded value.",
}


def _dump_manifest(header: Spec, cases: Sequence[Spec]) -> bytes:
    """The manifest as JSON with one case per line: compact, yet line-diffable."""
    head = json.dumps(header, ensure_ascii=True)[:-1]
    body = ",\n".join(json.dumps(case, ensure_ascii=True) for case in cases)
    return f'{head}, "cases": [\n{body}\n]}}\n'.encode("ascii")


def _write_class(out: Path, name: str, seed: int, files: list[tuple[str, bytes, Spec]]) -> None:
    directory = out / name
    directory.mkdir(parents=True, exist_ok=True)
    for stale in sorted(directory.glob("*.yaml")):
        stale.unlink()
    cases: list[Spec] = []
    for filename, data, meta in files:
        (directory / filename).write_bytes(data)
        cases.append({"file": filename, **meta})
    header = {"class": name, "description": _DESCRIPTIONS[name], "seed": seed}
    (directory / "manifest.json").write_bytes(_dump_manifest(header, cases))


def generate(go: GoConsumer, out: Path, seed: int = DEFAULT_SEED) -> dict[str, int]:
    """Ask Go for every outcome and write the vectors under *out*; return counts per class."""
    rng = random.Random(seed)
    canonical, bugs = _canonical_and_bugs(go, rng)
    rejected, accepted = _hand_written(go)

    out.mkdir(parents=True, exist_ok=True)
    (out / "README.md").write_bytes(_README.encode("utf-8"))
    _write_class(
        out,
        "canonical",
        seed,
        [
            (f"{i:04d}.yaml", c["yaml"], {"note": c["note"], "spec": c["spec"]})
            for i, c in enumerate(canonical)
        ],
    )
    _write_class(
        out,
        "roundtrip_bugs",
        seed,
        [
            (
                f"{i:04d}.yaml",
                b["yaml"],
                {
                    "note": b["note"],
                    "spec": b["spec"],
                    "go_roundtrip_error": b["error"],
                    "go_parse_error": b["parse_error"],
                    "go_parse_spec": b["parse_spec"],
                },
            )
            for i, b in enumerate(bugs)
        ],
    )
    _write_class(
        out,
        "rejected",
        seed,
        [
            (
                f"{r['name']}.yaml",
                r["yaml"],
                {"note": r["note"], "go_stage": r["stage"], "go_error": r["error"]},
            )
            for r in rejected
        ],
    )
    _write_class(
        out,
        "accepted",
        seed,
        [
            (
                f"{a['name']}.yaml",
                a["yaml"],
                {
                    "note": a["note"],
                    "spec": a["spec"],
                    "go_yaml": a["go_yaml"].decode("utf-8"),
                    "go_roundtrip_ok": a["roundtrip_ok"],
                },
            )
            for a in accepted
        ],
    )
    return {
        "canonical": len(canonical),
        "roundtrip_bugs": len(bugs),
        "rejected": len(rejected),
        "accepted": len(accepted),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--seed", type=int, default=DEFAULT_SEED, help="random seed (default: %(default)s)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output directory")
    parser.add_argument(
        "--binary", type=Path, default=DEFAULT_BINARY, help="the taskspec-conform binary"
    )
    args = parser.parse_args(argv)
    if not args.binary.exists():
        parser.error(f"{args.binary} does not exist; build it with `make conform`")
    go = GoConsumer(args.binary)
    try:
        counts = generate(go, args.out, args.seed)
    finally:
        go.close()
    for name in CLASSES:
        print(f"{name:15} {counts[name]:5d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
