"""Side-by-side benchmark: this package against the Go implementation and two PyYAML peers.

One run, one machine. Each contender processes a corpus repeatedly for at
least ``--min-time`` seconds, in ``--rounds`` rounds that interleave every
contender, and the best round counts (the least disturbed by the rest of
the machine). The corpora:

- canonical: the canonical conformance vectors, as ``MarshalYAML`` writes them;
- hand-edited: the same documents as a person might edit them (comments,
  two-space indentation, flow lists), derived from the canonical ones
  deterministically; only those that still mean the same spec are kept.
  They take the general path, and Go parses the very same files.

The peers: a naive one (``yaml.safe_load``, pure Python, and a few checks)
and a careful one (``yaml.load`` with libyaml's ``CSafeLoader`` and checks
of the whole TaskSpec shape; ``CSafeDumper`` to write). Neither is strict or
byte-compatible with Go; they are speed references.

The size sweep (``scripts/bench_sweep.py``): the example sidecar with a
prose prompt of growing length, 0.5 KiB to 64 KiB, each document timed
alone, for Go, the Go library, the pure build and the compiled build;
printed as ratios against Go's ``ParseTaskSpec`` and ``MarshalYAML``.

Also in the same rounds: one-file ``taskspec validate`` against
``python -c pass`` (interpreter start-up), the Go library's ``Validate`` of
a valid spec of 5 MiB, and, once, the peak RSS of a child process parsing a
document of 16 MiB. Printed: microseconds per
document and the ratios the project's targets are stated in, with the
targets beside them (never asserted), and the targets table of the
project's performance goals, each row PASS or MISS. ``--json`` also writes the figures for
``scripts/plot_bench.py``.

Run it with ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import taskspec
from scripts.bench_compiled import COMPILED_PYTHON, compiled_round
from scripts.bench_peers import careful_dump, careful_parse, naive_dump, naive_parse, plain
from scripts.bench_sweep import sweep_documents
from taskspec import TaskSpec, _validate
from taskspec._limits import MAX_DOCUMENT_BYTES
from taskspec.bridge import _decode

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "conformance" / "vectors" / "canonical"
CONFORM = ROOT / ".bin" / "taskspec-conform"

#: What the Go consumer's bench command measures on each document of the size sweep.
GO_SWEEP_KEYS = ("parse", "marshal", "lib_parse", "lib_marshal")
#: What the Go consumer's bench command measures.
#: lib_* is the taskspec Go library (module go/) on the generated message.
GO_KEYS = (
    "parse",
    "marshal",
    "wire_parse",
    "wire_marshal",
    "lib_parse",
    "lib_marshal",
    "lib_validate",
)

#: Targets, printed beside the ratios, never asserted.
TARGET_PARSE_SMALL = 0.3  # compiled parse_task_spec / Go, documents of 0.5 to 2 KiB
TARGET_PARSE = 0.5  # compiled parse_task_spec / Go, every size and the canonical vectors
TARGET_MARSHAL = 0.3  # compiled marshal_yaml / Go, every size
TARGET_PURE_PARSE = 1.0  # pure parse_task_spec / Go, every size
TARGET_GENERAL = 1.0  # compiled parse_task_spec / Go, hand-edited documents
TARGET_VALIDATE = 4.0  # one-file `taskspec validate` / `python -c pass`
TARGET_GO_LIBRARY = 1.1  # Go library ParseYAML / Go ParseTaskSpec, every size
TARGET_GO_LIBRARY_MARSHAL = 1.05  # Go library MarshalYAML / Go MarshalYAML, every size
TARGET_PEAK = 8.0  # peak RSS parsing a 16 MiB document / its size
TARGET_GO_VALIDATE_MS = 30.0  # Go library Validate of a valid 5 MiB spec, in ms
#: The size of the spec the Go library's Validate is timed on.
VALIDATE_DOCUMENT = 5 << 20
#: The largest document of the size sweep that the small-document target covers.
SMALL_DOCUMENT = 2048


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


def go_round(files: Sequence[Path], min_time: float, ops: str) -> dict[str, float]:
    """One round of the Go consumer's own timings of *ops*, in µs per document."""
    out = subprocess.run(
        [str(CONFORM), "bench", "-min-time", f"{min_time}s", "-ops", ops, *map(str, files)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    res = json.loads(out)
    return {k: float(res[f"{k}_ns_per_doc"]) / 1000 for k in ops.split(",")}


def go_sweep_round(files: Sequence[Path], min_time: float) -> dict[str, list[float]]:
    """One round of the Go consumer's timings of each file alone, in µs: a list per op."""
    out = subprocess.run(
        [
            str(CONFORM),
            "bench",
            "-each",
            "-min-time",
            f"{min_time}s",
            "-ops",
            ",".join(GO_SWEEP_KEYS),
            *map(str, files),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    res = json.loads(out)
    return {k: [float(r[f"{k}_ns_per_doc"]) / 1000 for r in res] for k in GO_SWEEP_KEYS}


def _best(old: list[float], new: list[float]) -> list[float]:
    return [min(a, b) for a, b in zip(old, new, strict=True)]


# -- hand-edited documents ---------------------------------------------------

#: A block list of plain words, as MarshalYAML writes it (items four spaces in).
_BLOCK_LIST = re.compile(rb"(?m)^( *)([a-z_]+):\n((?:\1    - [A-Za-z0-9_./-]+\n)+)")
_INDENT = re.compile(rb"(?m)^((?:    )+)")


def _flow_lists(doc: bytes) -> bytes:
    def flow(m: re.Match[bytes]) -> bytes:
        items = [line.split(b"- ", 1)[1] for line in m[3].splitlines()]
        return m[1] + m[2] + b": [" + b", ".join(items) + b"]\n"

    return _BLOCK_LIST.sub(flow, doc)


def _two_spaces(doc: bytes) -> bytes:
    return _INDENT.sub(lambda m: b"  " * (len(m[1]) // 4), doc)


def _comments(doc: bytes) -> bytes:
    doc = doc.replace(b"task_spec_version: 1\n", b"task_spec_version: 1  # the contract\n", 1)
    doc = doc.replace(b"\nverification:\n", b"\n# How the result is checked.\nverification:\n", 1)
    return b"# Edited by hand.\n" + doc


#: The edits, applied in this order, each kept only where the spec stays the same.
HAND_EDITS: tuple[Callable[[bytes], bytes], ...] = (_flow_lists, _two_spaces, _comments)


def hand_edited(doc: bytes, spec: TaskSpec) -> bytes | None:
    """*doc* as a person might have edited it, meaning the same *spec*; None if no edit fits."""
    out = doc
    for edit in HAND_EDITS:
        edited = edit(out)
        try:
            same = taskspec.parse_task_spec(edited) == spec
        except taskspec.TaskSpecError:
            same = False
        if same:
            out = edited
    return out if out != doc else None


# -- start-up and memory ------------------------------------------------------


def taskspec_command(python: str = sys.executable) -> list[str]:
    """The installed ``taskspec`` script next to *python*, else ``python -m taskspec``."""
    script = shutil.which("taskspec", path=os.path.dirname(python))
    return [script] if script else [python, "-m", "taskspec"]


def timed_run(argv: Sequence[str], env: dict[str, str]) -> float:
    """Wall seconds of one run of *argv* (which must succeed)."""
    start = time.perf_counter()
    done = subprocess.run(
        argv, check=False, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    took = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr.decode()}")
    return took


#: Run in a fresh process: read a document, then parse it; prints the peak
#: RSS in bytes before and after the parse, and the parse's seconds.
PEAK_CHILD = """
import os, resource, sys, time
# On Linux a process keeps the peak RSS of the one that started it (here, this
# benchmark) across exec; a forked child counts afresh.
if hasattr(os, "fork") and (pid := os.fork()):
    sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
import taskspec
data = open(sys.argv[1], "rb").read()
scale = 1 if sys.platform == "darwin" else 1024  # ru_maxrss: bytes on macOS, KiB elsewhere
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale
start = time.perf_counter()
taskspec.parse_task_spec(data)
took = time.perf_counter() - start
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale, took)
"""


def big_document(spec: TaskSpec, size: int = MAX_DOCUMENT_BYTES) -> bytes:
    """*spec* with a prompt of many lines that makes it just under *size* (the 16 MiB bound)."""
    big = TaskSpec()
    big.CopyFrom(spec)
    line = "Step: handle the parse case, then keep the cache and the queue warm."
    room = size - 4096 - len(taskspec.marshal_yaml(spec))
    big.prompt = "\n".join([line] * (room // (len(line) + 5)))  # each line: indent, text, newline
    doc = taskspec.marshal_yaml(big)
    assert len(doc) <= size, len(doc)
    return doc


def peak_rss(path: Path, env: dict[str, str], runs: int = 3) -> tuple[int, int, float]:
    """Peak RSS before and after parsing *path* in a fresh process, and the parse's seconds.

    The least of *runs* runs of each figure.
    """
    best = (sys.maxsize, sys.maxsize, float("inf"))
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", PEAK_CHILD, str(path)],
            check=True,
            capture_output=True,
            text=True,
            env=env,
        ).stdout.split()
        best = (min(best[0], int(out[0])), min(best[1], int(out[1])), min(best[2], float(out[2])))
    return best


def print_sweep(
    sizes: Sequence[int],
    go: dict[str, list[float]],
    pure: dict[str, list[float]],
    compiled: dict[str, list[float]],
    have_compiled: bool,
) -> dict[str, list[float]]:
    """Print the size sweep as ratios against Go; return the ratios, a list per contender."""
    ratios = {
        "pure_parse": [p / g for p, g in zip(pure["parse"], go["parse"], strict=True)],
        "compiled_parse": [c / g for c, g in zip(compiled["parse"], go["parse"], strict=True)],
        "lib_parse": [c / g for c, g in zip(go["lib_parse"], go["parse"], strict=True)],
        "pure_marshal": [p / g for p, g in zip(pure["marshal"], go["marshal"], strict=True)],
        "compiled_marshal": [
            c / g for c, g in zip(compiled["marshal"], go["marshal"], strict=True)
        ],
        "lib_marshal": [c / g for c, g in zip(go["lib_marshal"], go["marshal"], strict=True)],
    }
    print("size sweep (the example sidecar, a prose prompt of growing length), against Go:")
    head = (
        f"{'bytes':>6}  {'Go parse':>9}  {'pure':>6}  {'compiled':>8}  {'Go lib':>6}"
        f"  {'Go marshal':>10}  {'pure':>6}  {'compiled':>8}  {'Go lib':>6}"
    )
    print(head)
    for i, size in enumerate(sizes):
        compiled_parse = f"{ratios['compiled_parse'][i]:7.2f}x" if have_compiled else "       -"
        compiled_marshal = f"{ratios['compiled_marshal'][i]:7.2f}x" if have_compiled else "       -"
        print(
            f"{size:>6}  {go['parse'][i]:6.1f} µs  {ratios['pure_parse'][i]:5.2f}x"
            f"  {compiled_parse}  {ratios['lib_parse'][i]:5.2f}x"
            f"  {go['marshal'][i]:7.1f} µs  {ratios['pure_marshal'][i]:5.2f}x"
            f"  {compiled_marshal}  {ratios['lib_marshal'][i]:5.2f}x"
        )
    return ratios


def print_targets(
    sizes: Sequence[int], sweep: dict[str, list[float]], corpus: dict[str, float]
) -> None:
    """The project's performance targets, each with the worst ratio it covers, PASS or MISS.

    *sweep* holds the size sweep's ratios (:func:`print_sweep`), *corpus*
    the ratios on the canonical and hand-edited vectors and the start-up.
    """
    pairs = zip(sweep["compiled_parse"], sizes, strict=True)
    small = [ratio for ratio, size in pairs if size <= SMALL_DOCUMENT]
    rows = [
        ("compiled parse, 0.5 to 2 KiB", max(small), TARGET_PARSE_SMALL),
        (
            "compiled parse, every size and the hard vectors",
            max([*sweep["compiled_parse"], corpus["parse"]]),
            TARGET_PARSE,
        ),
        (
            "compiled marshal, every size",
            max([*sweep["compiled_marshal"], corpus["marshal"]]),
            TARGET_MARSHAL,
        ),
        (
            "pure fallback parse, every size",
            max([*sweep["pure_parse"], corpus["pure_parse"]]),
            TARGET_PURE_PARSE,
        ),
        ("general path (hand-edited), compiled", corpus["general"], TARGET_GENERAL),
        ("one-file validate, compiled / python -c pass", corpus["validate"], TARGET_VALIDATE),
        (
            "Go library ParseYAML, every size",
            max([*sweep["lib_parse"], corpus["lib_parse"]]),
            TARGET_GO_LIBRARY,
        ),
        (
            "Go library MarshalYAML, every size",
            max([*sweep["lib_marshal"], corpus["lib_marshal"]]),
            TARGET_GO_LIBRARY_MARSHAL,
        ),
    ]
    print("targets (the worst ratio each covers, against Go unless said):")
    width = max(len(r[0]) for r in rows)
    for label, ratio, target in rows:
        if math.isinf(ratio) or math.isnan(ratio):  # the compiled build, if absent
            print(f"{label:<{width}}       -  <= {target:<4}  (not measured)")
            continue
        verdict = "PASS" if ratio <= target else "MISS"
        print(f"{label:<{width}}  {ratio:5.2f}x  <= {target:<4}  {verdict}")


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
    careful_failures = sum(careful_parse(d) is None for d in docs)
    for spec, doc in zip(specs, docs, strict=True):  # the contenders do the same work
        assert taskspec.marshal_yaml(spec) == doc
    edited = [e for d, s in zip(docs, specs, strict=True) if (e := hand_edited(d, s)) is not None]
    sweep = sweep_documents()
    sweep_sizes = [len(d) for d in sweep]
    sweep_specs = [taskspec.parse_task_spec(d) for d in sweep]

    def general_parse() -> None:
        # The full decoder, forced on the canonical documents.
        for d in docs:
            decoded = _decode.decode(d)
            if _validate.check(decoded.spec, decoded.raw_enums, decoded.positions):
                raise AssertionError("corpus document failed validation")

    def wire_parse() -> None:
        for w in wires:
            TaskSpec.FromString(w)

    contenders: dict[str, tuple[Callable[[], object], int]] = {
        "py_parse": (each(taskspec.parse_task_spec, docs), n),
        "py_marshal": (each(taskspec.marshal_yaml, specs), n),
        "py_parse_general": (general_parse, n),
        "py_parse_edited": (each(taskspec.parse_task_spec, edited), len(edited)),
        "naive_parse": (each(naive_parse, docs), n),
        "naive_dump": (each(naive_dump, naive_docs), n),
        "careful_parse": (each(careful_parse, docs), n),
        "careful_dump": (each(careful_dump, naive_docs), n),
        "py_wire_parse": (wire_parse, n),
        "py_wire_marshal": (each(TaskSpec.SerializeToString, specs), n),
    }
    if not CONFORM.exists():
        subprocess.run(["make", "conform"], cwd=ROOT, check=True)
    with tempfile.TemporaryDirectory(prefix="taskspec-bench-") as tmp:
        edited_dir = Path(tmp, "edited")
        edited_dir.mkdir()
        edited_files = []
        for i, doc in enumerate(edited):
            edited_files.append(edited_dir / f"{i:04d}.yaml")
            edited_files[-1].write_bytes(doc)
        sweep_dir = Path(tmp, "sweep")
        sweep_dir.mkdir()
        sweep_files = []
        for i, doc in enumerate(sweep):
            sweep_files.append(sweep_dir / f"{i:02d}.yaml")
            sweep_files[-1].write_bytes(doc)
        big = Path(tmp, "big.taskspec.yaml")
        big.write_bytes(big_document(specs[0]))
        five = Path(tmp, "five.taskspec.yaml")
        five.write_bytes(big_document(specs[0], VALIDATE_DOCUMENT))
        # Bytecode goes to a cache of its own, warmed before timing: an
        # installed package starts from its cache, and the tree stays clean.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp, "pycache"))
        # The compiled build's command, where it is built: what the README installs.
        validate_python = str(COMPILED_PYTHON) if COMPILED_PYTHON.exists() else sys.executable
        validate_argv = [*taskspec_command(validate_python), "validate", "--jobs", "1"]
        validate_argv.append(str(files[0]))
        bare_argv = [sys.executable, "-c", "pass"]
        timed_run(validate_argv, env)

        # Rounds interleave every contender, so a burst of load elsewhere on
        # the machine spoils one round of each rather than every round of
        # one; the best round of each contender counts.
        py = dict.fromkeys(contenders, float("inf"))
        go = dict.fromkeys(GO_KEYS, float("inf"))
        go_edited = float("inf")
        go_validate_big = float("inf")
        startup = {"validate": float("inf"), "python": float("inf")}
        compiled = {"parse": float("inf"), "marshal": float("inf"), "parse_edited": float("inf")}
        inf = [float("inf")] * len(sweep)
        go_sweep = dict.fromkeys(GO_SWEEP_KEYS, inf)
        py_sweep = {"parse": inf, "marshal": inf}
        compiled_sweep = {"parse": inf, "marshal": inf}
        have_compiled = True
        loads = [os.getloadavg()[0]]
        for _ in range(args.rounds):
            for key, us in go_round(files, args.min_time, ",".join(GO_KEYS)).items():
                go[key] = min(go[key], us)
            go_edited = min(go_edited, go_round(edited_files, args.min_time, "parse")["parse"])
            go_validate_big = min(
                go_validate_big, go_round([five], args.min_time, "lib_validate")["lib_validate"]
            )
            for key, times in go_sweep_round(sweep_files, args.min_time).items():
                go_sweep[key] = _best(go_sweep[key], times)
            for name, (fn, count) in contenders.items():
                py[name] = min(py[name], per_doc(fn, count, args.min_time))
            py_sweep["parse"] = _best(
                py_sweep["parse"],
                [per_doc(each(taskspec.parse_task_spec, [d]), 1, args.min_time) for d in sweep],
            )
            py_sweep["marshal"] = _best(
                py_sweep["marshal"],
                [per_doc(each(taskspec.marshal_yaml, [s]), 1, args.min_time) for s in sweep_specs],
            )
            got = (
                compiled_round(CORPUS, args.min_time, edited_dir, sweep_dir)
                if have_compiled
                else None
            )
            if got is not None:
                compiled = {k: min(compiled[k], got[k]) for k in compiled}
                compiled_sweep = {
                    k: _best(compiled_sweep[k], got[f"sweep_{k}"]) for k in compiled_sweep
                }
            else:
                have_compiled = False
            startup["validate"] = min(startup["validate"], timed_run(validate_argv, env))
            startup["python"] = min(startup["python"], timed_run(bare_argv, env))
        loads.append(os.getloadavg()[0])
        peak_before, peak, peak_took = peak_rss(big, env)
        big_size = big.stat().st_size
        five_size = five.stat().st_size

    machine = (
        f"{platform.machine()}, {os.cpu_count()} cores,"
        f" {platform.python_implementation()} {platform.python_version()}"
    )
    print(f"corpus: {n} canonical vectors ({sum(map(len, docs)) / n:.0f} bytes on average)")
    print(
        f"hand-edited: {len(edited)} of them (comments, flow lists, two-space indent"
        " where the spec stays the same)"
    )
    print(f"naive yaml.safe_load cannot read {naive_failures} canonical vectors,")
    print(f"careful CSafeLoader + shape checks refuses {careful_failures}")
    print(
        f"machine: {machine}; best of {args.rounds} interleaved rounds,"
        f" >= {args.min_time:g} s per contender each;"
        f" load average {loads[0]:.2f} before, {loads[1]:.2f} after"
    )
    print()
    rows = [
        ("Go ParseTaskSpec (yaml.v3)", go["parse"]),
        ("Go ParseTaskSpec, hand-edited", go_edited),
        ("Go MarshalYAML (yaml.v3)", go["marshal"]),
        ("Go library taskspec.ParseYAML", go["lib_parse"]),
        ("Go library taskspec.MarshalYAML", go["lib_marshal"]),
        ("Go library taskspec.Validate", go["lib_validate"]),
        ("taskspec parse_task_spec", py["py_parse"]),
        ("taskspec parse_task_spec, hand-edited", py["py_parse_edited"]),
        ("taskspec full decoder on canonical (forced)", py["py_parse_general"]),
        ("taskspec marshal_yaml", py["py_marshal"]),
        ("taskspec parse_task_spec, compiled build", compiled["parse"]),
        ("taskspec parse_task_spec, hand-edited, compiled", compiled["parse_edited"]),
        ("taskspec marshal_yaml, compiled build", compiled["marshal"]),
        ("naive yaml.safe_load + checks", py["naive_parse"]),
        ("naive yaml.dump", py["naive_dump"]),
        ("careful CSafeLoader + shape checks", py["careful_parse"]),
        ("careful CSafeDumper", py["careful_dump"]),
        ("Go proto.Unmarshal (floor)", go["wire_parse"]),
        ("Go proto.Marshal (floor)", go["wire_marshal"]),
        ("Python FromString (floor)", py["py_wire_parse"]),
        ("Python SerializeToString (floor)", py["py_wire_marshal"]),
    ]
    rows = [row for row in rows if row[1] != float("inf")]  # the compiled build, if absent
    width = max(len(r[0]) for r in rows)
    print(f"{'contender':<{width}}  µs/doc")
    for label, us in rows:
        print(f"{label:<{width}}  {us:8.1f}")
    print()
    build = "compiled" if validate_python != sys.executable else "pure"
    print(f"taskspec validate ({build}), one file: {startup['validate'] * 1e3:.1f} ms;", end=" ")
    print(f"python -c pass: {startup['python'] * 1e3:.1f} ms (best of {args.rounds})")
    print(
        f"16 MiB document ({big_size} bytes): peak RSS {peak / 2**20:.1f} MiB,"
        f" {peak_before / 2**20:.1f} MiB before the parse; parse {peak_took:.2f} s"
    )
    met = "met" if go_validate_big / 1e3 <= TARGET_GO_VALIDATE_MS else "NOT met"
    print(
        f"Go library taskspec.Validate, valid 5 MiB spec ({five_size} bytes):"
        f" {go_validate_big / 1e3:.2f} ms, target <= {TARGET_GO_VALIDATE_MS:g} ms {met}"
    )
    print()
    ratios = [
        ("compiled parse_task_spec / Go", compiled["parse"] / go["parse"], f"<= {TARGET_PARSE}"),
        ("compiled marshal_yaml / Go", compiled["marshal"] / go["marshal"], f"<= {TARGET_MARSHAL}"),
        ("pure parse_task_spec / Go", py["py_parse"] / go["parse"], f"<= {TARGET_PURE_PARSE}"),
        ("pure marshal_yaml / Go", py["py_marshal"] / go["marshal"], "(info)"),
        (
            "hand-edited: compiled parse / Go",
            compiled["parse_edited"] / go_edited,
            f"<= {TARGET_GENERAL}",
        ),
        ("hand-edited: pure parse / Go", py["py_parse_edited"] / go_edited, "(info)"),
        (
            "validate one file / python -c pass",
            startup["validate"] / startup["python"],
            f"<= {TARGET_VALIDATE}",
        ),
        ("peak RSS, 16 MiB document / its size", peak / big_size, f"<= {TARGET_PEAK}"),
        ("  (peak RSS growth in the parse / size)", (peak - peak_before) / big_size, "(info)"),
        ("naive parse / parse_task_spec", py["naive_parse"] / py["py_parse"], ">= 2.0"),
        ("naive dump / marshal_yaml", py["naive_dump"] / py["py_marshal"], ">= 2.0"),
        ("careful parse / parse_task_spec", py["careful_parse"] / py["py_parse"], "(info)"),
        ("careful dump / marshal_yaml", py["careful_dump"] / py["py_marshal"], "(info)"),
        ("forced full decoder / Go ParseTaskSpec", py["py_parse_general"] / go["parse"], "(info)"),
        (
            "Go library ParseYAML / Go ParseTaskSpec",
            go["lib_parse"] / go["parse"],
            f"<= {TARGET_GO_LIBRARY}",
        ),
        (
            "Go library MarshalYAML / Go MarshalYAML",
            go["lib_marshal"] / go["marshal"],
            f"<= {TARGET_GO_LIBRARY_MARSHAL}",
        ),
    ]
    for label, ratio, target in ratios:
        if ratio == float("inf"):
            continue  # the compiled build, if absent
        met = ""
        if target.startswith("<="):
            met = "met" if ratio <= float(target[2:]) else "NOT met"
        elif target.startswith(">="):
            met = "met" if ratio >= float(target[2:]) else "NOT met"
        print(f"{label:<40} {ratio:6.2f}x  target {target:<7} {met}")
    print()
    sweep_ratios = print_sweep(sweep_sizes, go_sweep, py_sweep, compiled_sweep, have_compiled)
    print()
    print_targets(
        sweep_sizes,
        sweep_ratios,
        {
            "parse": compiled["parse"] / go["parse"],
            "marshal": compiled["marshal"] / go["marshal"],
            "pure_parse": py["py_parse"] / go["parse"],
            "general": compiled["parse_edited"] / go_edited,
            "validate": startup["validate"] / startup["python"],
            "lib_parse": go["lib_parse"] / go["parse"],
            "lib_marshal": go["lib_marshal"] / go["marshal"],
        },
    )
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        figures = {
            "machine": machine,
            "docs": n,
            "edited_docs": len(edited),
            "go": {**go, "parse_edited": go_edited, "validate_5mib": go_validate_big},
            "python": py,
            "compiled": compiled if have_compiled else None,
            "startup_s": startup,
            "peak_rss": {"bytes": peak, "before_parse": peak_before, "document": big_size},
            "sweep": {
                "sizes": sweep_sizes,
                "go": go_sweep,
                "python": py_sweep,
                "compiled": compiled_sweep if have_compiled else None,
            },
        }
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
