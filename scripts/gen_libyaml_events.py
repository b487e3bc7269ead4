"""Record libyaml's reading of YAML texts for the Go reader's tests.

The Go package ``go/internal/yaml`` follows libyaml's scanner and parser
routine by routine; its tests compare its events, and its syntax errors,
with libyaml's. libyaml's answers come from PyYAML's C parser
(``yaml.parse(..., Loader=yaml.CSafeLoader)``), the parser the Python
library reads with. This script writes them to
``go/internal/yaml/testdata/libyaml.json``:

* ``cases``: the texts below (each a construct the reader must read as
  libyaml does, with the places where yaml.v3 reads differently);
* ``files``: every document of the conformance vectors, ``tests/data`` and
  ``examples/``, and the YAML texts of the shared problem table;
* ``fuzz``: the texts of ``go/internal/yaml/testdata/fuzz_inputs.json``,
  which fuzzing the Go reader against yaml.v3 found (by index).

A case has its text (``input``, or ``input_hex`` when it is not UTF-8) and
either ``events`` (one array per event: kind, start and end marks as
index/line/column, anchor, tag, value, style, implicit) or ``error`` (the
MarkedYAMLError's kind, problem, context and marks, or a ReaderError's
position and reason). A file, whose text is in the repository already, has
its name, the SHA-256 of its bytes, and, instead of its events, the SHA-256
of their canonical text (:func:`canonical`: one line per event, strings
JSON-quoted in ASCII), which the Go test computes the same way;
``--show NAME`` prints that text for one file. ``--check`` fails when the
fixture is out of date.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "go" / "internal" / "yaml" / "testdata" / "libyaml.json"
FUZZ_INPUTS = TARGET.with_name("fuzz_inputs.json")

#: Texts that exercise one routine each; a comment names the routine or the
#: named difference from yaml.v3 (see the Go package's doc).
CASES: list[str] = [
    "a: 1\n",
    "- a\n- b:\n    c\n- [d, {e: f}]\n",
    "? a\n? b\n: c\n",
    "a:\n- b\n- c\nd: e\n",
    "[? a]",
    "[? a : x]",
    "[?]",  # parse_flow_sequence_entry_mapping_key skips the ']'
    "[? : x]",
    "[a: b, c]",
    "{a, b: c, ? d}",
    "{a: [b, c], d: {e: f}}",
    "a: &x 1\nb: *x\n",
    "a: *y\n",  # loader: found undefined alias
    "&a [*a]",
    "!!str &a b",
    "&a !!str b",
    "!local x",
    "!<tag:x,y> z",
    "! a",  # bang-tag
    "! 'a'",
    "%TAG !e! tag:example.com,2000:\n--- !e!x y\n",
    "%TAG !e! tag:e\n%TAG !e! tag:f\n--- a\n",
    "--- !e!x y\n",  # found undefined tag handle
    "%YAML 1.1\n--- a\n",
    "%YAML 1.2\n--- a\n",  # yaml-version
    "%YAML 1.3\n--- a\n",
    "%YAML 1.1\n%YAML 1.1\n--- a\n",
    "%FOO bar\n--- a\n",
    "%YAML 1\n--- a\n",
    "%YAML 1234567890.1\n--- a\n",
    "!<a,b> x",  # tag-uri-flow-chars
    "[!a,b]",  # tag-end-comma
    "{!a]: b}",
    "!a,b x",
    "!a%41 b",
    "!a%zz b",
    "!a%C3%A9 b",
    "!a%FF b",
    '"\\/"',  # escape-slash
    '"\\\'"',  # escape-quote
    '"a\\x41\\u00e9\\U0001F600\\N\\_\\L\\P\\0\\e"',
    '"\\uD800"',
    '"\\xZZ"',
    '"a\\\n  b"',
    '"a\n\n  b  \n c"',
    "'a''b\n\n c'",
    "'abc",
    '"abc\n--- x"',
    "[a:b]",
    "[a:[b]]",  # flow-colon
    "[a?b]",  # flow-question
    "{a:,b}",
    "[a, b",
    "{a: b",
    "[a b]",
    "a: b: c\n",
    "a:\n  - b\n  c: d\n",
    "- a\n b\n",
    "a: |\n  x\n  y\n\nb: >-\n  p\n\n  q\n   r\n  s\nc: |+\n  t\n\n",
    "a: |2\n   x\n  y\n",
    "a: |0\n x\n",
    "a: |x\n",
    "a: >\n\tx\n",
    "|\n  a\n b\n",
    ">\n\n  folded\n  text\n\n   more\n  last\n",
    "- |\n a\n- >+\n b\n\n",
    "a: b\n\tc: d\n",
    "a:\n\tb\n",
    "a: 1\n# c\n\t\nb: 2\n",
    "a:\n  # c\n\tb: 1\n",  # tab-among-comments
    "\ufeffa: 1\n",
    "a: 1\n\ufeffb: 2\n",  # bom-at-index
    "- a\n\ufeff- b\n",
    "a: 1\n---\nb: 2\n",
    "a: 1\n...\n",
    "a: 1\n...\nb\n",
    "--- a\n--- b\n",
    "---\n",
    "...\n",
    "",
    "# only a comment\n",
    "a\u2028b: c",
    "a: x\u0085y\n",
    "a\r\nb: c\r\n",
    "a: 'x\r\n  y'\r\n",
    "@a",
    "`a",
    "a: @b",
    "*",
    "&",
    "&a",
    "&a: b",
    "key: value # comment\n",
    "a: b #c\n#d\n",
    "a:    \n  b\n",
    "- - - a\n    - b\n  - c\n",
    "? - a\n  - b\n: - c\n",
    "a: [\n  b,\n  c\n]\n",
    "a: {\n b: c\n}\n",
    "[a]: b\n",
    "{a: b}: c\n",
    "? [a]\n: b\n",
    "a: b\nc\n",
    "a\n: b\n",
    "x" * 1030 + ": y\n",
    "- a: b\n  c: d\n- e\n",
    "<<: {a: 1}\n",
    "a: -\n",
    "a: - b\n",
    "- -\n",
    "a:\n  b:\n    c: d\n  e: f\ng: h\n",
    "a: 'b\n...\n'",
    'a: "b\n---\n"',
    "a: b\n--- \n",
    "[\n---\n]",
    "{a: [b}",
    "[a, ]",
    "[, a]",
    "{,}",
    "a: !!int 0x1F\nb: 0o17\nc: 1_000\nd: 0b-1\ne: 1e400\nf: .5\n",
    "g: 2001-02-30\nh: 2001-12-14t21:59:43.10-05:00\n",
]

_KINDS: dict[type[Any], str] = {
    yaml.StreamStartEvent: "stream-start",
    yaml.StreamEndEvent: "stream-end",
    yaml.DocumentStartEvent: "document-start",
    yaml.DocumentEndEvent: "document-end",
    yaml.AliasEvent: "alias",
    yaml.ScalarEvent: "scalar",
    yaml.SequenceStartEvent: "sequence-start",
    yaml.SequenceEndEvent: "sequence-end",
    yaml.MappingStartEvent: "mapping-start",
    yaml.MappingEndEvent: "mapping-end",
}

_STYLES: dict[str | None, str] = {
    None: "",
    "": "plain",
    "'": "single",
    '"': "double",
    "|": "literal",
    ">": "folded",
}


def _mark(m: Any) -> list[int] | None:
    return None if m is None else [m.index, m.line, m.column]


def _event(e: Any) -> list[Any]:
    kind = _KINDS[type(e)]
    style = ""
    implicit: bool | None = None
    if isinstance(e, yaml.ScalarEvent):
        style = _STYLES[e.style]
        implicit = bool(e.implicit[0])
    elif isinstance(e, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
        style = "flow" if e.flow_style else "block"
    elif isinstance(e, yaml.DocumentStartEvent):
        implicit = not e.explicit
    return [
        kind,
        _mark(e.start_mark),
        _mark(e.end_mark),
        getattr(e, "anchor", None),
        getattr(e, "tag", None),
        getattr(e, "value", None),
        style,
        implicit,
    ]


def record(data: bytes) -> dict[str, Any]:
    """libyaml's events for *data*, or its error."""
    out: dict[str, Any] = {}
    try:
        out["input"] = data.decode("utf-8")
    except UnicodeDecodeError:
        out["input_hex"] = data.hex()
    events: list[list[Any]] = []
    try:
        for e in yaml.parse(data, Loader=yaml.CSafeLoader):
            events.append(_event(e))
    except yaml.MarkedYAMLError as err:
        out["error"] = {
            "kind": type(err).__name__,
            "problem": err.problem,
            "problem_mark": _mark(err.problem_mark),
            "context": err.context,
            "context_mark": _mark(err.context_mark),
        }
        out["events_before"] = events
        return out
    except UnicodeDecodeError as err:
        # libyaml checks only the shape of a tag's %-escaped octets, so a
        # tag can hold bytes that are not UTF-8, which PyYAML cannot decode.
        out["error"] = {"kind": "UnicodeDecodeError", "problem": err.reason}
        out["events_before"] = events
        return out
    except yaml.reader.ReaderError as err:
        out["error"] = {"kind": "ReaderError", "problem": err.reason, "position": err.position}
        return out
    out["events"] = events
    return out


def _quote(v: Any) -> str:
    """*v* as a JSON value in ASCII: a string with every character below
    U+0020 or above U+007E, and '"' and '\\', as a \\u escape."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    out = ['"']
    for ch in v:
        c = ord(ch)
        if c < 0x20 or c > 0x7E or ch in '"\\':
            if c > 0xFFFF:
                c -= 0x10000
                out.append(f"\\u{0xD800 + (c >> 10):04x}\\u{0xDC00 + (c & 0x3FF):04x}")
            else:
                out.append(f"\\u{c:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def canonical(events: list[list[Any]]) -> str:
    """The events as text, one line each: the kind, then the other fields
    as JSON values in ASCII, separated by spaces; marks as three numbers."""
    lines = []
    for e in events:
        fields = [e[0]]
        for m in (e[1], e[2]):
            fields.extend(str(x) for x in m)
        fields.extend(_quote(x) for x in e[3:])
        lines.append(" ".join(fields) + "\n")
    return "".join(lines)


def _file(name: str, data: bytes) -> dict[str, Any]:
    r = record(data)
    out: dict[str, Any] = {"name": name, "sha256": hashlib.sha256(data).hexdigest()}
    if "error" in r:
        out["error"] = r["error"]
        r["events"] = r.pop("events_before", [])
    out["events_sha256"] = hashlib.sha256(canonical(r["events"]).encode("ascii")).hexdigest()
    return out


def _fuzz_inputs() -> list[bytes]:
    table = json.loads(FUZZ_INPUTS.read_text(encoding="utf-8"))
    return [
        bytes.fromhex(i["input_hex"]) if "input_hex" in i else i["input"].encode("utf-8")
        for i in table["inputs"]
    ]


def _documents() -> list[tuple[str, bytes]]:
    docs: list[tuple[str, bytes]] = []
    for base in ("tests/conformance/vectors", "tests/data", "examples"):
        for p in sorted((ROOT / base).rglob("*.yaml")):
            docs.append((p.relative_to(ROOT).as_posix(), p.read_bytes()))
    table = json.loads((ROOT / "tests/contract/problems.json").read_text(encoding="utf-8"))
    for case in table["cases"]:
        if case.get("format") == "yaml" and isinstance(case.get("text"), str):
            docs.append(
                ("tests/contract/problems.json#" + case["name"], case["text"].encode("utf-8"))
            )
    return docs


def build() -> str:
    """The fixture's text."""
    fixture = {
        "description": "libyaml's events or error for each text, from PyYAML's C parser; "
        "written by scripts/gen_libyaml_events.py, do not edit",
        "cases": [record(c.encode("utf-8")) for c in CASES],
        "files": [_file(name, data) for name, data in _documents()],
        "fuzz": [_file(f"fuzz_inputs.json#{i}", data) for i, data in enumerate(_fuzz_inputs())],
    }
    return json.dumps(fixture, ensure_ascii=False, separators=(",", ":"), indent=None) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--check", action="store_true", help="fail if the fixture is out of date")
    ap.add_argument("--show", metavar="NAME", help="print the canonical events of one file")
    args = ap.parse_args(argv)
    if args.show:
        for name, data in _documents():
            if name == args.show:
                r = record(data)
                print(canonical(r.get("events") or r.get("events_before") or []), end="")
                print(json.dumps(r.get("error")))
                return 0
        print(f"no file {args.show}", file=sys.stderr)
        return 1
    text = build()
    if args.check:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(
                f"{TARGET.relative_to(ROOT)} is out of date:"
                " run python -m scripts.gen_libyaml_events",
                file=sys.stderr,
            )
            return 1
        return 0
    tmp = TARGET.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(TARGET)
    return 0


if __name__ == "__main__":
    sys.exit(main())
