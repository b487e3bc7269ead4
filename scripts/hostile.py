"""Run a generated corpus of hostile documents through both libraries, one fresh process each.

The promise for any input, in both languages: a clean error (or a correct
result) in under a second and under 200 MB on a 2-core machine. This
script measures it rather than asserting it: the corpus is generated here,
not committed (some documents are 16 MiB), each case runs in a new process
per library, and the table gives the outcome, the wall time and the peak
resident memory of that process (``wait4``), then the count of cases over
either bound. The tests assert the outcomes; only this script times them.

- Python: ``taskspec.parse_task_spec`` in ``python -c``.
- Go: the Go library's ``ParseYAML``, through the conformance consumer's
  ``lib_parse_file`` request, which reads the file itself so that no
  transport is timed (``make conform`` builds it).

Usage: ``python scripts/hostile.py [--only SUBSTRING] [--timeout 20]``
(``make hostile``). Exit status 1 when a case is over a bound or a process
failed in any way other than a clean refusal.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONFORM = ROOT / ".bin" / "taskspec-conform"
SECONDS = 1.0
MEGABYTES = 200.0

BASE = (ROOT / "tests" / "conformance" / "sources" / "accepted" / "base.yaml").read_bytes()
MB = 1024 * 1024


def _with(old: bytes, new: bytes) -> bytes:
    assert BASE.count(old) == 1, old
    return BASE.replace(old, new)


def _prompt(value: bytes) -> bytes:
    return _with(b"prompt: Implement mathx.GCD.", b"prompt: " + value)


def _signals(body: bytes) -> bytes:
    return _with(b"    cyclomatic_complexity: 4\n    edge_count: 9\n", body)


def _test_cmd(flow: bytes) -> bytes:
    head = BASE[: BASE.index(b"    test_cmd:")]
    tail = BASE[BASE.index(b"    timeout_seconds") :]
    return head + b"    test_cmd: " + flow + b"\n" + tail


def _bomb(levels: int, width: int) -> bytes:
    lines = [b'a0: &a0 ["x"]']
    for i in range(1, levels):
        items = b", ".join(b"*a%d" % (i - 1) for _ in range(width))
        lines.append(b"a%d: &a%d [%s]" % (i, i, items))
    return b"\n".join(lines) + b"\n"


def corpus() -> Iterator[tuple[str, Callable[[], bytes]]]:
    """(name, builder) of every hostile case; builders run only for the cases asked for."""
    yield "alias bomb, nested sequences", lambda: _bomb(9, 9) + BASE
    yield "alias bomb, 100 wide", lambda: _bomb(5, 100) + BASE
    yield "deep nesting, flow", lambda: _prompt(b"[" * 100_000 + b"]" * 100_000)
    yield (
        "deep nesting, block",
        lambda: _prompt(b"\n" + b"".join(b"  " * i + b"- \n" for i in range(1, 2000))),
    )
    yield (
        "10 MB flow mapping",
        lambda: _prompt(b"{" + b", ".join(b"k%d: v" % i for i in range(1_000_000)) + b"}"),
    )
    yield "10 MB flow sequence", lambda: _test_cmd(b"[" + b"a, " * (10 * MB // 3) + b"b]")
    yield "100,001 test_cmd items", lambda: _test_cmd(b"[" + b"a, " * 100_000 + b"b]")
    yield "200,000 top-level keys", lambda: BASE + b"".join(b"k%d: 1\n" % i for i in range(200_000))
    yield (
        "100,000 difficulty_signals keys",
        lambda: _signals(b"".join(b"    s%d: 1\n" % i for i in range(100_000))),
    )
    yield "duplicate keys, 40,000 pairs", lambda: _signals(b"    s: 1\n" * 40_000)
    yield "duplicate key through an alias", lambda: _signals(b"    &k edge_count: 9\n    *k : 3\n")
    yield "16 MiB plain scalar", lambda: _prompt(b"x" * (16 * MB - len(BASE) - 64))
    yield "16 MiB + 1 document", lambda: BASE + b"#" * (16 * MB + 1 - len(BASE))
    yield "huge integer", lambda: _with(b"timeout_seconds: 120", b"timeout_seconds: " + b"9" * MB)
    yield (
        "huge float exponent",
        lambda: _with(b"timeout_seconds: 120", b"timeout_seconds: 1e" + b"9" * 100_000),
    )
    yield "bad escape", lambda: _prompt(b'"\\q"')
    yield (
        "16 MB of \\x41 escapes",
        lambda: _prompt(b'"' + b"\\x41" * ((16 * MB - len(BASE) - 64) // 4) + b'"'),
    )
    yield "UTF-16 with a BOM", lambda: BASE.decode().encode("utf-16")
    yield "invalid UTF-8", lambda: _prompt(b"a\xff\xfeb")
    yield "two leading BOMs", lambda: "\ufeff\ufeff".encode() + BASE
    yield "NUL byte", lambda: _prompt(b"a\x00b")
    yield (
        "line-start BOMs, 5 MB flow",
        lambda: _test_cmd(
            b"["
            + b", ".join(b'"x"' for _ in range(500_000))
            + b', "'
            + ("\n\ufeffa" * 200_000).encode()
            + b'"]'
        ),
    )
    yield (
        "16,000 line-start BOMs, quoted",
        lambda: _test_cmd(
            b"["
            + b", ".join(b'"x"' for _ in range(16_000))
            + b', "'
            + ("\n\ufeffa" * 16_000).encode()
            + b'"]'
        ),
    )
    yield (
        "49,000 integers, 15 MB prompt, !",
        lambda: _with(
            b"prompt: Implement mathx.GCD.", b"prompt: " + b"x" * (15 * MB) + b"!"
        ).replace(
            b"    cyclomatic_complexity: 4\n    edge_count: 9\n",
            b"".join(b"    s%d: %d\n" % (i, i) for i in range(49_000)),
        ),
    )
    yield (
        "16 MiB of comment lines",
        lambda: BASE + b"# a comment line\n" * ((16 * MB - len(BASE)) // 17),
    )
    yield (
        "valid 2 MB literal prompt",
        lambda: _prompt(b"|-\n" + b"    some prose of a prompt\n" * 80_000),
    )


_PY = (
    "import sys, taskspec\n"
    "data = open(sys.argv[1], 'rb').read()\n"
    "try:\n"
    "    taskspec.parse_task_spec(data)\n"
    "    print('accepted')\n"
    "except taskspec.TaskSpecError as err:\n"
    "    print('refused: ' + str(err).splitlines()[0][:100])\n"
)


def _peak_mb(usage: resource.struct_rusage | None) -> float:
    if usage is None:
        return float("nan")
    return usage.ru_maxrss / 1024  # kilobytes on Linux


def _run_python(path: Path, timeout: float) -> tuple[str, float, float]:
    return _waited([sys.executable, "-c", _PY, str(path)], b"", timeout, str.strip)


def _run_go(path: Path, timeout: float) -> tuple[str, float, float]:
    request = json.dumps({"op": "lib_parse_file", "path": str(path)})
    return _waited([str(CONFORM), "serve"], request.encode() + b"\n", timeout, _go_outcome)


def _go_outcome(out: str) -> str:
    try:
        res = json.loads(out)
    except json.JSONDecodeError:
        return f"CRASH: {out[:200]}"
    if res.get("ok"):
        return "accepted"
    error = str(res.get("error", ""))
    if error.startswith("panic:"):
        return f"CRASH: {error[:200]}"
    return "refused: " + error.splitlines()[0][:100]


#: Runs argv[2:] and writes its peak resident memory, in kilobytes, to the file
#: argv[1]. Linux charges a process started by exec with the peak of the
#: process it was forked from, so a case started directly by this script,
#: which holds the corpus, would report this script's peak; started from
#: this small launcher, it reports its own (plus the launcher's few MB).
_LAUNCHER = (
    "import os, sys\n"
    "pid = os.fork()\n"
    "if pid == 0:\n"
    "    os.execv(sys.argv[2], sys.argv[2:])\n"
    "_, status, usage = os.wait4(pid, 0)\n"
    "open(sys.argv[1], 'w').write(str(usage.ru_maxrss))\n"
    "sys.exit(os.waitstatus_to_exitcode(status))\n"
)


def _waited(
    argv: list[str], stdin: bytes, timeout: float, outcome: Callable[[str], str]
) -> tuple[str, float, float]:
    """Run *argv* in a new process, through the launcher, for its own peak memory."""
    with (
        tempfile.TemporaryFile() as out,
        tempfile.TemporaryFile() as err,
        tempfile.NamedTemporaryFile() as peak,
    ):
        launcher = [sys.executable, "-c", _LAUNCHER, peak.name, *argv]
        result = _reaped(launcher, stdin, timeout, outcome, out=out, err=err)
        kilobytes = Path(peak.name).read_text() or "nan"
        return result[0], result[1], float(kilobytes) / 1024


def _reaped(
    argv: list[str],
    stdin: bytes,
    timeout: float,
    outcome: Callable[[str], str],
    *,
    out: Any,
    err: Any,
) -> tuple[str, float, float]:
    """Run *argv* in its own session, so that a timeout kills the case with its launcher."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=out, stderr=err, start_new_session=True
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write(stdin)
        proc.stdin.close()
    except BrokenPipeError:
        pass
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            os.killpg(proc.pid, 9)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = -9
            return f"TIMEOUT after {timeout:.0f} s", timeout, _peak_mb(usage)
        time.sleep(0.005)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    out.seek(0)
    err.seek(0)
    text = out.read().decode(errors="replace").strip()
    if proc.returncode != 0:
        return (
            f"CRASH ({proc.returncode}): {err.read().decode(errors='replace')[-200:]}",
            elapsed,
            _peak_mb(usage),
        )
    return outcome(text), elapsed, _peak_mb(usage)


def _write(out: Path, max_bytes: int) -> int:
    """Write the cases to *out* as NN.yaml, with names.json mapping file to case name."""
    out.mkdir(parents=True, exist_ok=True)
    names = {}
    for i, (name, build) in enumerate(corpus()):
        data = build()
        if len(data) <= max_bytes:
            (out / f"{i:02d}.yaml").write_bytes(data)
            names[f"{i:02d}.yaml"] = name
    (out / "names.json").write_text(json.dumps(names, indent=1), encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    parser.add_argument(
        "--timeout", type=float, default=20.0, help="seconds before a case is killed"
    )
    parser.add_argument(
        "--write",
        metavar="DIR",
        help="run nothing: write each case of at most --max-bytes to DIR, for the tests",
    )
    parser.add_argument("--max-bytes", type=int, default=4 * MB)
    args = parser.parse_args(argv)
    if args.write:
        return _write(Path(args.write), args.max_bytes)
    if not CONFORM.exists():
        print(f"{CONFORM} is missing: run make conform", file=sys.stderr)
        return 2
    over = failed = 0
    print(f"{'case':<34} {'lang':<6} {'seconds':>8} {'peak MB':>8}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for name, build in corpus():
            if args.only not in name:
                continue
            path = Path(tmp) / "doc.yaml"
            data = build()
            path.write_bytes(data)
            size = len(data)
            # Each process is forked from this one and starts with its memory
            # as its peak: the document must not stay in it.
            del data
            for lang, run in (("python", _run_python), ("go", _run_go)):
                outcome, seconds, peak = run(path, args.timeout)
                bad = seconds > SECONDS or not peak <= MEGABYTES
                over += bad
                failed += outcome.startswith(("CRASH", "TIMEOUT"))
                mark = " !" if bad else ""
                print(f"{name:<34} {lang:<6} {seconds:>8.3f} {peak:>8.1f}  {outcome}{mark}")
            print(f"{'':<34} ({size:,} bytes)")
    print(
        f"\n{over} runs over {SECONDS:.0f} s or {MEGABYTES:.0f} MB; {failed} crashed or timed out"
    )
    return 1 if over or failed else 0


if __name__ == "__main__":
    sys.exit(main())
