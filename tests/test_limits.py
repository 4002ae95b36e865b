"""The limits table of docs/oracle.md (issue 43, item 4): each value is its constant's,
each named test exists, and the limits below are exercised at their edge: the largest
input accepted, and one more (byte, character, request, game) refused.

Where the table names another module's test, that test is the edge test; this module
holds the rest.
"""

from __future__ import annotations

import ast
import importlib
import io
import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from tricklaw.check.convert import record_to_log
from tricklaw.check.reading import MAX_LINE_CHARS, MAX_RECORD_CHARS, check_path, check_stream
from tricklaw.fuzz.engine import ANSWER_LIMIT, Engine, EngineError
from tricklaw.model.agents import play_random_game
from tricklaw.model.record import to_record
from tricklaw.model.rulesets import get_ruleset
from tricklaw.oracle import LIMIT, MAX_BATCH, MAX_COST, MAX_GAMES, MAX_LINE_BYTES, Oracle
from tricklaw.oracle.cost import BASE_COST, check_cost
from tricklaw.oracle.envelope import encode, encode_capped
from tricklaw.oracle.protocol import MAX_RESPONSE_BYTES, OracleError
from tricklaw.page.files import MAX_PATH, page_file

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(
    r"^\| (?P<what>[^|]+) \| (?P<value>[^|]+) \| `(?P<constant>[^`]+)` \| [^|]+ "
    r"\| `(?P<test>[^`]+)` \|$"
)
HELLO = {"jsonrpc": "2.0", "id": 1, "method": "hello"}


def _rows() -> list[re.Match[str]]:
    text = (ROOT / "docs" / "oracle.md").read_text(encoding="utf-8")
    table = text.split("## Limits", 1)[1].split("\n## ", 1)[0]
    return [m for line in table.splitlines() if (m := ROW.match(line))]


def _constant(dotted: str) -> Any:
    """The value ``tricklaw.a.b.NAME`` (or ``tricklaw.a.Class.NAME``) names."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            value: Any = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            value = getattr(value, name)
        return value
    raise AssertionError(f"no module in {dotted}")


def test_the_table_says_each_constants_value_and_names_an_edge_test_that_exists() -> None:
    rows = _rows()
    assert len(rows) >= 14  # the table was read (no test that checks nothing)
    for row in rows:
        value = _constant(row["constant"])
        shown = row["value"].strip()
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(shown.split()[0].replace(",", ""))
            assert number == value, f"{row['what']}: the table says {shown}, the code {value}"
        path, name = row["test"].split("::")
        tree = ast.parse((ROOT / "tests" / path).read_text(encoding="utf-8"))
        names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
        assert name in names, f"{row['what']}: tests/{path} has no {name}"


def _padded(obj: dict[str, Any], size: int) -> str:
    """``obj`` as JSON text of exactly ``size`` characters (spaces before its last ``}``)."""
    text = json.dumps(obj, separators=(",", ":"))
    assert len(text) <= size
    return text[:-1] + " " * (size - len(text)) + "}"


def test_a_request_line_at_the_limit_is_read_and_one_byte_more_is_not() -> None:
    oracle = Oracle()
    answer = oracle.handle_text(_padded(HELLO, MAX_LINE_BYTES))
    assert answer is not None and '"result"' in answer
    answer = oracle.handle_text(_padded(HELLO, MAX_LINE_BYTES + 1))
    assert answer is not None and json.loads(answer)["error"]["code"] == LIMIT


def test_a_batch_at_the_limit_runs_and_one_more_request_is_refused() -> None:
    oracle = Oracle()
    calls = [{**HELLO, "id": i} for i in range(MAX_BATCH + 1)]
    answers = json.loads(oracle.handle_text(json.dumps(calls[:MAX_BATCH])) or "null")
    assert len(answers) == MAX_BATCH and all("result" in a for a in answers)
    refused = json.loads(oracle.handle_text(json.dumps(calls)) or "null")
    assert refused["error"]["code"] == LIMIT


def test_open_games_stop_at_the_limit_until_one_is_closed() -> None:
    """At the edge with a cap of 3 (the default, 10,000, is the same code's bound)."""
    assert Oracle().max_games == MAX_GAMES
    oracle = Oracle(max_games=3)

    def new(seed: int) -> dict[str, Any]:
        request = {**HELLO, "method": "new_game"}
        request["params"] = {"ruleset": "lowhigh", "players": 3, "seed": seed}
        answer: dict[str, Any] = json.loads(oracle.handle_text(json.dumps(request)) or "null")
        return answer

    games = [new(seed)["result"]["game"] for seed in range(3)]
    assert new(3)["error"]["code"] == LIMIT
    oracle.handle_text(json.dumps({**HELLO, "method": "close", "params": {"game": games[0]}}))
    assert "result" in new(4)


def test_the_estimated_answer_stops_at_the_limit() -> None:
    calls = [HELLO] * (MAX_COST // BASE_COST)  # each costs the base: exactly the limit
    assert MAX_COST % BASE_COST == 0
    check_cost(Oracle(), calls)
    with pytest.raises(OracleError) as refused:
        check_cost(Oracle(), [*calls, HELLO])
    assert refused.value.code == LIMIT


@pytest.mark.slow
def test_an_answer_at_the_limit_is_written_and_one_byte_more_is_not() -> None:
    empty = len(encode({"jsonrpc": "2.0", "id": 1, "result": ""}))
    for extra, written in ((0, True), (1, False)):
        response = {"jsonrpc": "2.0", "id": 1, "result": "x" * (MAX_RESPONSE_BYTES - empty + extra)}
        text = encode_capped(response)
        assert (text == encode(response)) is written
        if not written:
            assert json.loads(text)["error"]["code"] == LIMIT


def test_a_page_path_at_the_limit_is_looked_up_and_one_character_more_is_not(
    tmp_path: Path,
) -> None:
    parts = ["d" * 200] * 4  # 804 characters with their slashes; then a file's name
    name = "f" * (MAX_PATH - len("/".join(parts)) - 1)
    folder = tmp_path.joinpath(*parts)
    folder.mkdir(parents=True)
    (folder / name).write_bytes(b"here")
    path = "/".join([*parts, name])
    assert len(path) == MAX_PATH
    assert page_file(tmp_path, "/" + path) == (b"here", "application/octet-stream")
    (folder / (name + "f")).write_bytes(b"too far")
    assert page_file(tmp_path, "/" + path + "f") is None


def _log_lines() -> list[str]:
    state = play_random_game(get_ruleset("lowhigh").make_game(3), 2, max_rounds=1)
    return [line + "\n" for line in record_to_log(to_record(state))]


def test_a_log_line_at_the_limit_is_read_and_one_character_more_is_not() -> None:
    log = _log_lines()
    action = json.loads(log[2])  # the first action line (after the header and the round)
    assert "action" in action
    for extra, status in ((0, "agrees"), (1, "unreadable")):
        line = _padded(action, MAX_LINE_CHARS - 1 + extra) + "\n"  # the newline counts
        found = check_stream(io.StringIO("".join([*log[:2], line, *log[3:]])))
        assert found.status == status, found.message
        if extra:
            assert found.line == 3 and "longer than" in found.problem


@pytest.mark.slow
def test_a_record_at_the_limit_is_read_and_one_character_more_is_not(tmp_path: Path) -> None:
    """A record padded with spaces to 256 Mi characters (a file on disk, read as a user's)."""
    record = to_record(play_random_game(get_ruleset("lowhigh").make_game(3), 2, max_rounds=1))
    text = json.dumps(record, separators=(",", ":"))
    for extra, status in ((0, "agrees"), (1, "unreadable")):
        path = tmp_path / "record.json"
        with path.open("w", encoding="utf-8") as out:
            out.write(text[:-1])
            out.write(" " * (MAX_RECORD_CHARS - len(text) + extra))
            out.write("}")
        found = check_path(str(path))
        assert found.status == status, found.message
        if extra:
            assert "longer than" in found.problem
        path.unlink()


@pytest.mark.slow
def test_an_engine_answer_at_the_limit_is_read_and_one_byte_more_is_not() -> None:
    head = '{"jsonrpc":"2.0","id":1,"result":{}'
    for extra in (0, 1):
        spaces = ANSWER_LIMIT + extra - len(head) - len("}\n")  # the newline counts
        script = (
            "import sys; sys.stdin.readline(); "
            f"sys.stdout.write({head!r} + ' ' * {spaces} + '}}\\n'); "
            "sys.stdout.flush(); sys.stdin.read()"
        )
        engine = Engine(f"{sys.executable} -c {shlex.quote(script)}", timeout=60)
        try:
            if extra:
                with pytest.raises(EngineError, match="longer than"):
                    engine.request("hello", {})
            else:
                assert engine.request("hello", {}) == (True, {})
        finally:
            engine.close()
