"""The size sweep of ``make bench``: one sidecar at each size from 0.5 KiB to 64 KiB.

Each document is the Go example sidecar (``examples/go.taskspec.yaml``)
with a prose prompt of growing length, written by ``marshal_yaml``, so it
is canonical and its prompt is a literal block, as the writer writes real
prompts. The prose is generated deterministically and looks like what task
generators write: paragraphs wrapped at about 88 columns with inline code
in backticks and the odd ``:`` and ``#``, bullet lists, a fenced code block
with indented lines, an empty line between blocks and a few non-ASCII
characters (an em dash, a multiplication sign). The smallest document
drops the example's two optional collections (``build_cmd`` and
``difficulty_signals``) to get under 0.6 KiB.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import taskspec
from taskspec import TaskSpec

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "go.taskspec.yaml"

#: The sizes, in bytes: 0.5 KiB to 64 KiB, doubling.
SIZES: tuple[int, ...] = tuple(512 << i for i in range(8))

__all__ = ["SIZES", "prose", "sweep_documents"]

_SENTENCES = (
    "Implement the function `mathx.GCD` in `mathx/gcd.go` so that the existing tests pass.",
    "It returns the greatest common divisor of its two arguments, and 0 when both are 0.",
    "Negative inputs are allowed: the result is always non-negative (see `mathx.abs`).",
    "Keep the loop iterative; the recursive version overflows the stack on the fuzz corpus.",
    "The callers in `mathx/reduce.go` rely on GCD(a, 0) == |a| \u2014 do not special-case it.",
    "Performance matters here: Reduce is called once per fraction in the hot path.",
    "Note: the benchmark in gcd_bench_test.go runs 10\u00d7 more iterations than the tests.",
    "Issue #214 describes the original bug report, with a minimal reproduction.",
    "Prefer the standard library where it helps, but do not import math/big for this.",
    "Document the behaviour for the edge cases in the function's doc comment.",
)
_BULLETS = (
    "- Do not modify any existing *_test.go file.",
    "- The solution must satisfy: go test -race ./mathx/...",
    "- Keep the exported API unchanged (`GCD(a, b int) int`).",
    "- Run `gofmt -s` on every file you touch.",
)
_CODE = (
    "```go",
    "func TestGCDZero(t *testing.T) {",
    "\tif got := GCD(0, 0); got != 0 {",
    '\t\tt.Fatalf("GCD(0, 0) = %d, want 0", got)',
    "\t}",
    "}",
    "```",
)


def prose(size: int) -> str:
    """A prompt of about *size* characters (at least one sentence), ending without a line break."""
    blocks: list[str] = []
    length = 0
    i = 0
    while length < size or not blocks:
        kind = i % 4
        if kind == 3:
            block = "\n".join(_BULLETS if i % 8 == 3 else _CODE)
        else:
            words = " ".join(_SENTENCES[(i * 3 + j) % len(_SENTENCES)] for j in range(3))
            block = "\n".join(textwrap.wrap(words, 88))
        blocks.append(block)
        length += len(block) + 2
        i += 1
    text = "\n\n".join(blocks)
    if len(text) > size:
        # Cut at a line end near the size, so the last line stays whole.
        cut = text.rfind("\n", 0, size)
        text = text[:cut] if cut > 0 else text[:size]
    return text.rstrip()


def sweep_documents() -> list[bytes]:
    """The sweep's documents, one per size in :data:`SIZES`, each canonical."""
    base = taskspec.parse_task_spec(EXAMPLE.read_bytes())
    docs = []
    for size in SIZES:
        spec = TaskSpec()
        spec.CopyFrom(base)
        spec.prompt = prose(1)
        if len(taskspec.marshal_yaml(spec)) > size:
            spec.verification.ClearField("build_cmd")
            spec.difficulty_signals.clear()
        room = size - len(taskspec.marshal_yaml(spec))
        # A literal block indents each line by four spaces: about 5% more.
        spec.prompt = prose(max(1, room * 19 // 20))
        doc = taskspec.marshal_yaml(spec)
        assert taskspec.parse_task_spec(doc) == spec
        docs.append(doc)
    return docs


if __name__ == "__main__":
    for doc in sweep_documents():
        print(len(doc))
