"""Benchmark ``taskspec validate`` at harness scale.

A harness validates a whole tree of run directories in CI, so what matters
is the end-to-end cost per file of the command (interpreter start, walk,
reads, output) next to the bare cost of parsing, and how well it scales
with cores. This script builds a tree of sidecars in a temporary directory
(``.agents/eval/runs/<run-id>/taskspec.yaml``: varied valid specs, canonical
and hand-styled, and a share of invalid ones), then prints:

- the in-process ``parse_task_spec`` cost per file (bytes read beforehand),
- ``taskspec validate --jobs 1`` and ``--jobs <all CPUs>`` end to end, run
  as subprocesses, best of several runs, per file, and the command's
  start-up alone (on an empty directory),
- the scaling ratio (jobs 1 over all CPUs) and the per-file cost ratio of
  ``--jobs 1`` over in-process parsing, with their targets,
- the machine's own ceiling, measured in the same rounds: N copies of a
  fixed CPU-bound loop run at once against one copy. On a machine shared
  with other work, N processes cannot scale better than that, so the
  scaling ratio is also given as a share of it.

Then, on trees of 10, 100, 1,000 and 10,000 files (``--sizes``), it times
the default ``--jobs`` against ``--jobs 1``: the two alternate, run after
run, for ``--rounds`` rounds each, and the medians are compared. The default
must never be slower (target: at most 1.05x at 10 and 100 files) and should
be faster on the largest tree when the machine has a CPU to spare.

``--baseline DIR`` also times the command from another checkout's
``python/`` directory (put first on ``PYTHONPATH``), interleaved with this
one, so that a change is compared with what it replaces in the same run,
under the same load. ``--files`` sets the tree's size, for a scaling curve.

The targets are printed, never asserted: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import taskspec
from taskspec import Difficulty, GeneratedFrom, GeneratedKind, Language, TaskSpec

TARGET_SCALING = 1.8  # on 2 cores
TARGET_COST_RATIO = 1.2
#: The default --jobs over --jobs 1 on the small trees, at most.
TARGET_DEFAULT_RATIO = 1.05

LANGUAGES = {
    "go": (["go", "test", "./..."], ["go", "build", "./..."], ".go"),
    "python": (["python", "-m", "pytest", "-q"], [], ".py"),
    "typescript": (["npx", "vitest", "run"], ["npx", "tsc", "--noEmit"], ".ts"),
}
DIFFICULTIES = ("easy", "medium", "hard")
WORDS = ("parse", "render", "merge", "split", "index", "cache", "queue", "graph", "token", "stream")


def make_spec(rng: random.Random, n: int) -> TaskSpec:
    """A valid spec whose shape varies with *rng*: optional fields, lists, prompt length."""
    language = rng.choice(list(LANGUAGES))
    test_cmd, build_cmd, ext = LANGUAGES[language]
    word = rng.choice(WORDS)
    kind = rng.choice(("kg_template", "benchmark_seed"))
    # Enum fields take the package's enum members, looked up by their spelling.
    spec = TaskSpec(
        task_spec_version=1,
        task_id=f"kg-{language}-impl-{word}-{n:05d}",
        language=Language(language),
        difficulty=Difficulty(rng.choice(DIFFICULTIES)),
        generated_from=GeneratedFrom(kind=GeneratedKind(kind)),
    )
    signals = ["cyclomatic_complexity", "edge_count", "involved_symbols"]
    for key in rng.sample(signals, rng.randint(0, 3)):
        spec.difficulty_signals[key] = rng.randint(1, 40)
    if kind == "kg_template":
        spec.generated_from.template_id = "impl-pure-fn"
        spec.generated_from.kg_query.intent = "code_context"
        spec.generated_from.kg_query.seed_symbol = f"pkg{n % 97}.{word.title()}"
    lines = [f"Implement `{word}` in `pkg{n % 97}/{word}{ext}` so that the tests pass."]
    lines += [f"Step {i}: handle the {rng.choice(WORDS)} case." for i in range(rng.randint(0, 4))]
    spec.prompt = "\n\n".join(lines)
    for i in range(rng.randint(1, 3)):
        spec.solution_artifacts.add(path=f"pkg{n % 97}/{word}{i}{ext}", role="target")
    spec.verification.test_cmd.extend(test_cmd)
    spec.verification.build_cmd.extend(build_cmd)
    spec.verification.timeout_seconds = rng.choice((0, 60, 120, 300))
    return spec


def restyle(doc: bytes) -> bytes:
    """The same document as a person might write it: 2-space indent and a comment."""
    return b"# written by hand\n" + doc.replace(b"    ", b"  ")


INVALID = (
    (b"task_id:", b"taskid:"),  # unknown key
    (b"language: go\n", b"language: golang\n"),  # enum
    (b"language: python\n", b"language: Python\n"),
    (b"difficulty: medium\n", b"difficulty: moderate\n"),
    (b"task_spec_version: 1\n", b"task_spec_version: 2\n"),
    (b"timeout_seconds: 60\n", b"timeout_seconds: -60\n"),
)


def build_tree(root: Path, count: int, invalid_share: float, seed: int) -> tuple[int, int]:
    """Write *count* run directories under *root*; return (valid, invalid) counts."""
    rng = random.Random(seed)
    runs = root / ".agents" / "eval" / "runs"
    invalid = 0
    for n in range(count):
        doc = taskspec.marshal_yaml(make_spec(rng, n))
        if rng.random() < 0.2:
            doc = restyle(doc)
        if rng.random() < invalid_share:
            for old, new in rng.sample(INVALID, len(INVALID)):
                if old in doc:
                    doc = doc.replace(old, new, 1)
                    invalid += 1
                    break
        run = runs / f"run-{n:05d}-{rng.getrandbits(32):08x}"
        run.mkdir(parents=True)
        (run / "taskspec.yaml").write_bytes(doc)
    return count - invalid, invalid


class Timing(NamedTuple):
    """Wall-clock and CPU seconds, each the best of several runs.

    CPU time (user and system, of this process or of finished children)
    barely moves when other work shares the machine, so it backs up the
    wall-clock figures on a busy host.
    """

    wall: float
    cpu: float


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Measure(NamedTuple):
    """One thing to time: the action, and the CPU clock that sees its work."""

    action: Callable[[], None]
    cpu: Callable[[], float]


def best_of(repeat: int, measures: dict[str, Measure]) -> dict[str, Timing]:
    """The shortest wall and CPU times of each measure over *repeat* rounds.

    The measures take turns, round after round, rather than running their
    repeats back to back: a burst of other work on the machine then spoils
    one run of each instead of every run of one.
    """
    best = {name: Timing(float("inf"), float("inf")) for name in measures}
    for _ in range(repeat):
        for name, (action, cpu) in measures.items():
            start, start_cpu = time.perf_counter(), cpu()
            action()
            wall, used = time.perf_counter() - start, cpu() - start_cpu
            best[name] = Timing(min(best[name].wall, wall), min(best[name].cpu, used))
    return best


def parse_files(files: list[Path]) -> Measure:
    """In-process parsing of all *files*; their bytes are read now, before timing."""
    docs = [f.read_bytes() for f in files]
    parse = taskspec.parse_task_spec

    def parse_all() -> None:
        for doc in docs:
            with contextlib.suppress(taskspec.TaskSpecError):
                parse(doc)

    return Measure(parse_all, time.process_time)


def command() -> list[str]:
    """The installed ``taskspec`` script next to this interpreter, else ``python -m taskspec``."""
    script = shutil.which("taskspec", path=os.path.dirname(sys.executable))
    return [script] if script else [sys.executable, "-m", "taskspec"]


def child_env(cache: Path) -> dict[str, str]:
    """The environment for timed runs: bytecode caching on, into *cache*.

    An installed package starts from its bytecode cache. With caching off
    (``PYTHONDONTWRITEBYTECODE``) every start would recompile every module
    and charge the command with a cost real installations do not pay; the
    cache goes to a temporary directory so the source tree stays untouched.
    """
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def validate(root: Path, jobs: int | None, env: dict[str, str]) -> Measure:
    """``taskspec validate --jobs N root`` end to end, as a fresh process (None: the default)."""
    argv = [*command(), "validate", *([] if jobs is None else ["--jobs", str(jobs)]), str(root)]
    if "PYTHONPATH" in env:  # another checkout's sources: run them as a module
        argv = [sys.executable, "-m", "taskspec", *argv[len(command()) :]]

    def once() -> None:
        done = subprocess.run(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False
        )
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr.decode()}")

    return Measure(once, _child_cpu)


#: The fixed work of one copy of the ceiling's loop (about 0.3 s of CPU).
SPIN = "sum(range(10_000_000))"


def spin(copies: int) -> Measure:
    """*copies* processes running SPIN at once: what N CPUs give right now."""
    argv = [sys.executable, "-S", "-c", SPIN]

    def once() -> None:
        procs = [subprocess.Popen(argv) for _ in range(copies)]
        for proc in procs:
            proc.wait()

    return Measure(once, _child_cpu)


def medians(rounds: int, measures: dict[str, Measure]) -> dict[str, Timing]:
    """The median wall and CPU times of each measure over *rounds* rounds, alternating."""
    walls: dict[str, list[float]] = {name: [] for name in measures}
    cpus: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(rounds):
        for name, (action, cpu) in measures.items():
            start, start_cpu = time.perf_counter(), cpu()
            action()
            walls[name].append(time.perf_counter() - start)
            cpus[name].append(cpu() - start_cpu)
    return {
        name: Timing(statistics.median(walls[name]), statistics.median(cpus[name]))
        for name in measures
    }


def default_jobs_table(sizes: list[int], rounds: int, invalid: float, seed: int) -> None:
    """The default --jobs against --jobs 1 on trees of each of *sizes* files: medians."""
    print(f"\ndefault --jobs vs --jobs 1, medians of interleaved rounds ({rounds} at least)")
    print(
        f"{'files':>8}  {'rounds':>6}  {'jobs 1':>9}  {'default':>9}  {'ratio':>6}"
        f"  {'CPU jobs 1':>10}  {'CPU default':>11}  load before/after"
    )
    with tempfile.TemporaryDirectory(prefix="taskspec-bench-jobs-") as tmp:
        env = child_env(Path(tmp, "pycache"))
        for n in sizes:
            root = Path(tmp, f"tree-{n}")
            build_tree(root, n, invalid, seed)
            os.sync()
            validate(root, 1, env).action()  # warm the bytecode and page caches
            before = os.getloadavg()[0]
            # Small trees take little time a run: more rounds steady their medians.
            turns = rounds * 4 if n <= 100 else rounds * 2 if n <= 1000 else rounds
            got = medians(
                turns, {"jobs 1": validate(root, 1, env), "default": validate(root, None, env)}
            )
            after = os.getloadavg()[0]
            serial, default = got["jobs 1"], got["default"]
            ratio = default.wall / serial.wall
            target = f"(target <= {TARGET_DEFAULT_RATIO}x)" if n <= 100 else ""
            print(
                f"{n:8d}  {turns:6d}  {serial.wall:8.3f}s  {default.wall:8.3f}s  {ratio:5.2f}x"
                f"  {serial.cpu:9.3f}s  {default.cpu:10.3f}s  {before:.2f}/{after:.2f} {target}",
                flush=True,
            )


def cpus() -> int:
    """The CPUs this process may use, as ``taskspec validate`` counts them by default."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--files", type=int, default=10_000, help="sidecars to generate")
    parser.add_argument("--repeat", type=int, default=5, help="rounds of runs (best is kept)")
    parser.add_argument("--invalid", type=float, default=0.05, help="share of invalid files")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--sizes",
        default="10,100,1000,10000",
        help="tree sizes for the default --jobs against --jobs 1 (comma-separated; '' skips)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=7,
        help="interleaved rounds for those, at least 5 (more on small trees; medians are kept)",
    )
    parser.add_argument(
        "--sizes-only", action="store_true", help="time only the default --jobs against --jobs 1"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        metavar="DIR",
        help="also time the command from this python/ directory of another checkout",
    )
    args = parser.parse_args()

    if args.sizes_only:
        sizes = [int(size) for size in args.sizes.split(",")]
        default_jobs_table(sizes, max(5, args.rounds), args.invalid, args.seed)
        return 0
    jobs = cpus()
    with tempfile.TemporaryDirectory(prefix="taskspec-bench-") as tmp:
        root = Path(tmp)
        valid, invalid = build_tree(root, args.files, args.invalid, args.seed)
        # Flush the new files now: writeback running during the timed runs
        # would take CPU from them, most visibly from the parallel one.
        os.sync()
        files = sorted(root.rglob("*.yaml"))
        n = len(files)
        print(f"tree: {n} sidecars ({valid} valid, {invalid} invalid), {jobs} CPUs")

        empty = Path(tmp, "empty")
        empty.mkdir()
        env = child_env(Path(tmp, "pycache"))
        if args.baseline:  # both run the same way: python -m taskspec, sources on PYTHONPATH
            env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent / "python")
        validate(empty, 1, env).action()  # warm the bytecode cache
        measures = {
            "parse": parse_files(files),
            "start-up": validate(empty, 1, env),
            "jobs 1": validate(root, 1, env),
            "jobs N": validate(root, jobs, env),
        }
        if args.baseline:
            base_env = child_env(Path(tmp, "pycache-baseline"))
            base_env["PYTHONPATH"] = str(args.baseline.resolve())
            validate(empty, 1, base_env).action()
            measures["baseline jobs 1"] = validate(root, 1, base_env)
            measures["baseline jobs N"] = validate(root, jobs, base_env)
        measures["spin 1"] = spin(1)
        measures["spin N"] = spin(jobs)
        loads = [os.getloadavg()[0]]
        best = best_of(args.repeat, measures)
        loads.append(os.getloadavg()[0])
    parse, startup, serial, parallel = (best[k] for k in ("parse", "start-up", "jobs 1", "jobs N"))
    ceiling = jobs * best["spin 1"].wall / best["spin N"].wall

    def per_file(t: Timing) -> str:
        return f"{t.wall / n * 1e6:8.1f} µs/file  {t.cpu / n * 1e6:8.1f} µs/file  ({t.wall:.3f} s)"

    print(f"load average (1 min): {loads[0]:.2f} before, {loads[1]:.2f} after")
    print(f"{'':34}{'wall':>13}  {'CPU':>13}")
    print(f"in-process parse_task_spec        {per_file(parse)}")
    ms = f"{startup.wall * 1e3:11.1f} ms  {startup.cpu * 1e3:11.1f} ms"
    print(f"validate, empty tree (start-up)   {ms}")
    print(f"validate --jobs 1, end to end     {per_file(serial)}")
    print(f"validate --jobs {jobs}, end to end     {per_file(parallel)}")
    if args.baseline:
        print(f"baseline --jobs 1                 {per_file(best['baseline jobs 1'])}")
        print(f"baseline --jobs {jobs}                 {per_file(best['baseline jobs N'])}")
    print(f"machine ceiling, {jobs} CPU-bound copies  {ceiling:8.2f}x  (what {jobs} CPUs give now)")
    target = f"target >= {TARGET_SCALING}x on 2"
    scaling = serial.wall / parallel.wall
    of_ceiling = f"{scaling / ceiling:.0%} of the ceiling"
    print(f"scaling, jobs 1 / jobs {jobs}        {scaling:8.2f}x  ({target}; {of_ceiling})")
    if args.baseline:
        base = best["baseline jobs 1"].wall / best["baseline jobs N"].wall
        print(
            f"baseline scaling                  {base:8.2f}x  ({base / ceiling:.0%} of the ceiling)"
        )
    ratio = f"{serial.wall / parse.wall:8.2f}x  {serial.cpu / parse.cpu:12.2f}x"
    print(f"per-file cost, jobs 1 / parse     {ratio}  (target <= {TARGET_COST_RATIO}x)")
    if args.sizes:
        sizes = [int(size) for size in args.sizes.split(",")]
        default_jobs_table(sizes, max(5, args.rounds), args.invalid, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
