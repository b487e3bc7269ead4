"""A minimal Language Server Protocol client over stdio, for driving yaml-language-server.

It speaks JSON-RPC 2.0 with the ``Content-Length`` framing of the LSP base
protocol, answers the requests a server sends its client (configuration,
capability registration, progress), and collects the diagnostics the
server publishes. A reader thread does the reading, so that a server that
stops answering fails the call with a timeout rather than hanging the test.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: Seconds to wait for a response or a notification.
TIMEOUT = 30.0


class LSPError(RuntimeError):
    """The server answered a request with an error, or did not answer in time."""


class LanguageServer:
    """One language server process, spoken to as an editor speaks to it."""

    def __init__(self, argv: Sequence[str], *, settings: Mapping[str, Any]) -> None:
        self._settings = dict(settings)
        self._proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self._next_id = 0
        self._responses: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._diagnostics: dict[str, queue.Queue[list[dict[str, Any]]]] = {}
        self.log: list[str] = []
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        self._reader.start()
        self._stderr = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr.start()

    # -- the wire ---------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self._proc.stdin is not None
        with self._write_lock:
            self._proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self._proc.stdin.flush()

    def _read_message(self) -> dict[str, Any] | None:
        out = self._proc.stdout
        assert out is not None
        length = None
        while True:
            line = out.readline()
            if not line:
                return None
            line = line.strip()
            if not line:
                break
            name, _, value = line.decode("ascii").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        if length is None:
            raise LSPError("a message without Content-Length")
        message: dict[str, Any] = json.loads(out.read(length))
        return message

    def _read_loop(self) -> None:
        while True:
            message = self._read_message()
            if message is None:
                return
            if "id" in message and "method" in message:
                self._answer(message)
            elif "id" in message:
                with self._lock:
                    box = self._responses.get(message["id"])
                if box is not None:
                    box.put(message)
            elif message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                self._diagnostic_box(params["uri"]).put(params["diagnostics"])
            elif message.get("method") == "window/logMessage":
                self.log.append(message["params"]["message"])

    def _drain_stderr(self) -> None:
        err = self._proc.stderr
        assert err is not None
        for line in err:
            self.log.append(line.decode(errors="replace").rstrip())

    def _answer(self, request: dict[str, Any]) -> None:
        """Reply to a request from the server, as an editor does."""
        method = request["method"]
        result: Any = None
        if method == "workspace/configuration":
            result = [
                self._settings.get(item.get("section", ""), None)
                for item in request["params"]["items"]
            ]
        self._send({"id": request["id"], "result": result})

    def _diagnostic_box(self, uri: str) -> queue.Queue[list[dict[str, Any]]]:
        with self._lock:
            return self._diagnostics.setdefault(uri, queue.Queue())

    # -- the protocol -----------------------------------------------------

    def request(self, method: str, params: Any, *, timeout: float = TIMEOUT) -> Any:
        """Send a request and wait for its result."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            box: queue.Queue[dict[str, Any]] = queue.Queue()
            self._responses[ident] = box
        self._send({"id": ident, "method": method, "params": params})
        try:
            response = box.get(timeout=timeout)
        except queue.Empty:
            raise LSPError(f"no answer to {method} in {timeout} s; log: {self.log}") from None
        finally:
            with self._lock:
                del self._responses[ident]
        if "error" in response:
            raise LSPError(f"{method}: {response['error']}")
        return response.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def initialize(self, root: Path) -> dict[str, Any]:
        """The handshake, with the capabilities an editor with markdown hovers has."""
        result: dict[str, Any] = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
                "capabilities": {
                    "workspace": {"configuration": True, "didChangeConfiguration": {}},
                    "textDocument": {
                        "publishDiagnostics": {"relatedInformation": True},
                        "hover": {"contentFormat": ["markdown", "plaintext"]},
                        "completion": {
                            "completionItem": {
                                "snippetSupport": True,
                                "documentationFormat": ["markdown", "plaintext"],
                            }
                        },
                    },
                },
            },
        )
        self.notify("initialized", {})
        self.notify("workspace/didChangeConfiguration", {"settings": self._settings})
        return result

    def open(self, path: Path, text: str) -> str:
        """Open a document (as ``didOpen``); its URI."""
        uri = path.as_uri()
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
        return uri

    def diagnostics(self, uri: str, *, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
        """The next diagnostics the server publishes for *uri*."""
        try:
            return self._diagnostic_box(uri).get(timeout=timeout)
        except queue.Empty:
            raise LSPError(f"no diagnostics for {uri} in {timeout} s; log: {self.log}") from None

    def position_request(self, method: str, uri: str, line: int, character: int) -> Any:
        return self.request(
            method,
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )

    def close(self) -> None:
        """Shut the server down as an editor does, then make sure it is gone."""
        try:
            if self._proc.poll() is None:
                self.request("shutdown", None, timeout=10)
                self.notify("exit", None)
        except (LSPError, OSError):
            pass
        finally:
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            for stream in (self._proc.stdin, self._proc.stdout, self._proc.stderr):
                if stream is not None:
                    stream.close()
