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
    The hand-written documents of ``sources/rejected/`` that Go's
    ``ParseTaskSpec`` rejects, with Go's error and whether yaml.v3
    (``decode``) or ``Validate`` (``validate``) failed.
``accepted/``
    The hand-written documents of ``sources/accepted/`` that Go accepts,
    with Go's decoded value and Go's re-marshal of it.

The specs are drawn from a seeded ``random.Random``, so regenerating with
the same seed (and the same Go consumer) reproduces every byte.

Usage, from the repository root (``make vectors`` builds the consumer and
runs this)::

    python -m tests.conformance.generate [--seed N] [--out DIR] [--binary PATH]
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from taskspec.bridge._layout import TASK_SPEC, Kind, MessageInfo
from tests.conformance import handwritten
from tests.conformance.gobridge import GoConsumer, GoResult
from tests.conformance.paths import CLASSES, DEFAULT_BINARY, VECTORS_DIR
from tests.conformance.specs import (
    BUG_PROBES,
    Spec,
    base,
    random_spec,
    structural,
    systematic,
)

__all__ = [
    "DEFAULT_SEED",
    "RANDOM_SPECS",
    "OutcomeChangedError",
    "generate",
    "main",
    "outcome_changes",
]

DEFAULT_SEED = 20260629

#: How many fully random specs join the systematic ones.
RANDOM_SPECS = 160


# -- talking to Go ---------------------------------------------------------------------


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
    return json.dumps(_complete(spec, TASK_SPEC), sort_keys=True)


_ZERO_VALUES: dict[Kind, Any] = {
    Kind.STRING: "",
    Kind.ENUM: "",
    Kind.INT: 0,
    Kind.STRING_LIST: [],
    Kind.MESSAGE_LIST: [],
    Kind.INT_MAP: {},
}


def _complete(spec: Spec, info: MessageInfo) -> Spec:
    """*spec* with every field of *info* the SPEC object leaves out at its zero value.

    The Go consumer writes every key; a spec built here names only those it
    sets, so both are completed from the descriptors before they are compared.
    """
    out = dict(spec)
    for fi in info.fields:
        value = out.get(fi.name)
        if fi.kind is Kind.MESSAGE:
            assert fi.message is not None
            if value is None and fi.pointer:
                out[fi.name] = None
            else:
                out[fi.name] = _complete(value or {}, fi.message)
        elif fi.kind is Kind.MESSAGE_LIST:
            assert fi.message is not None
            out[fi.name] = [_complete(item, fi.message) for item in value or []]
        elif fi.name not in out:
            out[fi.name] = copy.deepcopy(_ZERO_VALUES[fi.kind])
    return out


def _canonical_and_bugs(go: GoConsumer, rng: random.Random) -> tuple[list[Spec], list[Spec]]:
    candidates = systematic() + structural()
    candidates += [(f"random spec {i}", random_spec(rng, i)) for i in range(RANDOM_SPECS)]
    probes = []
    for i, (note, change) in enumerate(BUG_PROBES):
        spec = base(i)
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
    rejected_docs = handwritten.load("rejected")
    accepted_docs = handwritten.load("accepted")

    parse = go.parse_all([d.data for d in rejected_docs])
    decode = go.decode_all([d.data for d in rejected_docs])
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


# -- writing ----------------------------------------------------------------------------

_README = """\
# Conformance vectors

Generated by `make vectors` (`python -m tests.conformance.generate`) from
the Go consumer; do not edit by hand. Each directory holds the documents as
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

The documents of `rejected/` and `accepted/` are written by hand in
`../sources/`, each with a note and the expected outcome; edit them there.

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


class OutcomeChangedError(RuntimeError):
    """A rejected vector's document is unchanged, but Go now rejects it differently."""


def outcome_changes(out: Path, rejected: Sequence[Spec]) -> list[str]:
    """The rejected vectors whose recorded outcome would change with their document unchanged.

    A rejected vector pins one outcome (the stage and Go's error) to one
    document, and its note says why. When a contract change (a new enum
    value, a new bound) changes that outcome, re-recording it silently would
    leave the note wrong and the case no longer testing what it was written
    for. A vector whose document or note is edited with it is re-recorded
    as asked.
    """
    manifest = out / "rejected" / "manifest.json"
    if not manifest.exists():
        return []
    recorded = {c["file"]: c for c in json.loads(manifest.read_bytes())["cases"]}
    changes: list[str] = []
    for r in rejected:
        filename = f"{r['name']}.yaml"
        old = recorded.get(filename)
        if old is None or old["note"] != r["note"]:
            continue
        document = out / "rejected" / filename
        if not document.exists() or document.read_bytes() != r["yaml"]:
            continue
        if (old["go_stage"], old["go_error"]) != (r["stage"], r["error"]):
            changes.append(
                f"rejected/{filename}: the same document now fails in {r['stage']} with "
                f"{r['error']!r}, not in {old['go_stage']} with {old['go_error']!r}, so its "
                f"note ({r['note']!r}) no longer holds: change the document in "
                "sources/rejected/ so that it shows what the note says again, or the note"
            )
    return changes


def generate(go: GoConsumer, out: Path, seed: int = DEFAULT_SEED) -> dict[str, int]:
    """Ask Go for every outcome and write the vectors under *out*; return counts per class.

    Raises :class:`OutcomeChangedError`, writing nothing, when a rejected
    vector's outcome would change under an unchanged document and note.
    """
    rng = random.Random(seed)
    canonical, bugs = _canonical_and_bugs(go, rng)
    rejected, accepted = _hand_written(go)
    changed = outcome_changes(out, rejected)
    if changed:
        raise OutcomeChangedError(
            f"{len(changed)} rejected vector(s) changed their outcome: " + "; ".join(changed)
        )

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
    parser.add_argument("--out", type=Path, default=VECTORS_DIR, help="output directory")
    parser.add_argument(
        "--binary", type=Path, default=DEFAULT_BINARY, help="the taskspec-conform binary"
    )
    args = parser.parse_args(argv)
    if not args.binary.exists():
        parser.error(f"{args.binary} does not exist; build it with `make conform`")
    go = GoConsumer(args.binary)
    try:
        counts = generate(go, args.out, args.seed)
    except OutcomeChangedError as err:
        print(f"vectors: {err}", file=sys.stderr)
        return 1
    finally:
        go.close()
    for name in CLASSES:
        print(f"{name:15} {counts[name]:5d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
