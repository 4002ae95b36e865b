"""The live oracle's protocol (tricklaw.oracle) and its transports (tricklaw.serve)."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from jsonschema import Draft202012Validator
from tier import examples

from tricklaw.http.app import create_app
from tricklaw.http.openapi import openapi
from tricklaw.http.run import LiveServer
from tricklaw.model.actions import string_to_action
from tricklaw.model.agents import play_random_game
from tricklaw.model.record import to_record, trick_json
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import agent_rng
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.oracle import (
    ERROR_NAMES,
    ILLEGAL_ACTION,
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    LIMIT,
    MAX_LINE_BYTES,
    METHOD_NOT_FOUND,
    METHODS,
    PARSE_ERROR,
    PLAINLY_VALID,
    UNKNOWN_GAME,
    Oracle,
    definitions,
)
from tricklaw.serve import serve_stdio


def call(oracle: Oracle, method: str, **params: Any) -> dict[str, Any]:
    """The whole response to one request."""
    text = oracle.handle_text(
        json.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})
    )
    assert text is not None
    response: dict[str, Any] = json.loads(text)
    assert response["id"] == 7
    return response


def result(oracle: Oracle, method: str, **params: Any) -> Any:
    response = call(oracle, method, **params)
    assert "result" in response, response
    _check_result_schema(method, response["result"])
    return response["result"]


def error(oracle: Oracle, method: str, **params: Any) -> dict[str, Any]:
    response = call(oracle, method, **params)
    assert "error" in response, response
    err: dict[str, Any] = response["error"]
    assert err["code"] in ERROR_NAMES and err["code"] != INTERNAL_ERROR, err
    return err


def _check_result_schema(method: str, value: Any) -> None:
    schema = {**METHODS[method].result, "$defs": definitions()}
    errors = list(Draft202012Validator(schema).iter_errors(value))
    assert not errors, (method, errors[0].message)


# --- the methods ---------------------------------------------------------------------------


def test_hello_and_rulesets() -> None:
    oracle = Oracle()
    hello = result(oracle, "hello")
    assert hello["protocol"] == "tricklaw-oracle" and hello["methods"] == list(METHODS)
    ids = [r["id"] for r in result(oracle, "rulesets")]
    assert ids == list(RULESETS)


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_a_whole_game_over_the_protocol_matches_the_model(ruleset_id: str) -> None:
    """Random legal actions through the oracle give the model's game, trick by trick."""
    ruleset = get_ruleset(ruleset_id)
    players = ruleset.player_counts[0]
    game = ruleset.make_game(players, {"rounds": 1} if "rounds" in _options(ruleset_id) else {})
    expected = play_random_game(game, 11)
    oracle = Oracle()
    opened = result(
        oracle,
        "new_game",
        ruleset=ruleset_id,
        players=players,
        options=game.options.as_dict(),
        seed=11,
    )
    game_id = opened["game"]
    below = agent_rng(11).below
    tricks: list[dict[str, Any]] = []
    while True:
        legal = result(oracle, "legal_actions", game=game_id)["actions"]
        if not legal:
            break
        step = result(oracle, "apply", game=game_id, action=legal[below(len(legal))])
        tricks += step["tricks"]
        if step["state"]["terminal"]:
            assert step["winners"] == list(ruleset.winners(game, expected.returns()))
            break
    want = [
        trick_json(leader, r, log.seating, ruleset.palette)
        for log in expected.history
        for leader, r in log.tricks
    ]
    assert tricks == want
    scores = result(oracle, "scores", game=game_id)
    assert scores["totals"] == list(expected.returns()) and scores["complete"]
    assert result(oracle, "record", game=game_id) == to_record(expected, 11)


def _options(ruleset_id: str) -> set[str]:
    return {s.name for s in get_ruleset(ruleset_id).option_specs}


def test_an_illegal_action_changes_nothing_and_names_its_clause() -> None:
    oracle = Oracle()
    game_id = result(oracle, "new_game", ruleset="sticheln", players=4, seed=3)["game"]
    before = result(oracle, "state", game=game_id)
    err = error(oracle, "apply", game=game_id, action="R1")  # a play during the picks
    assert err["code"] == ILLEGAL_ACTION
    assert err["data"]["clause"] == "STI-SELECT-2"
    assert err["data"]["legal_actions"] == before["legal_actions"]
    assert result(oracle, "state", game=game_id) == before
    wrong_seat = error(oracle, "apply", game=game_id, action=before["legal_actions"][0], seat=2)
    assert wrong_seat["code"] == ILLEGAL_ACTION and wrong_seat["data"]["field"] == "params.seat"
    bad_card = error(oracle, "apply", game=game_id, action="Q9")
    assert bad_card["code"] == INVALID_PARAMS and bad_card["data"]["field"] == "params.action"


def test_trick_result_explain_and_judge() -> None:
    oracle = Oracle()
    game_id = result(oracle, "new_game", ruleset="lowhigh", players=3, seed=5)["game"]
    assert error(oracle, "trick_result", game=game_id)["data"]["field"] == "params.trick"
    for _ in range(3):
        legal = result(oracle, "legal_actions", game=game_id)["actions"]
        result(oracle, "apply", game=game_id, action=legal[0])
    trick = result(oracle, "trick_result", game=game_id)
    assert trick["round"] == 0 and trick["trick"] == 0 and trick["clauses"]
    explained = result(oracle, "explain", game=game_id, trick={"trick": 0})
    assert [c["id"] for c in explained["explanation"]] == trick["clauses"]
    legal = result(oracle, "legal_actions", game=game_id)["actions"]
    yes = result(oracle, "explain", game=game_id, action=legal[0])
    assert yes["legal"] is True and yes["clauses"][0]["id"].startswith("LH-")
    whole = result(oracle, "state", game=game_id)
    hand = set(whole["hands"][whole["current_player"]])
    foreign = next(c for h in whole["hands"] for c in h if c not in hand)
    no = result(oracle, "explain", game=game_id, action=foreign)
    assert no["legal"] is False and no["legal_actions"] == legal
    text = result(oracle, "explain", ruleset="lowhigh", clause=trick["clauses"][0])
    assert text["id"] == trick["clauses"][0] and text["summary"]
    dispute = result(oracle, "explain", ruleset="lowhigh", clause="LH-D-SAMECARD")
    assert dispute["kind"] == "dispute" and "same-player" in dispute["readings"]
    assert error(oracle, "explain", ruleset="lowhigh", clause="LH-NOPE-1")["data"]["field"] == (
        "params.clause"
    )
    assert error(oracle, "explain", game=game_id)["data"]["field"] == "params"
    judged = result(oracle, "judge", ruleset="sticheln", players=3, cards=["R1", "R2", "Y3"])
    assert judged["winner"] == 2 and "STI-TRICK-2" in judged["clauses"]
    assert error(oracle, "judge", ruleset="sticheln", players=3, cards=["R1", "R1", "Y3"])["data"][
        "field"
    ] == ("params.cards")


def test_state_for_one_seat_hides_the_other_hands() -> None:
    oracle = Oracle()
    opened = result(oracle, "new_game", ruleset="hund", players=3, seed=2)
    seen = result(oracle, "state", game=opened["game"], seat=1)
    assert seen["hand"] == opened["state"]["hands"][1]
    assert "hands" not in seen
    assert error(oracle, "state", game=opened["game"], seat=9)["data"]["field"] == "params.seat"
    virtual = result(oracle, "new_game", ruleset="hund", players=2, seed=2)["game"]
    assert "automatic" in error(oracle, "state", game=virtual, seat=2)["message"]


def test_explicit_deals_are_checked_and_used() -> None:
    oracle = Oracle()
    record = to_record(play_random_game(get_ruleset("the-last").make_game(3), 4), 4)
    deal = record["rounds"][0]["deal"]
    opened = result(oracle, "new_game", ruleset="the-last", players=3, deals=[deal])
    assert [sorted(h) for h in opened["state"]["hands"]] == [sorted(h) for h in deal["hands"]]
    short = {**deal, "hands": [deal["hands"][0][:-1], *deal["hands"][1:]]}
    err = error(oracle, "new_game", ruleset="the-last", players=3, deals=[short])
    assert err["code"] == INVALID_PARAMS and "LAST-" in err["message"]
    assert (
        error(oracle, "new_game", ruleset="the-last", players=3)["data"]["field"] == "params.seed"
    )


def test_a_deal_holds_nothing_but_what_the_ruleset_deals() -> None:
    """Issue 43, item 4: a deal's extra fields used to be kept with the game and echoed in
    every answer (12 MiB a game, past the answer cap). Now an extra the ruleset does not
    draw, or one that is not a card's number, is refused before the game opens; Hund's
    ``designation`` still plays."""
    oracle = Oracle()
    deal = to_record(play_random_game(get_ruleset("lowhigh").make_game(3), 4), 4)["rounds"][0]
    junk = {**deal["deal"], "extras": {f"junk{i}": i for i in range(1000)}}
    err = error(oracle, "new_game", ruleset="lowhigh", players=3, deals=[junk])
    assert err["code"] == INVALID_PARAMS
    assert "the deal has an extra 'junk0'; lowhigh deals extras: none" in err["message"]
    assert oracle.games == {}
    hund = to_record(play_random_game(get_ruleset("hund").make_game(4), 4), 4)["rounds"][0]
    assert hund["deal"]["extras"].keys() == {"designation"}
    assert result(oracle, "new_game", ruleset="hund", players=4, deals=[hund["deal"]])
    for wrong in ("x" * 100_000, 10**9, [1] * 1000):
        bad = {**hund["deal"], "extras": {"designation": wrong}}
        err = error(oracle, "new_game", ruleset="hund", players=4, deals=[bad])
        assert err["code"] == INVALID_PARAMS and "designation" in err["message"]
        assert len(err["message"]) < 400


def test_bad_players_options_and_rulesets_name_the_field() -> None:
    oracle = Oracle()
    assert error(oracle, "new_game", ruleset="sticheln", players=7, seed=1)["data"]["field"] == (
        "params.players"
    )
    assert error(oracle, "new_game", ruleset="sticheln", players=3.0, seed=1)["data"]["field"] == (
        "params.players"
    )
    assert error(oracle, "new_game", ruleset="sticheln", players=True, seed=1)["data"]["field"] == (
        "params.players"
    )
    err = error(oracle, "new_game", ruleset="sticheln", players=3, seed=1, options={"x": 1})
    assert err["data"]["field"] == "params.options" and "'x'" in err["message"]
    assert error(oracle, "new_game", ruleset="skat", players=3, seed=1)["data"]["field"] == (
        "params.ruleset"
    )
    assert error(oracle, "new_game", ruleset="skat", players=3, seed=-1)["data"]["field"] == (
        "params.seed"
    )


def test_closing_limits_and_unknown_games() -> None:
    oracle = Oracle(max_games=2)
    first = result(oracle, "new_game", ruleset="sticheln", players=3, seed=1)["game"]
    result(oracle, "new_game", ruleset="sticheln", players=3, seed=2)
    assert error(oracle, "new_game", ruleset="sticheln", players=3, seed=3)["code"] == LIMIT
    assert result(oracle, "close", game=first) == {"closed": first}
    assert error(oracle, "scores", game=first)["code"] == UNKNOWN_GAME
    assert result(oracle, "new_game", ruleset="sticheln", players=3, seed=3)["game"] != first


# --- framing and hostile input ------------------------------------------------------------


def test_framing_errors() -> None:
    oracle = Oracle()

    def code(text: str | bytes) -> int:
        response = json.loads(oracle.handle_text(text) or "null")
        assert response["id"] is None or isinstance(response["id"], int | str)
        return int(response["error"]["code"])

    assert code("{bad") == PARSE_ERROR
    assert code(b"\xff\xfe\x00") == PARSE_ERROR
    assert code("[" * 100_000) == PARSE_ERROR
    assert code("1" * 5000) == PARSE_ERROR  # an integer beyond Python's digit limit
    assert code("[]") == INVALID_REQUEST
    assert code('"hello"') == INVALID_REQUEST
    assert code('{"id": 1, "method": "hello"}') == INVALID_REQUEST  # no jsonrpc member
    assert code('{"jsonrpc": "2.0", "id": 1, "method": 5}') == INVALID_REQUEST
    assert code('{"jsonrpc": "2.0", "id": [1], "method": "hello"}') == INVALID_REQUEST
    assert code('{"jsonrpc": "2.0", "id": 1, "method": "hello", "x": 1}') == INVALID_REQUEST
    assert code('{"jsonrpc": "2.0", "id": 1, "method": "nope"}') == METHOD_NOT_FOUND
    assert code('{"jsonrpc": "2.0", "id": 1, "method": "hello", "params": [1]}') == INVALID_PARAMS
    assert code('{"jsonrpc": "2.0", "id": 1, "method": "hello", "params": {"a": 1}}') == (
        INVALID_PARAMS
    )
    assert code("x" * (MAX_LINE_BYTES + 1)) == LIMIT
    assert code("[" + ",".join(["1"] * 1001) + "]") == LIMIT
    assert oracle.handle_text('{"jsonrpc": "2.0", "method": "hello"}') is None  # notification
    batch = json.loads(
        oracle.handle_text(
            '[{"jsonrpc": "2.0", "id": 1, "method": "hello"}, '
            '{"jsonrpc": "2.0", "method": "hello"}, 5]'
        )
        or "null"
    )
    assert [("result" in r, r["id"]) for r in batch] == [(True, 1), (False, None)]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
NEAR = st.fixed_dictionaries(
    {},
    optional={
        "ruleset": st.sampled_from([*RULESETS, "", "x"]) | JSON,
        "players": st.integers(-1, 8) | JSON,
        "seed": st.integers(-2, 2**65) | JSON,
        "options": st.dictionaries(st.sampled_from(["rounds", "follow", "values", "z"]), JSON),
        "game": st.sampled_from(["g1", "g2", "g0"]) | JSON,
        "action": st.sampled_from(["R1", "select R1", "keep", "swap Y2", "leader 1", "Z9", ""]),
        "seat": st.integers(-1, 7) | JSON,
        "cards": st.lists(st.sampled_from(["R1", "Y2", "G0", "P14", "A3", "R99"]), max_size=7),
        "deals": st.lists(JSON, max_size=2),
        "trick": JSON,
        "clause": JSON,
        "round": JSON,
        "context": JSON,
    },
)


@pytest.mark.slow
@settings(max_examples=400)
@given(method=st.sampled_from([*METHODS, "nope"]), params=NEAR | JSON)
def test_hostile_requests_get_structured_answers(method: str, params: Any) -> None:
    """Any request, however malformed, gets a result or a structured error, never an
    internal error; the oracle keeps its open games."""
    oracle = Oracle()
    result(oracle, "new_game", ruleset="sticheln", players=3, seed=1)
    response = json.loads(
        oracle.handle_text(
            json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
        )
        or "null"
    )
    if "error" in response:
        assert response["error"]["code"] in ERROR_NAMES
        assert response["error"]["code"] != INTERNAL_ERROR, response
        assert "\n" not in response["error"]["message"]
    else:
        _check_result_schema(method, response["result"])
    closed = method == "close" and "result" in response
    assert ("g1" in oracle.games) is not closed


# --- stdio ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_stdio_answers_line_by_line_and_survives_garbage(tricklaw_script: str) -> None:
    lines = [
        b'{"jsonrpc":"2.0","id":1,"method":"new_game","params":{"ruleset":"sticheln","players":3,"seed":1}}',
        b"garbage",
        b"",
        b"x" * (MAX_LINE_BYTES + 10),
        b'{"jsonrpc":"2.0","id":2,"method":"scores","params":{"game":"g1"}}',
    ]
    proc = subprocess.run(
        [tricklaw_script, "serve", "--stdio"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0 and not proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a.get("id") for a in answers] == [1, None, None, 2]
    assert answers[1]["error"]["code"] == PARSE_ERROR
    assert answers[2]["error"]["code"] == LIMIT
    assert answers[3]["result"]["totals"] == [0, 0, 0]


def test_serve_stdio_in_process_keeps_games_between_lines() -> None:
    import io

    source = io.BytesIO(
        b'{"jsonrpc":"2.0","id":1,"method":"new_game","params":{"ruleset":"hund","players":2,"seed":1}}\n'
        b'{"jsonrpc":"2.0","id":2,"method":"legal_actions","params":{"game":"g1"}}\n'
    )
    sink = io.BytesIO()
    assert serve_stdio(source, sink) == 0
    second = json.loads(sink.getvalue().splitlines()[1])
    assert second["result"]["seat"] == 0 and second["result"]["actions"]


# --- HTTP ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    with LiveServer(create_app(max_games=50)) as live:
        yield "127.0.0.1", live.port


def fetch(
    server: tuple[str, int],
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any]:
    conn = http.client.HTTPConnection(*server, timeout=10)
    sent = {"Content-Type": "application/json"} if method == "POST" else {}
    try:
        conn.request(method, path, body=body, headers={**sent, **(headers or {})})
        reply = conn.getresponse()
        data = reply.read()
    finally:
        conn.close()
    return reply.status, json.loads(data) if data else None


def test_http_methods_and_statuses(server: tuple[str, int]) -> None:
    status, opened = fetch(
        server, "POST", "/v1/new_game", b'{"ruleset":"sticheln","players":3,"seed":2}'
    )
    assert status == 200
    game = opened["game"]
    status, legal = fetch(server, "POST", "/v1/legal_actions", json.dumps({"game": game}).encode())
    assert status == 200 and legal["actions"]
    status, body = fetch(
        server, "POST", "/v1/apply", json.dumps({"game": game, "action": "R1"}).encode()
    )
    assert status == 409 and body["error"]["data"]["clause"] == "STI-SELECT-2"
    assert fetch(server, "POST", "/v1/apply", b"{bad")[0] == 400
    assert fetch(server, "POST", "/v1/apply", b"[1]")[0] == 400
    assert fetch(server, "POST", "/v1/scores", b'{"game":"g999"}')[0] == 404
    assert fetch(server, "POST", "/v1/nope", b"{}")[0] == 404
    assert fetch(server, "GET", "/nothing")[0] == 404
    assert fetch(server, "DELETE", "/v1/hello")[0] == 405
    assert fetch(server, "POST", "/v1/hello")[0] == 400  # a body is required
    assert fetch(server, "POST", "/v1/hello", b"{}")[0] == 200
    status, body = fetch(server, "POST", "/rpc", b'[{"jsonrpc":"2.0","id":1,"method":"hello"}]')
    assert status == 200 and body[0]["result"]["protocol"] == "tricklaw-oracle"
    assert fetch(server, "POST", "/rpc", b'{"jsonrpc":"2.0","method":"hello"}')[0] == 204
    assert fetch(server, "POST", "/rpc", b"{bad")[1]["error"]["code"] == PARSE_ERROR


def test_http_refuses_oversized_chunked_and_malformed_bodies(server: tuple[str, int]) -> None:
    # The server answers an oversized body from its Content-Length alone, unread, and
    # closes the connection; the client here states the length and waits (a client still
    # sending the body would race the close and may see a broken pipe instead).
    with socket.create_connection(server, timeout=10) as raw:
        raw.sendall(
            f"POST /v1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            f"\r\nContent-Length: {MAX_LINE_BYTES + 1}\r\n\r\n".encode()
        )
        answer = raw.makefile("rb").readline()
    assert answer.split()[1] == b"413", answer
    with socket.create_connection(server, timeout=10) as raw:
        raw.sendall(b"POST /v1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: zz\r\n\r\n")
        assert raw.makefile("rb").readline().split()[1] == b"400"
    # A chunked body is read chunk by chunk, within the same size cap.
    with socket.create_connection(server, timeout=10) as raw:
        raw.sendall(
            b"POST /v1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n\r\n"
        )
        answer = raw.makefile("rb").readline()
    assert answer.split()[1] == b"200", answer


def test_http_survives_stalled_and_vanishing_clients(server: tuple[str, int]) -> None:
    stalled = socket.create_connection(server)
    stalled.sendall(b"POST /v1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
    gone = socket.create_connection(server)
    gone.sendall(b"POST /v1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{")
    gone.close()
    garbage = socket.create_connection(server)
    garbage.sendall(b"\x00\xff NOT HTTP \r\n\r\n")
    start = time.monotonic()
    assert fetch(server, "POST", "/v1/hello", b"{}")[0] == 200
    assert time.monotonic() - start < 5
    stalled.close()
    garbage.close()


def test_openapi_describes_every_method_with_valid_schemas(server: tuple[str, int]) -> None:
    status, served = fetch(server, "GET", "/openapi.json")
    assert status == 200 and served == openapi()
    assert served["openapi"].startswith("3.1")
    components = served["components"]["schemas"]
    assert set(served["paths"]) == {f"/v1/{m}" for m in METHODS} | {"/rpc"}

    def refs(node: Any) -> Iterator[str]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "$ref":
                    yield value
                else:
                    yield from refs(value)
        elif isinstance(node, list):
            for item in node:
                yield from refs(item)

    for ref in refs(served):
        assert ref.startswith("#/components/schemas/") and ref.split("/")[-1] in components
    for schema in components.values():
        Draft202012Validator.check_schema(schema)
    for name in METHODS:
        Draft202012Validator.check_schema(METHODS[name].params)
        Draft202012Validator.check_schema(METHODS[name].result)


def test_replayed_record_from_the_oracle_is_a_valid_record() -> None:
    oracle = Oracle()
    game_id = result(oracle, "new_game", ruleset="the-last", players=2, seed=9)["game"]
    for _ in range(5):
        legal = result(oracle, "legal_actions", game=game_id)["actions"]
        result(oracle, "apply", game=game_id, action=legal[-1])
    record = result(oracle, "record", game=game_id)
    assert record["complete"] is False
    assert to_record(replay(record), 9) == record


def test_every_method_is_documented() -> None:
    text = (Path(__file__).parents[1] / "docs" / "oracle.md").read_text("utf-8")
    for name in METHODS:
        assert f"\n`{name}`\n: " in text, name


@pytest.mark.slow
def test_the_serve_command_listens_and_bad_flags_exit_2(tricklaw_script: str) -> None:
    proc = subprocess.Popen(
        [tricklaw_script, "serve", "--http", "0"], stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        port = int(line.split("http://127.0.0.1:")[1].split("/")[0])
        reply = fetch(("127.0.0.1", port), "POST", "/v1/hello", b"{}")[1]
        assert reply["protocol"] == "tricklaw-oracle"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    for args, message in (
        (["serve"], "choose --stdio"),
        (["serve", "--http", "70000"], "not a port"),
        (["serve", "--stdio", "--max-games", "0"], "--max-games"),
        (["serve", "--stdio", "--http", "1"], "not allowed with"),
    ):
        bad = subprocess.run(
            [tricklaw_script, *args], capture_output=True, text=True, timeout=60, check=False
        )
        assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr


# --- a state machine over several open games ---------------------------------------------


class OracleSessions(RuleBasedStateMachine):
    """Open, play, probe and close several games at once through the protocol; each open
    game's view always equals the model's state driven alongside."""

    def __init__(self) -> None:
        super().__init__()
        self.oracle = Oracle(max_games=4)
        self.models: dict[str, Any] = {}

    @rule(
        ruleset_id=st.sampled_from(list(RULESETS)), seed=st.integers(0, 2**64 - 1), data=st.data()
    )
    def open_game(self, ruleset_id: str, seed: int, data: st.DataObject) -> None:
        ruleset = get_ruleset(ruleset_id)
        players = data.draw(st.sampled_from(ruleset.player_counts))
        response = call(self.oracle, "new_game", ruleset=ruleset_id, players=players, seed=seed)
        if len(self.models) >= 4:
            assert response["error"]["code"] == LIMIT
            return
        self.models[response["result"]["game"]] = ruleset.make_game(players).new_initial_state(seed)

    @precondition(lambda self: bool(self.models))
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        game_id = data.draw(st.sampled_from(sorted(self.models)))
        state = self.models[game_id]
        if state.is_terminal():
            return
        legal = state.legal_actions()
        action = data.draw(st.sampled_from(legal))
        text = state.action_to_string(action)
        step = result(self.oracle, "apply", game=game_id, action=text)
        self.models[game_id] = state.child(action)
        assert step["state"]["legal_actions"] == [
            self.models[game_id].action_to_string(a) for a in self.models[game_id].legal_actions()
        ]

    @precondition(lambda self: bool(self.models))
    @rule(data=st.data(), text=st.sampled_from(["R0", "Y14", "select G3", "keep", "leader 5"]))
    def probe(self, data: st.DataObject, text: str) -> None:
        game_id = data.draw(st.sampled_from(sorted(self.models)))
        state = self.models[game_id]
        legal = {state.action_to_string(a) for a in state.legal_actions()}
        response = call(self.oracle, "apply", game=game_id, action=text)
        if text in legal:
            assert "result" in response
            self.models[game_id] = state.child(string_to_action(text, state.game.ruleset.palette))
        else:
            assert "error" in response and response["error"]["code"] in {
                ILLEGAL_ACTION,
                INVALID_PARAMS,
            }

    @precondition(lambda self: bool(self.models))
    @rule(data=st.data())
    def close(self, data: st.DataObject) -> None:
        game_id = data.draw(st.sampled_from(sorted(self.models)))
        assert result(self.oracle, "close", game=game_id) == {"closed": game_id}
        del self.models[game_id]
        assert error(self.oracle, "state", game=game_id)["code"] == UNKNOWN_GAME

    @invariant()
    def views_match_the_model(self) -> None:
        from tricklaw.oracle import view

        assert set(self.oracle.games) == set(self.models)
        for game_id, state in self.models.items():
            assert result(self.oracle, "state", game=game_id) == view(state)


TestOracleSessions = OracleSessions.TestCase
TestOracleSessions.settings = settings(max_examples=30, stateful_step_count=30, deadline=None)
TestOracleSessions.pytestmark = [pytest.mark.slow]  # 30 sessions: about 11 s


PLAIN = st.dictionaries(
    st.sampled_from(["game", "action", "seat", "x"]),
    st.text(max_size=70) | st.integers(-2, 20) | st.booleans() | st.floats() | st.none(),
    max_size=4,
)


def test_the_fast_parameter_checks_accept_plain_requests() -> None:
    assert PLAINLY_VALID["apply"]({"game": "g1", "action": "select R5", "seat": 3})
    assert PLAINLY_VALID["state"]({"game": "g1"})
    assert not PLAINLY_VALID["state"]({"game": "g1", "seat": 1})  # left to the schema


@pytest.mark.slow
@settings(max_examples=examples(500))
@given(method=st.sampled_from(sorted(PLAINLY_VALID)), params=PLAIN | NEAR | JSON)
def test_the_fast_parameter_checks_accept_only_what_the_schemas_accept(
    method: str, params: Any
) -> None:
    if isinstance(params, dict) and PLAINLY_VALID[method](params):
        schema = {**METHODS[method].params, "$defs": definitions()}
        assert not list(Draft202012Validator(schema).iter_errors(params))
        assert all(type(v) is not float and type(v) is not bool for v in params.values())


@pytest.mark.parametrize(
    "line",
    [
        b'{"jsonrpc":"2.0","id":"\\ud800","method":"hello","params":{}}',
        b'{"jsonrpc":"2.0","id":1,"method":"hello","params":{"\\uDFFF":1}}',
        b'[{"jsonrpc":"2.0","id":1,"method":"hello","params":{"x":["\\udc00"]}}]',
    ],
)
def test_a_lone_surrogate_is_a_parse_error_and_the_oracle_goes_on(line: bytes) -> None:
    """A lone surrogate in an id or a member name killed ``serve --stdio`` and every open
    game with it (the answer could not be written as UTF-8)."""
    import io

    sink = io.BytesIO()
    hello = b'{"jsonrpc":"2.0","id":"\\ud83d\\ude00","method":"hello","params":{}}'
    assert serve_stdio(io.BytesIO(line + b"\n" + hello + b"\n"), sink) == 0
    first, second = (json.loads(text) for text in sink.getvalue().splitlines())
    assert first["id"] is None and first["error"]["code"] == -32700
    assert "surrogate" in first["error"]["message"]
    assert second["id"] == "\U0001f600" and second["result"]["protocol"] == "tricklaw-oracle"


def test_a_game_opened_by_a_notification_is_not_kept() -> None:
    """``new_game`` as a notification gets no answer, so no client learns the game's id:
    10,000 of them filled the table of open games and locked every client out."""
    oracle = Oracle(max_games=3)
    notify = {
        "jsonrpc": "2.0",
        "method": "new_game",
        "params": {"ruleset": "lowhigh", "players": 3, "seed": 1},
    }
    for _ in range(10):
        assert oracle.handle(dict(notify)) is None
    assert oracle.handle([dict(notify)] * 5) is None  # in a batch too
    assert oracle.games == {}
    assert result(oracle, "new_game", ruleset="lowhigh", players=3, seed=1)["game"] in oracle.games
