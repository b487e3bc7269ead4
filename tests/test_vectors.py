"""The vector set itself: reproducible from its seed, complete, and covering the hard cases."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from taskspec._limits import INT64_MAX, INT64_MIN
from tests.conformance import generate, handwritten
from tests.conformance.gobridge import GoConsumer
from tests.conformance.paths import CONFORMANCE_DIR, ROOT
from tests.conformance.specs import order_is_total
from tests.helpers import VALID_DOC
from tests.vectors import CLASSES, VECTORS_DIR, load


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def test_regenerating_with_the_seed_reproduces_every_byte(go: GoConsumer, tmp_path: Path) -> None:
    counts = generate.generate(go, tmp_path, generate.DEFAULT_SEED)
    fresh, committed = _tree(tmp_path), _tree(VECTORS_DIR)
    assert sorted(fresh) == sorted(committed), set(fresh) ^ set(committed)
    changed = [name for name in fresh if fresh[name] != committed[name]]
    assert not changed, f"run `make vectors` and review the diff: {changed[:10]}"
    assert counts == {kind: len(load(kind)) for kind in CLASSES}


def test_every_document_is_listed_once_in_its_manifest() -> None:
    for kind in CLASSES:
        on_disk = sorted(p.name for p in (VECTORS_DIR / kind).glob("*.yaml"))
        listed = [v.file for v in load(kind)]
        assert sorted(listed) == on_disk, kind
        assert len(set(listed)) == len(listed), kind


def test_the_hand_written_vectors_are_their_sources_as_written() -> None:
    """Without Go: sources/ and the vectors agree, so no source edit awaits `make vectors`."""
    for kind in ("rejected", "accepted"):
        sources = handwritten.load(kind)
        vectors = load(kind)
        assert [f"{d.name}.yaml" for d in sources] == [v.file for v in vectors], kind
        for doc, vector in zip(sources, vectors, strict=True):
            assert doc.data == vector.data, vector.name
            assert doc.note == vector.note, vector.name
            if kind == "rejected":
                assert doc.stage == vector.meta["go_stage"], vector.name


def test_the_tests_base_document_is_the_accepted_base_vector() -> None:
    base = next(v for v in load("accepted") if v.file == "base.yaml")
    assert handwritten.BASE == base.data == VALID_DOC


@pytest.mark.parametrize(
    ("manifest", "files", "message"),
    [
        ("- {name: a, stage: decode, note: n}\n", ["a", "b"], "unlisted documents ['b']"),
        ("- {name: a, stage: decode, note: n}\n", [], "missing documents ['a']"),
        (
            "- {name: a, stage: decode, note: n}\n- {name: a, stage: validate, note: m}\n",
            ["a"],
            "duplicate names ['a']",
        ),
        ("- {name: a, stage: parse, note: n}\n", ["a"], "unknown stage 'parse'"),
        ("- {name: a, note: n}\n", ["a"], "expected the keys name, stage, note"),
        ("- {name: a, stage: decode, note: n, extra: x}\n", ["a"], "expected the keys"),
        ("- {name: a, stage: decode, note: 1}\n", ["a"], "must be a non-empty string"),
        ("- {name: ../a, stage: decode, note: n}\n", ["a"], "cannot be a file stem"),
        ("{name: a, stage: decode, note: n}\n", ["a"], "expected a list of cases"),
    ],
)
def test_a_malformed_source_directory_is_refused(
    tmp_path: Path, manifest: str, files: list[str], message: str
) -> None:
    directory = tmp_path / "rejected"
    directory.mkdir()
    (directory / handwritten.MANIFEST).write_text(manifest, encoding="utf-8")
    for name in files:
        (directory / f"{name}.yaml").write_bytes(VALID_DOC)
    with pytest.raises(ValueError, match=re.escape(message)):
        handwritten.load("rejected", tmp_path)


def test_a_source_directory_is_read_in_manifest_order(tmp_path: Path) -> None:
    directory = tmp_path / "accepted"
    directory.mkdir()
    (directory / handwritten.MANIFEST).write_text(
        "# comments are allowed\n- {name: z, note: last file}\n- {name: a, note: '2'}\n",
        encoding="utf-8",
    )
    (directory / "z.yaml").write_bytes(b"z\r\n")
    (directory / "a.yaml").write_bytes(b"")
    assert handwritten.load("accepted", tmp_path) == (
        handwritten.Doc("z", "last file", b"z\r\n"),
        handwritten.Doc("a", "2", b""),
    )


def test_each_class_has_enough_vectors() -> None:
    assert len(load("canonical")) >= 300
    assert len(load("rejected")) >= 60
    assert len(load("accepted")) >= 30
    assert len(load("roundtrip_bugs")) >= 3


def test_rejected_vectors_cover_both_stages_and_every_validate_rule() -> None:
    errors = [str(v.meta["go_error"]) for v in load("rejected")]
    stages = {v.meta["go_stage"] for v in load("rejected")}
    assert stages == {"decode", "validate"}
    for message in (
        "eval: unsupported task_spec_version",
        "eval: task_id is required",
        "eval: invalid language",
        "eval: invalid difficulty",
        "eval: invalid generated_from.kind",
        "eval: prompt is required",
        "eval: verification.test_cmd is required",
        "eval: verification.timeout_seconds must be non-negative",
        "not found in type",
        "already defined at line",
        "cannot unmarshal",
        "tab character",
        "excessive aliasing",
        "EOF",
    ):
        assert any(e.startswith(message) or message in e for e in errors), message


def _strings(spec: Mapping[str, Any]) -> Iterator[str]:
    gen = spec["generated_from"]
    yield from (spec["task_id"], spec["prompt"], gen["template_id"])
    if gen["kg_query"] is not None:
        yield from (gen["kg_query"]["intent"], gen["kg_query"]["seed_symbol"])
    for artifact in spec["solution_artifacts"]:
        yield from (artifact["path"], artifact["role"])
    yield from spec["verification"]["build_cmd"]
    yield from spec["verification"]["test_cmd"]
    yield from spec["difficulty_signals"]


def test_canonical_vectors_carry_the_hard_strings() -> None:
    specs = [v.meta["spec"] for v in load("canonical")]
    strings = {s for spec in specs for s in _strings(spec)}
    keys = {k for spec in specs for k in spec["difficulty_signals"]}
    required = [
        *(
            form
            for w in ("y", "n", "yes", "no", "on", "off", "true", "false")
            for form in (w, w.upper(), w.capitalize())
        ),
        *("null", "Null", "NULL", "~", ""),
        *("0x1F", "1e3", "1.50", "0o17", "017", "2001-12-14", "1:20", ".inf", ".NaN"),
        *(" x", "x ", " ", "- x", ": x", "x: y", "x #y", "#x", "&a", "*a", "!x", "|", ">"),
        *("'", '"', "%x", "@x", "`x`", "[a]", "{a: b}", "? x", "<<", "---", "..."),
        *("a\nb", "a\nb\n", "a\nb\n\n", "a\n", "\n", "a \nb", "x\t"),
        *("a\r\nb", "a\rb", "a\u2028b", "a\x85b", "a\xa0b", "\ufeffa", "\x00", "\x07"),
        *("\U0001f600", "\u6f22\u5b57"),
    ]
    missing = [s for s in required if s not in strings]
    assert not missing, missing
    for needle in ("\t", "\r\n", "\u2028", "\x85", "\xa0", "\ufeff", "\x1b", "\U0001f600"):
        assert any(needle in s for s in strings), repr(needle)
    assert any(len(s) >= 5000 for s in strings)
    for key in ("a9", "a10", "9", "10", "09", "a", "A", "_", "", "~", "k" * 129):
        assert key in keys, key
    values = {n for spec in specs for n in spec["difficulty_signals"].values()}
    assert {INT64_MIN, INT64_MAX} <= values
    assert INT64_MAX in {spec["verification"]["timeout_seconds"] for spec in specs}


def test_canonical_vectors_cover_every_block_shape() -> None:
    docs = b"".join(v.data for v in load("canonical"))
    for shape in (
        b"kg_query: {}\n",
        b"    test_cmd:\n        - ",
        b": |-\n",
        b": |\n",
        b": |+\n",
        b"- |-\n",
        b"- |4+\n",
        b"solution_artifacts:\n    - path: ",
        b'    "": ',
        b"    ? ",
        b'"\\t',
    ):
        assert shape in docs, shape
    specs = [v.meta["spec"] for v in load("canonical")]
    assert any(s["generated_from"]["kg_query"] is None for s in specs)
    assert any(not s["solution_artifacts"] and not s["difficulty_signals"] for s in specs)
    assert any(s["verification"]["timeout_seconds"] == 0 for s in specs)


def test_yaml_v3_key_order_is_partial_for_overflowing_and_non_ascii_digits() -> None:
    """Why some signal key sets are kept out of the canonical vectors.

    yaml.v3 compares digit runs as int64 (which overflows) and any Unicode
    digit as ord(d) - 48, so its Less can be cyclic; sort.Sort then depends
    on Go's random map order and MarshalYAML is not reproducible.
    """
    assert order_is_total(["a9", "a10", "a09", "9", "10", "_", "A", "a"])
    assert not order_is_total(["99999999999999999999", "9 ", "10"])  # overflow
    assert not order_is_total(["1\u0663\u0663", "\u0663\u0663 ", "\u066391"])  # digits


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_bytes(), str(path))
    names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return names


def test_the_generator_depends_only_on_the_library_and_its_own_modules() -> None:
    """tests/conformance/ never imports the tests above it, nor scripts/."""
    for path in sorted(CONFORMANCE_DIR.glob("*.py")):
        outside = {
            name
            for name in _imports(path)
            if name.split(".")[0] in ("tests", "scripts")
            and not name.startswith("tests.conformance")
        }
        assert not outside, (path.name, outside)


def test_scripts_and_tests_do_not_import_each_other() -> None:
    for path in sorted((ROOT / "scripts").glob("*.py")):
        assert not {n for n in _imports(path) if n.split(".")[0] == "tests"}, path.name
    for path in sorted((ROOT / "tests").rglob("*.py")):
        assert not {n for n in _imports(path) if n.split(".")[0] == "scripts"}, path.name
