"""The documents of the shared problem table, ``tests/contract/problems.json``.

Each case is a document (YAML, proto3 JSON or binary protobuf) and every
problem the contract says it has, in the Problem shape of
``proto/taskspec/v1/problems.proto``. The Python suite, the Go suite and
the CLI's ``--format json`` all read the table and must give exactly these
lists; for a YAML syntax problem the code, line, message and hint are
compared, and for every other problem the column too (see
``docs/problems.md``).

The documents are made here, as edits of one valid sidecar, so that a case
says in one line what it gets wrong. The expected problems are recorded by
``python -m tests.contract.problem_cases`` (``make problems``) and reviewed
in the diff like any golden file: recording never changes a case's problems
silently, since the Go suite checks the same file independently.
"""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLE = HERE / "problems.json"

BASE = (HERE.parent / "conformance" / "sources" / "accepted" / "base.yaml").read_bytes()


#: Blocks of BASE that many cases replace whole.
TEST_CMD = "    test_cmd:\n        - go\n        - test\n        - ./mathx/..."
KG_QUERY = "    kg_query:\n        intent: code_context\n        seed_symbol: mathx.GCD"
GENERATED_FROM = (
    "generated_from:\n    kind: kg_template\n    template_id: impl-pure-fn\n" + KG_QUERY
)
VERIFICATION = (
    "verification:\n    build_cmd:\n        - go\n        - build\n        - ./...\n"
    + TEST_CMD
    + "\n    timeout_seconds: 120\n"
)
TIMEOUT = "    timeout_seconds: 120"


#: A sidecar whose double-quoted prompt on line 6 holds a raw NEL and a raw
#: LINE SEPARATOR, which YAML 1.1 readers count as line breaks and editors
#: do not: its problems are on lines 8 and 9, as an editor numbers them.
NINE_LINES = (
    "task_spec_version: 1\n"
    "task_id: fix-split-lines\n"
    "language: python\n"
    "difficulty: easy\n"
    "generated_from: {kind: benchmark_seed}\n"
    'prompt: "Make split_lines end a line at a raw\x85NEL and a raw\u2028LINE SEPARATOR."\n'
    "verification: {test_cmd: [pytest, -q]}\n"
    "bogus: 1\n"
    "languag: python\n"
)


def edit(old: str, new: str) -> bytes:
    """BASE with *old* (which must occur exactly once) replaced by *new*."""
    src = BASE.decode()
    assert src.count(old) == 1, old
    return src.replace(old, new, 1).encode()


def edits(*pairs: tuple[str, str]) -> bytes:
    src = BASE.decode()
    for old, new in pairs:
        assert src.count(old) == 1, old
        src = src.replace(old, new, 1)
    return src.encode()


def _yaml_cases() -> Iterator[tuple[str, bytes]]:
    yield "valid", BASE
    yield (
        "valid-flow",
        (
            b"{task_spec_version: 1, task_id: t, language: go, difficulty: easy, generated_from: "
            b"{kind: kg_template}, prompt: p, verification: {test_cmd: [go, test]}}\n"
        ),
    )
    # Unknown keys: a misspelling at every level (with its did-you-mean), and keys with no guess.
    for old, new in (
        ("task_spec_version:", "task_spec_versoin:"),
        ("task_id:", "taskid:"),
        ("task_id:", "TaskID:"),
        ("language:", "lang:"),
        ("language:", "langauge:"),
        ("difficulty:", "dificulty:"),
        ("difficulty_signals:", "difficulty_signal:"),
        ("generated_from:", "generated_frm:"),
        ("generated_from:", "generatedFrom:"),
        ("    kind:", "    knd:"),
        ("    template_id:", "    template:"),
        ("    template_id:", "    tempalte_id:"),
        ("    kg_query:", "    kg_qery:"),
        ("        intent:", "        intnet:"),
        ("        seed_symbol:", "        seed_sym:"),
        ("prompt:", "promt:"),
        ("solution_artifacts:", "solution_artifact:"),
        ("    - path:", "    - pth:"),
        ("      role:", "      rol:"),
        ("verification:", "verifcation:"),
        ("    build_cmd:", "    build_command:"),
        ("    test_cmd:", "    test_cmds:"),
        ("    timeout_seconds:", "    timeout_secs:"),
    ):
        yield f"unknown-key-{new.strip(' -:')}", edit(old, new)
    yield "unknown-key-no-guess-top", edit("prompt:", "owner: me\nprompt:")
    yield (
        "unknown-key-no-guess-deep",
        edit(TIMEOUT, "    retries: 3\n    timeout_seconds: 120"),
    )
    yield (
        "unknown-keys-three",
        edits(
            ("task_id:", "taskid:"),
            ("    kind:", "    knd:"),
            ("    timeout_seconds:", "    timeout:"),
        ),
    )
    # The new user's file: a misspelt key, a misspelt enum value, a wrong case.
    yield (
        "new-user-file",
        edits(
            ("    timeout_seconds:", "    timeout_secs:"),
            ("language: go", "language: golang"),
            ("difficulty: medium", "difficulty: Medium"),
        ),
    )
    # Duplicate keys.
    for old, new in (
        ("task_id: kg-go-impl-mathx-gcd", "task_id: a\ntask_id: b"),
        ("prompt: Implement mathx.GCD.", "prompt: a\nprompt: b"),
        ("    kind: kg_template", "    kind: kg_template\n    kind: benchmark_seed"),
        ("        intent: code_context", "        intent: a\n        intent: b"),
        ("      role: target", "      role: a\n      role: b"),
        (TIMEOUT, "    timeout_seconds: 1\n    timeout_seconds: 2"),
        ("    edge_count: 9", "    edge_count: 9\n    edge_count: 10"),
    ):
        yield f"duplicate-key-{new.split(':')[0].strip()}", edit(old, new)
    yield (
        "duplicate-key-through-alias",
        edit(
            "    cyclomatic_complexity: 4\n    edge_count: 9",
            "    &k edge_count: 4\n    *k : 9",
        ),
    )
    # An alias is read or refused where it stands, on its own: a value refused
    # at its anchor is still read through an alias elsewhere, and the other
    # way round, and a collection read in two places keeps the refusals of
    # each apart.
    yield (
        "alias-refused-at-anchor-read-at-alias",
        edits(
            ("    edge_count: 9", "    edge_count: &p Implement it."),
            ("prompt: Implement mathx.GCD.", "prompt: *p"),
        ),
    )
    yield (
        "alias-read-at-anchor-refused-at-alias",
        edits(
            ("task_id: kg-go-impl-mathx-gcd", "task_id: &t kg-go-impl-mathx-gcd"),
            ("    edge_count: 9", "    edge_count: *t"),
        ),
    )
    yield (
        "alias-refused-at-anchor-duplicate-at-alias",
        edits(
            ("    edge_count: 9", "    edge_count: &p Implement it."),
            ("prompt: Implement mathx.GCD.", "prompt: Implement mathx.GCD.\nprompt: *p"),
        ),
    )
    yield (
        "alias-item-emptied-read-at-anchor",
        edits(
            ("task_id: kg-go-impl-mathx-gcd", "task_id: &t kg-go-impl-mathx-gcd"),
            ("      role: target", "      role: target\n    - *t"),
        ),
    )
    yield (
        "alias-mapping-read-under-another-message",
        edits(("generated_from:\n", "generated_from: &g\n"), (VERIFICATION, "verification: *g\n")),
    )
    # Values of the wrong type.
    for name, old, new in (
        ("task-id-sequence", "task_id: kg-go-impl-mathx-gcd", "task_id: [a]"),
        ("task-id-mapping", "task_id: kg-go-impl-mathx-gcd", "task_id: {a: b}"),
        ("version-string", "task_spec_version: 1", 'task_spec_version: "1"'),
        ("version-fraction", "task_spec_version: 1", "task_spec_version: 1.5"),
        ("version-bool", "task_spec_version: 1", "task_spec_version: true"),
        ("version-word", "task_spec_version: 1", "task_spec_version: one"),
        ("version-huge", "task_spec_version: 1", "task_spec_version: 99999999999999999999"),
        ("timeout-string", TIMEOUT, "    timeout_seconds: 2m"),
        ("timeout-sequence", TIMEOUT, "    timeout_seconds: [1]"),
        ("timeout-timestamp", TIMEOUT, "    timeout_seconds: 2001-12-14"),
        ("signal-string", "    edge_count: 9", "    edge_count: lots"),
        ("signal-null", "    edge_count: 9", "    edge_count: ~"),
        (
            "signals-sequence",
            "difficulty_signals:\n    cyclomatic_complexity: 4\n    edge_count: 9",
            "difficulty_signals: [4, 9]",
        ),
        ("signals-key-sequence", "    edge_count: 9", "    [a]: 9"),
        (
            "generated-from-string",
            GENERATED_FROM,
            "generated_from: kg_template",
        ),
        (
            "kg-query-sequence",
            KG_QUERY,
            "    kg_query: [a]",
        ),
        (
            "artifacts-mapping",
            "solution_artifacts:\n    - path: mathx/gcd.go\n      role: target",
            "solution_artifacts: {path: a}",
        ),
        ("artifact-string", "    - path: mathx/gcd.go\n      role: target", "    - mathx/gcd.go"),
        ("role-sequence", "      role: target", "      role: [target]"),
        (
            "test-cmd-string",
            TEST_CMD,
            "    test_cmd: go test ./...",
        ),
        ("test-cmd-item-mapping", "        - test\n", "        - {a: b}\n"),
        ("prompt-sequence", "prompt: Implement mathx.GCD.", "prompt: [a, b]"),
        ("root-sequence", "", "- a\n- b\n"),
        ("root-string", "", "task_spec_version: 1 and more\n"),
        ("empty", "", ""),
        ("comments-only", "", "# nothing here\n"),
        ("several-wrong-types", "task_id: kg-go-impl-mathx-gcd", "task_id: [a]\nlanguage_extra: 1"),
        # The Go package holds kg_query as a pointer, which yaml.v3 leaves nil
        # for a null-tagged node; generated_from, a value, reads as written.
        ("null-tagged-pointer-message", "    kg_query:\n", "    kg_query: !!null\n"),
        ("null-tagged-value-message", "generated_from:\n", "generated_from: !!null\n"),
    ):
        yield f"wrong-type-{name}", (edit(old, new) if old else new.encode())
    yield (
        "wrong-types-and-rules",
        edits(
            ("    edge_count: 9", "    edge_count: lots"),
            ("      role: target", "      role: [target]"),
            (TIMEOUT, "    timeout_seconds: -5"),
            ("language: go", "language: golang"),
        ),
    )
    # A '?' in a plain scalar inside [] is refused; one in a block plain scalar
    # that holds brackets ("12 [go?x]") is text, and reads as written.
    yield (
        "question-in-flow-and-in-block-scalar",
        edits((TEST_CMD, "    test_cmd: [go, a?b]"), (TIMEOUT, "    timeout_seconds: 12 [go?x]")),
    )
    # YAML the readers disagree on, or that loses data.
    for name, old, new in (
        ("null-item", "        - test\n", "        - ~\n"),
        ("null-key", "    edge_count: 9", "    ~: 9"),
        ("empty-key", "    edge_count: 9", "    : 9"),
        ("merge-key", "    edge_count: 9", "    <<: {a: 1}"),
        ("tag-on-string", "prompt: Implement mathx.GCD.", "prompt: !!binary aGVsbG8="),
        ("local-tag", "prompt: Implement mathx.GCD.", "prompt: !important fix it"),
        (
            "second-document",
            TIMEOUT,
            "    timeout_seconds: 120\n---\ntask_id: x",
        ),
        ("tagged-int", TIMEOUT, '    timeout_seconds: !!int "5"'),
        (
            "question-in-flow",
            TEST_CMD,
            "    test_cmd: [go, a?b]",
        ),
        (
            "colon-end-in-flow",
            TEST_CMD,
            "    test_cmd: [go, a:]",
        ),
        ("bom-at-line-start", "prompt: Implement mathx.GCD.", "\ufeffprompt: Implement mathx.GCD."),
        ("two-boms", "", "\ufeff\ufeff" + BASE.decode()),
        ("yaml-1-2", "", "%YAML 1.2\n---\n" + BASE.decode()),
        ("non-specific-tag-item", "        - test\n", "        - !\n"),
    ):
        yield f"unsupported-{name}", (edit(old, new) if old else new.encode())
    # YAML syntax problems, one per code of the mapping, and the prompt mistakes.
    prompt = "prompt: Implement mathx.GCD."
    for name, value in (
        ("backtick", "`gcd` must handle zero"),
        ("at", "@reviewer fix the build"),
        ("percent", "%d is the format"),
        ("star", "*bold* is required"),
        ("ampersand", "& then more"),
        ("pipe", "| use pipes"),
        ("greater", "> quoted reply"),
        ("bracket", "[WIP] fix the parser"),
        ("brace", "{name} must be filled"),
        ("double-quote", '"Hello" is the greeting'),
        ("single-quote", "'hello' is the greeting"),
        ("colon-space", "Note: keep the API"),
        ("colon-space-twice", "Steps: a: b"),
        ("list-item", "- first, read the code"),
    ):
        yield f"prompt-mistake-{name}", edit(prompt, f"prompt: {value}")
    for name, value in (
        ("backtick", "`make` test"),
        ("colon-space", "go test -run=a: b"),
        ("at", "@echo off"),
        ("list-item", "- -v"),
    ):
        yield f"command-mistake-{name}", edit("        - test\n", f"        - {value}\n")
    yield "syntax-over-indented-key", edit("language: go", "  language: go")
    yield (
        "syntax-under-indented-key",
        edit("    template_id: impl-pure-fn", "  template_id: impl-pure-fn"),
    )
    yield "syntax-tab-indent-key", edit("    edge_count: 9", "\tedge_count: 9")
    yield "syntax-tab-indent-item", edit("        - test\n", "    \t- test\n")
    yield "syntax-tab-after-item", edit("    kind: kg_template", "    kind: kg_template\n\t")
    # A tab before a flow entry is a separator to both readers; before a '- ' it is not.
    yield "syntax-tab-indent-flow-entry", edit(TEST_CMD, "    test_cmd: [go,\n\ttest, ./mathx/...]")
    yield "syntax-tab-indent-flow-item", edit(TEST_CMD, "    test_cmd: [go,\n\t- test]")
    yield "syntax-unclosed-double-quote", edit(prompt, 'prompt: "Implement mathx.GCD.')
    yield "syntax-unclosed-single-quote", edit(prompt, "prompt: 'Implement mathx.GCD.")
    yield "syntax-quote-inside-double", edit(prompt, 'prompt: "say "hi" now"')
    yield (
        "syntax-unclosed-flow-sequence",
        edit(
            TEST_CMD,
            "    test_cmd: [go, test",
        ),
    )
    yield (
        "syntax-unclosed-flow-mapping",
        edit(
            KG_QUERY,
            "    kg_query: {intent: code_context",
        ),
    )
    yield "syntax-unknown-escape", edit(prompt, 'prompt: "edit C:\\src\\main.go"')
    yield "syntax-bad-unicode-escape", edit(prompt, 'prompt: "bad \\ud800 escape"')
    yield "syntax-bad-hex-escape", edit(prompt, 'prompt: "bad \\xZZ escape"')
    # libyaml knows the JSON escape \/, yaml.v3 does not: a syntax error in both libraries.
    yield "syntax-slash-escape", edit(prompt, 'prompt: "see\n    docs\\/api"')
    yield "syntax-slash-escape-in-a-key", edit("task_id:", '"task\\/id":')
    yield "syntax-text-after-end-marker", BASE + b"...\nextra: text\n"
    yield "syntax-block-indicator-zero", edit(prompt, "prompt: |0\n    text")
    yield "syntax-block-header-text", edit(prompt, "prompt: |- text\n    more")
    yield "syntax-directive-no-document", b"%YAML 1.1\ntask_id: t\n"
    yield "syntax-duplicate-directive", b"%YAML 1.1\n%YAML 1.1\n---\ntask_id: t\n"
    yield "syntax-bad-tag-directive", b"%TAG !\n---\ntask_id: t\n"
    yield "syntax-undefined-alias", edit(prompt, "prompt: *nowhere")
    yield "syntax-alias-no-name", edit(prompt, "prompt: * x")
    yield "syntax-anchor-no-name", edit(prompt, "prompt: &")
    yield "syntax-tag-no-space", edit(prompt, "prompt: !<tag")
    yield "syntax-key-without-colon", edit("language: go", "language go")
    yield (
        "syntax-text-after-flow",
        edit(
            TEST_CMD,
            "    test_cmd: [go, test] extra",
        ),
    )
    yield "syntax-item-in-mapping", edit("language: go", "language: go\n- item")
    yield "syntax-document-marker-in-quote", edit(prompt, 'prompt: "abc\n---\n  def"')
    yield "syntax-control-character", edit(prompt, "prompt: ring \x07 the bell")
    yield "syntax-nul", edit(prompt, "prompt: a\x00b")
    # A control character past libyaml's first 16 KiB chunk, after a syntax
    # error: still the character, as the whole text is checked first.
    yield "syntax-control-character-past-a-syntax-error", (b"]\n" + b"a" * 20_000 + b"\x01\n")
    yield "syntax-sequence-entry-as-value", edit(prompt, "prompt: - step one")
    yield "syntax-lone-key", edit("language: go", "language: go\n? - a\n  - b\n: x")
    # Encodings.
    yield "encoding-latin-1", edit(prompt, "prompt: café").replace("é".encode(), b"\xe9")
    yield "encoding-stray-byte", BASE + b"\xff\n"
    yield "encoding-utf-16", "\ufefftask_id: t\n".encode("utf-16-le")
    yield "encoding-utf-32", "task_id: t\n".encode("utf-32")
    # Limits.
    yield "limit-depth", b"task_id: " + b"[" * 5000 + b"]" * 5000 + b"\n"
    bomb = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    bomb += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 7)]
    yield "limit-alias-bomb", ("\n".join(bomb) + "\n").encode()
    yield (
        "limit-alias-bomb-in-signals",
        edit("    edge_count: 9", "    edge_count: 9\n" + "\n".join("    " + b for b in bomb)),
    )
    # Broken rules.
    for name, old, new in (
        ("version-0", "task_spec_version: 1", "task_spec_version: 0"),
        ("version-2", "task_spec_version: 1", "task_spec_version: 2"),
        ("version-missing", "task_spec_version: 1\n", ""),
        ("task-id-blank", "task_id: kg-go-impl-mathx-gcd", 'task_id: "  "'),
        ("task-id-missing", "task_id: kg-go-impl-mathx-gcd\n", ""),
        ("language-unknown", "language: go", "language: cobol"),
        ("language-misspelt", "language: go", "language: golang"),
        ("language-case", "language: go", "language: Go"),
        ("language-empty", "language: go", 'language: ""'),
        ("language-missing", "language: go\n", ""),
        ("difficulty-unknown", "difficulty: medium", "difficulty: Medium"),
        ("difficulty-missing", "difficulty: medium\n", ""),
        ("kind-unknown", "    kind: kg_template", "    kind: template"),
        ("kind-missing", "    kind: kg_template\n", ""),
        ("prompt-blank", "prompt: Implement mathx.GCD.", 'prompt: "\\n\\t "'),
        ("prompt-missing", "prompt: Implement mathx.GCD.\n", ""),
        (
            "test-cmd-empty",
            TEST_CMD,
            "    test_cmd: []",
        ),
        (
            "test-cmd-missing",
            "    test_cmd:\n        - go\n        - test\n        - ./mathx/...\n",
            "",
        ),
        ("timeout-negative", TIMEOUT, "    timeout_seconds: -5"),
        (
            "verification-missing",
            VERIFICATION,
            "",
        ),
    ):
        yield f"rule-{name}", edit(old, new)
    yield (
        "rules-every-one",
        (
            b"task_spec_version: 3\ntask_id: ''\nlanguage: rust\ndifficulty: extreme\n"
            b"generated_from:\n    kind: manual\nprompt: ' '\nverification:\n    test_cmd: []\n"
            b"    timeout_seconds: -1\n"
        ),
    )
    yield "rules-empty-mapping", b"{}\n"
    # Missing keys (placed at line 1) and a value spelt wrong further down:
    # document order, not Validate's.
    yield (
        "rules-missing-and-unknown-enum",
        (b"task_spec_version: 1\ntask_id: t\nlanguage: python\ndifficulty: harx\n"),
    )
    # Warnings.
    yield "warning-path-parent", edit("    - path: mathx/gcd.go", "    - path: ../../etc/passwd")
    yield "warning-path-absolute", edit("    - path: mathx/gcd.go", "    - path: /etc/passwd")
    yield (
        "warning-path-and-negative-timeout",
        edits(
            ("    - path: mathx/gcd.go", "    - path: ../../etc/passwd"),
            (TIMEOUT, "    timeout_seconds: -1"),
        ),
    )
    yield (
        "warning-path-two",
        edit(
            "    - path: mathx/gcd.go\n      role: target",
            "    - path: /a\n      role: target\n    - path: b/../../c",
        ),
    )
    yield "warning-nel-in-prompt", edit(prompt, "prompt: wait\u0085 then go")
    # ' #' ends a plain prompt; two spaces before '#' are a comment meant as one.
    yield "warning-comment-ends-prompt", edit(prompt, "prompt: Fix issue #12 in the parser")
    yield (
        "warning-comment-ends-prompt-over-lines",
        edit(prompt, "prompt: Fix the parser,\n    see issue #12 first"),
    )
    yield "warning-comment-after-prompt-is-fine", edit(prompt, "prompt: Fix the parser  # issue 12")
    yield "warning-comment-in-quoted-prompt-is-fine", edit(prompt, 'prompt: "Fix issue #12"')
    yield "warning-ls-in-prompt", edit(prompt, 'prompt: "wait\u2028then go"')
    yield "warning-ps-in-command", edit("        - test\n", "        - 'te\u2029st'\n")
    yield "warning-nel-twice-one-field", edit(prompt, 'prompt: "a\u0085b\u0085c"')
    yield "warning-ls-plain-continued", edit(prompt, "prompt: wait\u2028    then go")
    yield (
        "warning-nel-and-path",
        edits(
            (prompt, "prompt: wait\u0085 then go"), ("    - path: mathx/gcd.go", "    - path: /etc")
        ),
    )
    yield "warning-nel-quoted-escape-is-fine", edit(prompt, 'prompt: "wait\\N then go"')
    yield "warning-prompt-has-test-cmd", edit(prompt, "prompt: Make go test ./mathx/... pass.")
    # Blank arguments are no words: "" and "" joined is a space, in every prompt.
    yield (
        "warning-prompt-blank-cmd-is-fine",
        edit("        - go\n        - build\n        - ./...\n", '        - ""\n        - " "\n'),
    )
    yield (
        "warning-prompt-has-both-cmds",
        edit(prompt, 'prompt: "Run go build ./... then go test ./mathx/..."'),
    )
    yield (
        "warning-prompt-has-cmd-and-path-and-nel",
        edits(
            (prompt, "prompt: go test ./mathx/...\u0085 passes"),
            ("    - path: mathx/gcd.go", "    - path: /etc"),
        ),
    )
    yield (
        "warning-prompt-cmd-spaced-otherwise-is-fine",
        edit(prompt, "prompt: go  test ./mathx/..."),
    )
    yield (
        "warning-prompt-one-word-cmd-is-fine",
        edits((prompt, "prompt: Run make."), (TEST_CMD, "    test_cmd:\n        - make")),
    )
    # Positions as editors count lines (LF, CR LF and CR end a line; NEL,
    # LS and PS do not, though YAML 1.1 readers break lines there), and
    # columns in characters: an astral one before a problem is one column.
    yield "position-nine-lines", NINE_LINES.encode()
    yield "position-nine-lines-crlf", NINE_LINES.replace("\n", "\r\n").encode()
    yield (
        "position-crlf-problem-after",
        BASE.decode().replace("\n", "\r\n").replace("role: target", "rol: target").encode(),
    )
    yield (
        "position-lone-cr-problem-after",
        BASE.decode().replace("\n", "\r").replace("role: target", "rol: target").encode(),
    )
    yield (
        "position-astral-before-problem",
        edit(
            GENERATED_FROM, 'generated_from: {x: "\U0001f600\u0085", kind: kg_template, kindd: 1}'
        ),
    )
    yield (
        "position-duplicate-key-after-nel",
        edits((prompt, 'prompt: "a\x85b"'), ("role: target", "role: target\n      role: x")),
    )
    yield "position-astral-before-bad-enum", edit("language: go", "language: \U0001f600go")
    for char, name in (("\x85", "nel"), ("\u2028", "ls"), ("\u2029", "ps")):
        yield f"raw-{name}-plain-value", edit(prompt, f"prompt: wait{char} then go")
        yield f"raw-{name}-plain-value-breaks-key", edit(prompt, f"prompt: wait{char}then go")
        yield f"raw-{name}-in-key", edit("task_id:", f"task{char}_id:")
        yield (
            f"raw-{name}-double-quoted",
            edits((prompt, f'prompt: "wait{char}then go"'), ("role: target", "rol: target")),
        )
        yield (
            f"raw-{name}-single-quoted",
            edits((prompt, f"prompt: 'wait{char}then go'"), ("role: target", "rol: target")),
        )
        yield (
            f"raw-{name}-block-scalar",
            edits((prompt, f"prompt: |\n    wait{char}then go"), ("role: target", "rol: target")),
        )
        yield (
            f"raw-{name}-block-scalar-indented",
            edits(
                (prompt, f"prompt: |\n    wait{char}    then go"), ("role: target", "rol: target")
            ),
        )
        yield (
            f"raw-{name}-comment",
            edits((prompt, f"prompt: wait  # then{char}go"), ("role: target", "rol: target")),
        )
    # A tag holding %00, a NUL, is refused where it starts: libyaml ends the
    # tag at the NUL ("!%00" is the non-specific "!", "!!str%00x" is
    # "!!str"), yaml.v3 keeps the whole tag.
    yield "unsupported-tag-with-nul", b"!0o%00o"
    yield "unsupported-tag-with-nul-bang", edit("task_id: kg-go", "task_id: !%00 kg-go")
    yield "unsupported-tag-with-nul-str", edit("task_id: kg-go", "task_id: !!str%00x kg-go")
    yield (
        "unsupported-tag-with-nul-verbatim",
        edit("task_id: kg-go", "task_id: !<tag:yaml.org,2002:str%00> kg-go"),
    )
    # %25 is the escape of '%': "%2500" holds no NUL.
    yield "unsupported-tag-escaped-percent", edit("task_id: kg-go", "task_id: !%2500 kg-go")
    yield from _bom_cases()


def _bom_cases() -> Iterator[tuple[str, bytes]]:
    """A raw U+FEFF (text pasted from a Windows file) as writers write it.

    Inside a quoted or block value both YAML readers read it as text: it is
    read, with warning TS305 at the character. Anywhere else past the start
    of a line it is refused, as one that starts a line is.
    """
    bom = "\ufeff"
    prompt = "prompt: Implement mathx.GCD."
    text = f"Implement{bom} mathx.GCD."
    # JSON writers leave U+FEFF raw: JSON.stringify writes no blanks
    # between tokens, json.dumps(ensure_ascii=False) a space after ':' and
    # ','. Both are flow YAML: the mark is in a double-quoted string.
    spec = json.loads(json.dumps(_yaml_value(BASE)))
    spec["prompt"] = text
    yield (
        "bom-json-stringify",
        (json.dumps(spec, ensure_ascii=False, separators=(",", ":")) + "\n").encode(),
    )
    yield "bom-json-dumps", (json.dumps(spec, ensure_ascii=False) + "\n").encode()
    yield (
        "bom-json-dumps-indented",
        (json.dumps(spec, ensure_ascii=False, indent=2) + "\n").encode(),
    )
    # YAML writers (ruamel.yaml, prettier, the npm yaml package) leave it raw
    # in a double- or single-quoted value or a literal or folded block.
    yield "bom-double-quoted", edit(prompt, f'prompt: "{text}"')
    yield (
        "bom-double-quoted-crlf",
        BASE.decode().replace(prompt, f'prompt: "{text}"').replace("\n", "\r\n").encode(),
    )
    yield "bom-single-quoted", edit(prompt, f"prompt: '{text}'")
    yield "bom-double-quoted-continued", edit(prompt, f'prompt: "Implement\n    {bom}mathx.GCD."')
    yield "bom-literal", edit(prompt, f"prompt: |\n    {text}\n    {bom}Then stop.")
    yield (
        "bom-literal-crlf",
        BASE.decode()
        .replace(prompt, f"prompt: |-\n    {text}\n    {bom}Then stop.")
        .replace("\n", "\r\n")
        .encode(),
    )
    yield "bom-folded", edit(prompt, f"prompt: >\n    {text}\n\n    {bom}Then stop.")
    yield "bom-in-command", edit("        - test\n", f'        - "te{bom}st"\n')
    yield "bom-twice-after-nel", edit(prompt, f'prompt: "a\x85b{bom}c{bom}"')
    # Read, with TS305: in a plain value, as the npm yaml package and
    # prettier write a string that starts with the mark.
    yield "bom-plain", edit(prompt, f"prompt: {text}")
    yield "bom-plain-start", edit(prompt, f"prompt: {bom}Implement.")
    # Refused: past the start of a line, outside a value.
    yield "unsupported-bom-comment", edit(prompt, f"{prompt}  # from{bom} Windows")
    yield "unsupported-bom-block-header", edit(prompt, f"prompt: |  # {bom}\n    {text}")
    yield (
        "unsupported-bom-after-block",
        edit(prompt, f"prompt: |\n        Implement.\n    # {bom}\nx_after: 1"),
    )
    yield "bom-key", edit(prompt, f"prompt{bom}: Implement.")
    yield "unsupported-bom-continued-line-start", edit(prompt, f'prompt: "Implement\n{bom}mathx."')
    yield "unsupported-bom-second-document", BASE + f"---\nx: '{bom}'\n".encode()
    yield "bom-plain-document", f"# a\n  {bom}# b\n".encode()


def _yaml_value(data: bytes) -> object:
    import yaml  # noqa: PLC0415 - only for the JSON cases

    return yaml.safe_load(data)


def _json_cases() -> Iterator[tuple[str, bytes]]:
    valid = (
        '{"taskSpecVersion": "1", "taskId": "t", "language": "LANGUAGE_GO", '
        '"difficulty": "DIFFICULTY_EASY", "generatedFrom": {"kind": "GENERATED_KIND_KG_TEMPLATE"}, '
        '"prompt": "p", "verification": {"testCmd": ["go", "test"]}}'
    )
    yield "json-valid", valid.encode()
    yield "json-empty", b""
    yield "json-trailing-comma", valid.replace('"p",', '"p",,').encode()
    # A trailing comma is placed at the closer after it (Python 3.13 alone says the comma).
    yield "json-trailing-comma-object", b'{\n  "taskId": "a",\n}\n'
    yield "json-trailing-comma-array", b'{"files": [1,\n   ]}'
    yield "json-unclosed-string", b'{"taskId": "t'
    yield "json-missing-colon", b'{"taskId" "t"}'
    yield "json-bare-word", b'{"taskId": t}'
    yield "json-extra-data", (valid + " {}").encode()
    yield "json-bad-escape", b'{"taskId": "\\q"}'
    # A \u escape without its four hex digits is placed at its backslash
    # (Python's json module says the u).
    yield "json-bad-unicode-escape", b'{"taskId": "\\u12"}'
    yield "json-second-byte-order-mark", b"\xef\xbb\xbf\xef\xbb\xbf{}"
    # A string a line break cuts off holds brackets past the depth limit:
    # they are text, and the reader stops at the line break.
    yield "json-cut-string-holds-brackets", b'{"generatedFrom": "x' + b"[" * 70 + b"\n}"
    yield "json-duplicate-key", b'{"taskId": "a", "taskId": "b"}'
    yield "json-lone-surrogate", valid.replace('"p"', '"\\ud800"').encode()
    # An integer literal of any length is read: past int64 it is out of
    # range, and elsewhere it is a number, shown clipped.
    yield "json-integer-too-long", b'{"taskSpecVersion": ' + b"1" * 4301 + b"}"
    yield "json-integer-too-long-for-a-string", b'{"taskId": -' + b"7" * 5000 + b"}"
    # A number is shown as the document writes it, not as its value.
    yield (
        "json-numbers-shown-as-written",
        b'{"taskId": 1E2, "taskSpecVersion": 1e30, "language": -0.0}',
    )
    # Lone surrogates anywhere: an enum's name, a map's key (the map is left
    # out), an unknown key (shown as U+FFFD, as UTF-8 readers decode it), and
    # keys that differ only in their lone surrogates (the same key).
    yield "json-lone-surrogate-enum", valid.replace('"LANGUAGE_GO"', '"\\udc00"').encode()
    yield "json-lone-surrogate-map-key", b'{"difficultySignals": {"a": 1, "\\ud800": 2}}'
    yield "json-lone-surrogate-unknown-key", b'{"generatedFrom": {"\\ud801x": 1}}'
    yield "json-lone-surrogates-one-key", b'{"\\ud800": 1, "\\udc00": 2}'
    # A string shown in a message shows a lone surrogate as U+FFFD too.
    yield "json-lone-surrogate-shown", b'{"difficultySignals": {"a": "1\\ud8004"}}'
    yield "json-integer-string-too-long", b'{"taskSpecVersion": "' + b"9" * 4301 + b'"}'
    # The contract's depth limit holds in JSON as in YAML: refused at the
    # bracket that goes past it, after a problem met before it.
    yield "json-too-deep", b'{"generatedFrom":\n  ' + b"[" * 70 + b"]" * 70 + b"}"
    yield "json-deep-at-the-limit", b'{"x": ' + b"[" * 63 + b"]" * 63 + b"}"
    yield "json-syntax-before-too-deep", b'{"taskId": t, "x": ' + b"[" * 70 + b"]" * 70 + b"}"
    yield "json-control-character", b'{"taskId": "a\x01b"}'
    yield "json-single-quotes", b"{'taskId': 't'}"
    yield "json-unknown-field", valid.replace('"prompt"', '"promt"').encode()
    yield (
        "json-unknown-field-no-guess",
        valid.replace('"prompt": "p", ', '"prompt": "p", "owner": 1, ').encode(),
    )
    yield (
        "json-given-twice",
        valid.replace('"taskId": "t"', '"taskId": "t", "task_id": "u"').encode(),
    )
    yield "json-wrong-type", valid.replace('"prompt": "p"', '"prompt": 5').encode()
    yield "json-bad-enum", valid.replace("LANGUAGE_GO", "LANGUAGE_COBOL").encode()
    yield "json-rules", b'{"taskSpecVersion": "1"}'
    yield (
        "json-prompt-has-test-cmd",
        valid.replace('"prompt": "p"', '"prompt": "run go test"').encode(),
    )
    yield (
        "json-path-warning",
        valid.replace(
            '"prompt": "p"', '"prompt": "p", "solutionArtifacts": [{"path": "../x"}]'
        ).encode(),
    )


def _binpb_cases() -> Iterator[tuple[str, bytes]]:
    yield "binpb-empty", b""
    yield "binpb-truncated", b"\x12\x05ab"
    yield "binpb-bad-wire-type", b"\x0f"
    yield "binpb-not-protobuf", b"task_id: t\n"
    yield "binpb-rules", b"\x08\x01\x12\x01t"
    # A known field sent with another wire type: task_id as a varint.
    yield "binpb-field-wrong-wire-type", b"\x10\x01"
    yield "binpb-unknown-field-number", b"\xf8\x07\x01"


CASES: list[tuple[str, str, bytes]] = [
    *(("yaml", n, d) for n, d in _yaml_cases()),
    *(("json", n, d) for n, d in _json_cases()),
    *(("binpb", n, d) for n, d in _binpb_cases()),
]


def _document_fields(data: bytes) -> dict[str, str]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {"base64": base64.b64encode(data).decode("ascii")}
    if "\r" in text or "\x00" in text:
        return {"base64": base64.b64encode(data).decode("ascii")}
    return {"text": text}


def document(case: dict[str, str]) -> bytes:
    """A table case's document as bytes."""
    if "base64" in case:
        return base64.b64decode(case["base64"])
    return case["text"].encode("utf-8")


def record(check: Callable[[bytes, str], list[dict[str, object]]]) -> dict[str, object]:
    """The table, with every case's problems as *check* gives them."""
    names = [name for _, name, _ in CASES]
    dupes = {n for n in names if names.count(n) > 1}
    assert not dupes, f"case names given twice: {sorted(dupes)}"
    return {
        "description": (
            "Documents and every problem the contract says each has, in the Problem shape "
            "(proto/taskspec/v1/problems.proto). Python's taskspec.check, Go's CheckFormat and "
            "taskspec validate --format json must give exactly these lists, a YAML syntax "
            "problem's line and column included. Made by tests/contract/problem_cases.py "
            "(make problems)."
        ),
        "cases": [
            {"name": name, "format": fmt, **_document_fields(data), "problems": check(data, fmt)}
            for fmt, name, data in CASES
        ],
    }


def _python_check(data: bytes, fmt: str) -> list[dict[str, object]]:
    import taskspec  # noqa: PLC0415

    problems = taskspec.check(data, taskspec.Format(fmt))
    return [
        {
            "code": v.code,
            "field_path": v.field_path,
            "line": v.line,
            "column": v.column,
            "message": v.message,
            "hint": v.hint,
            "severity": v.severity,
            **({"fix": v.fix.to_dict()} if v.fix is not None else {}),
        }
        for v in problems
    ]


def main() -> None:
    table = record(_python_check)
    text = json.dumps(table, indent=1, ensure_ascii=False) + "\n"
    TABLE.write_text(text, encoding="utf-8")
    cases = table["cases"]
    assert isinstance(cases, list)
    print(f"{TABLE.relative_to(HERE.parent.parent)}: {len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()
