"""Benchmark ``taskspec validate`` at harness scale.

A harness validates a whole tree of run directories in CI, so what matters
is the end-to-end cost per file of the command (interpreter start, walk,
reads, output) next to the bare cost of parsing, and how well it scales
with cores. This script builds a tree of sidecars in a temporary directory
(``.agents/eval/runs/<run-id>/taskspec.yaml``: varied valid specs, canonical
and hand-styled, and a share of invalid ones), then prints:

- the in-process ``parse_task_spec`` cost per file (bytes read beforehand),
- ``taskspec validate --jobs 1`` and ``--jobs <all CPUs>`` end to end, run
  as subprocesses, best of several runs, per file,
- the scaling ratio (jobs 1 over all CPUs) and the per-file cost ratio of
  ``--jobs 1`` over in-process parsing, with their targets.

The targets are printed, never asserted: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import taskspec
from taskspec import GeneratedFrom, TaskSpec

TARGET_SCALING = 1.7  # on 2 cores
TARGET_COST_RATIO = 1.2

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
    # Enum fields take their proto value names.
    spec = TaskSpec(
        task_spec_version=1,
        task_id=f"kg-{language}-impl-{word}-{n:05d}",
        language=f"LANGUAGE_{language.upper()}",
        difficulty=f"DIFFICULTY_{rng.choice(DIFFICULTIES).upper()}",
        generated_from=GeneratedFrom(kind=f"GENERATED_KIND_{kind.upper()}"),
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


def best_of(repeat: int, action: Callable[[], None]) -> float:
    """The shortest wall time of *repeat* runs of *action*, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def time_parse(files: list[Path], repeat: int) -> float:
    """In-process parse time for all *files*; the bytes are read before timing."""
    docs = [f.read_bytes() for f in files]
    parse = taskspec.parse_task_spec

    def parse_all() -> None:
        for doc in docs:
            with contextlib.suppress(taskspec.TaskSpecError):
                parse(doc)

    return best_of(repeat, parse_all)


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


def time_cli(root: Path, jobs: int, repeat: int, env: dict[str, str]) -> float:
    """End-to-end time of ``taskspec validate --jobs N root`` as a fresh process."""
    argv = [*command(), "validate", "--jobs", str(jobs), str(root)]

    def once() -> None:
        done = subprocess.run(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False
        )
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(argv)} failed:\n{done.stderr.decode()}")

    return best_of(repeat, once)


def cpus() -> int:
    """The CPUs this process may use, as ``taskspec validate`` counts them by default."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--files", type=int, default=10_000, help="sidecars to generate")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best is kept)")
    parser.add_argument("--invalid", type=float, default=0.05, help="share of invalid files")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    jobs = cpus()
    with tempfile.TemporaryDirectory(prefix="taskspec-bench-") as tmp:
        root = Path(tmp)
        valid, invalid = build_tree(root, args.files, args.invalid, args.seed)
        files = sorted(root.rglob("*.yaml"))
        n = len(files)
        print(f"tree: {n} sidecars ({valid} valid, {invalid} invalid), {jobs} CPUs")

        parse = time_parse(files, args.repeat)
        empty = Path(tmp, "empty")
        empty.mkdir()
        env = child_env(Path(tmp, "pycache"))
        time_cli(empty, 1, 1, env)  # warm the bytecode cache
        startup = time_cli(empty, 1, args.repeat, env)
        serial = time_cli(root, 1, args.repeat, env)
        parallel = time_cli(root, jobs, args.repeat, env) if jobs > 1 else serial

    def per_file(seconds: float) -> str:
        return f"{seconds / n * 1e6:8.1f} µs/file  ({seconds:.3f} s)"

    print(f"in-process parse_task_spec        {per_file(parse)}")
    print(f"validate, empty tree (start-up)   {startup * 1e3:8.1f} ms")
    print(f"validate --jobs 1, end to end     {per_file(serial)}")
    print(f"validate --jobs {jobs}, end to end     {per_file(parallel)}")
    scaling = serial / parallel
    ratio = serial / parse
    target = f"target >= {TARGET_SCALING}x on 2"
    print(f"scaling, jobs 1 / jobs {jobs}        {scaling:8.2f}x  ({target})")
    print(f"per-file cost, jobs 1 / parse     {ratio:8.2f}x  (target <= {TARGET_COST_RATIO}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
