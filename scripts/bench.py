"""Side-by-side benchmark: this package against the Go implementation and naive PyYAML.

One run, one corpus (the canonical conformance vectors), one machine. Each
contender processes the whole corpus repeatedly for at least ``--min-time``
seconds, in ``--rounds`` rounds, and the best round counts (the least
disturbed by the rest of the machine). Printed: microseconds per document
and the ratios the project's targets are stated in. ``--json`` also writes
the figures for ``scripts/plot_bench.py``.

Run it with ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

import taskspec
from taskspec import TaskSpec, _validate
from taskspec.bridge import _decode, _layout

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "conformance" / "vectors" / "canonical"
CONFORM = ROOT / ".bin" / "taskspec-conform"

#: What the Go consumer's bench command measures.
#: lib_* is the taskspec Go library (module go/) on the generated message.
GO_KEYS = ("parse", "marshal", "wire_parse", "wire_marshal", "lib_parse", "lib_marshal")

#: The keys of a TaskSpec document, for the naive peer's "dict checks".
_TOP_KEYS = frozenset(f.name for f in _layout.TASK_SPEC.fields)


def naive_parse(data: bytes) -> dict[str, Any] | None:
    """What a hand-rolled reader would do: yaml.safe_load plus a few dict checks.

    It cannot read every canonical document (a plain ``<<`` is a YAML 1.1
    merge key to PyYAML, ``1:20`` a sexagesimal number); those return None,
    and the time spent failing still counts.
    """
    try:
        doc = yaml.safe_load(data)
    except yaml.YAMLError:
        return None
    if not isinstance(doc, dict):
        raise ValueError("not a mapping")
    unknown = set(doc) - _TOP_KEYS
    if unknown:
        raise ValueError(f"unknown keys {sorted(unknown)}")
    if doc.get("task_spec_version") != 1:
        raise ValueError("bad version")
    if not str(doc.get("task_id") or "").strip():
        raise ValueError("task_id is required")
    verification = doc.get("verification") or {}
    if not verification.get("test_cmd"):
        raise ValueError("test_cmd is required")
    return doc


def plain(msg: Any, info: _layout.MessageInfo = _layout.TASK_SPEC) -> dict[str, Any]:
    """A spec as the plain dict a naive writer would hold (canonical keys, enum strings)."""
    out: dict[str, Any] = {}
    for fi in info.fields:
        value = getattr(msg, fi.name)
        if fi.kind is _layout.Kind.ENUM:
            assert fi.enum is not None
            out[fi.name] = fi.enum.to_string.get(value, "")
        elif fi.kind is _layout.Kind.MESSAGE:
            assert fi.message is not None
            out[fi.name] = plain(value, fi.message)
        elif fi.kind is _layout.Kind.MESSAGE_LIST:
            assert fi.message is not None
            out[fi.name] = [plain(v, fi.message) for v in value]
        elif fi.kind is _layout.Kind.STRING_LIST:
            out[fi.name] = list(value)
        elif fi.kind is _layout.Kind.INT_MAP:
            out[fi.name] = dict(value)
        else:
            out[fi.name] = value
    return out


def naive_dump(doc: dict[str, Any]) -> str:
    """The naive writer: yaml.dump of the dict (not byte-compatible with Go)."""
    return yaml.dump(doc, sort_keys=False, allow_unicode=True)


def each(fn: Callable[[Any], object], items: Sequence[Any]) -> Callable[[], object]:
    """One pass of *fn* over the corpus, keeping only the last result.

    Like the Go benchmark's sink: results are not accumulated, so the
    figures measure the codec rather than the memory of a growing list.
    """

    def run() -> object:
        out: object = None
        for item in items:
            out = fn(item)
        return out

    return run


def per_doc(run_corpus: Callable[[], object], docs: int, min_time: float) -> float:
    """Microseconds per document over passes of the corpus lasting at least *min_time*."""
    passes = 0
    start = time.perf_counter()
    while True:
        run_corpus()
        passes += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / (passes * docs) * 1e6


def go_round(files: Sequence[Path], min_time: float) -> dict[str, float]:
    """One round of the Go consumer's own timings, in µs per document."""
    out = subprocess.run(
        [str(CONFORM), "bench", "-min-time", f"{min_time}s", *map(str, files)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    res = json.loads(out)
    return {k: float(res[f"{k}_ns_per_doc"]) / 1000 for k in GO_KEYS}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument(
        "--min-time", type=float, default=0.2, help="seconds per contender per round"
    )
    parser.add_argument("--rounds", type=int, default=15, help="rounds; the best one counts")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)

    files = sorted(CORPUS.glob("*.yaml"))
    if not files:
        print(f"no corpus in {CORPUS}", file=sys.stderr)
        return 2
    docs = [f.read_bytes() for f in files]
    n = len(docs)
    specs = [taskspec.parse_task_spec(d) for d in docs]
    wires = [s.SerializeToString() for s in specs]
    naive_docs = [plain(s) for s in specs]
    naive_failures = sum(naive_parse(d) is None for d in docs)
    for spec, doc in zip(specs, docs, strict=True):  # the contenders do the same work
        assert taskspec.marshal_yaml(spec) == doc

    def general_parse() -> None:
        # The full decoder, as taken by non-canonical (hand-edited) documents.
        for d in docs:
            decoded = _decode.decode(d)
            if _validate.check(decoded.spec, decoded.raw_enums, decoded.positions):
                raise AssertionError("corpus document failed validation")

    def wire_parse() -> None:
        for w in wires:
            TaskSpec.FromString(w)

    contenders: dict[str, Callable[[], object]] = {
        "py_parse": each(taskspec.parse_task_spec, docs),
        "py_marshal": each(taskspec.marshal_yaml, specs),
        "py_parse_general": general_parse,
        "naive_parse": each(naive_parse, docs),
        "naive_dump": each(naive_dump, naive_docs),
        "py_wire_parse": wire_parse,
        "py_wire_marshal": each(TaskSpec.SerializeToString, specs),
    }
    if not CONFORM.exists():
        subprocess.run(["make", "conform"], cwd=ROOT, check=True)
    # Rounds interleave every contender, so a burst of load elsewhere on the
    # machine spoils one round of each rather than every round of one; the
    # best round of each contender counts.
    py = dict.fromkeys(contenders, float("inf"))
    go = dict.fromkeys(GO_KEYS, float("inf"))
    for _ in range(args.rounds):
        for key, us in go_round(files, args.min_time).items():
            go[key] = min(go[key], us)
        for name, fn in contenders.items():
            py[name] = min(py[name], per_doc(fn, n, args.min_time))

    machine = (
        f"{platform.machine()}, {os.cpu_count()} cores,"
        f" {platform.python_implementation()} {platform.python_version()}"
    )
    print(f"corpus: {n} canonical vectors ({sum(map(len, docs)) / n:.0f} bytes on average)")
    print(f"naive yaml.safe_load cannot read {naive_failures} of them")
    print(
        f"machine: {machine}; best of {args.rounds} interleaved rounds,"
        f" >= {args.min_time:g} s per contender each"
    )
    print()
    rows = [
        ("Go ParseTaskSpec (yaml.v3)", go["parse"]),
        ("Go MarshalYAML (yaml.v3)", go["marshal"]),
        ("Go library taskspec.ParseYAML", go["lib_parse"]),
        ("Go library taskspec.MarshalYAML", go["lib_marshal"]),
        ("taskspec parse_task_spec", py["py_parse"]),
        ("taskspec parse_task_spec, general path", py["py_parse_general"]),
        ("taskspec marshal_yaml", py["py_marshal"]),
        ("naive yaml.safe_load + checks", py["naive_parse"]),
        ("naive yaml.dump", py["naive_dump"]),
        ("Go proto.Unmarshal (floor)", go["wire_parse"]),
        ("Go proto.Marshal (floor)", go["wire_marshal"]),
        ("Python FromString (floor)", py["py_wire_parse"]),
        ("Python SerializeToString (floor)", py["py_wire_marshal"]),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'contender':<{width}}  µs/doc")
    for label, us in rows:
        print(f"{label:<{width}}  {us:8.1f}")
    print()
    ratios = [
        ("parse_task_spec / Go ParseTaskSpec", py["py_parse"] / go["parse"], "<= 1.0"),
        ("marshal_yaml / Go MarshalYAML", py["py_marshal"] / go["marshal"], "<= 0.5"),
        ("naive parse / parse_task_spec", py["naive_parse"] / py["py_parse"], ">= 2.0"),
        ("naive dump / marshal_yaml", py["naive_dump"] / py["py_marshal"], ">= 2.0"),
        ("general path / Go ParseTaskSpec", py["py_parse_general"] / go["parse"], "(info)"),
        ("Go library ParseYAML / Go ParseTaskSpec", go["lib_parse"] / go["parse"], "(info)"),
        ("Go library MarshalYAML / Go MarshalYAML", go["lib_marshal"] / go["marshal"], "(info)"),
    ]
    for label, ratio, target in ratios:
        met = ""
        if target.startswith("<="):
            met = "met" if ratio <= float(target[2:]) else "NOT met"
        elif target.startswith(">="):
            met = "met" if ratio >= float(target[2:]) else "NOT met"
        print(f"{label:<40} {ratio:6.2f}x  target {target:<7} {met}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps({"machine": machine, "docs": n, "go": go, "python": py}, indent=2) + "\n"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
