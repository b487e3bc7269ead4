"""A scripted generator for the GeneratorService tests, in every direction.

The behaviour is chosen by ``GenerateOptions.template_id``, so a client in
any language picks it per call without a side channel; the Go peer
(``tests/conformance/grpc``) scripts its generator with the same names:

- ``ok`` (or anything not listed): a valid spec echoing the template id;
- ``fail``: raises (Go: returns an error) with the message ``scripted failure``;
- ``invalid``: returns a spec with a blank task_id and no test command;
- ``wrong-language``: returns a valid spec for another language;
- ``long``: returns a valid spec whose prompt is :data:`LONG_PROMPT_BYTES`
  (5 MB, more than gRPC's default message limit of 4 MiB);
- ``huge``: returns a spec whose prompt is :data:`HUGE_PROMPT_BYTES` (20 MB),
  over the document limit (TS107);
- ``wait``: blocks until the call ends (deadline or cancellation), at most
  :data:`WAIT_BOUND` seconds; then fails if the call ended (Go: returns the
  context's error), or returns a valid spec;
- ``hold``: ignores cancellation, as a badly written generator would, and
  blocks until released (the Go peer: a ``release`` line on its stdin), at
  most :data:`WAIT_BOUND` seconds, then returns a valid spec;
- ``hang`` (Python only): sleeps :data:`HANG_SECONDS` ignoring the call
  entirely, as a generator stuck in a call without a timeout would, then
  returns a valid spec;
- a status code's name, ``NOT_FOUND``, ``UNAVAILABLE``, ``ABORTED``...:
  fails with that code (Python: raises :class:`~taskspec.remote.GeneratorError`,
  Go: returns a status error) and the message ``scripted NAME``.

The Python generator also has ``deadline`` (records the call's
:meth:`~taskspec.remote.CallContext.time_remaining` and returns a valid
spec), and ``exit`` and ``interrupt``, which raise ``SystemExit(3)`` and
``KeyboardInterrupt``.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import grpc

from taskspec import (
    GeneratedKind,
    GenerateOptions,
    Language,
    TaskSpec,
    derive_difficulty,
)
from taskspec.remote import GeneratorError, current_call

__all__ = [
    "GO_TEST_CMD",
    "HANG_SECONDS",
    "HUGE_PROMPT_BYTES",
    "LONG_PROMPT_BYTES",
    "WAIT_BOUND",
    "ScriptedGenerator",
    "scripted_spec",
    "table_status",
    "valid_spec",
]

#: The longest a ``wait`` call blocks when nothing ends it, so no test hangs.
WAIT_BOUND = 30.0

#: How long a ``hang`` call sleeps: far longer than any test may take, so
#: that a server which waited for it would fail the test's bound.
HANG_SECONDS = 120.0


#: The prompts of the ``long`` and ``huge`` scripts, in bytes.
LONG_PROMPT_BYTES = 5_000_000
HUGE_PROMPT_BYTES = 20_000_000

#: The test command of the Go generators' specs (the Go peer's, and the Go
#: library's tests'); the Python generator's is ``pytest -q``.
GO_TEST_CMD = ("go", "test", "./...")


def table_status(case: str, **values: object) -> tuple[str, str]:
    """(code name, message) of *case* in tests/contract/grpc_status.json, filled in.

    The cases both servers answer, and those only the Python server does.
    """
    table = json.loads(
        (Path(__file__).resolve().parent / "contract" / "grpc_status.json").read_text("ascii")
    )
    (entry,) = [s for s in table["statuses"] if s["case"] == case]
    return entry["code"], entry["message"].format(**values)


def valid_spec(
    language: Language, template_id: str, test_cmd: tuple[str, ...] = ("pytest", "-q")
) -> TaskSpec:
    """A spec that passes validation, for *language*, echoing *template_id*."""
    band, signals = derive_difficulty(2, 3, 2)
    spec = TaskSpec(
        task_spec_version=1,
        task_id=f"scripted-{language.value}-{template_id or 'ok'}",
        prompt="Implement the scripted task.",
    )
    spec.language = language.to_proto()  # type: ignore[assignment]
    spec.difficulty = band.to_proto()  # type: ignore[assignment]
    spec.difficulty_signals.update(signals)
    spec.generated_from.kind = GeneratedKind.KG_TEMPLATE.to_proto()  # type: ignore[assignment]
    spec.generated_from.template_id = template_id
    spec.verification.test_cmd.extend(test_cmd)
    return spec


def scripted_spec(
    language: Language, script: str, test_cmd: tuple[str, ...] = ("pytest", "-q")
) -> TaskSpec:
    """The spec a scripted generator for *language* returns for *script*.

    ``invalid``, ``long`` and ``huge`` as the module doc says, any other
    script :func:`valid_spec`. *test_cmd* is :data:`GO_TEST_CMD` for the Go
    peer's generator, so that a test can validate here what the Go side
    refused there and compare the problems.
    """
    spec = valid_spec(language, script, test_cmd)
    if script == "invalid":
        spec.task_id = " "
        spec.verification.ClearField("test_cmd")
    elif script in ("long", "huge"):
        spec.prompt = "x" * (LONG_PROMPT_BYTES if script == "long" else HUGE_PROMPT_BYTES)
    return spec


class ScriptedGenerator:
    """A Generator for one language whose behaviour the caller picks (see the module doc)."""

    def __init__(self, language: Language) -> None:
        self._language = language
        self.entered = threading.Semaphore(0)  # released once per call, on entry
        self.release = threading.Event()  # lets ``hold`` calls return
        self.seen_remaining: list[float | None] = []
        self.seen_ended: list[bool] = []
        self.waited = threading.Event()  # set once a ``wait`` call has recorded its end

    @property
    def language(self) -> Language:
        return self._language

    def generate(self, opts: GenerateOptions) -> TaskSpec:
        self.entered.release()
        script = opts.template_id
        code = getattr(grpc.StatusCode, script, None) if script.isupper() else None
        if isinstance(code, grpc.StatusCode) and code is not grpc.StatusCode.OK:
            raise GeneratorError(code, f"scripted {script}")
        if script == "exit":
            raise SystemExit(3)
        if script == "interrupt":
            raise KeyboardInterrupt
        if script == "deadline":
            call = current_call()
            assert call is not None
            self.seen_remaining.append(call.time_remaining())
        if script == "fail":
            raise ValueError("scripted failure")
        if script in ("invalid", "long", "huge"):
            return scripted_spec(self._language, script)
        if script == "wrong-language":
            other = Language.GO if self._language is not Language.GO else Language.PYTHON
            return valid_spec(other, script)
        if script == "not-a-spec":
            return "not a spec"  # type: ignore[return-value]
        if script == "wait":
            call = current_call()
            assert call is not None
            self.seen_remaining.append(call.time_remaining())
            ended = call.wait(WAIT_BOUND)
            self.seen_ended.append(ended)
            self.waited.set()
            if ended:
                raise TimeoutError("the call ended")
        if script == "hold":
            self.release.wait(WAIT_BOUND)
        if script == "hang":
            time.sleep(HANG_SECONDS)
        return valid_spec(self._language, script)
