"""The engine under test: an external process that speaks the oracle's stdio protocol,
one JSON-RPC request per line, each answer awaited for at most a time-out."""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import subprocess
import time
from typing import Any

from tricklaw.spec.errors import TricklawError

ENGINE_TIMEOUT = 10.0
"""Seconds the engine may take to answer one request."""


class EngineError(Exception):
    """The engine broke the protocol: no answer in time, not JSON, died, wrong shape."""


class Engine:
    """An external engine process speaking the oracle's stdio protocol."""

    def __init__(self, command: str, timeout: float = ENGINE_TIMEOUT) -> None:
        self.command = command
        self.timeout = timeout
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise TricklawError(f"fuzz: --engine {command!r}: {exc}") from None
        if not argv:
            raise TricklawError("fuzz: --engine is empty")
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            raise TricklawError(
                f"fuzz: cannot start the engine {argv[0]!r}: {exc.strerror}"
            ) from None
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in = self.process.stdin
        self._out = self.process.stdout.fileno()
        self._buffer = b""
        self._next_id = 0
        self.requests = 0

    def request(self, method: str, params: dict[str, Any]) -> tuple[bool, Any]:
        """``(True, result)`` or ``(False, error object)`` for one request."""
        self._next_id += 1
        self.requests += 1
        line = json.dumps(
            {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params},
            separators=(",", ":"),
        )
        try:
            self._in.write(line.encode("utf-8") + b"\n")
            self._in.flush()
        except OSError:
            raise EngineError(f"the engine exited ({self._status()})") from None
        text = self._read_line()
        try:
            response = json.loads(text)
        except ValueError:
            raise EngineError(
                f"the engine answered {method} with non-JSON: {text[:80]!r}"
            ) from None
        if not isinstance(response, dict) or response.get("id") != self._next_id:
            raise EngineError(
                f"the engine's answer to {method} is not its JSON-RPC response: {text[:80]!r}"
            )
        if "error" in response:
            return False, response["error"]
        if "result" not in response:
            raise EngineError(f"the engine's answer to {method} has neither result nor error")
        return True, response["result"]

    def _read_line(self) -> str:
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._out], [], [], left)[0]:
                raise EngineError(f"the engine gave no answer within {self.timeout:g} s")
            chunk = os.read(self._out, 1 << 16)
            if not chunk:
                raise EngineError(f"the engine exited ({self._status()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    def _status(self) -> str:
        try:
            code: int | None = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        return "still running" if code is None else f"status {code}"

    def close(self) -> None:
        """Stop the engine."""
        with contextlib.suppress(OSError):
            self._in.close()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
