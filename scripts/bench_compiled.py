"""The compiled build as a contender of ``make bench``, timed in a child process.

``make bench`` runs in the pure-Python venv; the compiled build (the bridge's
hot modules built with mypyc, ``make compiled``) lives in ``.venv-compiled/``.
Each round, :func:`compiled_round` runs this module under that venv's
interpreter, which times ``parse_task_spec`` and ``marshal_yaml`` over the
same corpus the same way (and ``parse_task_spec`` over the hand-edited
documents, when given) and prints µs per document as JSON, so the compiled
figures come from the same interleaved rounds as Go's and the pure build's.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
COMPILED_PYTHON = ROOT / ".venv-compiled" / "bin" / "python"

__all__ = ["COMPILED_PYTHON", "compiled_round", "main"]


def compiled_round(
    corpus: Path, min_time: float, edited: Path, sweep: Path | None = None
) -> dict[str, Any] | None:
    """One round of the compiled build's timings, or None where it is not built.

    *edited* is a directory of hand-edited documents (``*.yaml``) for the
    general path; *sweep*, a directory of the size sweep's documents, each timed
    alone (``sweep_parse`` and ``sweep_marshal``: lists in file-name order).
    """
    if not COMPILED_PYTHON.exists():
        return None
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    argv = ["-m", "scripts.bench_compiled", str(corpus), str(min_time), "--edited", str(edited)]
    if sweep is not None:
        argv += ["--sweep", str(sweep)]
    out = subprocess.run(
        [str(COMPILED_PYTHON), *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, Any] = json.loads(out.stdout)
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("corpus", type=Path)
    parser.add_argument("min_time", type=float)
    parser.add_argument("--edited", type=Path, help="hand-edited documents (*.yaml) to parse")
    parser.add_argument("--sweep", type=Path, help="documents (*.yaml) to time one by one")
    args = parser.parse_args(argv)

    import taskspec  # noqa: PLC0415 - after the path checks below hold
    from scripts.bench import each, per_doc  # noqa: PLC0415

    if not taskspec.__compiled__:
        print("the compiled build is not the one running", file=sys.stderr)
        return 2
    docs = [f.read_bytes() for f in sorted(args.corpus.glob("*.yaml"))]
    specs = [taskspec.parse_task_spec(d) for d in docs]
    n = len(docs)
    figures: dict[str, Any] = {
        "parse": per_doc(each(taskspec.parse_task_spec, docs), n, args.min_time),
        "marshal": per_doc(each(taskspec.marshal_yaml, specs), n, args.min_time),
    }
    if args.edited is not None:
        edited = [f.read_bytes() for f in sorted(args.edited.glob("*.yaml"))]
        run = each(taskspec.parse_task_spec, edited)
        figures["parse_edited"] = per_doc(run, len(edited), args.min_time)
    if args.sweep is not None:
        sweep = [f.read_bytes() for f in sorted(args.sweep.glob("*.yaml"))]
        figures["sweep_parse"] = [
            per_doc(each(taskspec.parse_task_spec, [d]), 1, args.min_time) for d in sweep
        ]
        sweep_specs = [taskspec.parse_task_spec(d) for d in sweep]
        figures["sweep_marshal"] = [
            per_doc(each(taskspec.marshal_yaml, [s]), 1, args.min_time) for s in sweep_specs
        ]
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
