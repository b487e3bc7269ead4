"""Differential fuzzing: the Python and Go libraries must agree on every input (atheris).

The two libraries promise the same contract (``docs/problems.md``), so for
any bytes whatsoever:

- both accept or both refuse;
- when both accept, they decode the same message (compared as Go's
  deterministic binary encoding, which ``marshal_binpb`` writes) and write
  the same canonical YAML;
- when both refuse, they refuse at the same stage: a broken rule
  (``ValidationError`` / ``*ValidationError``) or a document they will not
  read (``DecodeError`` / ``*DecodeError``);
- every problem of the document (``taskspec.check`` / ``Check``) is the
  same in both, code, field path, line, column, message, hint, fix and
  severity, in the same order, except where the parsers stop: which parser
  stops first, and where, may differ on hostile text, so where either
  library stops at a YAML syntax problem (which it reports alone), the
  other must stop too, at a syntax problem, at a limit (:data:`LIMIT`) or
  at one of the refusals that stand for a difference between the parsers'
  readings of the text (:data:`PARSE_STOPS`), possibly after problems it
  collected before it;
  where both stop at such refusals, each may have met its own first. Where
  both stop at a syntax problem, it is the same one, by code, line and
  column: both read the text as libyaml does;
- the same bytes read as proto3 JSON give the same problems in both,
  exactly (each JSON reader is a tokenizer of its own, so there is no
  parser's reading to differ on), and, when neither finds an error, the
  same message (as the binary encoding ``convert`` writes);
- the Go side never panics.

The Go library is driven through the conformance consumer's ``lib_parse``
request (``tests/conformance/go``, built by ``make conform``), one process
for the whole run. :func:`check` holds the properties and runs without
atheris, so the test suite runs it over the seed corpus on every machine
with Go (``tests/test_fuzz_target.py``). Run the fuzzer with ``make
fuzz-diff`` (``FUZZ_SECONDS`` sets the duration); by hand::

    python -m tests.fuzz.fuzz_diff build/fuzz-diff/corpus -max_total_time=60

The seeds, dictionary and input size are those of :mod:`tests.fuzz.fuzz_parse`,
with each vector also written as proto3 JSON (:func:`json_seeds`).
"""

from __future__ import annotations

import base64
import importlib
import sys
from collections.abc import Iterator, Sequence
from typing import Any

from tests.fuzz.fuzz_parse import DICTIONARY, MAX_LEN, ROOT, build_seed_corpus, seeds

DEFAULT_WORK_DIR = ROOT / "build" / "fuzz-diff"
CONFORM = ROOT / ".bin" / "taskspec-conform"

_GO: Any = None


def _go() -> Any:
    """The Go consumer, started on first use and kept for the run."""
    global _GO  # noqa: PLW0603 - one process for the whole run
    if _GO is None:
        from tests.conformance.gobridge import GoConsumer  # noqa: PLC0415

        _GO = GoConsumer(CONFORM)
    return _GO


def _python(data: bytes) -> tuple[str, Any]:
    from taskspec import DecodeError, ValidationError, _api  # noqa: PLC0415

    try:
        return "ok", _api.parse_task_spec(data)
    except DecodeError as err:  # an InvalidDocumentError, also a ValidationError, included
        return "decode", err
    except ValidationError as err:
        return "validate", err


#: The refusals (TS004) that stand for a difference between the two parsers'
#: readings of the text, by the message they start with (after the field
#: path, where there is one): a second document, byte order marks, a YAML
#: version directive, and what one parser reads and the other cannot (a
#: plain scalar or tag split differently inside ``[]`` or ``{}``, a '?' in
#: such a scalar). Like a syntax problem,
#: where each parser meets one first depends on how it reads the text, so
#: one library may meet a syntax problem first where the other meets one of
#: these.
PARSE_STOPS: tuple[str, ...] = (
    "more than one YAML document:",
    "byte order mark at the start of a line:",
    "byte order mark outside a value:",
    "two byte order marks at the start:",
    "%YAML ",
    "the plain scalar ",
    "the tag ",
    "'?' in the plain scalar ",
)


#: A document over a size, depth or node limit: refused while the text is
#: parsed, so where a syntax error follows the node past the bound, which
#: the parser meets first depends on how far it reads ahead (libyaml's
#: scanner reads up to 1024 characters ahead of its parser; the Go library
#: finds the bound on a tree yaml.v3 must build first). It stands for a
#: stop against a syntax problem; against another limit it is compared
#: exactly.
LIMIT = "TS006"


def _is_stop(problem: dict[str, Any], syntax: frozenset[str]) -> bool:
    """Whether *problem* is a syntax problem, a limit or one of the :data:`PARSE_STOPS`."""
    if problem["code"] in syntax or problem["code"] == LIMIT:
        return True
    message = problem["message"]
    if problem["field_path"]:
        message = message.partition(": ")[2]
    return bool(problem["code"] == "TS004" and message.startswith(PARSE_STOPS))


def _syntax_codes() -> frozenset[str]:
    from taskspec._codes import CATALOGUE  # noqa: PLC0415

    return frozenset(
        code
        for code, kind in CATALOGUE.items()
        if kind.stage == "decode" and kind.messages[0].startswith("invalid YAML")
    )


def _problems(data: bytes, fmt: str = "yaml") -> list[dict[str, Any]]:
    from taskspec import check as check_all  # noqa: PLC0415

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
        for v in check_all(data, fmt)
    ]


def check(data: bytes, go: Any = None) -> None:
    """Raise AssertionError when the two libraries disagree on *data*."""
    from taskspec import marshal_binpb, marshal_yaml  # noqa: PLC0415

    go = go or _go()
    encoded = base64.b64encode(data).decode("ascii")
    res = go.request(op="lib_parse", yaml_b64=encoded)
    checked = go.request(op="lib_check", yaml_b64=encoded)
    error = res.get("error", "") + checked.get("error", "")
    assert not error.startswith("panic:") and "panic:" not in error, (
        f"the Go library panicked: {error}"
    )
    kind, value = _python(data)
    go_kind = (
        "ok" if res["ok"] else ("validate" if res.get("error_kind") == "validate" else "decode")
    )
    assert kind == go_kind, (
        f"Python: {kind} ({str(value)[:300]}); Go: {go_kind} ({error[:300]}) on {data[:200]!r}"
    )
    if kind == "ok":
        binpb = base64.b64decode(res["binpb_b64"])
        assert marshal_binpb(value) == binpb, (
            f"the libraries decode different messages from {data[:200]!r}"
        )
        assert marshal_yaml(value) == base64.b64decode(res["yaml_b64"]), (
            f"the libraries write different YAML for {data[:200]!r}"
        )
    ours, theirs = _problems(data), checked["problems"]
    syntax = _syntax_codes()
    ours_stop = bool(ours) and ours[0]["code"] != LIMIT and _is_stop(ours[0], syntax)
    theirs_stop = bool(theirs) and theirs[0]["code"] != LIMIT and _is_stop(theirs[0], syntax)
    if (
        (ours_stop and theirs_stop)
        or (ours and ours[0]["code"] in syntax)
        or (theirs and theirs[0]["code"] in syntax)
    ):
        # Where either parser stops at a syntax problem, or both at a
        # refusal of text the parsers read differently, the other must
        # stop too, at either kind, each where its parser meets its first.
        # A library that cannot parse the text reports that alone; the
        # other may have read past it and collected problems before its
        # own stop.
        assert any(_is_stop(p, syntax) for p in ours) and any(
            _is_stop(p, syntax) for p in theirs
        ), f"only one library stops at a syntax problem on {data[:200]!r}: {ours} != {theirs}"
        if ours and theirs and ours[0]["code"] in syntax and theirs[0]["code"] in syntax:
            # Both read the text as libyaml does, so a syntax problem is
            # the same problem at the same place in both.
            assert _where(ours[0]) == _where(theirs[0]), (
                f"syntax problems differ on {data[:200]!r}: {ours[0]} != {theirs[0]}"
            )
    else:
        assert ours == theirs, f"problems differ on {data[:200]!r}: {ours} != {theirs}"
    check_json(data, go)


def _where(problem: dict[str, Any]) -> tuple[str, int, int]:
    """The code, line and column of *problem*."""
    return problem["code"], problem["line"], problem["column"]


def check_json(data: bytes, go: Any) -> None:
    """Raise AssertionError when the libraries read *data* as proto3 JSON differently."""
    from taskspec import TaskSpecError, convert  # noqa: PLC0415

    encoded = base64.b64encode(data).decode("ascii")
    ours = _problems(data, "json")
    checked = go.request(op="lib_check", yaml_b64=encoded, format="json")
    assert "panic:" not in checked.get("error", ""), f"the Go library panicked: {checked}"
    theirs = checked["problems"]
    assert ours == theirs, f"JSON problems differ on {data[:200]!r}: {ours} != {theirs}"
    if any(p["severity"] == "error" for p in ours):
        return
    res = go.request(op="lib_convert", data_b64=encoded, **{"from": "json", "to": "binpb"})
    try:
        binpb: bytes | None = convert(data, "json", "binpb")
    except TaskSpecError:
        binpb = None
    assert (binpb is None) == (not res["ok"]), (
        f"only one library converts the JSON {data[:200]!r}: {res.get('error', '')[:300]}"
    )
    if binpb is not None:
        assert binpb == base64.b64decode(res["data_b64"]), (
            f"the libraries read different messages from the JSON {data[:200]!r}"
        )


def json_seeds() -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every decodable seed vector written as proto3 JSON."""
    from taskspec import TaskSpecError, marshal_json  # noqa: PLC0415
    from taskspec.bridge._decode import decode  # noqa: PLC0415

    for name, data in seeds():
        try:
            spec = decode(data).spec
            text = marshal_json(spec)
        except TaskSpecError:
            continue
        if len(text) <= MAX_LEN:
            yield f"{name}.json", text


def _one_input(data: bytes) -> None:
    check(data)


def main(argv: Sequence[str]) -> None:
    """Run atheris with libFuzzer's own arguments; seeds in build/fuzz-diff/seeds."""
    atheris: Any = importlib.import_module("atheris")
    seed_dir = DEFAULT_WORK_DIR / "seeds"
    build_seed_corpus(seed_dir)
    args = list(argv)
    if not any(not a.startswith("-") for a in args[1:]):
        corpus = DEFAULT_WORK_DIR / "corpus"
        corpus.mkdir(parents=True, exist_ok=True)
        args.append(str(corpus))
    args.append(str(seed_dir))
    for flag, value in (
        ("-max_len=", str(MAX_LEN)),
        ("-dict=", str(DICTIONARY)),
        ("-artifact_prefix=", f"{DEFAULT_WORK_DIR}/"),
    ):
        if not any(a.startswith(flag) for a in args):
            args.append(flag + value)
    with atheris.instrument_imports(include=["taskspec", "yaml"]):
        import taskspec  # noqa: PLC0415
        import taskspec.bridge._decode  # noqa: F401, PLC0415
    # Written with the package instrumented: importing it first would leave
    # the fuzzer blind to its coverage.
    build_seed_corpus(seed_dir, json_seeds())
    _go()
    atheris.Setup(args, _one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
