"""Hand-written conformance documents: the ones Go rejects and the odd ones Go accepts.

Each document says what Go is expected to do with it. The generator
(``scripts/gen_vectors.py``) asks the Go consumer for the real outcome,
fails loudly if Go disagrees with the expectation written here, and records
Go's answer (its error, or its decoded value and re-marshal) as data.

Most documents are small edits of :data:`BASE`, a valid canonical sidecar,
so that each one differs from a valid document in exactly one way.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from tests.helpers import VALID_DOC

__all__ = ["ACCEPTED", "BASE", "REJECTED", "Doc"]

Stage = Literal["decode", "validate", ""]


@dataclass(frozen=True, slots=True)
class Doc:
    """One hand-written document.

    ``name`` is the vector's file stem (unique within its class), ``note``
    says what the document exercises, and ``stage`` is where Go is expected
    to reject it: ``decode`` (yaml.v3 fails) or ``validate`` (Validate
    fails); it is empty for accepted documents.
    """

    name: str
    note: str
    data: bytes
    stage: Stage = ""


#: The valid canonical sidecar the tests share; edits of it make most documents.
BASE = VALID_DOC

_GENERATED_FROM = b"""\
generated_from:
    kind: kg_template
    template_id: impl-pure-fn
    kg_query:
        intent: code_context
        seed_symbol: mathx.GCD
"""

_VERIFICATION = b"""\
verification:
    build_cmd:
        - go
        - build
        - ./...
    test_cmd:
        - go
        - test
        - ./mathx/...
    timeout_seconds: 120
"""

_TEST_CMD = b"""\
    test_cmd:
        - go
        - test
        - ./mathx/...
"""

_SIGNALS = b"""\
difficulty_signals:
    cyclomatic_complexity: 4
    edge_count: 9
"""


def edit(*pairs: tuple[bytes, bytes], base: bytes = BASE) -> bytes:
    """BASE with each ``old`` replaced by ``new``; every ``old`` must occur exactly once."""
    out = base
    for old, new in pairs:
        count = out.count(old)
        if count != 1:
            raise ValueError(f"{old!r} occurs {count} times, expected once")
        out = out.replace(old, new)
    return out


def line(key: bytes, value: bytes) -> bytes:
    """BASE with the whole ``key: ...`` line (its first occurrence) replaced by ``key: value``."""
    start = BASE.index(key + b":")
    end = BASE.index(b"\n", start)
    return BASE[:start] + key + b": " + value + BASE[end:]


def without(key: bytes) -> bytes:
    """BASE without the ``key: ...`` line."""
    start = BASE.index(key + b":")
    end = BASE.index(b"\n", start) + 1
    while BASE[start - 1 : start] == b" ":
        start -= 1
    return BASE[:start] + BASE[end:]


def _signal(text: bytes) -> bytes:
    """BASE with an extra difficulty_signals entry (or entries), given indented by 4."""
    return edit((b"    edge_count: 9\n", b"    edge_count: 9\n" + text))


def _alias_bomb_merges(levels: int, width: int) -> bytes:
    """A billion-laughs document that expands through merge keys in solution_artifacts."""
    items = [b"    - &l0 {path: x, role: y}"]
    for i in range(1, levels):
        refs = b", ".join(b"*l%d" % (i - 1) for _ in range(width))
        items.append(b"    - &l%d {<<: [%s]}" % (i, refs))
    artifacts = b"solution_artifacts:\n" + b"\n".join(items) + b"\n"
    return edit((b"solution_artifacts:\n    - path: mathx/gcd.go\n      role: target\n", artifacts))


def _alias_bomb_sequences(levels: int, width: int) -> bytes:
    """A billion-laughs document of nested sequences in build_cmd."""
    items = [b"        - &l0 [" + b", ".join([b"x"] * width) + b"]"]
    for i in range(1, levels):
        refs = b", ".join(b"*l%d" % (i - 1) for _ in range(width))
        items.append(b"        - &l%d [%s]" % (i, refs))
    return edit(
        (b"    build_cmd:\n        - go\n        - build\n        - ./...\n", b"    build_cmd:\n"),
        (b"    test_cmd:\n", b"    test_cmd:\n" + b"\n".join(items) + b"\n"),
    )


#: Integer spellings yaml.v3 reads into an int field (as signal values).
INT_FORMS_ACCEPTED: tuple[bytes, ...] = (
    b"1__0",
    b"1_",
    b"+0x10",
    b"-0b11",
    b"0B11",
    b"+0o17",
    b"0O17",
    b"-0o17",
    b"-017",
    b"+017",
    b"0777",
    b"00",
    b"-0",
    b"+0",
    b"0x_1F",
    b"0b1_0",
    b"1.",
    b"+.5e1",
    b".5e1",
    b"-.5e1",
    b"1_000.0",
    b"0.0e0",
    b"1e-0",
    b"100e-2",
    b"1e18",
    b"12e17",
    b"-0x8000000000000000",
    b"-9223372036854775808.0",
    b"9_223_372_036_854_775_807",
    b"0x7fffffffffffffff",
    b"-0x10",
    b"-1e3",
    b"1E3",
    b"1e+3",
    b"0e5",
    b"089",
    b"1_000_",
)

#: Spellings yaml.v3 does not read into an int field.
INT_FORMS_REJECTED: tuple[bytes, ...] = (
    b"0x1p4",
    b"0o8",
    b"0b2",
    b"0x",
    b"0b",
    b"-0b",
    b"0o",
    b"1:0",
    b"1:20:30",
    b"2001-12-14",
    b"2001-12-14t21:59:43.10-05:00",
    b"0x8000000000000000",
    b"0xFFFFFFFFFFFFFFFF",
    b"18446744073709551615",
    b"1e19",
    b"9.3e18",
    b"_1",
    b"1,000",
    b".inf",
    b".NaN",
    b"0x1F.8",
    b"1e",
    b"e3",
    b"++1",
    b"+-1",
    b"0x-1",
    b"one",
    b"yes",
    b"true",
    b"Off",
    b"''",
    b"'1'",
    b'"1"',
)


#: Digits Go's strconv does not know (it reads ASCII only), written in integer
#: fields: yaml.v3 resolves each to a string and cannot put it into an int.
NON_ASCII_DIGITS: tuple[tuple[str, bytes], ...] = (
    ("arabic-indic", "\u0661".encode()),
    ("fullwidth", "\uff15".encode()),
    ("superscript", "\u00b2".encode()),
    ("bengali", "\u09e7\u09e8".encode()),
    ("thai", "\u0e51".encode()),
    ("ascii-then-arabic-indic", "1\u0661".encode()),
    ("negative-arabic-indic", "-\u0661".encode()),
    ("hex-arabic-indic", "0x\u0661".encode()),
    ("exponent-arabic-indic", "1e\u0661".encode()),
    ("fullwidth-underscore", "\uff11_\uff10".encode()),
)

#: Every integer field: (vector name prefix, field, the base document with a value in it).
_INT_FIELDS: tuple[tuple[str, str, Callable[[bytes], bytes]], ...] = (
    ("version", "task_spec_version", lambda v: line(b"task_spec_version", v)),
    ("timeout", "verification.timeout_seconds", lambda v: line(b"    timeout_seconds", v)),
    ("signal", "difficulty_signals value", lambda v: _signal(b"    v: " + v + b"\n")),
)


def _rejected() -> list[Doc]:
    docs: list[Doc] = []

    def validate(name: str, note: str, data: bytes) -> None:
        docs.append(Doc(name, note, data, "validate"))

    def decode(name: str, note: str, data: bytes) -> None:
        docs.append(Doc(name, note, data, "decode"))

    # -- Validate rule 1: task_spec_version ------------------------------------
    validate("version-0", "rule 1: version 0", line(b"task_spec_version", b"0"))
    validate("version-2", "rule 1: version 2", line(b"task_spec_version", b"2"))
    validate("version-99", "rule 1: version 99", line(b"task_spec_version", b"99"))
    validate("version-negative", "rule 1: version -1", line(b"task_spec_version", b"-1"))
    validate("version-missing", "rule 1: no task_spec_version (0)", without(b"task_spec_version"))
    validate("version-null", "rule 1: task_spec_version: ~ (0)", line(b"task_spec_version", b"~"))
    validate("version-hex", "rule 1: version 0x2 is 2", line(b"task_spec_version", b"0x2"))
    validate("version-float", "rule 1: version 2.0 is 2", line(b"task_spec_version", b"2.0"))
    validate(
        "version-int64-max",
        "rule 1: version 9223372036854775807",
        line(b"task_spec_version", b"9223372036854775807"),
    )
    # -- rule 2: task_id -------------------------------------------------------
    validate("task-id-missing", "rule 2: no task_id", without(b"task_id"))
    validate("task-id-empty", 'rule 2: task_id: ""', line(b"task_id", b'""'))
    validate(
        "task-id-no-value",
        "rule 2: task_id: (null)",
        edit((b"task_id: kg-go-impl-mathx-gcd", b"task_id:")),
    )
    validate("task-id-spaces", "rule 2: task_id of spaces", line(b"task_id", b"'   '"))
    validate(
        "task-id-whitespace-escapes",
        "rule 2: task_id of ASCII white space",
        line(b"task_id", b'"\\n\\t \\r\\v\\f"'),
    )
    validate("task-id-nbsp", "rule 2: TrimSpace removes NBSP", line(b"task_id", b'"\\u00a0"'))
    validate("task-id-nel", "rule 2: TrimSpace removes NEL", line(b"task_id", b'"\\N"'))
    validate("task-id-ideographic-space", "rule 2: U+3000", line(b"task_id", b'"\\u3000 \\u2029"'))
    validate(
        "task-id-block-blank", "rule 2: task_id: |+ of blank lines", line(b"task_id", b"|+\n\n")
    )
    # -- rule 3: language ------------------------------------------------------
    validate("language-missing", 'rule 3: no language ("")', without(b"language"))
    validate("language-cobol", "rule 3: unknown language", line(b"language", b"cobol"))
    validate("language-case", "rule 3: case matters (Go)", line(b"language", b"Go"))
    validate("language-upper", "rule 3: case matters (PYTHON)", line(b"language", b"PYTHON"))
    validate("language-padded", "rule 3: quoted with a space", line(b"language", b'"go "'))
    validate("language-null", 'rule 3: language: ~ ("")', line(b"language", b"~"))
    validate("language-tab", "rule 3: %q escapes a tab", line(b"language", b'"g\\to"'))
    validate(
        "language-unicode", "rule 3: %q keeps printable runes", line(b"language", b"g\xc3\xb6")
    )
    validate("language-emoji", "rule 3: %q keeps an emoji", line(b"language", b"\xf0\x9f\x90\x8d"))
    validate("language-zwsp", "rule 3: %q escapes U+200B", line(b"language", b'"go\\u200b"'))
    validate("language-nel", "rule 3: %q escapes U+0085", line(b"language", b'"go\\N"'))
    validate("language-control", "rule 3: %q escapes \\x7f", line(b"language", b'"go\\x7f"'))
    validate("language-quote", "rule 3: %q escapes a quote", line(b"language", b"'say \"go\"'"))
    validate("language-number", 'rule 3: language: 3 is "3"', line(b"language", b"3"))
    # -- rule 4: difficulty ----------------------------------------------------
    validate("difficulty-missing", "rule 4: no difficulty", without(b"difficulty"))
    validate("difficulty-case", "rule 4: Medium", line(b"difficulty", b"Medium"))
    validate("difficulty-unknown", "rule 4: extreme", line(b"difficulty", b"extreme"))
    validate("difficulty-bool-like", "rule 4: yes is a string", line(b"difficulty", b"yes"))
    # -- rule 5: generated_from.kind -------------------------------------------
    validate("kind-missing", "rule 5: no kind", without(b"    kind"))
    validate("kind-upper", "rule 5: KG_TEMPLATE", line(b"    kind", b"KG_TEMPLATE"))
    validate("kind-dash", "rule 5: kg-template", line(b"    kind", b"kg-template"))
    validate("generated-from-missing", "rule 5: no generated_from", edit((_GENERATED_FROM, b"")))
    validate(
        "generated-from-null",
        "rule 5: generated_from: null",
        edit((_GENERATED_FROM, b"generated_from: null\n")),
    )
    validate(
        "generated-from-empty",
        "rule 5: generated_from: {}",
        edit((_GENERATED_FROM, b"generated_from: {}\n")),
    )
    # -- rule 6: prompt --------------------------------------------------------
    validate("prompt-missing", "rule 6: no prompt", without(b"prompt"))
    validate("prompt-empty", "rule 6: prompt: ''", line(b"prompt", b"''"))
    validate("prompt-whitespace", 'rule 6: "\\n\\t " is empty', line(b"prompt", b'"\\n\\t "'))
    validate(
        "prompt-literal-blank", "rule 6: literal block of blank lines", line(b"prompt", b"|+\n\n\n")
    )
    validate(
        "prompt-folded-blank", "rule 6: folded block, spaces only", line(b"prompt", b">\n    \n")
    )
    validate("prompt-ogham-space", "rule 6: U+1680 is space", line(b"prompt", b'"\\u1680\\u202f"'))
    # -- rule 7: verification.test_cmd -----------------------------------------
    validate("test-cmd-missing", "rule 7: no test_cmd", edit((_TEST_CMD, b"")))
    validate("test-cmd-empty", "rule 7: test_cmd: []", edit((_TEST_CMD, b"    test_cmd: []\n")))
    validate("test-cmd-null", "rule 7: test_cmd: ~", edit((_TEST_CMD, b"    test_cmd: ~\n")))
    validate("verification-missing", "rule 7: no verification", edit((_VERIFICATION, b"")))
    validate(
        "verification-null", "rule 7: verification: ~", edit((_VERIFICATION, b"verification: ~\n"))
    )
    validate(
        "verification-empty",
        "rule 7: verification: {}",
        edit((_VERIFICATION, b"verification: {}\n")),
    )
    # -- rule 8: verification.timeout_seconds ----------------------------------
    validate("timeout-negative", "rule 8: -1", line(b"    timeout_seconds", b"-1"))
    validate(
        "timeout-int64-min",
        "rule 8: int64 minimum",
        line(b"    timeout_seconds", b"-9223372036854775808"),
    )
    validate("timeout-negative-hex", "rule 8: -0x10", line(b"    timeout_seconds", b"-0x10"))
    validate("timeout-negative-float", "rule 8: -1.0 is -1", line(b"    timeout_seconds", b"-1.0"))
    validate("timeout-negative-exponent", "rule 8: -1e3", line(b"    timeout_seconds", b"-1e3"))
    # -- first failure wins ----------------------------------------------------
    validate(
        "first-failure-version",
        "rules 1 and 2 fail: Go reports rule 1",
        edit(
            (b"task_spec_version: 1", b"task_spec_version: 3"),
            (b"task_id: kg-go-impl-mathx-gcd", b"task_id: ''"),
        ),
    )
    validate(
        "first-failure-language",
        "rules 3, 4 and 5 fail: Go reports rule 3",
        edit(
            (b"language: go", b"language: rust"),
            (b"difficulty: medium", b"difficulty: brutal"),
            (b"kind: kg_template", b"kind: scraped"),
        ),
    )
    validate(
        "first-failure-prompt",
        "rules 6, 7 and 8 fail: Go reports rule 6",
        edit(
            (b"prompt: Implement mathx.GCD.", b"prompt: ' '"),
            (_TEST_CMD, b""),
            (b"timeout_seconds: 120", b"timeout_seconds: -5"),
        ),
    )
    # -- documents that decode to the zero spec --------------------------------
    validate("document-null", "a null document decodes to the zero spec", b"null\n")
    validate("document-tilde", "a ~ document decodes to the zero spec", b"~\n")
    validate("document-empty-mapping", "{} decodes to the zero spec", b"{}\n")
    validate("document-marker-only", "--- alone is a null document", b"---\n")
    validate("document-two-empty", "two empty documents: the first is null", b"---\n---\n")
    validate(
        "document-first-incomplete",
        "Go reads only the first document, which lacks task_id",
        b"task_spec_version: 1\n---\n" + BASE[BASE.index(b"task_id") :],
    )

    # -- unknown keys at every depth -------------------------------------------
    decode("unknown-top", "unknown top-level key", BASE + b"bogus: 1\n")
    decode("unknown-top-misspelled", "taskid for task_id", edit((b"task_id:", b"taskid:")))
    decode("unknown-top-case", "keys are case-sensitive", edit((b"prompt:", b"Prompt:")))
    decode("unknown-top-dash", "task-id for task_id", edit((b"task_id:", b"task-id:")))
    decode("unknown-top-quoted", "a quoted unknown key", BASE + b'"bogus": 1\n')
    decode("unknown-top-empty-key", 'the key ""', BASE + b'"": 1\n')
    decode("unknown-top-int-key", "the key 1", BASE + b"1: x\n")
    decode(
        "unknown-generated-from",
        "unknown key in generated_from",
        edit((b"    kind:", b"    bogus: 1\n    kind:")),
    )
    decode(
        "unknown-kg-query",
        "unknown key in kg_query",
        edit((b"        intent:", b"        bogus: 1\n        intent:")),
    )
    decode(
        "unknown-artifact",
        "unknown key in a solution artifact",
        edit((b"      role: target\n", b"      role: target\n      sha: abc\n")),
    )
    decode(
        "unknown-second-artifact",
        "unknown key in the second artifact",
        edit(
            (b"      role: target\n", b"      role: target\n    - path: b.go\n      kind: test\n")
        ),
    )
    decode(
        "unknown-verification",
        "unknown key in verification",
        edit((b"    timeout_seconds: 120\n", b"    timeout_seconds: 120\n    retries: 3\n")),
    )
    decode(
        "unknown-flow",
        "unknown key in a flow mapping",
        edit((_GENERATED_FROM, b"generated_from: {kind: kg_template, extra: 1}\n")),
    )
    decode("unknown-old-field", "a field from another version", BASE + b"hidden_tests: [a]\n")
    # -- duplicate keys ---------------------------------------------------------
    decode("duplicate-top", "task_id twice", BASE + b"task_id: again\n")
    decode("duplicate-top-quoted", 'task_id and "task_id"', BASE + b'"task_id": again\n')
    decode(
        "duplicate-kind",
        "generated_from.kind twice",
        edit((b"    kind: kg_template\n", b"    kind: kg_template\n    kind: benchmark_seed\n")),
    )
    decode(
        "duplicate-intent",
        "kg_query.intent twice",
        edit((b"        seed_symbol:", b"        intent: again\n        seed_symbol:")),
    )
    decode(
        "duplicate-path",
        "an artifact's path twice",
        edit((b"      role: target\n", b"      role: target\n      path: b.go\n")),
    )
    decode(
        "duplicate-test-cmd",
        "verification.test_cmd twice",
        edit((b"    timeout_seconds: 120\n", b"    timeout_seconds: 120\n    test_cmd: [make]\n")),
    )
    decode("duplicate-signal", "a signal key twice", _signal(b"    edge_count: 10\n"))
    decode("duplicate-signal-quoted", 'a and "a" are one key', _signal(b'    a: 1\n    "a": 2\n'))
    decode("duplicate-signal-int", '1 and "1" are one key', _signal(b"    1: 1\n    '1': 2\n"))
    decode(
        "duplicate-flow",
        "a duplicate in a flow mapping",
        edit((_GENERATED_FROM, b"generated_from: {kind: kg_template, kind: benchmark_seed}\n")),
    )
    # -- type mismatches ---------------------------------------------------------
    decode("version-quoted", 'a quoted "1" is a string', line(b"task_spec_version", b'"1"'))
    decode("version-word", "version: one", line(b"task_spec_version", b"one"))
    decode("version-bool", "version: true", line(b"task_spec_version", b"true"))
    decode("version-sequence", "version: [1]", line(b"task_spec_version", b"[1]"))
    decode("version-mapping", "version: {v: 1}", line(b"task_spec_version", b"{v: 1}"))
    decode("version-str-tag", "!!str 1 is a string", line(b"task_spec_version", b"!!str 1"))
    decode("task-id-sequence", "task_id: [a, b]", line(b"task_id", b"[a, b]"))
    decode("task-id-mapping", "task_id: {a: b}", line(b"task_id", b"{a: b}"))
    decode("language-sequence", "language: [go]", line(b"language", b"[go]"))
    decode(
        "prompt-block-sequence",
        "prompt as a block sequence",
        line(b"prompt", b"\n    - a\n    - b"),
    )
    decode(
        "signals-sequence",
        "difficulty_signals: [a]",
        edit((_SIGNALS, b"difficulty_signals: [a]\n")),
    )
    decode("signals-scalar", "difficulty_signals: 5", edit((_SIGNALS, b"difficulty_signals: 5\n")))
    decode("signals-value-word", "a signal value x", _signal(b"    a: x\n"))
    decode("signals-value-quoted", 'a signal value "1"', _signal(b'    a: "1"\n'))
    decode("signals-value-bool", "a signal value true", _signal(b"    a: true\n"))
    decode("signals-value-sequence", "a signal value [1]", _signal(b"    a: [1]\n"))
    decode("signals-value-inf", "a signal value .inf", _signal(b"    a: .inf\n"))
    decode("signals-value-nan", "a signal value .nan", _signal(b"    a: .nan\n"))
    decode(
        "signals-value-overflow", "2^63 overflows int64", _signal(b"    a: 9223372036854775808\n")
    )
    decode("signals-value-huge-float", "1e19 is out of range", _signal(b"    a: 1e19\n"))
    decode("signals-value-huge-int", "20 digits", _signal(b"    a: 99999999999999999999\n"))
    decode("signals-complex-key", "a sequence as a key", _signal(b"    ? [a]\n    : 2\n"))
    decode("test-cmd-scalar", "test_cmd: go test", edit((_TEST_CMD, b"    test_cmd: go test\n")))
    decode(
        "test-cmd-mapping", "test_cmd: {go: test}", edit((_TEST_CMD, b"    test_cmd: {go: test}\n"))
    )
    decode(
        "test-cmd-nested",
        "a sequence item in test_cmd",
        edit((_TEST_CMD, b"    test_cmd:\n        - [go, test]\n")),
    )
    decode(
        "test-cmd-item-mapping",
        "a mapping item in test_cmd",
        edit((_TEST_CMD, b"    test_cmd:\n        - go: test\n")),
    )
    decode(
        "artifacts-mapping",
        "solution_artifacts as a mapping",
        edit(
            (
                b"    - path: mathx/gcd.go\n      role: target\n",
                b"    path: mathx/gcd.go\n    role: target\n",
            )
        ),
    )
    decode(
        "artifacts-scalar-item",
        "a scalar artifact",
        edit((b"    - path: mathx/gcd.go\n      role: target\n", b"    - mathx/gcd.go\n")),
    )
    decode("artifact-path-sequence", "path: [a]", edit((b"path: mathx/gcd.go", b"path: [a]")))
    decode(
        "verification-sequence", "verification: [a]", edit((_VERIFICATION, b"verification: [a]\n"))
    )
    decode(
        "verification-scalar",
        "verification: go test",
        edit((_VERIFICATION, b"verification: go test\n")),
    )
    decode(
        "generated-from-scalar",
        "generated_from: kg_template",
        edit((_GENERATED_FROM, b"generated_from: kg_template\n")),
    )
    decode(
        "kg-query-scalar",
        "kg_query: code_context",
        edit(
            (
                b"    kg_query:\n        intent: code_context\n        seed_symbol: mathx.GCD\n",
                b"    kg_query: code_context\n",
            )
        ),
    )
    decode(
        "kg-query-sequence",
        "kg_query: [a]",
        edit(
            (
                b"    kg_query:\n        intent: code_context\n        seed_symbol: mathx.GCD\n",
                b"    kg_query: [a]\n",
            )
        ),
    )
    decode("timeout-quoted", 'timeout_seconds: "120"', line(b"    timeout_seconds", b'"120"'))
    decode("timeout-duration", "timeout_seconds: 2m", line(b"    timeout_seconds", b"2m"))
    decode("timeout-bool", "timeout_seconds: true", line(b"    timeout_seconds", b"true"))
    decode(
        "timeout-sexagesimal", "1:20 is a string to yaml.v3", line(b"    timeout_seconds", b"1:20")
    )
    decode("timeout-inf", "timeout_seconds: .inf", line(b"    timeout_seconds", b".inf"))
    decode(
        "timeout-overflow",
        "2^63 overflows int64",
        line(b"    timeout_seconds", b"9223372036854775808"),
    )
    decode("timeout-huge-float", "1e19 is out of range", line(b"    timeout_seconds", b"1e19"))
    decode("timeout-str-tag", "!!str 5 is a string", line(b"    timeout_seconds", b"!!str 5"))
    decode("timeout-sequence", "timeout_seconds: [1]", line(b"    timeout_seconds", b"[1]"))
    decode("tag-float-mismatch", "!!float on a word", line(b"task_id", b"!!float abc"))
    decode("tag-bool-mismatch", "!!bool on a word", line(b"task_id", b"!!bool abc"))
    decode("tag-int-mismatch", "!!int on a word", line(b"    timeout_seconds", b"!!int abc"))
    decode("tag-null-mismatch", "!!null on a word", line(b"task_id", b"!!null abc"))
    for i, text in enumerate(INT_FORMS_REJECTED):
        decode(
            f"int-form-{i:02d}", f"signal value {text.decode()}", _signal(b"    v: " + text + b"\n")
        )
    decode(
        "int-tag-on-exponent",
        "yaml.v3 will not read the float 1e3 as !!int",
        _signal(b"    v: !!int 1e3\n"),
    )
    decode(
        "int-tag-on-float",
        "yaml.v3 will not read the float 1.0 as !!int",
        _signal(b"    v: !!int 1.0\n"),
    )
    decode("int-tag-on-null", "yaml.v3 will not read ~ as !!int", _signal(b"    v: !!int ~\n"))
    decode(
        "float-tag-on-null", "yaml.v3 will not read ~ as !!float", _signal(b"    v: !!float ~\n")
    )
    decode(
        "timeout-timestamp",
        "a date is a !!timestamp to yaml.v3",
        line(b"    timeout_seconds", b"2001-12-14"),
    )
    # -- libyaml 0.2 reads these; yaml.v3 does not ---------------------------------
    decode(
        "flow-question-mark",
        "'?' inside a plain scalar in [] ends it in yaml.v3",
        edit((_TEST_CMD, b"    test_cmd: [go?x, test]\n")),
    )
    decode(
        "flow-question-mark-end",
        "'?' at the end of a plain scalar in []",
        edit((_TEST_CMD, b"    test_cmd: [go, test?]\n")),
    )
    decode(
        "flow-url",
        "a URL with a query inside []",
        edit((_TEST_CMD, b"    test_cmd: [curl, http://x.y/z?q=1]\n")),
    )
    decode(
        "flow-question-mark-mapping",
        "'?' inside a plain scalar in {}",
        edit((_GENERATED_FROM, b"generated_from: {kind: kg_template, template_id: a?b}\n")),
    )
    decode(
        "bom-line-start-key",
        "a BOM before a top-level key",
        edit((b"\nprompt:", b"\n\xef\xbb\xbfprompt:")),
    )
    decode(
        "bom-line-start-comment",
        "a BOM before a comment line",
        edit((b"\nprompt:", b"\n\xef\xbb\xbf# c\nprompt:")),
    )
    decode(
        "bom-line-start-nested",
        "a BOM before an indented key",
        edit((b"verification:\n    build_cmd:", b"verification:\n\xef\xbb\xbf    build_cmd:")),
    )
    decode("bom-at-end", "a BOM at the end of the document", BASE + b"\xef\xbb\xbf")
    # -- tabs -----------------------------------------------------------------------
    decode(
        "tab-indent-nested", "a tab indents generated_from.kind", edit((b"    kind:", b"\tkind:"))
    )
    decode("tab-indent-top", "a tab before a top-level key", edit((b"\nprompt:", b"\n\tprompt:")))
    decode(
        "tab-indent-sequence",
        "a tab indents a sequence item",
        edit((b"        - test\n", b"\t- test\n")),
    )
    decode(
        "tab-after-spaces",
        "spaces then a tab as indentation",
        edit((b"    template_id:", b"  \t  template_id:")),
    )
    # -- bad indentation -------------------------------------------------------------
    decode(
        "indent-under",
        "template_id under-indented",
        edit((b"    template_id:", b"   template_id:")),
    )
    decode(
        "indent-over",
        "template_id over-indented",
        edit((b"    template_id:", b"     template_id:")),
    )
    decode(
        "indent-first-over",
        "a nested block's first key too deep",
        edit((b"    kind:", b"      kind:")),
    )
    decode(
        "indent-role",
        "role not aligned with path",
        edit((b"      role: target", b"       role: target")),
    )
    decode(
        "indent-sequence",
        "a sequence item out of line",
        edit((b"        - test\n", b"      - test\n")),
    )
    decode(
        "indent-top-key",
        "a top-level key indented by one space",
        edit((b"\nprompt:", b"\n prompt:")),
    )
    # -- malformed YAML ---------------------------------------------------------------
    decode("unclosed-single-quote", "an unclosed single quote", line(b"task_id", b"'abc"))
    decode("unclosed-double-quote", "an unclosed double quote", line(b"prompt", b'"abc'))
    decode(
        "unclosed-flow-sequence",
        "an unclosed flow sequence",
        edit((_TEST_CMD, b"    test_cmd: [go, test\n")),
    )
    decode(
        "unclosed-flow-mapping",
        "an unclosed flow mapping",
        edit((_GENERATED_FROM, b"generated_from: {kind: kg_template\n")),
    )
    decode("bad-escape", "an unknown escape \\q", line(b"prompt", b'"a\\qb"'))
    decode("escape-slash", "yaml.v3 does not know the escape \\/", line(b"prompt", b'"a\\/b"'))
    decode("colon-in-plain", "a: b: c", line(b"task_id", b"a: b"))
    decode("undefined-alias", "an alias with no anchor", line(b"task_id", b"*nowhere"))
    decode("stray-bracket", "a stray ]", line(b"task_id", b"]"))
    decode(
        "block-indicator-zero",
        "|0 is not an indentation indicator",
        line(b"prompt", b"|0\n    text"),
    )
    decode(
        "block-less-indented",
        "a block scalar line indented less than the first",
        line(b"prompt", b"|\n      a\n    b"),
    )
    decode(
        "sequence-after-mapping",
        "a sequence entry inside a mapping",
        edit((b"\nprompt:", b"\n- x\nprompt:")),
    )
    decode("yaml-version-2", "%YAML 2.0 is incompatible", b"%YAML 2.0\n---\n" + BASE)
    decode("yaml-directive-twice", "%YAML given twice", b"%YAML 1.1\n%YAML 1.1\n---\n" + BASE)
    decode("directive-without-marker", "a directive with no ---", b"%YAML 1.1\n" + BASE)
    decode("raw-control-character", "a raw U+0001", line(b"task_id", b"a\x01b"))
    decode("raw-nul", "a raw NUL byte", line(b"task_id", b"a\x00b"))
    decode("invalid-utf8", "a 0xff byte", line(b"task_id", b"\xffabc"))
    decode("truncated-utf8", "a cut multi-byte sequence", line(b"task_id", b"abc\xe2\x82"))
    decode(
        "raw-line-separator",
        "a raw U+2028 breaks a plain scalar",
        line(b"prompt", b"a\xe2\x80\xa8b: c"),
    )
    decode("document-end-only", "... with nothing before", b"...\n")
    decode("yaml-version-1.2", "yaml.v3 only accepts %YAML 1.1", b"%YAML 1.2\n---\n" + BASE)
    decode("marker-start-inline", "a block mapping cannot start on the --- line", b"--- " + BASE)
    # -- not a mapping --------------------------------------------------------------
    decode("document-scalar", "a plain scalar document", b"hello\n")
    decode("document-int", "an integer document", b"42\n")
    decode("document-bool", "a boolean document", b"true\n")
    decode("document-quoted", "a quoted scalar document", b'"task_spec_version: 1"\n')
    decode("document-block-sequence", "a block sequence document", b"- task_spec_version: 1\n")
    decode("document-flow-sequence", "an empty flow sequence", b"[]\n")
    decode("document-literal", "a literal block document", b"|\n  task_spec_version: 1\n")
    # -- empty input --------------------------------------------------------------------
    decode("empty", "no bytes at all", b"")
    decode("empty-newline", "one newline", b"\n")
    decode("empty-spaces", "spaces and a newline", b"   \n")
    decode("empty-comment", "a comment only", b"# nothing here\n")
    decode("empty-bom", "a BOM only", codecs.BOM_UTF8)
    decode("empty-crlf", "one CRLF", b"\r\n")
    # -- integers in other scripts' digits ----------------------------------------------
    # Go's integer syntax is ASCII only; Python's int() takes any Unicode digit.
    for name, field, make in _INT_FIELDS:
        for digit_name, text in NON_ASCII_DIGITS:
            decode(
                f"{name}-digits-{digit_name}",
                f"{field}: {text.decode()} ({digit_name}) is a string to yaml.v3",
                make(text),
            )
    # -- values too long for Python's int() (4300 digits) or out of Unicode ----------------
    decode(
        "version-5001-digits",
        "task_spec_version: 1 and 5000 zeros, alone",
        b"task_spec_version: 1" + b"0" * 5000,
    )
    decode(
        "timeout-5000-digits",
        "a negative 5000-digit timeout",
        line(b"    timeout_seconds", b"-" + b"9" * 5000),
    )
    decode(
        "signal-int-tag-5000-digits",
        "!!int on 5000 digits",
        _signal(b"    v: !!int " + b"1" * 5000 + b"\n"),
    )
    decode(
        "signal-float-tag-5000-digits",
        "!!float on 5000 digits",
        _signal(b"    v: !!float " + b"1" * 5000 + b"\n"),
    )
    decode(
        "signal-hex-10000-digits",
        "0x and 10000 hex digits",
        _signal(b"    v: 0x" + b"f" * 10000 + b"\n"),
    )
    decode("signal-exponent-huge", "1e999999 overflows float64", _signal(b"    v: 1e999999\n"))
    decode(
        "escape-beyond-unicode",
        "\\U80000000 is past U+10FFFF",
        line(b"task_id", b'"\\U80000000"'),
    )
    decode("escape-surrogate", "\\ud800 is a lone surrogate", line(b"task_id", b'"\\ud800"'))
    decode(
        "escape-surrogate-pair",
        "YAML escapes cannot spell a surrogate pair",
        line(b"task_id", b'"\\ud83d\\ude00"'),
    )
    # -- alias bombs and deep nesting ---------------------------------------------------
    decode("alias-bomb-merge", "billion laughs through merge keys", _alias_bomb_merges(9, 10))
    decode(
        "alias-bomb-sequence", "billion laughs of nested sequences", _alias_bomb_sequences(9, 10)
    )
    decode(
        "alias-bomb-unknown-key",
        "billion laughs under an unknown key",
        BASE
        + b"lol: [&a [x, x, x, x], &b [*a, *a, *a, *a], &c [*b, *b, *b, *b], [*c, *c, *c, *c]]\n",
    )
    decode(
        "deep-nesting", "20000 nested flow sequences", line(b"task_id", b"[" * 20000 + b"]" * 20000)
    )
    decode(
        "nesting-100",
        "100 nested flow sequences in test_cmd",
        edit((_TEST_CMD, b"    test_cmd: " + b"[" * 100 + b"]" * 100 + b"\n")),
    )
    return docs


REJECTED: tuple[Doc, ...] = tuple(_rejected())


def _reindent(doc: bytes, width: int) -> bytes:
    """BASE-shaped text with every 4-space indentation step turned into *width* spaces."""
    out = []
    for text in doc.split(b"\n"):
        stripped = text.lstrip(b" ")
        depth = len(text) - len(stripped)
        out.append(b" " * (depth // 4 * width + depth % 4) + stripped)
    return b"\n".join(out)


def _accepted() -> list[Doc]:
    docs: list[Doc] = []

    def accept(name: str, note: str, data: bytes) -> None:
        docs.append(Doc(name, note, data))

    accept("base", "the canonical base document itself", BASE)
    # -- flow style ---------------------------------------------------------------
    accept(
        "flow-one-line",
        "the whole document as one flow mapping",
        b"{task_spec_version: 1, task_id: t-1, language: python, difficulty: easy,"
        b" difficulty_signals: {b: 2, a: 1}, generated_from: {kind: benchmark_seed,"
        b" kg_query: {intent: i}}, prompt: Do it., solution_artifacts: [{path: a.py},"
        b" {path: b.py, role: test}], verification: {test_cmd: [pytest, -q]}}\n",
    )
    accept(
        "flow-multi-line",
        "a flow mapping spread over lines, with a trailing comma",
        b"{\n  task_spec_version: 1,\n  task_id: t-2,\n  language: typescript,\n"
        b"  difficulty: hard,\n  generated_from: {\n    kind: kg_template,\n  },\n"
        b'  prompt: "Fix\n    the bug.",\n  verification: {test_cmd: [npm,\n    test]},\n}\n',
    )
    accept(
        "flow-sequences",
        "block mapping with flow sequences and an empty flow mapping",
        edit(
            (
                b"    build_cmd:\n        - go\n        - build\n        - ./...\n",
                b"    build_cmd: [go, build, ./...]\n",
            ),
            (_TEST_CMD, b"    test_cmd: [ go , test , './mathx/...' ]\n"),
            (
                b"    kg_query:\n        intent: code_context\n        seed_symbol: mathx.GCD\n",
                b"    kg_query: {}\n",
            ),
        ),
    )
    # -- comments -----------------------------------------------------------------
    accept(
        "comments",
        "comments before, between, after and at the end of lines",
        b"# a task spec\n"
        + edit(
            (b"task_id: kg-go-impl-mathx-gcd\n", b"task_id: kg-go-impl-mathx-gcd # the id\n"),
            (b"generated_from:\n", b"   # an indented comment\ngenerated_from: # provenance\n"),
            (b"        - test\n", b"        # between items\n        - test #no space before\n"),
            (b"prompt: Implement mathx.GCD.\n", b"prompt: Implement mathx.GCD. # not part#of it\n"),
        )
        + b"# the end\n",
    )
    accept(
        "comment-hash-in-value",
        "a # without a space before it is part of the value",
        line(b"prompt", b"Use C# or F#; see issue#12"),
    )
    # -- indentation -----------------------------------------------------------------
    accept("indent-2", "2-space indentation", _reindent(BASE, 2))
    accept("indent-1", "1-space indentation", _reindent(BASE, 1))
    accept("indent-8", "8-space indentation", _reindent(BASE, 8))
    accept(
        "indent-sequence-flush",
        "sequence items not indented under their key",
        edit(
            (
                b"    - path: mathx/gcd.go\n      role: target\n",
                b"- path: mathx/gcd.go\n  role: target\n",
            ),
            (_TEST_CMD, b"    test_cmd:\n    - go\n    - test\n    - ./mathx/...\n"),
        ),
    )
    accept(
        "indent-mixed",
        "each block with its own indentation width",
        edit(
            (
                _GENERATED_FROM,
                b"generated_from:\n  kind: kg_template\n  template_id: impl-pure-fn\n"
                b"  kg_query:\n         intent: code_context\n         seed_symbol: mathx.GCD\n",
            ),
            (_TEST_CMD, b"    test_cmd:\n      -   go\n      -   test\n      -   ./mathx/...\n"),
        ),
    )
    # -- key order ---------------------------------------------------------------------
    reordered = b"".join(
        reversed(
            [
                b"task_spec_version: 1\n",
                b"task_id: kg-go-impl-mathx-gcd\n",
                b"language: go\n",
                b"difficulty: medium\n",
                _SIGNALS,
                _GENERATED_FROM,
                b"prompt: Implement mathx.GCD.\n",
                b"solution_artifacts:\n    - role: target\n      path: mathx/gcd.go\n",
                b"verification:\n    timeout_seconds: 120\n"
                + _TEST_CMD
                + b"    build_cmd: [go, build, ./...]\n",
            ]
        )
    )
    accept("key-order-reversed", "every mapping's keys in reverse order", reordered)
    accept(
        "key-order-signals",
        "signal keys in neither byte order nor yaml.v3 order",
        edit(
            (
                _SIGNALS,
                b"difficulty_signals:\n    z10: 1\n    a: 2\n    z9: 3\n    _: 4\n    A: 5\n",
            )
        ),
    )
    accept(
        "explicit-keys",
        "explicit ? keys",
        edit(
            (b"task_id: kg-go-impl-mathx-gcd\n", b"? task_id\n: kg-go-impl-mathx-gcd\n"),
            (b"    edge_count: 9\n", b"    ? edge_count\n    : 9\n"),
        ),
    )
    # -- quoting -------------------------------------------------------------------------
    accept(
        "quoting-single",
        "single-quoted values, with '' for a quote",
        edit(
            (b"task_id: kg-go-impl-mathx-gcd", b"task_id: 'kg-go-impl-mathx-gcd'"),
            (b"prompt: Implement mathx.GCD.", b"prompt: 'It''s \"GCD\": #1, {a}, [b], *c, &d'"),
            (b"      role: target", b"      role: ''"),
        ),
    )
    accept(
        "quoting-double-escapes",
        "double-quoted escapes of every kind",
        line(
            b"prompt",
            b'"tab\\there, nl\\n, \\x41\\u00e9\\U0001F600, \\"q\\", \\\\, '
            b"\\\t, \\0\\a\\b\\e\\f\\r\\v"
            b'\\N\\_\\L\\P, bell\\x07"',
        ),
    )
    accept(
        "quoting-keys",
        "quoted keys at every level",
        edit(
            (b"task_id:", b'"task_id":'),
            (b"    kind:", b"    'kind':"),
            (b"    edge_count: 9", b"    \"edge count\": 9\n    'x: y': 3"),
        ),
    )
    accept(
        "quoted-folding",
        "multi-line quoted scalars fold their line breaks",
        line(
            b"prompt",
            b'"first line\n    continued\n\n    new paragraph \\\n'
            b'    joined, trailing\\ \n    end"',
        ),
    )
    accept(
        "plain-multi-line",
        "a plain scalar over several lines",
        line(b"prompt", b"Implement the function\n    mathx.GCD so that\n\n    the tests pass."),
    )
    # -- anchors and aliases -------------------------------------------------------------
    accept(
        "anchors-sequence",
        "an anchored sequence reused through an alias",
        edit(
            (
                b"    build_cmd:\n        - go\n        - build\n        - ./...\n",
                b"    build_cmd: &cmd\n        - go\n        - test\n",
            ),
            (_TEST_CMD, b"    test_cmd: *cmd\n"),
        ),
    )
    accept(
        "anchors-scalars",
        "anchored scalars reused, in a string and an integer field",
        edit(
            (b"task_id: kg-go-impl-mathx-gcd", b"task_id: &id kg-go-impl-mathx-gcd"),
            (b"    cyclomatic_complexity: 4", b"    cyclomatic_complexity: &n 4\n    copy: *n"),
            (b"prompt: Implement mathx.GCD.", b"prompt: *id"),
            (b"timeout_seconds: 120", b"timeout_seconds: *n"),
        ),
    )
    accept(
        "anchors-mapping",
        "an anchored artifact reused",
        edit(
            (
                b"    - path: mathx/gcd.go\n      role: target\n",
                b"    - &art {path: mathx/gcd.go, role: target}\n    - *art\n",
            ),
        ),
    )
    accept(
        "anchor-on-key",
        "an anchor on a mapping key",
        edit((b"task_id: kg", b"&k task_id: kg")),
    )
    # -- block scalars ---------------------------------------------------------------------
    accept(
        "block-literal-clip",
        "| keeps one final newline",
        line(b"prompt", b"|\n    line one\n    line two\n\n"),
    )
    accept(
        "block-literal-strip",
        "|- drops final newlines",
        line(b"prompt", b"|-\n    line one\n\n    line three\n\n"),
    )
    accept(
        "block-literal-keep", "|+ keeps every final newline", line(b"prompt", b"|+\n    one\n\n\n")
    )
    accept(
        "block-folded",
        "> folds lines, keeps more-indented ones",
        line(b"prompt", b">\n    folded\n    text\n\n      indented\n    back\n"),
    )
    accept("block-folded-strip", ">- folds and strips", line(b"prompt", b">-\n    a\n    b\n"))
    accept(
        "block-indentation-indicator",
        "|2 with a more-indented first line",
        line(b"prompt", b"|2\n      starts indented\n    then not\n"),
    )
    accept(
        "block-in-sequence",
        "block scalars as sequence items and in a flow-free artifact",
        edit(
            (
                _TEST_CMD,
                b"    test_cmd:\n        - |\n          go test\n"
                b"        - >-\n          -run\n          X\n",
            ),
            (b"      role: target", b"      role: |-\n        multi\n        line"),
        ),
    )
    accept(
        "block-with-comment",
        "a comment after a block scalar's header and after its body",
        line(b"prompt", b"| # header comment\n    body\n# after\n"),
    )
    # -- document markers and directives --------------------------------------------------
    accept("marker-start", "--- before the document", b"---\n" + BASE)
    accept("marker-start-end", "--- and ...", b"--- # start\n" + BASE + b"...\n")
    accept("directive-yaml-1.1", "%YAML 1.1", b"%YAML 1.1\n---\n" + BASE)
    accept(
        "directive-tag",
        "%TAG mapping ! to a URI prefix, unused",
        b"%TAG !e! tag:example.com,2000:\n---\n" + BASE,
    )
    # -- line endings and BOM -------------------------------------------------------------
    accept("crlf", "CRLF line endings", BASE.replace(b"\n", b"\r\n"))
    accept(
        "crlf-block-scalar",
        "CRLF inside a literal block becomes LF",
        line(b"prompt", b"|\n    one\n    two\n").replace(b"\n", b"\r\n"),
    )
    accept("bom", "a UTF-8 byte order mark", codecs.BOM_UTF8 + BASE)
    accept("bom-crlf", "a BOM and CRLF", codecs.BOM_UTF8 + BASE.replace(b"\n", b"\r\n"))
    accept("no-final-newline", "no newline at the end", BASE.rstrip(b"\n"))
    accept("trailing-blank-lines", "blank lines and spaces at the end", BASE + b"\n   \n\n")
    accept(
        "tabs-as-separation",
        "tabs after colons and inside flow",
        edit(
            (b"task_id: kg", b"task_id:\tkg"),
            (_TEST_CMD, b"    test_cmd: [go,\ttest]\t\n"),
            (b"language: go", b"language: go\t"),
        ),
    )
    # -- empty and null optional blocks -------------------------------------------------
    accept(
        "minimal",
        "only the required fields",
        b"task_spec_version: 1\ntask_id: t\nlanguage: go\ndifficulty: easy\n"
        b"generated_from:\n    kind: kg_template\nprompt: p\nverification:\n    test_cmd: [go]\n",
    )
    accept(
        "null-optionals",
        "null for every optional field",
        b"task_spec_version: 1\ntask_id: t\nlanguage: go\ndifficulty: easy\ndifficulty_signals: ~\n"
        b"generated_from:\n    kind: kg_template\n    template_id:\n    kg_query: null\nprompt: p\n"
        b"solution_artifacts: ~\nverification:\n    build_cmd: Null\n    test_cmd: [go]\n"
        b"    timeout_seconds: NULL\n",
    )
    accept(
        "empty-optionals",
        "empty collections for optional fields; kg_query: {} stays present",
        b"task_spec_version: 1\ntask_id: t\nlanguage: go\ndifficulty: easy\n"
        b"difficulty_signals: {}\ngenerated_from:\n    kind: kg_template\n    template_id: ''\n"
        b"    kg_query: {}\nprompt: p\n"
        b"solution_artifacts: []\nverification:\n    build_cmd: []\n    test_cmd: [go]\n"
        b"    timeout_seconds: 0\n",
    )
    accept(
        "kg-query-null-fields",
        "kg_query with null fields is present but empty",
        edit(
            (
                b"        intent: code_context\n        seed_symbol: mathx.GCD\n",
                b"        intent: ~\n        seed_symbol: ''\n",
            )
        ),
    )
    accept(
        "artifact-empty-path",
        "an artifact with an empty path and null role",
        edit(
            (
                b"    - path: mathx/gcd.go\n      role: target\n",
                b"    - path: ''\n      role:\n    - {}\n",
            ),
        ),
    )
    # -- scalars that are not strings, in string fields -----------------------------------
    accept(
        "strings-from-other-types",
        "numbers, booleans, dates and nulls in string fields keep their text",
        edit(
            (b"task_id: kg-go-impl-mathx-gcd", b"task_id: 123"),
            (b"prompt: Implement mathx.GCD.", b"prompt: yes"),
            (b"template_id: impl-pure-fn", b"template_id: 1.50"),
            (b"intent: code_context", b"intent: 0x1F"),
            (b"seed_symbol: mathx.GCD", b"seed_symbol: 2001-12-14"),
            (b"role: target", b"role: true"),
            (
                b"    build_cmd:\n        - go\n        - build\n        - ./...\n",
                b"    build_cmd: [1, -1.5e3, .inf, TRUE, off, 0o17, 017, 1:20, '', !!str ~]\n",
            ),
        ),
    )
    accept(
        "string-tags",
        "!!str and ! tags on strings",
        edit(
            (b"task_id: kg-go-impl-mathx-gcd", b"task_id: !!str 123"),
            (b"prompt: Implement", b"prompt: ! Implement"),
        ),
    )
    accept(
        "string-verbatim-tag",
        "the verbatim !<tag:yaml.org,2002:str> tag",
        edit((b"task_id: kg-go-impl-mathx-gcd", b"task_id: !<tag:yaml.org,2002:str> 0x10")),
    )
    # -- integers --------------------------------------------------------------------------
    for name, text, note in (
        ("int-hex", b"0x10", "0x10 is 16"),
        ("int-octal-0o", b"0o17", "0o17 is 15"),
        ("int-octal-leading-zero", b"017", "017 is 15 to yaml.v3"),
        ("int-leading-zero-decimal", b"08", "08 is not octal: it reads as the float 8"),
        ("int-binary", b"0b1010", "0b1010 is 10"),
        ("int-plus", b"+120", "+120 is 120"),
        ("int-underscore", b"1_000", "yaml.v3 drops underscores"),
        ("int-exponent", b"1e3", "1e3 is 1000"),
        ("int-integral-float", b"120.0", "120.0 is 120"),
        ("int-max", b"9223372036854775807", "int64 maximum"),
        ("int-hex-max", b"0x7FFFFFFFFFFFFFFF", "int64 maximum in hex"),
        ("int-float-tag", b"!!float 5", "!!float 5 is 5"),
        ("int-int-tag", b"!!int 0x1F", "!!int 0x1F is 31"),
    ):
        accept(name, f"timeout_seconds: {note}", line(b"    timeout_seconds", text))
    for i, text in enumerate(INT_FORMS_ACCEPTED):
        accept(
            f"int-form-{i:02d}", f"signal value {text.decode()}", _signal(b"    v: " + text + b"\n")
        )
    accept(
        "int-signals",
        "signal values: extremes, null, negative zero, exponent",
        _signal(
            b"    min: -9223372036854775808\n    max: 9223372036854775807\n    none: ~\n"
            b"    neg_zero: -0\n    exp: 2.5e1\n    hex_neg: -0x10\n"
        ),
    )
    accept("version-forms", "task_spec_version: 0x1", line(b"task_spec_version", b"0x1"))
    accept("version-float", "task_spec_version: 1.0", line(b"task_spec_version", b"1.0"))
    # -- signal keys of other types -----------------------------------------------------------
    accept(
        "signal-keys-typed",
        "keys that are numbers, booleans, empty or null keep their text",
        _signal(b'    1: 1\n    true: 2\n    1.5: 3\n    0x10: 4\n    "": 5\n    n: 6\n'),
    )
    accept(
        "signal-key-block",
        "a literal block scalar as a key",
        _signal(b"    ? |\n        multi\n        line\n    : 3\n"),
    )
    accept("signal-value-alias", "an aliased signal value", _signal(b"    a: &v 11\n    b: *v\n"))
    # -- unicode and odd characters --------------------------------------------------------------
    accept(
        "unicode-plain",
        "emoji, CJK, NBSP and a tab inside plain scalars",
        edit(
            (b"prompt: Implement mathx.GCD.", "prompt: 实现 mathx.GCD 😀\u00a0done\u00a0".encode()),
            (b"role: target", b"role: a\tb"),
            (b"intent: code_context", "intent: caf\u00e9".encode()),
        ),
    )
    accept(
        "unicode-escaped-breaks",
        "escaped NEL, LS and PS stay in the string",
        line(b"prompt", b'"a\\Nb\\Lc\\Pd\\u2028e"'),
    )
    accept("long-line", "a 10000-character plain line", line(b"prompt", b"word " * 2000 + b"end"))
    return docs


ACCEPTED: tuple[Doc, ...] = tuple(_accepted())

#: Documents Go accepts that the Python decoder rejects on purpose. They are
#: written as accepted vectors; tests/conformance/stricter.json says why each
#: one is rejected.
STRICTER: tuple[Doc, ...] = (
    Doc("timeout-fraction", "yaml.v3 truncates 1.5 to 1", line(b"    timeout_seconds", b"1.5")),
    Doc(
        "version-fraction",
        "yaml.v3 truncates 1.9 to 1",
        line(b"task_spec_version", b"1.9"),
    ),
    Doc(
        "signal-float-two-to-63",
        "2^63 as a float wraps to the int64 minimum in yaml.v3",
        _signal(b"    wrap: 9.223372036854775807e18\n"),
    ),
    Doc(
        "signal-below-int64",
        "-9223372036854775809 rounds to the int64 minimum in yaml.v3",
        _signal(b"    low: -9223372036854775809\n"),
    ),
    Doc(
        "signal-huge-negative",
        "-1e300 becomes the int64 minimum in yaml.v3",
        _signal(b"    low: -1e300\n"),
    ),
    Doc("multi-document", "Go ignores a second document", BASE + b"---\nbogus: [1\n"),
    Doc("multi-document-valid", "Go ignores a second valid document", BASE + b"---\n" + BASE),
    Doc(
        "signal-keys-null-twice",
        "~ and null are the same key; Go keeps the last",
        _signal(b"    ~: 1\n    null: 2\n"),
    ),
    Doc(
        "signal-keys-empty-and-null", '"" and ~ are the same key', _signal(b'    "": 1\n    ~: 2\n')
    ),
    Doc(
        "merge-generated-from",
        "a merge key in generated_from",
        edit((b"    kind: kg_template\n", b"    <<: {kind: kg_template}\n")),
    ),
    Doc(
        "merge-artifact-alias",
        "a merge key taking an alias",
        edit(
            (
                b"    - path: mathx/gcd.go\n      role: target\n",
                b"    - &a {path: a.go, role: target}\n    - <<: *a\n      path: b.go\n",
            ),
        ),
    ),
    Doc("merge-signals", "a merge key in difficulty_signals", _signal(b"    <<: {extra: 1}\n")),
    Doc("tag-binary", "!!binary on a string field", line(b"task_id", b"!!binary aGVsbG8=")),
    Doc("tag-custom", "a local tag on a string field", line(b"task_id", b"!custom value")),
    Doc("tag-int-on-string", "!!int on a string field", line(b"task_id", b"!!int 5")),
    Doc(
        "tag-directive",
        "a %TAG shorthand used on a string field",
        b"%TAG !e! tag:example.com,2000:\n---\n" + line(b"task_id", b"!e!id value"),
    ),
    Doc(
        "tag-non-specific-int",
        "! 5 in an integer field: yaml.v3 reads 5",
        line(b"    timeout_seconds", b"! 5"),
    ),
    Doc(
        "tag-non-specific-int-bom",
        "! 5 in an integer field, after a BOM",
        codecs.BOM_UTF8 + line(b"    timeout_seconds", b"! 5"),
    ),
    Doc(
        "tag-timestamp-on-string",
        "!!timestamp on a string field",
        line(b"task_id", b"!!timestamp 2001-12-14"),
    ),
    Doc("tag-float-on-string", "!!float on a string field", line(b"task_id", b"!!float 1.5")),
    Doc("tag-bool-on-string", "!!bool on a string field", line(b"prompt", b"!!bool true")),
    Doc("tag-seq-on-scalar", "!!seq on a scalar string", line(b"task_id", b"!!seq x")),
    Doc("null-key-top", "~: 1 at the top level is skipped by yaml.v3", BASE + b"~: 1\n"),
    Doc("null-key-top-value", "null: [x] at the top level is skipped", BASE + b"null: [x]\n"),
    Doc("null-key-empty", "an empty explicit key is skipped", BASE + b"? \n: 1\n"),
    Doc(
        "null-key-nested",
        "~: x in generated_from is skipped",
        edit((b"    kind: kg_template\n", b"    kind: kg_template\n    ~: x\n")),
    ),
    Doc(
        "null-key-deep-nesting",
        "yaml.v3 skips 1100 nested sequences under a null key without reading them",
        BASE + b"~: " + b"[" * 1100 + b"]" * 1100 + b"\n",
    ),
    Doc("null-key-signal", "~: 7 in difficulty_signals is dropped", _signal(b"    ~: 7\n")),
    Doc("null-key-tagged", "a !!null key is skipped", _signal(b"    !!null : 7\n")),
    Doc(
        "null-item-test-cmd",
        "null items in test_cmd are dropped",
        edit((_TEST_CMD, b"    test_cmd: [go, ~, test, null]\n")),
    ),
    Doc(
        "null-item-block",
        "an empty block sequence item is dropped",
        edit((_TEST_CMD, b"    test_cmd:\n        - go\n        -\n        - test\n")),
    ),
    Doc(
        "null-item-artifact",
        "a null artifact is dropped",
        edit((b"    - path: mathx/gcd.go\n", b"    - ~\n    - path: mathx/gcd.go\n")),
    ),
    Doc("int-form-fraction", "1e-2 is truncated to 0", _signal(b"    v: 1e-2\n")),
    Doc(
        "int-form-fraction-tiny",
        "1.00000000000000001 is 1.0 as a float64",
        _signal(b"    v: 1.00000000000000001\n"),
    ),
    Doc(
        "float-inexact-exponent",
        "9.2233720368547748e18 becomes 9223372036854774784",
        _signal(b"    v: 9.2233720368547748e18\n"),
    ),
    Doc(
        "float-inexact-decimal",
        "9007199254740993.0 becomes 2^53",
        _signal(b"    v: 9007199254740993.0\n"),
    ),
    Doc(
        "float-tag-inexact",
        "!!float 12345678901234567 becomes 12345678901234568",
        _signal(b"    v: !!float 12345678901234567\n"),
    ),
    Doc(
        "float-tag-wraps",
        "!!float 0x7FFFFFFFFFFFFFFF becomes 2^63, stored as the int64 minimum",
        _signal(b"    v: !!float 0x7FFFFFFFFFFFFFFF\n"),
    ),
    Doc(
        "signal-negative-infinity",
        "-.Inf becomes the int64 minimum in yaml.v3",
        _signal(b"    v: -.Inf\n"),
    ),
    Doc("int-form-fraction-leading-zero", "09.5 is truncated to 9", _signal(b"    v: 09.5\n")),
    Doc(
        "bom-line-start-flow",
        "yaml.v3 keeps a BOM that starts a line inside [] as text; libyaml skips it",
        edit((_TEST_CMD, b"    test_cmd: [go,\n\xef\xbb\xbftest]\n")),
    ),
    Doc(
        "flow-colon-end",
        "yaml.v3 reads [go, a:, c] as three strings",
        edit((_TEST_CMD, b"    test_cmd: [go, a:, c]\n")),
    ),
    Doc("document-end-then-text", "Go stops reading at ...", BASE + b"...\ntrailing: text\n"),
    Doc(
        "second-document-yaml-1.2",
        "Go never reads the second document's %YAML 1.2",
        BASE + b"...\n%YAML 1.2\n---\na: 1\n",
    ),
    Doc("utf16-le", "UTF-16LE with a BOM", codecs.BOM_UTF16_LE + BASE.decode().encode("utf-16-le")),
    Doc("utf16-be", "UTF-16BE with a BOM", codecs.BOM_UTF16_BE + BASE.decode().encode("utf-16-be")),
)

#: Documents Go rejects in Validate that the Python decoder rejects earlier,
#: for one of the reasons in tests/conformance/stricter.json.
STRICTER_REJECTED: tuple[Doc, ...] = (
    Doc(
        "timeout-negative-fraction",
        "yaml.v3 truncates -1.5 to -1, then Validate fails",
        line(b"    timeout_seconds", b"-1.5"),
        "validate",
    ),
    Doc(
        "timeout-huge-negative",
        "yaml.v3 turns -1e300 into the int64 minimum, then Validate fails",
        line(b"    timeout_seconds", b"-1e300"),
        "validate",
    ),
    Doc(
        "version-fraction-2",
        "yaml.v3 truncates 2.5 to 2, then Validate fails",
        line(b"task_spec_version", b"2.5"),
        "validate",
    ),
)
