"""A bounded load test of the HTTP oracle (issue 16 part 5): ``python -m
tricklaw.http.load`` starts ``tricklaw serve --http 0`` (or takes ``--port`` of a running
one), lets :data:`CLIENTS` keep-alive clients play games through it for :data:`SECONDS`
seconds, and counts every request and every answer. It reports the requests per second
and the latency percentiles, and fails (exit 1) on any lost or unanswered request, any
unexpected status, or a traceback on the server's standard error.

Each client is a thread with one ``http.client`` connection kept alive: it asks the
server's ``rulesets``, then, ruleset after ruleset (each with its fewest players), opens a
game (``new_game``), asks ``legal_actions`` and ``apply``-s the first one until the game
is over, ``close``-s it and opens the next."""

from __future__ import annotations

import argparse
import http.client
import json
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

CLIENTS = 50
"""Clients at once, by default."""
SECONDS = 30.0
"""Seconds of load, by default."""


@dataclass
class Tally:
    """One client's counts: requests sent, answers read, failures and latencies."""

    sent: int = 0
    answered: int = 0
    lost: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class Report:
    """The whole run's figures."""

    clients: int
    seconds: float
    sent: int
    answered: int
    lost: tuple[str, ...]
    unexpected: tuple[str, ...]
    p50_ms: float
    p99_ms: float
    max_ms: float
    tracebacks: int

    @property
    def per_second(self) -> float:
        """Answered requests per second."""
        return self.answered / self.seconds

    @property
    def ok(self) -> bool:
        """Every request answered as expected, and no traceback."""
        return (
            self.sent == self.answered
            and not self.lost
            and not self.unexpected
            and not self.tracebacks
        )

    def lines(self) -> list[str]:
        """The report as text lines."""
        out = [
            f"{self.clients} keep-alive clients for {self.seconds:.1f} s: "
            f"{self.sent} requests sent, {self.answered} answered "
            f"({self.per_second:.0f} req/s)",
            f"latency p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, max {self.max_ms:.1f} ms",
            f"lost or unanswered: {len(self.lost)}; unexpected statuses: "
            f"{len(self.unexpected)}; tracebacks on the server's stderr: {self.tracebacks}",
        ]
        out += [f"  lost: {what}" for what in self.lost[:5]]
        out += [f"  unexpected: {what}" for what in self.unexpected[:5]]
        return out


def _client(number: int, port: int, until: float, tally: Tally, headers: dict[str, str]) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(method: str, params: dict[str, object]) -> object:
        body = json.dumps(params).encode()
        tally.sent += 1
        start = time.perf_counter()
        try:
            conn.request("POST", f"/v1/{method}", body, headers)
            reply = conn.getresponse()
            data = reply.read()
        except (OSError, http.client.HTTPException) as exc:
            tally.lost.append(f"client {number} {method}: {type(exc).__name__}: {exc}")
            conn.close()  # http.client reconnects on the next request
            return None
        tally.latencies.append(time.perf_counter() - start)
        tally.answered += 1
        if reply.status != 200:
            tally.unexpected.append(f"client {number} {method}: {reply.status} {data[:100]!r}")
            return None
        return json.loads(data)

    listed = call("rulesets", {})
    tables = [(r["id"], min(r["players"])) for r in listed] if isinstance(listed, list) else []
    game_number = 0
    while tables and time.monotonic() < until:
        ruleset, players = tables[(number + game_number) % len(tables)]
        opened = call(
            "new_game",
            {"ruleset": ruleset, "players": players, "seed": number * 1000 + game_number},
        )
        game_number += 1
        if not isinstance(opened, dict):
            continue
        game = opened["game"]
        while time.monotonic() < until:
            legal = call("legal_actions", {"game": game})
            if not isinstance(legal, dict) or not legal["actions"]:
                break
            call("apply", {"game": game, "action": legal["actions"][0]})
        call("close", {"game": game})
    conn.close()


def percentile(values: list[float], share: float) -> float:
    """The ``share`` percentile of ``values`` (nearest rank), 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def run_load(
    port: int, clients: int = CLIENTS, seconds: float = SECONDS, token: str | None = None
) -> tuple[int, int, list[Tally], float]:
    """``clients`` threads against 127.0.0.1:``port`` for ``seconds``; the tallies and the
    elapsed time."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    tallies = [Tally() for _ in range(clients)]
    start = time.monotonic()
    until = start + seconds
    threads = [
        threading.Thread(target=_client, args=(n, port, until, tallies[n], headers), daemon=True)
        for n in range(clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 120)
    return clients, port, tallies, time.monotonic() - start


def report(tallies: list[Tally], elapsed: float, tracebacks: int) -> Report:
    """The figures of a run."""
    latencies = [x for t in tallies for x in t.latencies]
    return Report(
        clients=len(tallies),
        seconds=elapsed,
        sent=sum(t.sent for t in tallies),
        answered=sum(t.answered for t in tallies),
        lost=tuple(x for t in tallies for x in t.lost),
        unexpected=tuple(x for t in tallies for x in t.unexpected),
        p50_ms=1000 * percentile(latencies, 0.50),
        p99_ms=1000 * percentile(latencies, 0.99),
        max_ms=1000 * max(latencies, default=0.0),
        tracebacks=tracebacks,
    )


def against_a_new_server(
    clients: int = CLIENTS, seconds: float = SECONDS, command: list[str] | None = None
) -> Report:
    """Start ``tricklaw serve --http 0`` (``command``), load it, stop it, and report."""
    command = command or [sys.executable, "-m", "tricklaw", "serve", "--http", "0"]
    server = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        first = server.stderr.readline()
        if "http://127.0.0.1:" not in first:
            raise RuntimeError(f"the server did not start: {first.strip()}")
        port = int(first.split("http://127.0.0.1:")[1].split("/")[0])
        _, _, tallies, elapsed = run_load(port, clients, seconds)
    finally:
        server.terminate()
        _, err = server.communicate(timeout=30)
    return report(tallies, elapsed, err.count("Traceback"))


def main(argv: list[str] | None = None) -> int:
    """``python -m tricklaw.http.load [--clients N] [--seconds S] [--port P]``."""
    parser = argparse.ArgumentParser(
        prog="python -m tricklaw.http.load", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--seconds", type=float, default=SECONDS)
    parser.add_argument("--port", type=int, help="load a server already running on 127.0.0.1:PORT")
    parser.add_argument("--token", help="the server's bearer token, if it has one")
    args = parser.parse_args(argv)
    if args.clients < 1 or args.seconds <= 0:
        parser.error("--clients and --seconds must be positive")
    if args.port is None:
        result = against_a_new_server(args.clients, args.seconds)
    else:
        _, _, tallies, elapsed = run_load(args.port, args.clients, args.seconds, args.token)
        result = report(tallies, elapsed, 0)
    for line in result.lines():
        print(line)
    return 0 if result.ok else 1


if __name__ == "__main__":
    sys.exit(main())
