"""Coverage-guided fuzzing of ``parse_task_spec`` and the YAML round trip (atheris).

Every input is checked against the promises the package makes about any
bytes whatsoever:

- ``parse_task_spec`` (and the converter's JSON and binary readers) returns a
  spec or raises a :class:`~taskspec.TaskSpecError`; any other exception is a
  bug (callers catch that one family and nothing else);
- an accepted document round-trips: ``parse(marshal(parse(x))) == parse(x)``
  and marshalling the re-parsed spec gives the same bytes again;
- the fast path for canonical documents, when it answers, answers exactly
  what the full decoder does.

:func:`check` holds those properties and runs without atheris, so the test
suite can run it over the seed corpus on every machine
(``tests/test_fuzz_target.py``). Run the fuzzer with ``make fuzz``
(``FUZZ_SECONDS`` sets the duration); by hand::

    python -m tests.fuzz.fuzz_parse build/fuzz/corpus -max_total_time=60

The seed corpus is built from the conformance vectors: every document Go
accepts, rejects or writes is a starting point the fuzzer mutates. Inputs
that find new coverage are kept in ``build/fuzz/corpus``; a crash is written
to ``build/fuzz/`` as ``crash-*`` for turning into a regression vector.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
VECTORS_DIR = ROOT / "tests" / "conformance" / "vectors"
DEFAULT_WORK_DIR = ROOT / "build" / "fuzz"
#: Tokens for the mutator: YAML syntax, yaml.v3's special spellings, and the
#: bytes Python's number parsers read differently from Go's.
DICTIONARY = Path(__file__).resolve().parent / "yaml.dict"

#: Largest input the fuzzer builds. Big enough for every vector worth
#: mutating (sidecars are a few KiB); the size bound itself has its own tests.
MAX_LEN = 16 * 1024


def seeds() -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every vector document up to :data:`MAX_LEN`, in a stable order."""
    for path in sorted(VECTORS_DIR.glob("*/*.yaml")):
        data = path.read_bytes()
        if len(data) <= MAX_LEN:
            yield f"{path.parent.name}-{path.stem}", data


def _marshal(spec: Any) -> bytes:
    from taskspec import marshal_yaml  # noqa: PLC0415 - after atheris instruments it

    return marshal_yaml(spec)


def check(data: bytes) -> None:
    """Raise AssertionError (or let a stray exception out) when *data* breaks a promise."""
    # Imported here so that atheris can instrument the package first.
    from taskspec import TaskSpecError, _api  # noqa: PLC0415
    from taskspec.bridge import _decode, _fastpath  # noqa: PLC0415

    # The converter's readers share the promise; the same bytes are hostile
    # JSON and binary protobuf as well.
    for read in (_api.parse_json, _api.parse_binpb):
        with contextlib.suppress(TaskSpecError):
            read(data)
    fast = _fastpath.parse_canonical(data)
    if fast is not None:
        full = _decode.decode(data).spec  # the fast path answers only for a decodable document
        assert fast == full, "the fast path and the full decoder disagree"
    try:
        spec = _api.parse_task_spec(data)
    except TaskSpecError:
        return
    out = _marshal(spec)
    again = _api.parse_task_spec(out)
    assert again == spec, f"marshal output reads back differently: {out[:200]!r}"
    assert _marshal(again) == out, "marshal output is not stable"
    text = data.decode("utf-8")  # accepted bytes are UTF-8, so str input must agree
    assert _api.parse_task_spec(text) == spec, "str and bytes input disagree"


def build_seed_corpus(directory: Path, documents: Iterable[tuple[str, bytes]] | None = None) -> int:
    """Write the seed documents (by default :func:`seeds`) into *directory*; return how many.

    *directory* is made if missing; a seed already there as it should be is
    left alone.
    """
    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    for name, data in seeds() if documents is None else documents:
        target = directory / name
        if not target.exists() or target.read_bytes() != data:
            tmp = target.with_name(f".{name}.tmp")
            tmp.write_bytes(data)
            tmp.replace(target)
        count += 1
    return count


def _one_input(data: bytes) -> None:
    check(data)


def main(argv: Sequence[str]) -> None:
    """Run atheris with libFuzzer's own arguments; build the seeds in build/fuzz/seeds."""
    atheris: Any = importlib.import_module("atheris")
    seed_dir = DEFAULT_WORK_DIR / "seeds"
    build_seed_corpus(seed_dir)
    args = list(argv)
    if not any(not a.startswith("-") for a in args[1:]):
        corpus = DEFAULT_WORK_DIR / "corpus"
        corpus.mkdir(parents=True, exist_ok=True)
        args.append(str(corpus))
    args.append(str(seed_dir))
    if not any(a.startswith("-max_len=") for a in args):
        args.append(f"-max_len={MAX_LEN}")
    if not any(a.startswith("-dict=") for a in args):
        args.append(f"-dict={DICTIONARY}")
    if not any(a.startswith("-artifact_prefix=") for a in args):
        args.append(f"-artifact_prefix={DEFAULT_WORK_DIR}/")
    with atheris.instrument_imports(include=["taskspec", "yaml"]):
        import taskspec  # noqa: PLC0415
        import taskspec.bridge._decode  # noqa: PLC0415
        import taskspec.bridge._fastpath  # noqa: F401, PLC0415
    atheris.Setup(args, _one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
