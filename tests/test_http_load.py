"""The load test of the HTTP oracle (issue 16 part 5, :mod:`tricklaw.http.load`): 50
keep-alive clients for 30 s on 127.0.0.1 against ``tricklaw serve --http 0``, with zero
lost or unanswered requests, zero unexpected statuses and zero tracebacks; the figures
(req/s, p50, p99) are printed (``pytest -s`` shows them)."""

from __future__ import annotations

import pytest

from tricklaw.http.load import Report, Tally, against_a_new_server, main, percentile, report


@pytest.mark.slow
def test_fifty_keep_alive_clients_for_thirty_seconds_lose_nothing(tricklaw_script: str) -> None:
    result = against_a_new_server(50, 30.0, [tricklaw_script, "serve", "--http", "0"])
    print("\n" + "\n".join(result.lines()))
    assert result.sent > 5_000  # it did load the server
    assert result.ok, result.lines()


@pytest.mark.slow
def test_the_load_script_runs_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--clients", "3", "--seconds", "1"]) == 0
    out = capsys.readouterr().out
    assert "3 keep-alive clients" in out and "lost or unanswered: 0" in out


def test_a_lost_request_or_a_traceback_fails_the_run() -> None:
    good = Tally(sent=2, answered=2, latencies=[0.001, 0.003])
    assert report([good], 1.0, 0).ok
    assert percentile([0.001, 0.003], 0.99) == 0.003
    lost = Tally(sent=3, answered=2, lost=["client 0 apply: ConnectionResetError"])
    assert not report([good, lost], 1.0, 0).ok
    assert not report([good], 1.0, 1).ok
    odd = Tally(sent=1, answered=1, unexpected=["client 0 apply: 500"])
    result: Report = report([odd], 1.0, 0)
    assert not result.ok and "unexpected statuses: 1" in result.lines()[2]
