"""The engine under test: an external process that speaks the oracle's stdio protocol,
one JSON-RPC request per line, each answer awaited for at most a time-out.

The answers are read by a thread of their own into a queue, and awaited on the queue with
a time-out: no ``select()`` on a pipe, which Windows does not offer. An answer longer than
:data:`ANSWER_LIMIT` is a protocol error, found before it is held whole. The engine runs
in a process group of its own (POSIX), which :meth:`Engine.close` ends whole, so that no
process the engine started outlives the run."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
from typing import IO, Any

from tricklaw.spec.errors import TricklawError

ENGINE_TIMEOUT = 10.0
"""Seconds the engine may take to answer one request."""

ANSWER_LIMIT = 16 * 1024 * 1024
"""Bytes one answer line of the engine may hold: the cap on the oracle's own answers
(docs/oracle.md, the limits table); an engine's answer to the fuzzer's requests is far
smaller. A longer line is refused after reading at most this much of it."""

TOO_LONG = b""
"""What the reader thread queues for a line over :data:`ANSWER_LIMIT` (an empty line is
never queued otherwise: every line read ends with its newline)."""


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
                start_new_session=hasattr(os, "killpg"),  # its own group, ended whole
            )
        except OSError as exc:
            raise TricklawError(
                f"fuzz: cannot start the engine {argv[0]!r}: {exc.strerror}"
            ) from None
        assert self.process.stdin is not None and self.process.stdout is not None
        self._in = self.process.stdin
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(
            target=_read_lines, args=(self.process.stdout, self._lines), daemon=True
        ).start()
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
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineError(f"the engine gave no answer within {self.timeout:g} s") from None
        if line is None:
            self._lines.put(None)  # the end stays for the next request
            raise EngineError(f"the engine exited ({self._status()})")
        if line == TOO_LONG:
            self._lines.put(TOO_LONG)  # nothing more is read from this engine
            raise EngineError(f"the engine's answer is longer than {ANSWER_LIMIT:,} bytes")
        return line.rstrip(b"\r\n").decode("utf-8", errors="replace")

    def _status(self) -> str:
        try:
            code: int | None = self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        return "still running" if code is None else f"status {code}"

    def close(self) -> None:
        """Stop the engine: its input closed, two seconds to end, then killed; and every
        process of its group, whether it ended or not (an engine's children)."""
        with contextlib.suppress(OSError):
            self._in.close()
        try:
            self.process.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if hasattr(os, "killpg"):
            with contextlib.suppress(OSError):  # the group is empty: nothing left
                os.killpg(self.process.pid, signal.SIGKILL)


def _read_lines(stream: IO[bytes], lines: queue.Queue[bytes | None]) -> None:
    """Put each line the engine writes on ``lines``, then None at its end (the reader
    thread); :data:`TOO_LONG` for a line over :data:`ANSWER_LIMIT`, and nothing after it."""
    with contextlib.suppress(OSError, ValueError):
        while line := stream.readline(ANSWER_LIMIT + 1):
            if len(line) > ANSWER_LIMIT:
                lines.put(TOO_LONG)
                return
            lines.put(line)
    lines.put(None)
