"""Benchmark ``taskspec lsp``: start-up, and diagnostics latency on a 64 KiB sidecar.

Start-up is the time from starting ``taskspec lsp`` to its answer to
``initialize``, the moment an editor can use it (best and median of
several starts). Latency is the time from sending ``textDocument/didChange``
(the whole document, as the server asks) to receiving the
``publishDiagnostics`` of that version, for a 64 KiB sidecar whose prompt is
a long block scalar: valid, with one misspelt key, and with a misspelt key
and a wrong enum value; the changes alternate between the three so that
every one is checked anew. Run with ``make bench-lsp``; the figures go in
BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HEAD = """\
task_spec_version: 1
task_id: kg-go-impl-mathx-gcd
language: go
difficulty: medium
generated_from:
    kind: kg_template
verification:
    test_cmd:
        - go
        - test
prompt: |-
"""
SIZE = 64 * 1024


def sidecar() -> str:
    """A valid sidecar of 64 KiB, nearly all of it the prompt's lines."""
    line = "    Implement mathx.GCD for every pair of int64 values, including zero.\n"
    count = (SIZE - len(HEAD)) // len(line)
    text = HEAD + line * count
    return text + "    " + "x" * (SIZE - len(text) - 5) + "\n"


class Client:
    """A minimal LSP client over the server's stdio."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.lock = threading.Condition()
        self.messages: list[tuple[float, dict[str, Any]]] = []
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = 0
            while True:
                line = out.readline()
                if not line:
                    return
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(out.read(length))
            with self.lock:
                self.messages.append((time.perf_counter(), message))
                self.lock.notify_all()

    def send(self, message: dict[str, Any]) -> float:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.proc.stdin is not None
        sent = time.perf_counter()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return sent

    def wait(self, match: Any) -> tuple[float, dict[str, Any]]:
        with self.lock:
            while True:
                for i, (at, message) in enumerate(self.messages):
                    if match(message):
                        del self.messages[: i + 1]
                        return at, message
                if not self.lock.wait(60):
                    raise TimeoutError("the server did not answer")

    def request(self, method: str, params: Any) -> tuple[float, float]:
        self.next_id += 1
        ident = self.next_id
        sent = self.send({"id": ident, "method": method, "params": params})
        at, _ = self.wait(lambda m: m.get("id") == ident and "method" not in m)
        return sent, at

    def close(self) -> None:
        self.request("shutdown", None)
        self.send({"method": "exit"})
        self.proc.wait(10)


def initialize(client: Client, root: Path) -> tuple[float, float]:
    params: dict[str, Any] = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
    result = client.request("initialize", params)
    client.send({"method": "initialized", "params": {}})
    return result


def start_up(argv: list[str], root: Path, runs: int) -> tuple[list[float], list[float]]:
    """Per start: the time to the ``initialize`` answer, and to a first document's diagnostics.

    The server imports its engine once the client is ``initialized``; the
    second figure includes that, for a small sidecar opened right away.
    """
    path = root / "small" / "taskspec.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(HEAD + "    Implement mathx.GCD.\n", encoding="utf-8")
    item = {"uri": path.as_uri(), "languageId": "yaml", "version": 0, "text": path.read_text()}
    answers, firsts = [], []
    for _ in range(runs):
        started = time.perf_counter()
        client = Client(argv)
        _, answered = initialize(client, root)
        client.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
        at, _ = client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        answers.append(answered - started)
        firsts.append(at - started)
        client.close()
    return answers, firsts


def latency(argv: list[str], root: Path, changes: int) -> dict[str, list[float]]:
    valid = sidecar()
    documents = {
        "valid": valid,
        "one problem": valid.replace("task_id:", "taskid:"),
        "two problems": valid.replace("task_id:", "taskid:").replace("medium", "medum"),
    }
    path = root / "taskspec.yaml"
    path.write_text(valid, encoding="utf-8")
    uri = path.as_uri()
    client = Client(argv)
    initialize(client, root)
    item = {"uri": uri, "languageId": "yaml", "version": 0, "text": valid}
    client.send({"method": "textDocument/didOpen", "params": {"textDocument": item}})
    client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    times: dict[str, list[float]] = {name: [] for name in documents}
    names = list(documents)
    for version in range(1, changes + 1):
        name = names[version % len(names)]
        params = {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": documents[name]}],
        }
        sent = client.send({"method": "textDocument/didChange", "params": params})
        at, _ = client.wait(
            lambda m, v=version: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"].get("version") == v
            )
        )
        times[name].append(at - sent)
    client.close()
    return times


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"median {statistics.median(ordered) * 1e3:6.1f} ms, p95 {p95 * 1e3:6.1f} ms, "
        f"best {ordered[0] * 1e3:6.1f} ms, worst {ordered[-1] * 1e3:6.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--changes", type=int, default=150)
    args = parser.parse_args()
    argv = [sys.executable, "-m", "taskspec", "lsp"]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        baseline = time.perf_counter() - started
        starts, firsts = start_up(argv, root, args.starts)
        print(f"start-up to the initialize answer ({args.starts} starts): {_ms(starts)}")
        print(f"start-up to the first diagnostics  ({args.starts} starts): {_ms(firsts)}")
        print(f"  (python -c pass: {baseline * 1e3:.1f} ms)")
        print(f"diagnostics after a change, {SIZE // 1024} KiB sidecar ({args.changes} changes):")
        for name, values in latency(argv, root, args.changes).items():
            print(f"  {name:<13} {_ms(values)}")


if __name__ == "__main__":
    main()
