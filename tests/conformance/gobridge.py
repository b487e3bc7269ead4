"""A client for the Go conformance consumer (`taskspec-conform serve`).

The consumer is a stand-in for the Go services: the seed's struct and yaml
tags, real yaml.v3 and the generated Go stubs. One process serves a whole
test run over JSON Lines, so thousands of cross-language checks stay fast.
"""

from __future__ import annotations

import base64
import json
import subprocess
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from taskspec import TaskSpec
from taskspec.bridge._layout import TASK_SPEC, Kind, MessageInfo

__all__ = ["GoConsumer", "GoResult", "spec_from_json", "spec_to_json"]

GoResult = dict[str, Any]


class GoConsumer:
    """One long-lived `taskspec-conform serve` process."""

    def __init__(self, binary: Path) -> None:
        self._proc = subprocess.Popen(
            [str(binary), "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )

    def close(self) -> None:
        if self._proc.stdin:
            self._proc.stdin.close()
        self._proc.wait(timeout=10)

    def request(self, **req: Any) -> GoResult:
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps(req) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError("taskspec-conform exited")
        return cast(GoResult, json.loads(line))

    def batch(self, requests: Sequence[Mapping[str, Any]]) -> list[GoResult]:
        """Send every request, then read every response, in order: one pipelined trip.

        A writer thread feeds stdin while this thread reads stdout, so that
        neither pipe can fill up and stall the other. Results carry ``yaml``
        (decoded bytes) like :meth:`parse`.
        """
        stdin, stdout = self._proc.stdin, self._proc.stdout
        assert stdin is not None and stdout is not None
        lines = [json.dumps(req) + "\n" for req in requests]
        failure: list[BaseException] = []

        def feed() -> None:
            try:
                stdin.writelines(lines)
                stdin.flush()
            except BaseException as err:  # re-raised below, in the caller's thread
                failure.append(err)

        writer = threading.Thread(target=feed, name="taskspec-conform-feed", daemon=True)
        writer.start()
        results: list[GoResult] = []
        try:
            for _ in lines:
                line = stdout.readline()
                if not line:
                    raise RuntimeError("taskspec-conform exited")
                results.append(self._with_yaml(cast(GoResult, json.loads(line))))
        finally:
            writer.join()
        if failure:
            raise failure[0]
        return results

    def parse_all(self, docs: Sequence[bytes]) -> list[GoResult]:
        """:meth:`parse` for many documents in one batch."""
        return self.batch([{"op": "parse", "yaml_b64": _b64(doc)} for doc in docs])

    def decode_all(self, docs: Sequence[bytes]) -> list[GoResult]:
        """:meth:`decode` for many documents in one batch."""
        return self.batch([{"op": "decode", "yaml_b64": _b64(doc)} for doc in docs])

    # -- conveniences -------------------------------------------------------

    def parse(self, data: bytes) -> GoResult:
        """Go's ParseTaskSpec; on success ``yaml`` holds Go's re-marshal bytes."""
        return self._with_yaml(self.request(op="parse", yaml_b64=_b64(data)))

    def decode(self, data: bytes) -> GoResult:
        """Go's strict decode without Validate."""
        return self._with_yaml(self.request(op="decode", yaml_b64=_b64(data)))

    def marshal(self, spec: TaskSpec) -> GoResult:
        """Go's MarshalYAML of the same spec."""
        return self._with_yaml(self.request(op="marshal", spec=spec_to_json(spec)))

    def validate(self, spec: TaskSpec) -> GoResult:
        return self.request(op="validate", spec=spec_to_json(spec))

    def check(self, data: bytes, fmt: str = "yaml") -> list[dict[str, Any]]:
        """The Go library's CheckFormat: every problem of *data* in format *fmt*.

        Each problem is the contract's Problem as a dict: code, field_path,
        line, column, message, hint and severity.
        """
        return self.check_all([data], fmt)[0]

    def check_all(self, docs: Sequence[bytes], fmt: str = "yaml") -> list[list[dict[str, Any]]]:
        """:meth:`check` for many documents in one batch."""
        results = self.batch(
            [{"op": "lib_check", "yaml_b64": _b64(doc), "format": fmt} for doc in docs]
        )
        out: list[list[dict[str, Any]]] = []
        for res in results:
            if not res.get("ok"):
                raise RuntimeError(f"lib_check failed: {res.get('error')}")
            out.append(cast(list[dict[str, Any]], res["problems"]))
        return out

    @staticmethod
    def _with_yaml(res: GoResult) -> GoResult:
        if "yaml_b64" in res:
            res["yaml"] = base64.b64decode(res["yaml_b64"])
        return res


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def spec_to_json(spec: TaskSpec) -> dict[str, Any]:
    """The consumer's SPEC object: canonical YAML keys, enums as their strings."""

    def walk(msg: Any, info: MessageInfo) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for fi in info.fields:
            value = getattr(msg, fi.name)
            if fi.kind is Kind.ENUM:
                assert fi.enum is not None
                out[fi.name] = fi.enum.to_string[value]
            elif fi.kind is Kind.MESSAGE:
                assert fi.message is not None
                if fi.pointer and not msg.HasField(fi.name):
                    out[fi.name] = None
                else:
                    out[fi.name] = walk(value, fi.message)
            elif fi.kind is Kind.MESSAGE_LIST:
                assert fi.message is not None
                out[fi.name] = [walk(v, fi.message) for v in value]
            elif fi.kind is Kind.STRING_LIST:
                out[fi.name] = list(value)
            elif fi.kind is Kind.INT_MAP:
                out[fi.name] = dict(value)
            else:
                out[fi.name] = value
        return out

    return walk(spec, TASK_SPEC)


def spec_from_json(obj: dict[str, Any]) -> TaskSpec:
    """Build a TaskSpec from the consumer's SPEC object (for value comparisons)."""

    def fill(msg: Any, data: dict[str, Any], info: MessageInfo) -> None:
        for fi in info.fields:
            value = data.get(fi.name)
            if fi.kind is Kind.ENUM:
                assert fi.enum is not None
                setattr(msg, fi.name, fi.enum.from_string[value or ""])
            elif fi.kind is Kind.MESSAGE:
                assert fi.message is not None
                if value is None:
                    if not fi.pointer:
                        getattr(msg, fi.name).SetInParent()
                    continue
                sub = getattr(msg, fi.name)
                sub.SetInParent()
                fill(sub, value, fi.message)
            elif fi.kind is Kind.MESSAGE_LIST:
                assert fi.message is not None
                for item in value or []:
                    fill(getattr(msg, fi.name).add(), item, fi.message)
            elif fi.kind is Kind.STRING_LIST:
                getattr(msg, fi.name).extend(value or [])
            elif fi.kind is Kind.INT_MAP:
                getattr(msg, fi.name).update(value or {})
            elif value is not None:
                setattr(msg, fi.name, value)

    spec = TaskSpec()
    fill(spec, obj, TASK_SPEC)
    return spec
