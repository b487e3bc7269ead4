"""Tests for the canonical YAML writer (taskspec.bridge._emit, _scalar and _keyorder).

Every expected byte string and style was recorded from go yaml.v3 v3.0.4
(``yaml.Marshal`` of the Go ``TaskSpec`` struct, and of small Go values for
the style table), not written by hand: the contract is byte identity with
Go, so the only trustworthy oracle is Go's output. The tables are data in
``tests/data/emit/`` (JSON, so that every control character survives
exactly). Where yaml.v3 writes bytes it cannot read back, the table holds
this writer's fix and Go's bytes side by side (see ``ROUND_TRIP_FIXES``).
The style table and the scalar analysis are tested in ``tests/test_scalar.py``,
the resolver's table in ``tests/test_resolve.py``.
"""

from __future__ import annotations

import itertools
import json
import random
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final, cast

import pytest
import yaml

import taskspec
from taskspec._errors import TaskSpecError
from taskspec.bridge import _emit, _keyorder
from taskspec.bridge._layout import TASK_SPEC, Kind, MessageInfo
from taskspec.bridge._scalar import Style, analyze, is_simple_key, select_style
from taskspec.v1 import taskspec_pb2 as pb
from tests.conformance.gobridge import GoConsumer, spec_from_json, spec_to_json
from tests.conformance.specs import order_is_total
from tests.strategies import generated_corpus

DATA: Final = Path(__file__).resolve().parent / "data" / "emit"
GOLDEN: Final = Path(__file__).resolve().parent / "data" / "golden"


def _table(name: str, key: str = "cases") -> list[Any]:
    rows: list[Any] = json.loads((DATA / name).read_text(encoding="ascii"))[key]
    return rows


#: The document every table case is spliced into (what Go writes for base_spec()).
BASE_DOC: Final = (DATA / "base.yaml").read_text(encoding="ascii")
#: (text, position, fragment): yaml.v3's bytes for the field holding ``text``.
#: Groups: YAML 1.1 booleans and null-likes, numbers, dates and times, base
#: 60, spaces, indicators first/alone/inside, multi-line (literal block
#: chomping, indentation indicator, fall-back to double quotes), tabs, CR,
#: CRLF, NEL, LS/PS, NBSP, BOM, C0/C1 controls, non-BMP (escaped: yaml.v3
#: does not consider 4-byte UTF-8 printable), CJK, long lines and keys over
#: 128 bytes.
SCALARS: Final = [(c["text"], c["position"], c["fragment"]) for c in _table("scalars.json")]
#: (text, position, ours, go) for the strings yaml.v3 cannot read back.
FIXED: Final = [
    (c["text"], c["position"], c["ours"], c["go"]) for c in _table("round_trip_fixes.json")
]
#: yaml.v3's order for sets of string map keys.
KEY_ORDERS: Final[list[list[str]]] = _table("key_orders.json", "orders")
#: Key sets yaml.v3 orders cyclically, in the fixed order both libraries write.
KEY_FIXED: Final[list[list[str]]] = _table("key_orders.json", "fixed")


# --- helpers -------------------------------------------------------------------


def spec_from_plain(doc: dict[str, Any]) -> pb.TaskSpec:
    """Build a TaskSpec from a ``yaml.safe_load`` result, by hand.

    Deliberately independent of the real decoder, so that these tests pin
    the writer alone.
    """
    enum = {f.name: f.enum for f in TASK_SPEC.fields if f.enum is not None}
    spec = pb.TaskSpec(
        task_spec_version=doc["task_spec_version"],
        task_id=doc["task_id"],
        language=cast(pb.Language, enum["language"].from_string[doc["language"]]),
        difficulty=cast(pb.Difficulty, enum["difficulty"].from_string[doc["difficulty"]]),
        prompt=doc["prompt"],
    )
    spec.difficulty_signals.update(doc.get("difficulty_signals") or {})
    gen = doc["generated_from"]
    kind = TASK_SPEC.by_name["generated_from"].message
    assert kind is not None and kind.by_name["kind"].enum is not None
    spec.generated_from.kind = cast(
        pb.GeneratedKind, kind.by_name["kind"].enum.from_string[gen["kind"]]
    )
    spec.generated_from.template_id = gen.get("template_id", "")
    if "kg_query" in gen:
        spec.generated_from.kg_query.SetInParent()
        spec.generated_from.kg_query.intent = gen["kg_query"].get("intent", "")
        spec.generated_from.kg_query.seed_symbol = gen["kg_query"].get("seed_symbol", "")
    for art in doc.get("solution_artifacts") or []:
        spec.solution_artifacts.add(path=art["path"], role=art.get("role", ""))
    ver = doc["verification"]
    spec.verification.build_cmd.extend(ver.get("build_cmd") or [])
    spec.verification.test_cmd.extend(ver["test_cmd"])
    spec.verification.timeout_seconds = ver.get("timeout_seconds", 0)
    return spec


def base_spec() -> pb.TaskSpec:
    """The spec of BASE_DOC; each table position overwrites one field of it."""
    spec = pb.TaskSpec(
        task_spec_version=1,
        task_id="t",
        language=pb.LANGUAGE_GO,
        difficulty=pb.DIFFICULTY_EASY,
        prompt="p",
    )
    spec.generated_from.kind = pb.GENERATED_KIND_KG_TEMPLATE
    spec.generated_from.kg_query.intent = "i"
    spec.solution_artifacts.add(path="a.go", role="target")
    spec.verification.test_cmd.append("x")
    return spec


def _set_task_id(s: pb.TaskSpec, v: str) -> None:
    s.task_id = v


def _set_template_id(s: pb.TaskSpec, v: str) -> None:
    s.generated_from.template_id = v


def _set_intent(s: pb.TaskSpec, v: str) -> None:
    s.generated_from.kg_query.intent = v


def _set_test_cmd(s: pb.TaskSpec, v: str) -> None:
    s.verification.test_cmd[0] = v


def _set_role(s: pb.TaskSpec, v: str) -> None:
    s.solution_artifacts[0].role = v


def _set_signal(s: pb.TaskSpec, v: str) -> None:
    s.difficulty_signals[v] = 1


#: Where a table string goes: a setter, and the lines of BASE_DOC around the
#: fragment that the string's field produces (None: end of document). The
#: positions cover every context yaml.v3 writes a string in: a mapping value
#: at key columns 0, 4 and 8, a sequence item (dash at column 8), a value in
#: a mapping inside a sequence item (key at column 6) and a mapping key.
POSITIONS: Final[dict[str, tuple[Callable[[pb.TaskSpec, str], None], str, str | None]]] = {
    "task_id": (_set_task_id, "task_spec_version: 1\n", "language: go\n"),
    "template_id": (_set_template_id, "    kind: kg_template\n", "    kg_query:\n"),
    "intent": (_set_intent, "    kg_query:\n", "prompt: p\n"),
    "test_cmd": (_set_test_cmd, "    test_cmd:\n", None),
    "role": (_set_role, "    - path: a.go\n", "verification:\n"),
    "signal": (_set_signal, "difficulty: easy\n", "generated_from:\n"),
}


def doc_with(text: str, position: str) -> tuple[pb.TaskSpec, Callable[[str], str]]:
    """The base spec with ``text`` at ``position``, and a function splicing a
    fragment into BASE_DOC at that position."""
    setter, before, after = POSITIONS[position]
    spec = base_spec()
    setter(spec, text)
    start = BASE_DOC.index(before) + len(before)
    end = BASE_DOC.index(after, start) if after is not None else len(BASE_DOC)
    return spec, lambda fragment: BASE_DOC[:start] + fragment + BASE_DOC[end:]


def read_back(doc: str, position: str) -> object:
    """What PyYAML reads at ``position`` of a document built by doc_with."""
    data = yaml.safe_load(doc)
    if position == "task_id":
        return data["task_id"]
    if position == "template_id":
        return data["generated_from"]["template_id"]
    if position == "intent":
        return data["generated_from"]["kg_query"]["intent"]
    if position == "test_cmd":
        return data["verification"]["test_cmd"][0]
    if position == "role":
        return data["solution_artifacts"][0]["role"]
    (key,) = data["difficulty_signals"]
    return key


# --- golden vectors ----------------------------------------------------------


GOLDEN_NAMES: Final = ("documented-example.yaml", "r2-contract-sidecar.yaml")


@pytest.mark.parametrize("name", GOLDEN_NAMES)
def test_golden_vector_remarshals_byte_identically(name: str) -> None:
    raw = (GOLDEN / name).read_bytes()
    assert _emit.marshal(spec_from_plain(yaml.safe_load(raw))) == raw


def test_base_doc_is_what_go_writes() -> None:
    # Every table case below is spliced into this document.
    assert _emit.marshal(base_spec()) == BASE_DOC.encode()


# --- the scalar table ----------------------------------------------------------


def test_tables_are_complete() -> None:
    assert (len(SCALARS), len(FIXED), len(KEY_ORDERS), len(KEY_FIXED)) == (863, 17, 32, 9)
    assert {position for _, position, _ in SCALARS} == set(POSITIONS)


@pytest.mark.parametrize(("text", "position", "fragment"), SCALARS)
def test_scalar_is_written_as_yaml_v3_writes_it(text: str, position: str, fragment: str) -> None:
    spec, expected = doc_with(text, position)
    assert _emit.marshal(spec).decode() == expected(fragment)


@pytest.mark.parametrize(("text", "position", "ours", "go"), FIXED)
def test_round_trip_fix_differs_from_go_and_reads_back(
    text: str, position: str, ours: str, go: str
) -> None:
    spec, expected = doc_with(text, position)
    written = _emit.marshal(spec).decode()
    assert written == expected(ours)
    assert ours != go
    assert read_back(written, position) == text


def _fix_kind(text: str, position: str, ours: str) -> str:
    if text == "<<":
        return "merge-key"
    if text.startswith("\t"):
        return "tab-first-literal"
    assert "|2" in ours, ours
    return "indicator-in-sequence-item" if position == "test_cmd" else "indicator-in-item-mapping"


def test_every_fix_is_a_listed_deviation() -> None:
    kinds = {_fix_kind(text, position, ours) for text, position, ours, _ in FIXED}
    assert kinds == set(_emit.ROUND_TRIP_FIXES)


def test_round_trip_fixes_read_back_in_yaml_v3(go: GoConsumer) -> None:
    """Go's own decoder reads the fixed bytes back, and not Go's bytes."""
    for text, position, ours, go_bytes in FIXED:
        _, expected = doc_with(text, position)
        mine = go.decode(expected(ours).encode())
        assert mine["ok"], (text, position, mine)
        theirs = go.decode(expected(go_bytes).encode())
        assert not theirs["ok"], (text, position)


# --- map keys --------------------------------------------------------------------


def check_written_in(order: list[str]) -> None:
    """The keys of *order*, given in any order, are sorted and written in it."""
    for shuffled in (order[::-1], sorted(order), random.Random(7).sample(order, len(order))):
        assert _keyorder.sort_keys(shuffled) == order
        spec = base_spec()
        for i, key in enumerate(shuffled):
            spec.difficulty_signals[key] = i
        written = yaml.safe_load(_emit.marshal(spec))["difficulty_signals"]
        assert list(written) == order


@pytest.mark.parametrize("order", KEY_ORDERS, ids=lambda o: ",".join(map(ascii, o)))
def test_signal_keys_follow_yaml_v3_order(order: list[str]) -> None:
    check_written_in(order)


def test_key_order_differs_from_byte_order() -> None:
    # SignalKeys() in Go is byte order; the YAML is not.
    assert sorted(["a9", "a10"]) == ["a10", "a9"]
    assert _keyorder.sort_keys(["a10", "a9"]) == ["a9", "a10"]


def test_cyclic_key_sets_are_written_deterministically() -> None:
    # yaml.v3's comparison overflows int64 on long digit runs and so can be
    # cyclic; Go's order then varies run to run. Ours must not.
    keys = ["9223372036854775808", "1ze3", "92\U0001e4d0"]
    less = _keyorder.key_less
    assert less(keys[0], keys[1]) and less(keys[1], keys[2]) and less(keys[2], keys[0])
    orders = {tuple(_keyorder.sort_keys(p)) for p in (keys, keys[::-1], keys[1:] + keys[:1])}
    assert len(orders) == 1


_GO_CLASSES: Final = """package main

import (
	"encoding/json"
	"os"
	"unicode"
)

// Prints the ranges of runes unicode.IsLetter and unicode.IsDigit accept.
func main() {
	out := map[string][][2]rune{}
	classes := map[string]func(rune) bool{"letters": unicode.IsLetter, "digits": unicode.IsDigit}
	for name, is := range classes {
		var ranges [][2]rune
		for r := rune(0); r <= unicode.MaxRune; r++ {
			if !is(r) {
				continue
			}
			if n := len(ranges); n > 0 && ranges[n-1][1] == r-1 {
				ranges[n-1][1] = r
			} else {
				ranges = append(ranges, [2]rune{r, r})
			}
		}
		out[name] = ranges
	}
	_ = json.NewEncoder(os.Stdout).Encode(out)
}
"""


def test_letters_and_digits_are_go_s_on_every_code_point(go: GoConsumer, tmp_path: Path) -> None:
    # yaml.v3's order turns on unicode.IsLetter and unicode.IsDigit, whose
    # Unicode version is Go's, not this Python's.
    if shutil.which("go") is None:
        pytest.skip("go is not installed")
    (tmp_path / "classes.go").write_text(_GO_CLASSES, encoding="utf-8")
    done = subprocess.run(
        ["go", "run", "classes.go"], cwd=tmp_path, capture_output=True, check=True, text=True
    )
    classes = json.loads(done.stdout)
    for name, is_class in (("letters", _keyorder._is_letter), ("digits", _keyorder._is_digit)):
        want = {cp for lo, hi in classes[name] for cp in range(lo, hi + 1)}
        differ = [cp for cp in range(0x110000) if is_class(chr(cp)) != (cp in want)]
        assert not differ, f"{name}: {len(differ)} code points differ, first U+{differ[0]:04X}"


def _cycle(keys: list[str]) -> tuple[str, str, str] | None:
    less = _keyorder.key_less
    for a, b, c in itertools.permutations(keys, 3):
        if less(a, b) and less(b, c) and less(c, a):
            return a, b, c
    return None


@pytest.mark.parametrize("order", KEY_FIXED, ids=lambda o: f"{len(o)}-keys")
def test_cyclic_key_sets_are_written_in_the_fixed_order(order: list[str]) -> None:
    # Each set really is cyclic (else the case would pin nothing), and the
    # writer gives the fixed order (which go/keyorder_test.go checks the Go
    # library against) from any order of the keys.
    assert _cycle(order) is not None
    check_written_in(order)


# --- fields, omitempty and empty collections -------------------------------------


def test_zero_spec_writes_required_fields_only() -> None:
    assert _emit.marshal(pb.TaskSpec()) == (
        b'task_spec_version: 0\ntask_id: ""\nlanguage: ""\ndifficulty: ""\n'
        b'generated_from:\n    kind: ""\nprompt: ""\nverification:\n    test_cmd: []\n'
    )


def test_kg_query_set_but_empty_is_braces() -> None:
    spec = pb.TaskSpec()
    spec.generated_from.kind = pb.GENERATED_KIND_KG_TEMPLATE
    spec.generated_from.kg_query.SetInParent()
    written = _emit.marshal(spec)
    assert b"generated_from:\n    kind: kg_template\n    kg_query: {}\nprompt" in written


def test_kg_query_unset_is_omitted_and_one_field_is_kept() -> None:
    spec = pb.TaskSpec()
    assert b"kg_query" not in _emit.marshal(spec)
    spec.generated_from.kg_query.seed_symbol = "s"
    assert b"    kg_query:\n        seed_symbol: s\nprompt" in _emit.marshal(spec)


def test_int64_extremes_and_omitted_zero() -> None:
    spec = pb.TaskSpec(task_spec_version=-(2**63))
    spec.difficulty_signals.update({"max": 2**63 - 1, "min": -(2**63), "zero": 0})
    spec.verification.test_cmd.append("t")
    spec.verification.timeout_seconds = 2**63 - 1
    assert _emit.marshal(spec) == (
        b'task_spec_version: -9223372036854775808\ntask_id: ""\nlanguage: ""\ndifficulty: ""\n'
        b"difficulty_signals:\n    max: 9223372036854775807\n    min: -9223372036854775808\n"
        b'    zero: 0\ngenerated_from:\n    kind: ""\nprompt: ""\nverification:\n'
        b"    test_cmd:\n        - t\n    timeout_seconds: 9223372036854775807\n"
    )
    spec.verification.timeout_seconds = 0
    assert b"timeout_seconds" not in _emit.marshal(spec)
    spec.verification.timeout_seconds = -1
    assert _emit.marshal(spec).endswith(b"    timeout_seconds: -1\n")


def test_artifacts_keep_empty_path_and_drop_empty_role() -> None:
    spec = pb.TaskSpec()
    spec.solution_artifacts.add(path="", role="")
    spec.solution_artifacts.add(path="", role="r")
    assert b'solution_artifacts:\n    - path: ""\n    - path: ""\n      role: r\n' in (
        _emit.marshal(spec)
    )


def test_build_cmd_omitted_when_empty_and_test_cmd_never() -> None:
    spec = pb.TaskSpec()
    spec.verification.build_cmd.append("make")
    assert _emit.marshal(spec).endswith(
        b"verification:\n    build_cmd:\n        - make\n    test_cmd: []\n"
    )


def test_unspecified_enums_are_empty_strings() -> None:
    written = _emit.marshal(pb.TaskSpec())
    assert b'language: ""\ndifficulty: ""\n' in written
    assert b'    kind: ""\n' in written


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (lambda s: setattr(s, "language", 77), "language"),
        (lambda s: setattr(s, "difficulty", -1), "difficulty"),
        (lambda s: setattr(s.generated_from, "kind", 3), "generated_from.kind"),
    ],
)
def test_unknown_enum_number_is_an_error_naming_the_field(
    mutate: Callable[[pb.TaskSpec], None], path: str
) -> None:
    spec = base_spec()
    mutate(spec)
    with pytest.raises(TaskSpecError) as err:
        _emit.marshal(spec)
    assert err.value.field_path == path
    assert path in str(err.value)


def test_output_is_utf8_bytes_with_raw_bmp_text() -> None:
    spec = base_spec()
    spec.task_id = "\u4e2d\u6587 \xe9"
    written = _emit.marshal(spec)
    assert isinstance(written, bytes)
    assert "task_id: \u4e2d\u6587 \xe9\n".encode() in written


# --- differential check against Go (skipped without Go) ----------------------------


def _random_text(rng: random.Random) -> str:
    atoms = [*"ab09 -?:#'\"\t\n", "\r\n", "\u2028", "\x85", "\xa0", "\ufeff", "\x00", "\U0001f600"]
    atoms += ["yes", "null", "0x1F", "1e3", "2001-12-14", "1:20", "<<", "- ", ": ", " #", "---"]
    return "".join(rng.choice(atoms) for _ in range(rng.randint(0, 8)))


def test_random_specs_match_go(go: GoConsumer) -> None:
    """A fixed-seed sample of the differential fuzzing this writer was built with."""
    rng = random.Random(20260629)
    specs = []
    for _ in range(300):
        spec = base_spec()
        for position in POSITIONS:
            if rng.random() < 0.5:
                POSITIONS[position][0](spec, _random_text(rng))
        specs.append(spec)
    results = go.batch([{"op": "marshal", "spec": spec_to_json(s)} for s in specs])
    for spec, res in zip(specs, results, strict=True):
        assert res["ok"], res
        if res["roundtrip_ok"]:
            assert _emit.marshal(spec) == res["yaml"]
        else:  # yaml.v3 cannot read its own bytes: we must differ, and be readable
            ours = _emit.marshal(spec)
            assert ours != res["yaml"]
            assert go.decode(ours)["ok"]


# --- generated specs: Go as the oracle, and a Python-only check ---------------------


def test_generated_specs_are_written_as_yaml_v3_writes_them(go: GoConsumer) -> None:
    """Byte for byte Go's, unless yaml.v3 cannot read its own bytes back; Go reads ours."""
    specs = generated_corpus()
    ours = [_emit.marshal(spec) for spec in specs]
    marshalled = go.batch([{"op": "marshal", "spec": spec_to_json(s)} for s in specs])
    decoded = go.parse_all(ours)
    failures = []
    for spec, data, res, back in zip(specs, ours, marshalled, decoded, strict=True):
        assert res["ok"], res
        if not back["ok"] or spec_from_json(back["spec"]) != spec:
            failures.append(f"Go reads {data!r} as {back}")
        elif not order_is_total(spec.difficulty_signals):
            continue  # Go's own key order changes from run to run
        elif res["roundtrip_ok"] and data != res["yaml"]:
            failures.append(f"{spec_to_json(spec)}:\n  ours {data!r}\n  Go's {res['yaml']!r}")
        elif not res["roundtrip_ok"] and data == res["yaml"]:
            failures.append(f"copies bytes yaml.v3 cannot read back: {data!r}")
    assert not failures, "\n".join(failures[:10])


_PYYAML_STYLES: Final = {
    None: Style.PLAIN,
    "'": Style.SINGLE_QUOTED,
    '"': Style.DOUBLE_QUOTED,
    "|": Style.LITERAL,
}


def written_styles(
    msg: Any, node: yaml.MappingNode, info: MessageInfo
) -> Iterator[tuple[str, bool, Style]]:
    """(string, is a map key, style written) for every string of ``msg`` in ``node``.

    ``node`` is PyYAML's composition of the written document; it is walked
    by the descriptors beside the message, so each scalar is paired with
    the string it was written from.
    """
    nodes = {key.value: value for key, value in node.value}
    for fi in info.fields:
        value = getattr(msg, fi.name)
        child = nodes.get(fi.name)
        if child is None:
            continue  # omitted
        if fi.kind is Kind.STRING:
            yield value, False, _PYYAML_STYLES[child.style]
        elif fi.kind is Kind.ENUM:
            assert fi.enum is not None
            yield fi.enum.to_string[value], False, _PYYAML_STYLES[child.style]
        elif fi.kind is Kind.MESSAGE and isinstance(child, yaml.MappingNode):
            assert fi.message is not None
            yield from written_styles(value, child, fi.message)
        elif fi.kind is Kind.STRING_LIST:
            for s, item in zip(value, child.value, strict=True):
                yield s, False, _PYYAML_STYLES[item.style]
        elif fi.kind is Kind.MESSAGE_LIST:
            assert fi.message is not None
            for sub, item in zip(value, child.value, strict=True):
                yield from written_styles(sub, item, fi.message)
        elif fi.kind is Kind.INT_MAP:
            for (key, _), (key_node, _) in zip(
                _keyorder.sorted_items(value), child.value, strict=True
            ):
                yield key, True, _PYYAML_STYLES[key_node.style]


def test_generated_specs_read_back_and_use_the_selected_style() -> None:
    """Without Go: every spec reads back, and every string is in select_style's style."""
    seen: set[tuple[bool, Style]] = set()
    for spec in generated_corpus():
        data = _emit.marshal(spec)
        assert taskspec.parse_task_spec(data) == spec, data
        root = yaml.compose(data.decode("utf-8"))
        assert isinstance(root, yaml.MappingNode)
        for text, key, style in written_styles(spec, root, TASK_SPEC):
            facts = analyze(text)
            simple = key and is_simple_key(text, facts)
            assert style is select_style(facts, simple_key=simple), (text, key, data)
            seen.add((key, style))
    # The corpus is big enough to exercise every style of a value.
    assert {style for key, style in seen if not key} == set(Style)
