"""Draw the BENCHMARKS.md figure from the JSON that ``scripts/bench.py --json`` writes.

Two panels, parse and marshal, each comparing the contenders on a log
scale: Go's yaml.v3 implementation, this package, the naive (pure-Python)
and careful (libyaml) PyYAML peers, and binary protobuf (the floor no YAML
codec can beat). The parse panel also shows both Go and this package on the
hand-edited documents that take the general path. Where the compiled build
was timed, its figures are drawn beside the pure build's.

Below them, the size sweep as curves: parse time per document against
the document's size (log-log) for Go, the Go library, the pure build and
the compiled build, and each one's ratio against Go, parse and marshal,
with the targets as dotted lines.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # no display: render straight to PNG

import matplotlib.pyplot as plt


def draw_sweep(axes: Any, sweep: dict[str, Any], colors: dict[str, str]) -> None:
    """The size sweep: µs per document against size, and the ratios against Go."""
    kib = [size / 1024 for size in sweep["sizes"]]
    go, pure, compiled = sweep["go"], sweep["python"], sweep.get("compiled") or {}
    curves = [
        ("Go ParseTaskSpec", go["parse"], colors["Go"], "-"),
        ("Go library ParseYAML", go["lib_parse"], colors["Go"], "--"),
        ("taskspec, pure", pure["parse"], colors["taskspec"], "--"),
        *([("taskspec, compiled", compiled["parse"], colors["taskspec"], "-")] if compiled else []),
    ]
    ax = axes[0]
    for label, values, color, line in curves:
        ax.plot(kib, values, line, color=color, marker="o", markersize=3, label=label)
    ax.set_xscale("log", base=2)
    ax.set_xticks(kib, [f"{k:.2g}" for k in kib])
    ax.set_yscale("log")
    ax.set_xlabel("document size (KiB)")
    ax.set_title("parse by document size (µs per document)")
    ax.legend(fontsize=8)
    ax = axes[1]
    ratios = [
        ("pure parse", pure["parse"], go["parse"], colors["taskspec"], "--"),
        ("Go library parse", go["lib_parse"], go["parse"], colors["Go"], "--"),
        ("pure marshal", pure["marshal"], go["marshal"], colors["naive"], "--"),
    ]
    if compiled:
        ratios += [
            ("compiled parse", compiled["parse"], go["parse"], colors["taskspec"], "-"),
            ("compiled marshal", compiled["marshal"], go["marshal"], colors["naive"], "-"),
        ]
    for label, values, base, color, line in ratios:
        ax.plot(
            kib,
            [v / b for v, b in zip(values, base, strict=True)],
            line,
            color=color,
            marker="o",
            markersize=3,
            label=label,
        )
    for target in (0.3, 0.5, 1.0):
        ax.axhline(target, color="#c0c0c0", linestyle=":", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.set_xticks(kib, [f"{k:.2g}" for k in kib])
    ax.set_ylim(bottom=0)
    ax.set_xlabel("document size (KiB)")
    ax.set_title("ratio against Go (dotted: the targets)")
    ax.legend(fontsize=8)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("results", type=Path, help="JSON written by scripts/bench.py --json")
    parser.add_argument("output", type=Path, help="PNG to write")
    args = parser.parse_args(argv)
    res = json.loads(args.results.read_text())
    go, py = res["go"], res["python"]
    compiled = res.get("compiled") or {}
    panels = {
        "parse (µs per document)": [
            ("Go ParseTaskSpec", go["parse"]),
            ("taskspec parse_task_spec", py["py_parse"]),
            *([("taskspec, compiled", compiled["parse"])] if "parse" in compiled else []),
            ("Go, hand-edited", go["parse_edited"]),
            ("taskspec, hand-edited", py["py_parse_edited"]),
            *(
                [("taskspec, hand-edited, compiled", compiled["parse_edited"])]
                if "parse_edited" in compiled
                else []
            ),
            ("naive yaml.safe_load", py["naive_parse"]),
            ("careful CSafeLoader", py["careful_parse"]),
            ("protobuf FromString", py["py_wire_parse"]),
        ],
        "marshal (µs per document)": [
            ("Go MarshalYAML", go["marshal"]),
            ("taskspec marshal_yaml", py["py_marshal"]),
            *([("taskspec, compiled", compiled["marshal"])] if "marshal" in compiled else []),
            ("naive yaml.dump", py["naive_dump"]),
            ("careful CSafeDumper", py["careful_dump"]),
            ("protobuf SerializeToString", py["py_wire_marshal"]),
        ],
    }
    colors = {
        "Go": "#00add8",
        "taskspec": "#3776ab",
        "naive": "#b0b0b0",
        "careful": "#808080",
        "protobuf": "#6a9955",
    }
    sweep = res.get("sweep")
    fig, grid = plt.subplots(
        2 if sweep else 1, 2, figsize=(11, 8.8 if sweep else 4.4), constrained_layout=True
    )
    axes = grid[0] if sweep else grid
    for ax, (title, rows) in zip(axes, panels.items(), strict=True):
        labels = [label for label, _ in rows]
        values = [value for _, value in rows]
        shades = [colors[label.split()[0].rstrip(",")] for label in labels]
        bars = ax.barh(labels[::-1], values[::-1], color=shades[::-1])
        ax.set_xscale("log")
        ax.set_title(title)
        ax.bar_label(bars, labels=[f"{v:.1f}" for v in values[::-1]], padding=3, fontsize=8)
        ax.set_xlim(right=max(values) * 4)
    if sweep:
        draw_sweep(grid[1], sweep, colors)
    fig.suptitle(
        f"TaskSpec YAML codecs on {res['docs']} canonical vectors ({res['machine']})", fontsize=10
    )
    fig.savefig(args.output, dpi=110)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
