"""Documents with many odd ``difficulty_signals`` keys, for ``make bench``.

yaml.v3 writes a map's keys in its own order (``keyList.Less``: digit runs
as numbers, a letter-versus-other rule), not in byte order, and keys that
are not plain words must be quoted or escaped. Such keys are where putting
the keys in order, and checking that a document has them in order, costs
the most, so these documents hold many of them: numeric-looking keys,
keys that need quotes or escapes, long keys, non-ASCII keys and keys of
mixed digits and letters. Each is the Go example sidecar
(``examples/go.taskspec.yaml``) with its signals replaced, written by
``marshal_yaml``, so it is canonical and the fast reader takes it.

Every key set here is one yaml.v3 orders consistently (no digit run of 19
or more digits, no decimal digit of another script), so the Go package
writes the very same bytes; :func:`odd_fixed_document` is one whose set needs
the fixed order both libraries write instead (see
``python/taskspec/bridge/_keyorder.py``).

Run as a script (``make bench-keys``, which ``make bench`` runs), it times
``parse_task_spec`` and ``marshal_yaml`` of the compiled build
(``.venv-compiled``) on each document against the Go package
(``ParseTaskSpec`` and ``MarshalYAML`` on yaml.v3) and the Go library, in
``--rounds`` rounds that alternate which side goes first, and prints the
median of each round's ratio, with the targets beside them (never
asserted). On a machine shared with other work a single ratio proves
little: the same Go binary moves by half between neighbouring runs, so
only the medians are compared. ``--instructions BASELINE`` instead counts
the instructions of each operation with valgrind's cachegrind (the
difference of two runs, of ``--count`` operations and of four times as
many), for this
checkout and for the package found on the path BASELINE (the
``site-packages`` of another build), which the machine's load does not move.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import taskspec

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "go.taskspec.yaml"
CONFORM = ROOT / ".bin" / "taskspec-conform"
COMPILED_PYTHON = ROOT / ".venv-compiled" / "bin" / "python"

#: Targets on these documents, compiled build / Go package, median of the rounds.
TARGET_PARSE = 0.5
TARGET_MARSHAL = 0.3
#: What the Go consumer's bench command times on each document.
GO_OPS = ("parse", "marshal", "lib_parse", "lib_marshal")

__all__ = ["KINDS", "ODD_COUNTS", "main", "odd_documents", "odd_fixed_document", "odd_keys"]

#: Keys per document.
ODD_COUNTS: tuple[int, ...] = (16, 64, 256)

_NUMERIC = ("{n}", "0{n}", "{n}e3", "0x{n}F", "{n}.5", "-{n}", "+{n}", "{n}_000", "{n}:30")
_QUOTED = (
    "key: {n}",
    "# note {n}",
    "- item {n}",
    "'single' {n}",
    '"double" {n}',
    "null{n}",
    " lead {n}",
    "trail {n} ",
    "@at{n}",
    "{{brace}} {n}",
    "[list] {n}",
    "a, b {n}",
    "&anchor{n}",
    "*alias{n}",
    "!tag{n}",
    "%pct{n}",
    "|pipe{n}",
    ">gt{n}",
    "?q{n}",
)
_ESCAPED = ("tab\t{n}", "bell\a{n}", "nel\x85{n}", "ls\u2028{n}", "nul\x00{n}", "esc\x1b[{n}m")
_LONG = (
    "cyclomatic_complexity_of_the_longest_function_in_module_{n}_after_inlining",
    "number_of_edges_in_the_call_graph_reachable_from_the_seed_symbol_within_{n}_hops",
    "Involved-Symbols.Across.Packages.{n}.Including.Test.Helpers.And.Generated.Code",
)
_NON_ASCII = (
    "größe_{n}",
    "naïve{n}",
    "中文{n}",
    "日本語_{n}",
    "Ωmega{n}",
    "x²_{n}",
    "é{n}",
    "🚀{n}",
)
_MIXED = ("a{n}b2c3", "x{n}y10", "v1.{n}.10", "node_count_{n}", "step_{n}_of_10", "A{n}", "h2o{n}")

#: The kinds of odd key, each a list of patterns filled with a number.
KINDS: dict[str, tuple[str, ...]] = {
    "numeric": _NUMERIC,
    "quoted": _QUOTED,
    "escaped": _ESCAPED,
    "long": _LONG,
    "non_ascii": _NON_ASCII,
    "mixed": _MIXED,
}


def odd_keys(count: int, seed: int = 1) -> list[str]:
    """*count* distinct keys, of each kind in turn, with numbers of 1 to 4 digits."""
    rng = random.Random(seed)
    kinds = list(KINDS.values())
    keys: dict[str, None] = {}
    while len(keys) < count:
        pattern = rng.choice(kinds[len(keys) % len(kinds)])
        keys[pattern.format(n=rng.randrange(10 ** rng.randint(1, 4)))] = None
    return list(keys)


def _with_signals(keys: list[str]) -> bytes:
    spec = taskspec.parse_task_spec(EXAMPLE.read_bytes())
    spec.difficulty_signals.clear()
    for i, key in enumerate(keys):
        spec.difficulty_signals[key] = i * 7 - 20
    return taskspec.marshal_yaml(spec)


def odd_documents() -> list[bytes]:
    """One canonical document per count of ODD_COUNTS keys."""
    return [_with_signals(odd_keys(count, seed=count)) for count in ODD_COUNTS]


def odd_fixed_document(count: int = 64) -> bytes:
    """A canonical document whose keys need the fixed order: long digit runs, other digits."""
    keys = odd_keys(count - 8, seed=count)
    keys += [f"{'9' * 19}{i}" for i in range(4)] + [f"\u0661{i}" for i in range(4)]
    return _with_signals(keys)


def _per_op(fn: Callable[[Any], object], arg: object, min_time: float) -> float:
    """Microseconds per call of *fn* on *arg*, over calls lasting at least *min_time*."""
    calls = 0
    start = time.perf_counter()
    while True:
        for _ in range(10):
            fn(arg)
        calls += 10
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return elapsed / calls * 1e6


def python_times(files: Sequence[Path], min_time: float) -> dict[str, list[float]]:
    """This interpreter's parse and marshal of each file, in µs."""
    docs = [f.read_bytes() for f in files]
    specs = [taskspec.parse_task_spec(d) for d in docs]
    return {
        "parse": [_per_op(taskspec.parse_task_spec, d, min_time) for d in docs],
        "marshal": [_per_op(taskspec.marshal_yaml, s, min_time) for s in specs],
    }


def _compiled_times(files: Sequence[Path], min_time: float) -> dict[str, list[float]]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    argv = [str(COMPILED_PYTHON), "-m", "scripts.bench_keys", "--child", str(min_time)]
    done = subprocess.run(
        [*argv, *map(str, files)], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    times: dict[str, list[float]] = json.loads(done.stdout)
    return times


def _go_times(files: Sequence[Path], min_time: float) -> dict[str, list[float]]:
    argv = [str(CONFORM), "bench", "-each", "-min-time", f"{min_time}s", "-ops", ",".join(GO_OPS)]
    out = subprocess.run(
        [*argv, *map(str, files)], check=True, capture_output=True, text=True
    ).stdout
    rows = json.loads(out)
    return {op: [float(r[f"{op}_ns_per_doc"]) / 1000 for r in rows] for op in GO_OPS}


def _median_ratios(num: list[list[float]], den: list[list[float]]) -> list[float]:
    """Per document, the median over the rounds of num / den (each a list per round)."""
    return [
        statistics.median(n[i] / d[i] for n, d in zip(num, den, strict=True))
        for i in range(len(num[0]))
    ]


def _rounds(files: Sequence[Path], rounds: int, min_time: float) -> int:
    go: dict[str, list[list[float]]] = {op: [] for op in GO_OPS}
    py: dict[str, list[list[float]]] = {"parse": [], "marshal": []}
    loads = [os.getloadavg()[0]]
    for r in range(rounds):
        # The side that goes first alternates, so neither always meets the
        # machine just after the other has warmed or loaded it.
        order = ("go", "py") if r % 2 == 0 else ("py", "go")
        for side in order:
            if side == "go":
                for op, times in _go_times(files, min_time).items():
                    go[op].append(times)
            else:
                for op, times in _compiled_times(files, min_time).items():
                    py[op].append(times)
    loads.append(os.getloadavg()[0])
    names = [
        f"{len(taskspec.parse_task_spec(f.read_bytes()).difficulty_signals)} keys" for f in files
    ]
    names[-1] += " (fixed order)"
    print(
        f"documents with many odd signal keys: compiled build against the Go package,"
        f" median of {rounds} alternating rounds (>= {min_time:g} s per operation each;"
        f" load average {loads[0]:.2f} before, {loads[1]:.2f} after)"
    )
    print(
        f"{'document':<26} {'bytes':>6}  {'Go parse':>9}  {'compiled':>8}  {'Go lib':>6}"
        f"  {'Go marshal':>10}  {'compiled':>8}  {'Go lib':>6}"
    )
    ratios = {
        "parse": _median_ratios(py["parse"], go["parse"]),
        "marshal": _median_ratios(py["marshal"], go["marshal"]),
        "lib_parse": _median_ratios(go["lib_parse"], go["parse"]),
        "lib_marshal": _median_ratios(go["lib_marshal"], go["marshal"]),
    }
    for i, (name, f) in enumerate(zip(names, files, strict=True)):
        go_parse = statistics.median(t[i] for t in go["parse"])
        go_marshal = statistics.median(t[i] for t in go["marshal"])
        print(
            f"{name:<26} {f.stat().st_size:>6}  {go_parse:6.1f} µs  {ratios['parse'][i]:7.2f}x"
            f"  {ratios['lib_parse'][i]:5.2f}x  {go_marshal:7.1f} µs"
            f"  {ratios['marshal'][i]:7.2f}x  {ratios['lib_marshal'][i]:5.2f}x"
        )
    for op, target in (("parse", TARGET_PARSE), ("marshal", TARGET_MARSHAL)):
        worst = max(ratios[op])
        verdict = "PASS" if worst <= target else "MISS"
        print(f"compiled {op}, odd keys, worst document: {worst:.2f}x <= {target}  {verdict}")
    return 0


#: Run under valgrind: one operation on a document, then as many again as asked.
_COUNTED = """
import sys
import taskspec
doc = open(sys.argv[2], "rb").read()
spec = taskspec.parse_task_spec(doc)
if sys.argv[1] == "parse":
    fn, arg = taskspec.parse_task_spec, doc
else:
    fn, arg = taskspec.marshal_yaml, spec
fn(arg)
for _ in range(int(sys.argv[3])):
    fn(arg)
"""


def _instructions(python: str, path: str, op: str, doc: Path, count: int) -> int:
    """Instructions per *op* on *doc*: two runs under cachegrind, of *count* and 4 * *count*.

    Their difference leaves out start-up and the first calls' warming up.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONHASHSEED"] = "0"
    if path:
        env["PYTHONPATH"] = path
    totals = []
    for n in (count, 4 * count):
        done = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
             python, "-c", _COUNTED, op, str(doc), str(n)],
            cwd=tempfile.gettempdir(), env=env, capture_output=True, text=True, check=True,
        )  # fmt: skip
        refs = [line for line in done.stderr.splitlines() if "I" in line and "refs:" in line]
        totals.append(int(refs[-1].split(":")[1].replace(",", "")))
    return (totals[1] - totals[0]) // (3 * count)


def _instruction_ab(files: Sequence[Path], baseline: str, count: int) -> int:
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts", file=sys.stderr)
        return 2
    python = str(COMPILED_PYTHON)
    print(f"instructions per operation (cachegrind), this build against {baseline}:")
    print(f"{'document':<12} {'op':<8} {'baseline':>11} {'this':>11} {'this / baseline':>16}")
    for f in files:
        for op in ("parse", "marshal"):
            base = _instructions(python, baseline, op, f, count)
            this = _instructions(python, "", op, f, count)
            print(f"{f.name:<12} {op:<8} {base:>11,} {this:>11,} {this / base:>15.2f}x")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("--rounds", type=int, default=11, help="alternating rounds (at least 9)")
    parser.add_argument("--min-time", type=float, default=0.2, help="seconds per operation")
    parser.add_argument(
        "--instructions", metavar="BASELINE", help="count instructions against this path instead"
    )
    parser.add_argument("--count", type=int, default=50, help="operations counted per run")
    parser.add_argument("--child", type=float, help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:  # the compiled build's side of a round
        if not taskspec.__compiled__:
            print("the compiled build is not the one running", file=sys.stderr)
            return 2
        print(json.dumps(python_times(args.files, args.child)))
        return 0
    if not COMPILED_PYTHON.exists() or not CONFORM.exists():
        print("needs `make compiled conform`", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="taskspec-bench-keys-") as tmp:
        files = []
        for i, doc in enumerate([*odd_documents(), odd_fixed_document()]):
            files.append(Path(tmp, f"odd-{i}.yaml"))
            files[-1].write_bytes(doc)
        if args.instructions is not None:
            return _instruction_ab(files, args.instructions, args.count)
        return _rounds(files, args.rounds, args.min_time)


if __name__ == "__main__":
    raise SystemExit(main())
