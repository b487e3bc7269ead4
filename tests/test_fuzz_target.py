"""The fuzz target's properties hold on its seeds, and it catches what it should.

``make fuzz`` needs atheris; these tests run the same checks
(:func:`tests.fuzz.fuzz_parse.check`) without it, over every seed and every
input that once escaped the exception family.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from taskspec import TaskSpec, _api
from taskspec.bridge import _decode
from tests.conformance.gobridge import GoConsumer
from tests.fuzz import fuzz_diff, fuzz_parse
from tests.test_hostile import ESCAPES


def test_every_seed_keeps_the_promises() -> None:
    names = []
    for name, data in fuzz_parse.seeds():
        fuzz_parse.check(data)
        names.append(name)
    assert len(names) > 1000
    assert any(n.startswith("accepted-") for n in names)
    assert any(n.startswith("rejected-") for n in names)


@pytest.mark.parametrize("doc", ESCAPES.values(), ids=ESCAPES.keys())
def test_inputs_that_once_escaped_keep_the_promises(doc: bytes) -> None:
    fuzz_parse.check(doc)


def test_a_stray_exception_is_not_swallowed(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(data: object) -> object:
        raise OverflowError("planted")

    monkeypatch.setattr(_decode, "decode", broken)
    with pytest.raises(OverflowError, match="planted"):
        fuzz_parse.check(b"task_spec_version: [\n")


def test_a_round_trip_that_changes_the_spec_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    seed = next(data for name, data in fuzz_parse.seeds() if name.startswith("canonical-"))
    real = _api.marshal_yaml

    def lossy(spec: TaskSpec) -> bytes:
        return real(spec).replace(b"task_id: ", b"task_id: x", 1)

    monkeypatch.setattr(fuzz_parse, "_marshal", lossy)
    with pytest.raises(AssertionError, match="reads back differently"):
        fuzz_parse.check(seed)


def test_the_seed_corpus_is_built_from_the_vectors(tmp_path: Path) -> None:
    count = fuzz_parse.build_seed_corpus(tmp_path / "seeds")
    files = sorted((tmp_path / "seeds").iterdir())
    assert count == len(files) == len(list(fuzz_parse.seeds()))
    assert not any(f.name.startswith(".") for f in files)
    assert fuzz_parse.build_seed_corpus(tmp_path / "seeds") == count  # idempotent


def test_the_dictionary_parses_as_libfuzzer_reads_it() -> None:
    entries = [
        line
        for line in fuzz_parse.DICTIONARY.read_text(encoding="ascii").splitlines()
        if line and not line.startswith("#")
    ]
    assert len(entries) > 50
    for entry in entries:
        assert entry.startswith('"') and entry.endswith('"') and len(entry) > 2, entry


# -- the differential target ----------------------------------------------------


def test_the_libraries_agree_on_every_seed_and_escape(go: GoConsumer) -> None:
    count = 0
    for _, data in fuzz_parse.seeds():
        fuzz_diff.check(data, go)
        count += 1
    for doc in ESCAPES.values():
        fuzz_diff.check(doc, go)
    assert count > 1000


def test_the_libraries_agree_on_every_vector_written_as_json(go: GoConsumer) -> None:
    """The differential target's JSON seeds: problems, and the message read, the same."""
    seeds = dict(fuzz_diff.json_seeds())
    for data in seeds.values():
        fuzz_diff.check_json(data, go)
    assert len(seeds) > 500


def test_a_different_json_reading_is_caught(
    go: GoConsumer, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = fuzz_diff._problems

    def moved(data: bytes, fmt: str = "yaml") -> list[dict[str, Any]]:
        problems = real(data, fmt)
        return [{**p, "column": p["column"] + 1} for p in problems] if fmt == "json" else problems

    monkeypatch.setattr(fuzz_diff, "_problems", moved)
    with pytest.raises(AssertionError, match="JSON problems differ"):
        fuzz_diff.check_json(b'{"taskId": t}', go)


def _hostile_corpus(tmp: Path) -> dict[str, bytes]:
    """The cases of ``make hostile`` (scripts/hostile.py) under 4 MiB, by name."""
    script = Path(__file__).resolve().parent.parent / "scripts" / "hostile.py"
    subprocess.run([sys.executable, str(script), "--write", str(tmp)], check=True)
    names = json.loads((tmp / "names.json").read_text(encoding="utf-8"))
    return {name: (tmp / file).read_bytes() for file, name in names.items()}


def test_the_libraries_agree_on_the_hostile_corpus(go: GoConsumer, tmp_path: Path) -> None:
    """Budgets, large mappings, aliases: the same outcome, and the same refusal word for word."""
    corpus = _hostile_corpus(tmp_path)
    for data in corpus.values():
        fuzz_diff.check(data, go)
    assert len(corpus) >= 15


def test_a_different_refusal_is_caught(
    go: GoConsumer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    doc = _hostile_corpus(tmp_path)["100,001 test_cmd items"]
    real = fuzz_diff._problems

    def moved(data: bytes, fmt: str = "yaml") -> list[dict[str, Any]]:
        problems = real(data, fmt)
        if fmt != "yaml":
            return problems
        assert problems and problems[0]["code"] == "TS006", problems
        return [{**problems[0], "line": problems[0]["line"] + 1}, *problems[1:]]

    monkeypatch.setattr(fuzz_diff, "_problems", moved)
    with pytest.raises(AssertionError, match="problems differ"):
        fuzz_diff.check(doc, go)


#: Inputs on which the libraries once disagreed, with what they said.
DISAGREED: dict[str, bytes] = {
    # Python refused the encoding; Go refused the depth of the text before
    # the bad byte, which it parsed first.
    "deep nesting before a byte that is not UTF-8": (
        b"task_spec_version: 1\nx: " + b"[" * 2000 + b"\nprompt: \xff\n"
    ),
    # A %YAML 1.2 directive and a byte that is not UTF-8 further down: Go
    # refused the directive first, Python the encoding, before any YAML.
    "a YAML 1.2 directive, then a byte that is not UTF-8": (
        b"%YAML 1.2\n---\ntask_id: x\nprompt: \xa6\n"
    ),
    # Two byte order marks, then a byte that is not UTF-8: the marks first.
    "two byte order marks, then a byte that is not UTF-8": (
        b"\xef\xbb\xbf\xef\xbb\xbftask_id: x\nprompt: \xbc\n"
    ),
    # An anchored task_id aliased as a signal value, which the signal
    # refuses: Go pruned the anchored value from task_id too.
    "an anchored value refused where an alias puts it": (
        b"task_spec_version: 1\ntask_id: &a t1\ndifficulty_signals:\n    n: *a\n"
    ),
    # A '?' in a key of the top mapping written in flow style: the mapping
    # is not read, so no rule is reported (Go read the other entries).
    "a '?' in a key of a flow root": b"{task_id: t, p?ompt: x}\n",
    # A signal key set yaml.v3 orders differently from one Marshal to the
    # next, beside a string whose block header the Go writer fixes: the
    # writer could not locate the string's rendering.
    "a cyclic signal key set beside a string the Go writer fixes": (
        b"task_spec_version: 1\ntask_id: t\nlanguage: go\ndifficulty: medium\n"
        b'difficulty_signals:\n    _: 1\n    _A: 2\n    "9": 3\n'
        b'    900000000000000000000000000000000\xc3\xa9aZ: 4\n    kg_edges: 5\n    "true": 6\n'
        b"generated_from:\n    kind: kg_template\nprompt: p\nsolution_artifacts:\n"
        b'    - path: "\\n?\\t\\n|\\0!Za@&!"\nverification:\n    test_cmd: [go]\n'
    ),
    # A plain "<<" as the whole document: Python called it "the merge".
    "a merge key's spelling as the root value": b"<<\n",
    # Missing keys and an enum spelt wrong further down: Go's Check put
    # Validate's first broken rule in front, where only ParseYAML's error does.
    "missing keys before an unknown enum value": (
        b"task_spec_version: 1\ntask_id: t\nlanguage: python\ndifficulty: harx\n"
    ),
    # Text after the first document with no marker: Go gave no line.
    "text after a flow mapping": b"{}\n0x",
    "text after a flow mapping on its line": b"{}t",
    # YAML's non-specific tag makes the empty document a string; yaml.v3
    # reads it as null, an empty spec that only Validate refused.
    "the non-specific tag alone": b"!",
    # Python quoted the first 80 characters of a long value; Go all of it.
    "a 300-digit fraction": b"task_spec_version: 1" + b"0" * 300 + b".5\n",
    "a 300-digit negative number": b"task_spec_version: -" + b"0" * 300 + b"1e400\n",
    "the non-specific tag after a marker": b"--- !",
    "indented text after a flow mapping": b"{}\n  t",
    # The closing brace on a line of its own belongs to the first document.
    "text after a closing brace on its own line": b"{a: [b,\n c]\n}\nx",
    # libyaml fails on the text after "{}"; yaml.v3 reads "{}", then fails:
    # a syntax error in both, not a second document.
    "a mapping's key right after a flow mapping": b"{}a: 1\nb: 2\n",
    # An empty value last: yaml.v3 places it past the next document's
    # directive, where libyaml starts that document.
    "a directive after an empty value": b"a:\n%YAML 1.2\n---\nb: 2\n",
    # yaml.v3 reads the first document without reaching the bad byte after it.
    "a byte that is not UTF-8 after the first document": b"a: 1\n...\n\xff\n",
    # The same for a control character, which libyaml's reader refuses.
    "a control character after the first document": b"a: 1\n---\nb: \x1e\n",
    # "!" alone in an integer field: libyaml reads the empty string.
    "the non-specific tag alone in an integer field": b"task_spec_version: !\n",
    # A quoted "~" is the string "~", whatever its tag: not null, not an empty spec.
    "the non-specific tag on a quoted tilde": b'! "~"',
    "a quoted tilde in a list, tagged": b'verification: {test_cmd: [! "~"]}\n',
    # !!null on text that is not null: yaml.v3 refuses it; it is no empty spec.
    "!!null on a digit": "!!null \u0660".encode(),
    "!!null on a word in a list": b"verification: {test_cmd: [!!null x]}\n",
    # !!null on null text quoted or as a block scalar is null to both
    # parsers; Go took it for a value of the wrong type.
    "!!null on an empty block scalar at the top": b"!!null >",
    "!!null on an empty quoted value for a mapping": b"verification: !!null ''",
    # An integer tagged !!float is read as an integer (a leading 0 makes it
    # octal), then through float64: Go read the text as decimal and refused
    # it, and said nothing of one past the range of any Go integer.
    "!!float on an octal integer": b"difficulty_signals:\n    v: !!float 00000001040244261\n",
    "!!float on an integer past uint64": (
        b"verification:\n    timeout_seconds: !!float 99999999999999999999999\n"
    ),
    "!!float on an integer past int64": (
        b"difficulty_signals:\n    v: !!float 10402442611111111111\n"
    ),
    # An artifact refused whole for a '?' yaml.v3 cannot read stays in the
    # list as an empty one, whose empty path is warned about, in both.
    "an artifact refused for a '?', then read as an empty one": (
        b"{task_spec_version: 0, task_id: t-1, language: python, difficult\\Nthony,"
        b" difficulty_signals: {b: 2, a: 1}, generated_from: {kind: benchmark_seed,"
        b" kg_query: {intent: i}}, prompt: Do it., solution_artifacts: [{path: a.py},"
        b" {path: b.py, role: tes? t}], verification: {test_cmd: [pytest, -q]}}"
    ),
    # "? !": the empty string as a key, which yaml.v3 reads as a null key.
    "the non-specific tag alone as a key": b"? !",
    "the non-specific tag alone as a nested key": b"verification:\n  ? !\n  : 1\n",
    # An exponent big.Rat will not take; float64 holds the value as 0.
    "a tiny number with a huge exponent": (
        b"task_spec_version: 10000000000000000000001e-9999990000000"
    ),
    # One past Decimal's range too.
    "a tiny number with a huger exponent": b"task_spec_version: 1e-" + b"9" * 60,
    # Python's reader refused the NUL, 16 KiB ahead of its parser; Go
    # refused the depth first.
    "deep nesting before a NUL": b"a: " + b"[" * 1200 + b"\nb: \x00\n",
    # libyaml's scanner reads ahead of its parser (up to 1024 characters,
    # and the token after the end of the line), so whether Python met a
    # syntax error past the 65th level before the level depended on the
    # layout; Go guessed the lookahead. Both now report the first in the text.
    "deep nesting, then a bad tag on its line": b"a: " + b"[" * 1200 + b" !<x",
    "deep nesting, then a bad tag on the next line": (
        b"#" + b"-" * 1001 + b"\na: " + b"[" * 70 + b"\n !<x\n"
    ),
    "deep nesting, then a tag running into a bracket on the next line": (
        b"#" + b"-" * 1001 + b"\na: " + b"[" * 70 + b"\n !b]\n"
    ),
    "deep nesting, then a scalar ending in ':' 1025 characters on": (
        b"a: " + b"[" * 1087 + b" x:]\n"
    ),
    "a scalar ending in ':' in [], then deep nesting on its line": (
        b"#" + b"-" * 1001 + b"\na: [x:, " + b"[" * 66 + b" x\n  y:[\n"
    ),
    # libyaml ends a tag at '[', ']' or ',' and fails; yaml.v3 reads them
    # into the tag, and Go refused the tag as unsupported.
    "a tag running into brackets": b"task_spec_version: 1\ntask_id: !c1hh" + b"[" * 250 + b"hh\n",
    "a tag running into a closing bracket, after an anchor": b"task_id: &a !a] b\n",
    "a tag running into a comma outside []": b"task_id: !a,b c\n",
    "a key's tag running into a bracket": b"? !a[ x\n: y\n",
    "a tag running into a bracket after a colon in []": b"verification: {test_cmd: [a:, !b[ c]}\n",
    # A handle with nothing after it ("!!"): libyaml finds no tag URI, where
    # Go said the tag did not end in a space.
    "a handle running into a comma": b"task_spec_version: 1\ntask_id: !!,!,null   _ ",
    "a handle running into a comma in []": b"verification: {test_cmd: [!!, x]}\n",
    # Inside [] libyaml ends the tag at the comma, on an empty item; yaml.v3
    # gave the longer tag to the next item.
    "a tag running into a comma in []": b"verification: {test_cmd: [!!str, go]}\n",
    "the non-specific tag running into a comma": b"verification: {test_cmd: [!, go]}\n",
    "a tag running into a comma before a sequence": b"verification: {test_cmd: !a, [b]}\n",
    "a tag running into a comma, then into a bracket": b"verification: {test_cmd: [!a, !b] c]}\n",
    # libyaml fails past the comma, where yaml.v3 reads a key: the tag comes first.
    "a tag running into a comma before a colon": b"difficulty_signals: {!a, : 1}\n",
    # A syntax error before the 65th level in the text: Python's bound scan
    # met it, and Go refused the depth. After the level, the level is what
    # both refuse.
    "a colon ending a scalar in [] before deep nesting": b"a: [b:, " + b"[" * 1200 + b"\n",
    "a tag running into a bracket after deep nesting": b"a: " + b"[" * 1200 + b" !b]\n",
    # An anchor on an empty key, then a tag on the value: Go read the tag as
    # the key's, a string, not null.
    "an anchor on an empty key, then a tag": b"task_spec_version: 1\n&ask_id: !c1hhhh\n",
    "an anchor and a comment, then a tag": b"? &a # c\n  !t, x\n: 1\n",
    # The scalar ends in ':' on the line after the 65th level: which of the
    # two Python's scanner met first depended on the layout, and Go guessed.
    # Now the level, first in the text, is what both refuse.
    "a scalar in [] ending in ':' on the line after deep nesting": (
        b"#" + b"-" * 1001 + b"\na: " + b"[" * 66 + b" x\n  y:[\n"
    ),
    # Python quoted the scalar's lines as written; Go its value.
    "a scalar in [] over three lines, ending in ':'": (
        b"verification: {test_cmd: [a,\n  b  \n\n   c:, d]}\n"
    ),
    # Python refuses two byte order marks before anything else; Go left them
    # to yaml.v3, which read "?" after the second as a null key.
    "two byte order marks, then an empty key": b"\xef\xbb\xbf\xef\xbb\xbf?",
    # A long key: Python's message shows the path cut; the reasons agree.
    "a non-integral signal under a long key": (
        b"difficulty_signals:\n    '" + b"/" * 200 + b"': 66.260\n"
    ),
    # YAML has no escape \'; yaml.v3 reads an apostrophe, libyaml fails.
    "the escape \\' in a double-quoted string": (
        b'task_spec_version: 1\nprompt: "a\\\'b"\nlanguage: go\n'
    ),
    "the escape \\' after a scalar in [] ending in ':'": (
        b'verification: {test_cmd: [a:, "\\\'"]}\n'
    ),
    "the escape \\' after deep nesting": (
        b"#" + b"-" * 1001 + b"\na: [" + b"[" * 70 + b' "\\\'"\n'
    ),
    # An empty document with an anchor stands where the anchor is, not at
    # the next marker: Go named line 1 for the second document.
    "an anchored empty document, then a marker": b"&-\n---",
    # "!" alone where a list, a mapping or an item goes: the empty string to
    # YAML, null to yaml.v3, which Go accepted as absent or refused as a null item.
    "the non-specific tag alone as an item of messages": b"solution_artifacts:\n    - !\n",
    "the non-specific tag alone as an item of strings": b"verification:\n  test_cmd:\n  - !\n",
    "the non-specific tag alone for a message": b"task_spec_version: 1\ngenerated_from: !\n",
    "the non-specific tag alone for a list": b"verification:\n  test_cmd: !\n",
    "the non-specific tag alone for signals": b"difficulty_signals: !\n",
    # Text after a flow collection on its last line: libyaml fails there,
    # before the marker on a later line that Go named.
    "text after a flow mapping on its line, then a marker": b"{}p\n---\ne",
    "a key after a flow mapping on its line, then a marker": b"{}p- : &a d\nlid: &a\n---\ne",
    "a comma after a flow mapping on its line, then a marker": b"{}, p: 1\n---\ne",
    # An anchor, then line breaks YAML 1.1 has beyond CR and LF (NEL), then
    # "!": Go missed the tag after the NEL.
    "an anchor, a NEL, then the non-specific tag": b" &1t\r\xc2\x85!",
    # A token libyaml cannot scan after a flow mapping on its line: the
    # syntax error comes first, where Go saw a second document.
    "a tag running into a comma after a flow mapping": b"{}!,",
    "a character that starts no token after a flow mapping": b"{}@",
    # A byte order mark at a line start before deep nesting: libyaml skips it
    # as a space, which indents the key, and fails; Go refused the depth.
    "a byte order mark starting a key's line, then deep nesting": (
        b"task_spec_version: 1\n\xef\xbb\xbfprompt: x\n~: " + b"[" * 1200 + b"\n"
    ),
    # "? !" in the signals: the empty string to YAML, a null key that yaml.v3
    # skips; Python took the signal "".
    "the non-specific tag alone as a signal's key": b"difficulty_signals:\n ! : ",
    # A flow collection after the first one on its line: libyaml's scanner
    # reads into it before its parser finds the second document, and meets
    # a misread there; Go saw the second document.
    "a scalar ending in ':' in a flow sequence after a flow mapping": b"{}[a:, b]",
    "a tag running into a bracket after a flow mapping": b"{}[!a[ b]",
    "the escape \\' after a flow mapping": b'{}["\\\'"]',
    "a scalar ending in ':' on the next line after a flow mapping": b"{}[a,\n b:]",
    # An empty document's tag on a later line than its anchor belongs to it:
    # Go took the tag's line for the second document's.
    "an anchor, comments, then a tag, then a marker": b" &t\r#*m\r#g\xc2\x85!\n---",
    # A byte order mark after a NEL starts a line, which libyaml skips;
    # both libraries looked for one after CR and LF only.
    "a byte order mark after a NEL": b"{\xc2\x85\xef\xbb\xbf}",
    # A NEL breaks the line: Go counted lines at LF only, for the second document.
    "an anchored empty document, a NEL, then a marker": b"&-\xc2\x85---",
    "text after a flow mapping, after a NEL": b"{}\xc2\x850x",
    # Python quoted the text from the byte order mark's place.
    "a colon ending a scalar in [], after a byte order mark": (
        b"\xef\xbb\xbfverification: {test_cmd: [a:, b]}\n"
    ),
    # libyaml reads ahead past a flow collection that may be a key, and
    # fails on a misread there before it finds the second document; Go
    # found it only where the text there was a document of its own.
    "a colon ending a scalar in mismatched brackets after a flow mapping": b"{}{v, a:]",
    "a colon ending a scalar on the line after the one it starts": b"{}{v,\n a:]",
    "an escaped apostrophe read ahead": b'{}["\\\'", a]',
    "a tag ending at a bracket, read ahead": b"{}[!t]a]",
    # yaml.v3 reads less far ahead, so it did not meet the '|' libyaml
    # fails on, and Go saw the second document.
    "a character that cannot start a token, read ahead": b"{}{.,n{},.,{ |}\n",
    "an unclosed quote, read ahead": b"{}['a",
    # An empty value's properties may run on to the next line; the tag
    # there was the next key's, and Go took it for the value's "!".
    "an anchored empty value, then a tagged key": b"difficulty_signals:\n    c: &9\n    !a cmd:\n",
    "an anchored empty value, then a key tagged '!'": (
        b"difficulty_signals:\n    c: &9\n    ! cmd: 1\n"
    ),
    "an anchored empty value, then '!' on the next line": (
        b"difficulty_signals:\n    c: &9\n      !\n    d: 1\n"
    ),
    # libyaml starts a comment at '#' after '{' too; Go's bracket count
    # took the '{' in the comment for one, and the collection's end for
    # the next line's.
    "a comment right after an opening brace": b"{#e{#es\n} .30s\n} .30",
    "a comment right after a quoted scalar": b'["a"#[\n] x\n]',
    # libyaml's parser meets the ',' after the empty document's tag, on
    # the tag's line; Go looked for the next document on the lines after.
    "a comma after an empty document's tag on a later line": (
        b"&t\r#\r# \r#\xc2\x85! , !,_!,$: &a kcd\n\\g: &a pl%YAML2\n---\n/"
    ),
    "a comma after an empty document's anchor and tag": b"&t ! , x\ny",
    # A node has one anchor: Go took the second line's for the first
    # document's, and looked for the next document after it.
    "an anchored empty document, then another anchor": b"&a\n&a\nd: &a\n---",
    # yaml.v3 reads a tab-started line among comments with them; libyaml
    # fails on the tab.
    "a tab-started line between comments": b" &t\r###\r\t\r#e9\\99! , !,",
    "a tab-indented comment after a comment": b"task_id: x\n#c\n\t#d\nlanguage: go\n",
    # The Go library panicked: a byte order mark at a line start just past
    # where the text is cut at the depth bound, reached by the length of
    # the cut with its brackets closed.
    "a byte order mark just past the cut at the depth bound": (
        Path(__file__).parent / "data" / "fuzz" / "bom-at-depth-cut.yaml"
    ).read_bytes(),
    # Skipping a byte order mark at a line start, libyaml then fails on the
    # '%' after it; Go refused the mark.
    "a byte order mark, then '%', at a line start in []": (
        b"verification:\n  build_cmd: [a,\n\xef\xbb\xbf%b]\n"
    ),
    # Not in a block scalar, where such a line is text to both.
    "a tab after spaces in a block scalar, after a '#' line": (
        b"prompt: |\n  a\n  # x\n  \t\n  b\n"
    ),
    # Outside [] and {}, a comma is text, so "tcu,:" makes the mapping a
    # key; Go took the comma for an entry, ruling the key out.
    "a plain scalar with a comma then a colon after a flow mapping": b"{?,}tcu,:",
    "a quoted key with a comma after a flow mapping": b'{}"a,": 1',
    "a flow sequence key after a flow mapping": b"{}[a, b]: 1",
    # yaml.v3 ends a scalar at ": " too: the key "b:" of {b:: 2} is the
    # same to both readers, not a scalar ending in ':' that libyaml fails on.
    "a key ending in a colon in a flow mapping": (
        b"{task_spec_version: 1, task_id: t-1, language: python, difficulty: easy,"
        b" difficulty_signals: {b:: 2, a: 1}}"
    ),
    # Go looked for the next document from the line a quoted scalar starts
    # on, taking a line inside it that starts in column 1 for the next
    # document's start.
    "a double-quoted scalar over lines, then a marker": b'task_id: "foo\nbar"\n---\n',
    "a single-quoted scalar over lines, then a marker": b"task_id: 'foo\nbar' # c\n---\n",
    # Only a plain or block scalar goes on over indented lines: after an
    # anchored empty document or a flow root, an indented token starts the
    # next document, before the marker Go skipped to.
    "an anchored empty document, then an indented anchor": b"&a\n &a\n---",
    "a flow root, then an indented scalar": b"{}\n x\n---\n",
    "a quoted scalar over lines, then an indented scalar": b'"a\nb"\n x\n---\n',
    # A flow root ends at its closing bracket, past a plain scalar that goes
    # on over lines inside it: the lines after it start the next document.
    "a plain scalar over lines in a flow root, then a marker": b"{task_id: b\n c}\n---\n",
    "a plain scalar over lines in a flow root, then an indented scalar": (
        b"{task_id: b\n c}\n x\n---\n"
    ),
    "a flow root closed on a line of its own, then an indented scalar": (
        b"{task_id: b\n c\n}\n\n x\n---\n"
    ),
    # A bracket closes a flow collection of the first document only inside
    # a block collection; after an empty document, it starts the next.
    "an anchored empty document, then an indented bracket": b"&a\n ]\n---\n",
    "a flow root, then an indented bracket": b"{}\n ]\n---\n",
    # A tagged empty value's properties go on over lines ("!!str", then
    # " &b"): the next document starts after them.
    "a tagged empty value, then an anchor on the next line": b"task_id: !!str\n &b\n---\n",
    # An anchored empty key ("? &a") stands at its anchor, not at the next
    # token as an empty value with no properties does; Go took the line it
    # is on for text before the marker.
    "an anchored mapping whose key is an anchored empty node": b"&1\n\r? &a\n---",
    # A second document's directives: libyaml reads %YAML 1.2, where
    # yaml.v3 stops, and fails on a second %YAML or %TAG handle, on a %YAML
    # other than 1.1 or 1.2, and on a token other than "---" after them.
    "a second document's %YAML 1.3": b"task_id: x\n%YAML 1.3\n---",
    "a second document's %YAML 1.2, then another %YAML": b"task_id: x\n%YAML 1.2\n%YAML 1.1\n---",
    "a second document's %TAG handle given twice": (
        b"task_id: x\n%YAML 1.1\n%TAG ! !a\n%TAG ! !b\n---"
    ),
    "a second document's %YAML 1.2, then text": b"task_id: x\n%YAML 1.2\nx",
    "a second document's %YAML 1.2 at the end of the text": b"task_id: x\n%YAML 1.2",
    "a directive, then a line yaml.v3 reads further into than libyaml": (
        b"&a\r%YAML 1.1\n   ]prompt: [:  \n--- %YAML 1.1\n\n &c\n---"
    ),
    "a directive, then a bracket, then an end marker": (
        b"\nprompt: \n  z%YAML 1.1\n%YAML 1.1\n}:: &a task_id:\n...\n x"
    ),
    "text after a flow root, then an end marker": b"{}\n x\n...\n y\n",
    # Go reported the scalar at its tag, on the line before.
    "a plain scalar ending in ':' in {} on the line after its tag": b"{!t\rtask_id:}\n\n...\n x",
    # An anchor's name ends at ':', which then makes the flow root a key.
    "an anchor, then ': ', after a flow root": b"{}&aprompt: \n---",
    # libyaml reads a tab after a block '?' or ':' as indentation and fails;
    # yaml.v3 reads it with the comment after it.
    "a tab between '?' and a comment, then a marker": b"? \t #c\n---\n",
    "a tab between a complex key's ':' and a comment": b"? task_id\n:\t#c\n",
    # A tab that libyaml would fail on, past where the second document
    # starts, which libyaml's parser stops at.
    "a tab among comments in the second document": (
        b" &tt\r#\xd6\x99\r# \r#\xd6\x99\r#\xc2\xb2\r#tt\r#\xd6\x99!# &t\r#\r#\r#\xd6\x99\r---\n"
        b"\r# &t\r#\xd6\x99\r#\r\t#+)\xc2\x85! , !,"
    ),
    "a tab after '?' that starts the second document": (
        b"  prompt: \t>\n? \t#c's': [\n  z\n\n x\n---"
    ),
    "a tab among comments after a comment on the first marker": b"--- # a\n\t# b\ntask_id: x\n",
    "a tab among comments after the second document's directive": (
        b"task_id: x\n...\n%YAML 1.1\n# a\n\t# b\n---\n"
    ),
    # The token that starts the second document with no marker is scanned
    # first: libyaml fails on what it cannot scan there.
    "a tag running into ',' after an end marker": b"prompt: \n...\t!!str,  &a%YAML 1.1\n\n x\n---",
    "a tag running into ',' on the line after an end marker": b"task_id: x\n...\n!!str, x\n---",
    "an end marker, then text on its line": b" \ntask_id:\r...   *a]? \n---\n",
    # After a directive, whose scan takes the line break, a tab is a blank.
    "a directive, then a tab-indented line": b"--- \n%YAML 1.1\n\ty\n---\n",
    # A quoted scalar ending on a later line leaves libyaml's possible key
    # stale: its scanner reads no further.
    "a quoted scalar over lines after a flow root, then a bad tag": b'{} "a\n b" !x,',
    "a quoted scalar over lines after an end marker, then a bad tag": (
        b'&bprompt: \n\n...\n"q\nr"!t*x!!str[\n x\n---'
    ),
    # A tab libyaml would fail on, past a second document's directives and
    # the token after them that its parser stops at.
    "a tab after '?', past a directive and the text after it": (
        b"\n---\n%TAG ! !a\n---toks = [x \n: \t#c%TAG ! !a\n\t\t, - "
    ),
    # After an empty document, text at a line start starts the second one,
    # which libyaml's parser stops at, short of a tab among comments after.
    "an anchored empty document, a comma, then a tab among comments": (
        b"&t\r#\r,\r#\r#\r#\r\t\r#\r#\xc2\x85! ,!,"
    ),
    # libyaml's plain scanner takes the line break after a plain scalar,
    # looking for more of it, so the flow root's possible key is stale and
    # the scanner reads nothing past the comment after it.
    "a plain scalar after a flow root, a line break, a comment, then a bad tag": (
        b"{}-t\r#\xc2\x85!,"
    ),
    # A comment ends at NEL: Go's bracket count read the '{' after one as
    # part of it, and so ended the flow root lines too early.
    "a comment that NEL ends, then a bracket, in a flow root": (
        b"{  task_spec_version: ,\n  task_id: -2,\nlanguage: &t\r#\r#\r#\r#\xc2\x85! typescript,"
        b' difficulty: hard,generated_from: {\n kind: k_te},\n  prompt: .",\n'
        b"  verification: {test_cmd: [npme,st]},\n}!\n,"
    ),
    # libyaml's scanner skips a byte order mark at a line start as it reads
    # ahead for the next token, then fails on what follows it.
    "a byte order mark, then '@', after a flow root and a quoted scalar": (b'{}""\n\xef\xbb\xbf@}'),
    "a byte order mark, then a bad tag, after an end marker": b"task_id: x\n...\n\xef\xbb\xbf!x,\n",
    # Go counted "\r\n" as two line breaks after a second document's
    # directive.
    "a directive, then blank lines that end in CR LF": (
        b"task_spec_version: 1"
        + b"\r" * 10
        + b"%YAML 1.2\n"
        + b"\r" * 85
        + b"\nTa1osk_id: 4002-2s:\n"
    ),
    # After a second document's directives, libyaml's scanner reads the
    # token other than "---" before its parser refuses it.
    "a directive, then a tag running into ','": b"&t\r#\r%YAML 1.2\n!,",
    "a directive, a blank line, then a tag running into ','": b"task_id: x\n%YAML 1.2\n\n!x, y\n",
    # libyaml reports the non-specific tag on a quoted scalar with a plain
    # scalar's tag: the Python library read '! "\/b"' past its escape check
    # and '! "null"' as null, where yaml.v3 reads the quoted string.
    "the escape \\/ under the non-specific tag": b'task_id:\nprompt: ! "\\/b"',
    "the escape \\/ in a list item under the non-specific tag": (
        b'verification:\n  test_cmd: [! "a\\/b"]'
    ),
    "the non-specific tag on a quoted null": (
        b"task_spec_version: 1\ntask_id: t-1\nlanguage: go\ndifficulty: easy\n"
        b'generated_from: {kind: kg_template, template_id: x}\nprompt: ! "null"\n'
        b'difficulty_signals: {! "<<": 1}\n'
        b'verification: {test_cmd: [go, ! "~"], timeout_seconds: 1}\n'
    ),
    # A flow root on the line after its tag is libyaml's possible key there.
    "a flow root on the line after its tag, then an alias and ': '": (
        b"!t--- \r{}*aprompt: \n  z!!str\n---"
    ),  # A key tagged !!merge is refused for its tag by both libraries; Go called
    # it a merge key, which only a plain "<<" is.
    "a key tagged !!merge, in the first column after an empty value": (
        b"task_id: \nsolution_artifacts:\n    - path: \n!!merge      role: "
    ),
    "a key tagged !!merge": b"task_id: \n!!merge role: ",
    # yaml.v3's key comparison is cyclic on these keys (a run of more than
    # 18 digits, an Arabic-Indic digit), so Go's order changed from run to
    # run; both libraries write the fixed order.
    "difficulty_signals keys that yaml.v3 orders cyclically": (
        b"task_spec_version: 1\n"
        b"task_id: 'x: y'\n"
        b"language: go\n"
        b"difficulty: medium\n"
        b"difficulty_signals:\n"
        b"    '- a9A': 1000000000000000000\n"
        b"    _: 12681\n"
        b"    1a: 8897\n"
        b"    01aZa\xd9\xa3: 48616\n"
        b'    "9": 76082\n'
        b"    9223372036854775808A: 1000\n"
        b"    A9_\xd9\xa3\xc3\xa9: 81315\n"
        b"    a9z: 26575\n"
        b"generated_from:\n"
        b"    kind: benchmark_seed\n"
        b"    kg_query:\n"
        b"        intent: 9\xc3\xa9#{\n"
        b'        seed_symbol: "-0x1F\\t\\0\\t-q"\n'
        b'prompt: "a \\nb-\xee\x80\x80"\n'
        b"verification:\n"
        b"    test_cmd:\n"
        b'        - ""\n'
        b"    timeout_seconds: 30\n"
    ),
    # libyaml's scanner skips a byte order mark that starts a line, before a
    # comment too, where yaml.v3's reads it as text: Go took such a line
    # for the start of the second document (from yaml.v3's error), or, with
    # nothing else after the first document, for a syntax error.
    "a byte order mark and a comment after a directive": (
        b"prompt: \t#c\n%YAML 1.1\n\xef\xbb\xbf #c{{a: b}\n...\n]}*a\n\t[a]"
    ),
    "a byte order mark and a comment after an end marker": (
        b"---\n...\n\r\xef\xbb\xbf#c\t:\t|\n\n  z\xc3\x82\xc2\x85\n---\n"
    ),
    "a byte order mark alone after an end marker": (
        b"\n\n!!str prompt:  #ctask_id:\xef\xbb\xbf\n...\n\xef\xbb\xbf"
    ),
    # Skipping the mark, libyaml reads "y" one column in, as a key it needs
    # a ':' for, and fails before the "---" that Go took for a second document.
    "a byte order mark that makes a key before a second document": (
        b"\r prompt:  \xc2\x85\xef\xbb\xbfy\xef\xbb\xbf[!!merge \n---\n"
    ),
    # An empty key stands right after its '?': Go's search for the second
    # document skipped it and took its line for text after the document, and
    # so let the second document hide the tab after the '?'.
    "a tab after an empty key's '?', then '---'": b"task_spec_version: 1\n? \t#c\n---",
    "a tab after an empty key's '?', text, then '---'": (
        b"task_spec_version: 1\n? \t#c{a: b}--- \n---"
    ),
    "an empty key after a line that CR ends, then '---'": (
        b"task_spec_version: 1\n  \r? \n---\n}*a:\t\n  z\n...\n x"
    ),
    # Reading ahead after a flow collection that may be a key, libyaml's
    # scanner fails on a tab that starts the next line.
    "a tab on the line after a flow collection that starts a second document": (
        b"\n--- \n...\n[a]#c:\t\n\t\n---\n[ \t#c\n---\n"
    ),
    # A block scalar less indented than the mapping before it starts the
    # second document, before the tab after '?' on the next line: Go trusted
    # its second-document search after a block collection only at a marker.
    "a block scalar outdented after a mapping, then a tab after '?'": (
        b" #c *a's'  - \xef\xbb\xbf\n    difficulty_signals:\n  |-\n? \t#c!t 1\t"
    ),
    # libyaml's plain scanner takes the line break and the tab after a
    # plain scalar that is the whole document, looking for more of it: the
    # tab is no indentation, and the ':' after it starts the second document.
    "a tab after a line break after a plain scalar document": (
        b"\xef\xbb\xbf~\r\t: \n[\n%YAML 1.1\n---\n"
    ),
    # A quote after a ':' inside a plain scalar opened nothing for libyaml,
    # but a quoted scalar for Go's search for the end of a flow root.
    "a quote after ':' in a plain scalar in a flow root, then ','": (
        b"{  task_spec_version: ,task_id: -2 kind:' ke},\n  prompt: ..inf\",\n"
        b"  verification: {tes,\nlanguage: typescript, didifficulty_signals:rated_from: {\n"
        b" kind:' ke},\n  prompt: ..inf\",\n  verification: {test_cmd:r[n]},\n}\n"
    ),
    # libyaml's scanner reads a block scalar whole, when it reads one after
    # a flow collection that starts a second document: a tab that indents it
    # is an error before its parser finds the second document.
    "a tab in a block scalar after a flow root that starts a second document": (
        b"prompt: \n...\n[a]|\n\t#c[a]\t#c*x&atask_id:#c\n...\n x"
    ),
    "a bad block scalar header after a flow root that starts a second document": (
        b"prompt: \n...\n[a]|x\n  a\n"
    ),
    # yaml.v3 reads a byte order mark inside a line as text, as libyaml
    # does, but then misses the '}' or '@' on the next line that libyaml
    # refuses.
    "a byte order mark as a value, then '}'": b"\xef\xbb\xbftask_id: \xef\xbb\xbf\n}",
    "a byte order mark as a value, then '@'": b"task_id: \xef\xbb\xbf\n@",
    # yaml.v3 stops at a comment line that a byte order mark starts, where
    # libyaml skips the mark and the comment, and finds the second document
    # on a later line, less indented than the mapping.
    "a byte order mark and a comment, then a line less indented than the mapping": (
        b"\n  ! task_spec_version: 1\n\xef\xbb\xbf#c%TAG ! !a\n\n x\n---"
    ),
    # A block scalar's header on the line after its properties is the
    # node's, not text before the second document.
    "a tagged key whose block scalar header is on the next line, then '---'": (
        b"? !!merge \n|\n--- {#c- %YAML 1.1\n\n  zsolution_artifacts:\n  - path: \r\n #c\n &c\n---"
    ),
    # A comment, or a ':' and a blank, ends a plain scalar: the indented
    # text after it is no more of the scalar but the second document.
    "an indented ':' and a tab after a plain scalar document": b"~\n    :\t #c #c\n}",
    "an indented token after a comment after a plain scalar document": b"~\n  #c\n  x\n---",
    # libyaml finds a second document at a '}' after a mark-and-comment
    # line, where Go's text search took the '}' for a closing bracket.
    "a '}' after a byte order mark and a comment, after a mapping": (
        b"\n  task_spec_version: 1\n\xef\xbb\xbf#c}\n}"
    ),
    # A comment line that a byte order mark starts is a comment to the tab
    # rule too, which took it for the next document's text.
    "a tab among comments, one of them after a byte order mark, after an end marker": (
        b"task_id: \n  z\n...\n\xef\xbb\xbf#c\r\n\t#ctask_id:...9223372036854775808: 1"
    ),
    # Brackets and commas at a line start close nothing in a block mapping
    # that holds no flow collection: after a plain scalar they are more of it.
    "a comma at a line start after a plain value, in a mapping with no flow collection": (
        b"\xe2\x80\xa8task_id: x\n\n  ,&a\n---\n? \n %TAG ! !a\n1>\n &c\n---"
    ),
    # Text after a quoted root starts the second document on its line; a
    # byte order mark on the next line is not why yaml.v3 stopped there.
    "text after a quoted root, then a byte order mark alone": b'!!null ""L\n\xef\xbb\xbf',
    # A tag running into ',' right after a byte order mark at a line start:
    # yaml.v3 reads the mark as text and never sees the tag, so Go refused
    # the mark, where the Python library refuses the tag first.
    "a tag running into ',' after a byte order mark at a line start": (
        b"task_spec_version: \nverification:\n  build_cmd: [r 7,0:20,\r\xef\xbb\xbf!,&t\r"
        b"\xef\xbb\xbf '', !!str 20, '', '',7 :20, '', ! 20, '','',7,1, '', 1:20, '', !!str ~]\n"
    ),
    # yaml.v3 drops a last line with no line break after it from a text that
    # holds a byte order mark inside a line, and so found no second document.
    "a byte order mark inside a line, then ',' on a last line": b" prompt: --- \xef\xbb\xbf\n,",
    # yaml.v3 keeps a comment right after "- " as a foot comment, so the tab
    # rule did not see that a comment ended the line before the tab.
    "a tab among comments after a comment right after '- '": (
        b"verification:\n  test_cmd:\n\xe2\x80\xa8  - #c  - null:\t\r\n\n\t#c\n---"
    ),
    # Reading ahead past a possible key, libyaml's scanner fails on a
    # document marker inside a quoted scalar.
    "a document marker inside a quoted scalar read past a possible key": (
        b"prompt:\n...\n!!str !!str \n 'task_spec_version: 1\n--- \xc3\x82\xc2\x85|2\n"
        b"&b--- , %YAML 1.1\n,*x's'!t"
    ),
    # U+2ECE4 is a letter to Python 3.13 (Unicode 15.1), not to Go (15.0):
    # yaml.v3 puts it among the other characters, before digits.
    "a signal key of a letter Unicode 15.1 added": (
        "task_spec_version: 1\ntask_id: t\nlanguage: go\ndifficulty: easy\n"
        "difficulty_signals: {\U0002ece4: 1, '10': 2, a: 3}\n"
        "generated_from: {kind: kg_template, template_id: x}\nprompt: p\n"
        "verification: {test_cmd: [go]}\n"
    ).encode(),
    # The byte order mark rule counted lines by LF alone in both libraries.
    "a byte order mark at a line start after CR line breaks": (
        b"verification: {test_cmd: [a,\r\r\xef\xbb\xbfb]}"
    ),
    "a byte order mark at a line start after NEL": (
        b"verification: {test_cmd: [a,\xc2\x85\xef\xbb\xbfb]}"
    ),
    # "%YAML" in a comment made the Python library word a tab's error
    # without the text, so not as the tab it is.
    "a tab that indents, with '%YAML' in a comment": (
        b"\xef\xbb\xbf#c---prompt:  %YAML 1.1\n  \t #c[[!t- \n\n---"
    ),
    # A line of a multi-line key that starts with U+2028 ended Go's search
    # for a "<<" key to quote.
    "a '<<' signal key after a multi-line key whose line starts with U+2028": (
        b"task_spec_version: 1\ntask_id: t\nlanguage: go\ndifficulty: easy\n"
        b'difficulty_signals:\n    ? |4-\n\n\xe2\x80\xa8        \t0"\n    : 176980\n'
        b'    "<<": 283007\n'
        b"generated_from:\n    kind: kg_template\n    kg_query:\n        intent: i\n"
        b"prompt: p\nsolution_artifacts:\n    - path: a.go\n      role: target\n"
        b"verification:\n    test_cmd:\n        - x\n"
    ),
    # Go classified text after the first document by the line its search
    # found, where libyaml stops at the first token after the root: "---"
    # starts a second document (TS004), other text is a syntax error.
    "a %YAML 1.2 directive that no marker follows": b"%YAML 1.2\n\t#c!t ",
    "a second %YAML directive": (
        b'%YAML 1.2\n%YAML 1.2\n!!str [a]%YAML 1.1\n?,"q"difficulty_signals:\n  "q"|-\n'
    ),
    "a %YAML 1.2 directive after a %TAG directive": b"%TAG ! !a\n%YAML 1.2\n\n---",
    "text after a tagged root on the first marker's line": b'--- !t? "q"!!str \n---\n',
    "a tagged root whose text is on the next line, then a marker": (
        b"!t \r\nprompt\n---\n &a null: &aprompt|2\n #c\n    %YAML 1.2\n,<<: %YAML 1.1\n\n...\n x"
    ),
    "a plain root over unindented lines, then a marker": (
        b'a%TAG ! !a\n"a\nb"..., %YAML 1.1\n1>\n---\n\r\n!!merge ! ? ,'
    ),
    "a plain root over lines a LINE SEPARATOR breaks, then a marker": (
        b"\n  z?\xe2\x80\xa8!!str %TAG ! !a\n, \n---\n}"
    ),
    # yaml.v3's scanner reads on past the "---" that starts a second
    # document, and fails there; libyaml's parser stops at the marker.
    "a second document whose marker line yaml.v3 cannot scan": (
        b"\n  z\r\n---   - #c-2solution_artifacts:\n  - path: \n---\n #cdifficulty_signals:\n  *a"
    ),
    # A byte order mark at a line start: libyaml skips it between tokens,
    # so that "---" after it is no marker, but it ends a plain scalar's
    # lines; and two at the start are refused before anything is read.
    "a byte order mark then a comment, alone": b"\r\n\xef\xbb\xbf#c",
    "a byte order mark before a marker after a mapping": b"task_id: x\n\xef\xbb\xbf---\n",
    "two byte order marks, then text libyaml cannot read": b"\xef\xbb\xbf\xef\xbb\xbf#c\n]\n",
    # A plain scalar ending in ':' before a flow indicator, which libyaml
    # refuses where yaml.v3 reads on and fails later on the line.
    "a plain scalar ending in ':' before '}', then more": b"[,b:}b:? '?']--- *a\n  - |2\n",
    "a plain scalar ending in ':' before '?', then a tab": (
        b"<<: [1!!map\t:? !t \r\t#ctask_id: y[a]*a x"
    ),
    "a value with no key before a plain scalar ending in ':'": (
        b"\n  zverification:\n  test_cmd:\n:\t{b:{a: b}\xe2\x80\xa8\r\n\n---\n"
    ),
    # The escape \/, which libyaml reads and yaml.v3 cannot: a syntax
    # error in both, wherever it stands (Python read the top scalar and
    # refused its type; a key with it was read as another key).
    "the escape \\/ in the top scalar": b'"..\\/.."',
    "the escape \\/ in a value, then a key with a backslash": b'task_id: "x\\/y"\nfoo\\/bar: 2',
    "the escape \\/ in a key": b'"task\\/id": x\n',
    # A '?' in a plain scalar inside [] at the top: yaml.v3 cannot read
    # it; the top is a sequence to both, which is what they say.
    "a '?' in a plain scalar of a top sequence": b"[a?b]",
    # A '?' yaml.v3 cannot read in a plain scalar of a {} over lines: the
    # Go library read the copy it can read, with the '?' as 'Q', as a key.
    "a '?' ending a plain key of a {} over lines": b"{2\n  ta2 1\n?}",
    # A '?' at a token's start is a key indicator to libyaml, not text:
    # libyaml fails on "[?]"; "?b" after a blank inside a plain scalar is
    # text to libyaml, which yaml.v3 cannot read.
    "a '?' alone in a []": b"[?]",
    "a '?' after a blank inside a plain scalar in []": b"[a ?b]",
    # ...and followed by a blank: yaml.v3 ends a plain scalar at any '?'
    # inside [] or {}, libyaml at none (here under an unknown key, which no
    # walk refuses).
    # A '?' refuses the whole [] it is in: the Go library left out only the
    # scalar, and then could not read a mapping item of the list.
    "a '?' in a [] of strings that also holds a mapping": (
        b" \n {task_spec_ve,\n  verification: {test_cmd: [npm,\n    4,\n  ta: t-2,\n"
        b"  laage? typescript,\nt]},\n}"
    ),
    # A '?' right after ':' is left as written: libyaml ends the scalar at
    # the ':' there, which the Go library's copy with a 'Q' hid.
    "a '?' right after ':' in a plain scalar over lines in []": b"[! d\no:? ] ",
    # A key written as an alias (*k) of another field's value, refused as
    # an unknown key: the Go library refused the anchored node, and so
    # left task_id out of what it read (TS101).
    "an alias of task_id's value as an unknown key": (
        b"task_id: &k edge_count\ngenerated_from:\n    kind: kg_template\n    *k : 3\n"
    ),
    "a '?' then a blank inside a plain scalar in [] under an unknown key": (
        b"verification:\n    test_cm$: [ go , test? './mathx/...' ]\n"
    ),
    # A byte order mark inside a line (text to both), then a '?' yaml.v3
    # cannot read: the Go library gave up on the text for the mark.
    # yaml.v3 tests for a byte order mark at the start of its read buffer,
    # not at the character it reads: after the buffer was refilled at the
    # mark at offset 509, it skipped the 'm' of the last line and failed
    # there, where libyaml read the text (any byte fewer, and it did not).
    # Nesting past the bound, then a syntax error; the Go library's scan
    # misread a quote inside a plain scalar over lines, so no cut parsed:
    # each stops at its own first, a limit and a syntax error.
    "nesting past the bound after a quote inside a plain scalar, then a syntax error": (
        b"a:\n    - path:(|\n        '\xc2\xa0@\nverification:\n     "
        + b"[" * 131
        + b"task_spec_version: 1\ntask_id: ./... ?"
        + b"[" * 900
        + b"'"
    ),
    "a byte order mark where yaml.v3's buffer is refilled": (
        Path(__file__).parent / "data" / "fuzz" / "bom-buffer-skip.yaml"
    ).read_bytes(),
    "a byte order mark inside a key, then a '?' in a plain scalar in {}": (
        b"task_spec_v\xef\xbb\xbfion: 1\ngenera=ted_from: {kind: kg_template, template_id: a?b}\n"
    ),
    # Nesting past the bound under a flow collection that is a key, in a
    # text of over a thousand openers (the only one checked for depth):
    # the Go library's cut left out the ':', and so the mapping's level.
    "nesting past the bound in a key of a block mapping": (
        b"a:\n   " + b"[" * 70 + b"]" * 70 + b": 1\n#" + b"[" * 1001 + b"\n"
    ),
    "nesting past the bound in a single pair inside [], not closed": (
        b"a:\n   [" + b"[" * 85 + b"]" * 77 + b": 1\n#" + b"[" * 1001 + b"\n"
    ),
    # ...and where the text after that node does not parse: the cut did not
    # either, and the Go library reported the syntax error after the node.
    "nesting past the bound, then a syntax error": (
        b"~: "
        + b"[" * 58
        + b"task_spec_version: "
        + b"[" * 6
        + b"Z"
        + b"[" * 300
        + b"\n#"
        + b"[" * 1001
        + b"\n"
    ),
    # The same refusal of a plain scalar ending in ':' on two lines: each
    # parser meets its own occurrence first.
    "a plain scalar ending in ':' twice, yaml.v3 failing after the second": (
        b"task_spec_version: 1\ntask_idulty: medium\ndifficulty_signals:\n"
        b"    c   temp       intent: cod      - ./...\n    test_cmd: [go, a:, c]\n"
        b"    timeouts_elate_id: impl--u\nnf  er-  kg_query:\n        intent: cod"
        b"      - ./...\n    test_cmd: [go, a:, c]\n    timeouts_econds: 121\n"
    ),
}

#: How the first document ends, for the search for where the second starts:
#: each kind of node last, flow collections closed on later lines, and
#: properties that go on over lines.
FIRST_DOCUMENTS: tuple[bytes, ...] = (
    b"task_id: x",
    b"task_id: x # c",
    b"task_id: &a x",
    b"task_id: *a",
    b"task_id:",
    b'task_id: ""',
    b"task_id: !!str",
    b"task_id: !!str &a",
    b"task_id: !!str\n  &a",
    b"task_id: &x",
    b"task_id: x\n  y",
    b'task_id: "x\ny"',
    b"task_id: 'x\n\n y'",
    b'task_id: "a\\\n b"',
    b'task_id: "a\n  # b"',
    b"task_id: |\n  x\n  y",
    b"task_id: |2\n   x",
    b"task_id: >-\n  x",
    b"task_id: >\n\n  x\n\n",
    b"task_id: [a,\n b]",
    b"task_id: [a,\n b\n ]",
    b"task_id: {a: b\n c}",
    b"task_id: x\ndifficulty_signals: {a: 1\n}",
    b"task_id: x\nverification:\n  test_cmd: [a,\n    b]",
    b"task_id: x\r\n",
    b"? task_id\n: x",
    b"- a\n- [b,\n c]",
    b"{task_id: x}",
    b"{task_id: x\n y}",
    b"{task_id: x\n y\n}",
    b'{task_id: "a]\n b"}',
    b"{task_id: x # c\n}",
    b"{}",
    b"[\n]",
    b"&a [\n]",
    b'"a"',
    b"&a",
    b"&a # c\n",
    b"&a !!map",
    b"&a\n!!map",
    b"--- &a",
    b"%YAML 1.1\n---\ntask_id: x",
    b"task_id: x\n...\n# c",
    b"&1\n? &a",
    b"? &a\n: &b",
    b"? !!str &a\n:",
    b"- &a",
    b"task_id: x\n&a : &b",
)

#: What may follow the first document: markers, directives, text that
#: starts a document with no marker, indented or not, and comments.
AFTER_THE_FIRST: tuple[bytes, ...] = (
    b"\n---\n",
    b"\n--- x\n",
    b"\n---x\n---\n",
    b"\n...\n",
    b"\n...\n x\n",
    b"\n...\n---\n",
    b"\n%YAML 1.1\n---\n",
    b"\n x\n",
    b"\n x\n---\n",
    b"\n x: y\n---\n",
    b"\n- a\n---\n",
    b"\n &b\n---\n",
    b"\n&b\n---\n",
    b"\n !t\n---\n",
    b'\n "q"\n---\n',
    b"\n ]\n---\n",
    b"\n}\n---\n",
    b"\n ,\n---\n",
    b"\n # c\n---\n",
    b"\n# c\n x\n...\n",
    b"\n\n  ---\n",
    b" \n\t\n---\n",
    b"\r\n x\r\n---\r\n",
    b"\n\tx\n---\n",
    b"\n...x\n---\n",
    b"\n\xc2\x85---\n",
    b"\n\xef\xbb\xbf---\n",
    b"\n%TAG ! !x\n---\n",
    b"\n |\n  x\n---\n",
    b"\n ---\n---\n",
    b"\n? &c\n---\n",
)


@pytest.mark.parametrize("first", FIRST_DOCUMENTS, ids=[repr(f)[2:-1] for f in FIRST_DOCUMENTS])
def test_the_libraries_agree_on_where_a_second_document_starts(
    go: GoConsumer, first: bytes
) -> None:
    failures = []
    for after in AFTER_THE_FIRST:
        try:
            fuzz_diff.check(first + after, go)
        except AssertionError as err:
            failures.append(f"{first + after!r}: {err}")
    assert not failures, "\n".join(failures)


#: The pieces most of DISAGREED is made of: markers, directives, properties,
#: block and flow indicators, quotes, tabs among comments, byte order marks,
#: every YAML line break, keys and values of the schema. Strung together at
#: random, they reach in seconds the corners libFuzzer's byte mutations take
#: millions of inputs to find.
TOKENS: tuple[str, ...] = (
    *("task_spec_version: 1\n", "task_id:", "task_id: ", "task_id: x\n", "prompt", "prompt: "),
    *("difficulty_signals:\n  ", "9223372036854775808: 1", "\u0663: 2", "<<: ", "a: b"),
    *("verification:\n  test_cmd:\n", "solution_artifacts:\n  - path: ", "  - ", "- "),
    *("---", "--- ", "...", "\n---\n", "\n...\n", "%YAML 1.1\n", "%YAML 1.2\n", "%TAG ! !a\n"),
    *("&a", "&a ", "&b", "*a", "*x", "!t", "!t ", "! ", "!!str", "!!str ", "!!map", "!!merge "),
    *("? ", "?", ": ", ":", ":\t", ",", ", ", "[", "]", "{", "}", "[a]", "{a: b}", "b:", "c:'"),
    *("|", "|\n", "|-\n", "|2\n", ">", ">\n", "'", '"', "'q'", '"q"', '"a\nb"', "'s'"),
    *("#c", " #c", "\t#c", "\t", " ", "  ", "\n", "\n", "\n ", "\n  ", "\n    ", "\n  z"),
    *("\r", "\r\n", "\x85", "\u2028", "\ufeff", "\ufeff#c", "a", "y", "1", "-2", "~", "null"),
)
#: What the strings end with, to start a second document in every way.
TAILS: tuple[str, ...] = (
    *("\n---", "\n---\n", "\n...\n x", "\n x\n---", "\n &c\n---", "\n...\n"),
    *("\n%YAML 1.1\n---\n", ",", "\n,", " x", "\nx: 1", "\n]", "\n}", "\n\t#c\n---"),
)


def test_the_libraries_agree_on_strings_of_yaml_tokens(go: GoConsumer) -> None:
    rng = random.Random(15)
    failures = []
    for _ in range(10_000):
        text = "".join(rng.choice(TOKENS) for _ in range(rng.randint(2, 20)))
        if rng.random() < 0.6:
            text += rng.choice(TAILS)
        try:
            fuzz_diff.check(text.encode(), go)
        except AssertionError as err:
            failures.append(f"{text.encode()!r}: {err}")
    assert not failures, "\n".join(failures[:10])


@pytest.mark.parametrize("doc", DISAGREED.values(), ids=DISAGREED.keys())
def test_inputs_the_libraries_once_disagreed_on(go: GoConsumer, doc: bytes) -> None:
    fuzz_diff.check(doc, go)


def test_a_disagreement_is_caught(go: GoConsumer, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = next(data for name, data in fuzz_parse.seeds() if name.startswith("canonical-"))

    def refuses(data: bytes) -> tuple[str, object]:
        return "decode", "planted"

    monkeypatch.setattr(fuzz_diff, "_python", refuses)
    with pytest.raises(AssertionError, match="Python: decode"):
        fuzz_diff.check(seed, go)


def test_a_stop_on_one_side_only_is_caught(go: GoConsumer, monkeypatch: pytest.MonkeyPatch) -> None:
    # Go stops at the escape \/ (a syntax problem); Python made to read on.
    doc = b'task_id: "x\\/y"\n'
    monkeypatch.setattr(
        fuzz_diff,
        "_problems",
        lambda data: [
            {
                "code": "TS105",
                "field_path": "task_spec_version",
                "line": 1,
                "column": 1,
                "message": "m",
                "hint": "",
                "severity": "error",
            }
        ],
    )
    with pytest.raises(AssertionError, match="only one library stops"):
        fuzz_diff.check(doc, go)


def test_different_bytes_are_caught(go: GoConsumer, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = next(data for name, data in fuzz_parse.seeds() if name.startswith("canonical-"))
    real = fuzz_diff._python

    def changed(data: bytes) -> tuple[str, object]:
        kind, spec = real(data)
        assert isinstance(spec, TaskSpec)
        spec.task_id += "x"
        return kind, spec

    monkeypatch.setattr(fuzz_diff, "_python", changed)
    with pytest.raises(AssertionError, match="decode different messages"):
        fuzz_diff.check(seed, go)
