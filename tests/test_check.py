"""The log checker, ``tricklaw check``: agreeing logs and records, each kind of divergence,
unreadable input, streaming memory, and the JSON Lines schema.

``check`` is added to the ``tricklaw`` command by :func:`tricklaw.check.add_command`; these
tests run it through a parser built with that function, and in a subprocess through
``python -m tricklaw check``.
"""

from __future__ import annotations

import argparse
import copy
import gc
import io
import json
import re
import subprocess
import sys
import tracemalloc
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from tier import examples

from tricklaw import check
from tricklaw.check import (
    add_command,
    bench_check,
    check_lines,
    check_path,
    check_record,
    record_to_log,
)
from tricklaw.check.log_format import HEADER, kind_of
from tricklaw.check.validation import well_formed
from tricklaw.model import schemas
from tricklaw.model.agents import play_random_game, random_step
from tricklaw.model.cards import Card
from tricklaw.model.record import to_record
from tricklaw.model.replay.checker import kept_rounds
from tricklaw.model.replay.records import replay
from tricklaw.model.rng import agent_rng
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.model.state import Phase, State
from tricklaw.spec.errors import RecordError, TricklawError

clause = pytest.mark.clause

CONFIGS: list[tuple[str, int, dict[str, Any], int]] = [
    ("sticheln-1993", 4, {"rounds": 2}, 3),
    ("sticheln-1993", 3, {"follow": "must-follow", "all-zero": "no-winner", "deck": "full"}, 5),
    ("sticheln-1993", 5, {"follow": "follow-or-trump", "end": "target", "target": 3}, 1),
    ("sticheln", 3, {}, 1),
    ("sticheln", 6, {"zero-lead": "first-nonzero", "round-leader": "youngest", "rounds": 2}, 2),
    ("the-last", 2, {"rounds": 3}, 4),
    ("the-last", 2, {"rounds": 8, "ghost-seat": "fixed", "ghost-play": "first-legal"}, 6),
    ("the-last", 4, {"unused-points": "last-winner", "last-play": "free"}, 7),
    ("the-last", 5, {"rounds": 2}, 8),
    ("lowhigh", 3, {"same-card": "among-rest"}, 9),
    ("lowhigh", 6, {"first-leader": "seat0", "rounds": 2}, 10),
    ("hund", 2, {}, 11),
    ("hund", 2, {"designation-mode": "sets", "more-cards": "yes", "virtual-odd": "extra-up"}, 12),
    ("hund", 3, {"lead-tie": "earliest", "trump-timing": "from-card"}, 13),
    ("hund", 5, {"designation": "ascending", "values": "from-0", "set-repeat": "stack"}, 14),
]
IDS = [f"{c[0]}-{c[1]}-{c[3]}" for c in CONFIGS]


# --- helpers ---------------------------------------------------------------------------------


def finished(ruleset_id: str, players: int, options: dict[str, Any], seed: int) -> State[Any]:
    return play_random_game(get_ruleset(ruleset_id).make_game(players, options), seed, 12)


def record_of(config: tuple[str, int, dict[str, Any], int]) -> dict[str, Any]:
    """The record of a random game, as parsed JSON."""
    state = finished(*config)
    record: dict[str, Any] = json.loads(json.dumps(to_record(state, config[3])))
    return record


def log_of(config: tuple[str, int, dict[str, Any], int]) -> list[dict[str, Any]]:
    """The JSON Lines log of a random game, as parsed objects, one per line, written as
    version 1 (no end line): the tests below drop, add and edit lines, which a version 2
    log's end line would count (tests/test_nothing_lost.py tests the end line)."""
    objs = [json.loads(line) for line in record_to_log(record_of(config))]
    assert objs[0]["version"] == 2 and objs[-1] == {"end": {"lines": len(objs) - 1}}
    return [{**objs[0], "version": 1}, *objs[1:-1]]


def write(path: Path, objs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(o, separators=(",", ":")) + "\n" for o in objs))
    return path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``tricklaw check ...`` through a parser built with ``add_command``."""
    parser = argparse.ArgumentParser(prog="tricklaw")
    add_command(parser.add_subparsers(dest="command", required=True))
    parsed = parser.parse_args(["check", *args])
    status = parsed.func(parsed)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return status, out, err


def diverges(path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> str:
    """The one line that ``check`` prints for a log that diverges (exit status 1)."""
    status, out, err = run([str(path), *flags], capsys)
    assert status == 1, (out, err)
    lines = out.splitlines()
    assert len(lines) == 1 and err == "", (out, err)
    named = re.match(r"diverges \(([a-z0-9-]+), (\d+) players\): ", lines[0])
    assert named and named[1] in RULESETS, lines[0]  # the line names its game (issue 43)
    return "diverges: " + lines[0][named.end() :]


def verdict_json(path: Path, capsys: pytest.CaptureFixture[str], *flags: str) -> dict[str, Any]:
    status, out, _ = run([str(path), "--json", *flags], capsys)
    assert len(out.splitlines()) == 1
    body: dict[str, Any] = json.loads(out)
    assert status == check.EXIT_STATUS[body["status"]]
    return body


def unreadable(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The one error line for input that cannot be read (exit status 2)."""
    status, out, err = run([str(path)], capsys)
    assert status == 2, (out, err)
    lines = err.splitlines()
    assert out == "" and len(lines) == 1, (out, err)
    assert lines[0].startswith("tricklaw: error: check: ")
    return lines[0]


def index_of(objs: list[dict[str, Any]], key: str, nth: int = 0) -> int:
    """The list index of the ``nth`` line (from 0) that has ``key``."""
    found = [i for i, o in enumerate(objs) if key in o]
    return found[nth]


def schema() -> dict[str, Any]:
    text = resources.files("tricklaw.spec").joinpath("log.schema.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


STI = ("sticheln", 4, {"rounds": 2}, 21)
"""The game most divergence tests mutate."""


@pytest.fixture(scope="module")
def sti_log() -> list[dict[str, Any]]:
    return log_of(STI)


# --- agreeing logs and records ---------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_records_that_tricklaw_writes_agree(
    config: tuple[str, int, dict[str, Any], int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_of(config)
    replay(record)  # the same record passes tricklaw replay
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, indent=1))
    status, out, err = run([str(path)], capsys)
    assert (status, err) == (0, ""), out
    assert out.startswith(f"agrees: {config[0]}, {config[1]} players: ")
    assert len(out.splitlines()) == 1
    actions = sum(len(r["actions"]) for r in record["rounds"])
    assert f"{actions} actions" in out
    assert check_record(record, own_shuffle=True).status == "agrees"


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_json_lines_logs_agree(
    config: tuple[str, int, dict[str, Any], int], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = log_of(config)
    assert objs[0]["format"] == "tricklaw-log" and objs[0]["seed"] == config[3]
    path = write(tmp_path / "game.jsonl", objs)
    status, out, err = run([str(path)], capsys)
    assert (status, err) == (0, ""), out
    assert out.startswith("agrees: ")
    status, _, _ = run([str(path), "--own-shuffle"], capsys)
    assert status == 0
    body = verdict_json(path, capsys)
    assert body["status"] == "agrees" and body["clauses"] == []
    assert body["checked"]["actions"] == sum(1 for o in objs if "action" in o)
    assert body["checked"]["tricks"] == sum(1 for o in objs if "trick" in o)


def test_a_reading_taken_by_default_is_said(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 43, item 6: a header that names no reading of a dispute is checked under its
    default, and the verdict says so (it used to be checked as ``shared`` with no word)."""
    status, out, _ = run([str(write(tmp_path / "named.jsonl", sti_log))], capsys)
    assert status == 0 and "by default" not in out  # every reading named
    objs = copy.deepcopy(sti_log)
    del objs[0]["options"]["game-tie"]
    status, out, _ = run([str(write(tmp_path / "unnamed.jsonl", objs))], capsys)
    ruleset = get_ruleset(objs[0]["ruleset"])
    default = next(s.default for s in ruleset.option_specs if s.name == "game-tie")
    assert status == 0
    assert out.rstrip().endswith(f"(by default, as the log names no reading: game-tie={default})")


@pytest.mark.parametrize("config", [CONFIGS[0], CONFIGS[5], CONFIGS[11]], ids=str)
def test_minimal_logs_agree(config: tuple[str, int, dict[str, Any], int]) -> None:
    """Only the header, round lines (deals left to the seed) and actions; or no seed and
    every deal given; a partial header's options take their defaults."""
    objs = log_of(config)
    bare = [{"round": o["round"]} if "round" in o else o for o in objs]
    bare = [o for o in bare if not {"trick", "scores", "totals"} & o.keys()]
    assert check_lines(json.dumps(o) for o in bare).status == "agrees"
    unseeded = [{**objs[0], "seed": None}, *objs[1:]]
    assert check_lines(json.dumps(o) for o in unseeded).status == "agrees"
    del unseeded[0]["seed"]
    assert check_lines(json.dumps(o) for o in unseeded).status == "agrees"
    spaced = [json.dumps(o, indent=None) for o in objs]  # ", " and ": " separators
    assert check_lines(spaced).status == "agrees"


def _lower(value: Any) -> Any:
    """``value`` with every card (and action) in lower case: ``r5``, ``select r5``."""
    if isinstance(value, str):
        return value.lower()
    if isinstance(value, list):
        return [_lower(v) for v in value]
    if isinstance(value, dict):
        return {k: (_lower(v) if k not in {"clauses", "facts"} else v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("config", [CONFIGS[1], CONFIGS[6], CONFIGS[12]], ids=str)
def test_other_spellings_of_the_same_game_agree(
    config: tuple[str, int, dict[str, Any], int],
) -> None:
    """Cards in lower case, taken cards in another order, tricks without the optional
    fields: the same game, checked on the slow path that parses every card."""
    objs = log_of(config)
    changed = [objs[0]]
    for obj in objs[1:]:
        line = obj
        if "trick" in obj:
            trick = {k: obj["trick"][k] for k in ("leader", "cards", "winner", "taken")}
            trick["taken"] = {seat: cards[::-1] for seat, cards in trick["taken"].items()}
            line = {"trick": trick}
        if "scores" in obj:
            line = {"scores": obj["scores"]}
        changed.append(_lower(line) if not {"scores", "totals"} & line.keys() else line)
    assert changed[2] != objs[2]
    verdict = check_lines(json.dumps(o) for o in changed)
    assert verdict.status == "agrees", verdict.message


def test_a_header_may_leave_options_to_their_defaults() -> None:
    objs = log_of(("lowhigh", 3, {}, 2))
    objs[0]["options"] = {}
    assert check_lines(json.dumps(o) for o in objs).status == "agrees"
    del objs[0]["options"]
    assert check_lines(json.dumps(o) for o in objs).status == "agrees"


@pytest.mark.parametrize("steps", [0, 1, 30, 61, 64, 200])
def test_unfinished_games_agree(steps: int) -> None:
    game = get_ruleset("sticheln").make_game(4)
    state = game.new_initial_state(12)
    rng = agent_rng(12)
    for _ in range(steps):
        state = random_step(state, rng)
    record = json.loads(json.dumps(to_record(state)))
    assert record["complete"] is False
    verdict = check_record(record)
    assert verdict.status == "agrees", verdict.message
    assert "the game goes on" in verdict.message
    assert check_lines(record_to_log(record)).status == "agrees"


def test_the_first_line_tells_a_log_from_a_record(tmp_path: Path) -> None:
    record = record_of(CONFIGS[3])
    one_line = tmp_path / "compact.json"
    one_line.write_text(json.dumps(record))
    assert check_path(str(one_line)).status == "agrees"
    log = write(tmp_path / "game.jsonl", log_of(CONFIGS[3]))
    text = log.read_text()
    log.write_text("\n\n" + text.replace("\n", "\n\n"))  # blank lines are ignored
    assert check_path(str(log)).status == "agrees"


def test_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    lines = record_to_log(record_of(CONFIGS[9]))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    status, out, _ = run(["-"], capsys)
    assert status == 0 and out.startswith("agrees: lowhigh")


def test_convert_writes_a_log_that_agrees(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_of(CONFIGS[5])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    out_path = tmp_path / "converted.jsonl"
    status, _, _ = run([str(path), "--convert", str(out_path)], capsys)
    assert status == 0
    text = out_path.read_text().splitlines()
    assert text == record_to_log(record)
    assert check_path(str(out_path)).status == "agrees"
    again = tmp_path / "again.jsonl"
    status, _, _ = run([str(out_path), "--convert", str(again)], capsys)
    assert status == 0 and again.read_text().splitlines() == text


def test_record_to_log_refuses_a_record_that_diverges() -> None:
    record = record_of(CONFIGS[3])
    record["rounds"][0]["scores"][0] += 1
    with pytest.raises(RecordError, match="does not convert"):
        record_to_log(record)


# --- the schema ------------------------------------------------------------------------------


def test_the_log_schema_is_a_valid_schema() -> None:
    Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_logs_validate_against_the_schema(config: tuple[str, int, dict[str, Any], int]) -> None:
    validator = Draft202012Validator(schema())
    objs = log_of(config)
    for obj in objs:
        errors = [e.message for e in validator.iter_errors(obj)]
        assert errors == [], obj
    kinds = {next(iter(o)) for o in objs[1:]}
    assert {"round", "seat", "trick", "scores", "totals"} <= kinds


BAD_LINES = [
    {"seat": "1", "action": "R5"},
    {"seat": 1, "action": ""},
    {"seat": 16, "action": "R5"},
    {"seat": 1, "action": "R5", "extra": 1},
    {"round": -1},
    {"round": 0, "deal": {"hands": [["R5"]], "unknown": 1}},
    {"round": 0, "deal": {"hands": [["Q-1"]]}},
    {"trick": {"leader": 0, "cards": ["R5"]}},
    {"trick": {"leader": 0, "cards": ["R5"], "winner": "x"}},
    {"trick": {"leader": 0, "cards": ["R5"], "winner": 0, "taken": {"x": ["R5"]}}},
    {"scores": ["1"]},
    {"scores": [1], "winners": [0]},
    {"totals": [1], "complete": "yes"},
    {"something": 1},
]


@pytest.mark.parametrize("line", BAD_LINES, ids=lambda o: json.dumps(o)[:40])
def test_the_schema_and_the_checker_reject_the_same_lines(line: dict[str, Any]) -> None:
    validator = Draft202012Validator(schema())
    assert list(validator.iter_errors(line)), "the schema accepts it"
    objs = log_of(CONFIGS[3])
    first_action = index_of(objs, "action")
    objs.insert(first_action, line)
    verdict = check_lines(json.dumps(o) for o in objs)
    assert verdict.status == "unreadable", verdict.message
    assert verdict.line == first_action + 1


EDGES = [None, True, -1, 0, 16, 2**64, 1.0, 2.5, "", "R-1", [], {}]
"""Values at the edges of what the schemas allow."""


def _near(value: Any) -> list[Any]:
    """Values like ``value`` that a schema may refuse: out of range, of another type. A
    list wraps a copy of itself, never itself: added to that list, it would make it
    contain itself, which no JSON line can be."""
    if isinstance(value, bool) or value is None:
        return [0, "x", None, not value]
    if isinstance(value, int):
        return [value + 16, -1, 16, 2**64, float(value), value + 0.5, True, str(value)]
    if isinstance(value, str):
        return ["", "R-1", "R5 ", "Q99", 5, None]
    if isinstance(value, list):
        return [[], [None], [copy.deepcopy(value)], {}]
    return [{}, [], {"x": 1}, {"16": []}]


def _places(value: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    """The path of every value in ``value``, itself included."""
    out = [path]
    if isinstance(value, dict | list):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            out += _places(item, (*path, key))
    return out


def _damage(obj: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """``obj`` (a parsed line) with one value somewhere in it replaced, or a key added to
    or taken from one of its objects, or an item added to one of its lists."""
    obj = copy.deepcopy(obj)
    path = data.draw(st.sampled_from(_places(obj)))
    node: Any = obj
    for key in path[:-1]:
        node = node[key]
    target = node[path[-1]] if path else obj
    new = data.draw(st.sampled_from([*_near(target), *EDGES]))
    how = data.draw(st.sampled_from(["replace", "replace", "add", "drop"]))
    if how == "add" and isinstance(target, dict):
        target[data.draw(st.sampled_from(["extra", "0", "16", *target]))] = new
    elif how == "add" and isinstance(target, list):
        target.append(new)
    elif how == "drop" and path:
        del node[path[-1]]
    elif path:
        node[path[-1]] = new
    return obj


_LOGS: dict[int, list[dict[str, Any]]] = {}


def _line_to_damage(data: st.DataObject, configs: list[int]) -> tuple[list[dict[str, Any]], int]:
    """A log, and the index of one of its lines, of a kind drawn first."""
    config = data.draw(st.sampled_from(configs))
    if config not in _LOGS:
        _LOGS[config] = log_of(CONFIGS[config])
    objs = copy.deepcopy(_LOGS[config])
    key = data.draw(st.sampled_from(["format", "round", "seat", "trick", "scores", "totals"]))
    return objs, data.draw(st.sampled_from([i for i, o in enumerate(objs) if key in o]))


@pytest.mark.slow
@settings(max_examples=examples(3000), deadline=None, database=None)
@given(data=st.data())
def test_the_fast_path_accepts_only_what_the_schema_accepts(data: st.DataObject) -> None:
    """A line the plain tests call well formed breaks the schema nowhere, save a card's
    text (the checker reads each card: one it cannot read sends the line to the schema)."""
    objs, i = _line_to_damage(data, [0, 7, 11])
    line = _damage(objs[i], data)
    kind = HEADER if i == 0 else kind_of(line)
    if kind is None or not well_formed(kind, line):
        return
    defs = schema()["$defs"]
    errors = list(
        Draft202012Validator({"$defs": defs, "$ref": f"#/$defs/{kind}"}).iter_errors(line)
    )
    assert all(e.schema == defs["card"] for e in errors), errors


@settings(max_examples=examples(150), deadline=None, database=None)
@given(data=st.data())
def test_a_line_the_schema_rejects_is_unreadable_with_its_message(data: st.DataObject) -> None:
    """Whatever the fault, a line that breaks the schema makes the log unreadable at that
    line, and the message is the schema's first error: the field's path and the problem."""
    objs, i = _line_to_damage(data, [3, 5, 11])
    objs[i] = _damage(objs[i], data)
    kind = HEADER if i == 0 else kind_of(objs[i])
    if kind is None:
        return
    found = schemas.first_problem("log", kind, objs[i])
    if found is None or (i == 0 and "format" not in objs[i]):
        return
    verdict = check_lines(json.dumps(o) for o in objs)
    assert (verdict.status, verdict.line) == ("unreadable", i + 1), verdict.message
    assert verdict.message == f"line {i + 1}: {schemas.problem_text(found)}"


def test_whole_numbers_written_with_a_fraction_are_integers() -> None:
    """``2.0`` is an integer to JSON Schema: a log that writes its seats, scores and
    totals so gets the verdict of the log that writes ``2``."""
    objs = log_of(CONFIGS[3])

    def floated(obj: dict[str, Any]) -> dict[str, Any]:
        out = dict(obj)
        for key in ("seat", "round"):
            if key in out:
                out[key] = float(out[key])
        for key in ("scores", "totals"):
            if key in out:
                out[key] = [float(n) for n in out[key]]
        return out

    text = [json.dumps(o) for o in objs]
    changed = [json.dumps(floated(o)) for o in objs]
    assert "1.0" in "".join(changed) and "1.0" not in "".join(text)
    assert check_lines(changed).as_json() == check_lines(text).as_json()
    objs[-1]["totals"][0] += 1
    wrong = check_lines(json.dumps(floated(o)) for o in objs)
    assert wrong.as_json() == check_lines(json.dumps(o) for o in objs).as_json()
    assert wrong.status == "diverges"


# --- divergences -----------------------------------------------------------------------------


@clause("STI93-PLAY-2")
def test_an_illegal_card_names_the_follow_clause_and_the_legal_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config: tuple[str, int, dict[str, Any], int] = (
        "sticheln-1993",
        4,
        {"follow": "must-follow", "rounds": 1},
        31,
    )
    game = get_ruleset(config[0]).make_game(config[1], config[2])
    state = game.new_initial_state(config[3])
    rng = agent_rng(config[3])
    number = 0
    while True:  # the first play where the follow rule forbids a card of the hand
        hand, legal = state.hands[state.current], state.legal_actions()
        if state.phase is Phase.PLAY and len(legal) < len(hand):
            break
        state = random_step(state, rng)
        number += 1
    forbidden = next(c for c in hand if c not in legal)
    fmt = game.ruleset.palette.format
    legal_cards = [Card(a) for a in legal]  # plays: the action is the card
    objs = log_of(config)
    line = index_of(objs, "action", number)
    objs[line]["action"] = fmt(forbidden)
    path = write(tmp_path / "illegal.jsonl", objs)
    text = diverges(path, capsys)
    assert text.startswith(f"diverges: line {line + 1}, round 0, action {number}: ")
    assert f"may not take {fmt(forbidden)}" in text
    assert f"expected one of {' '.join(fmt(c) for c in legal_cards)}" in text
    # the card is legal under another reading of the follow rule: the dispute is named
    assert text.endswith("[STI93-PLAY-2] (dispute STI93-D-FOLLOW)")
    body = verdict_json(path, capsys)
    assert body["status"] == "diverges" and body["clauses"] == ["STI93-PLAY-2"]
    assert body["disputes"] == ["STI93-D-FOLLOW"]
    assert body["where"] == {
        "line": line + 1,
        "path": None,
        "round": 0,
        "action": number,
        "trick": None,
    }
    assert body["expected"] == [fmt(c) for c in legal_cards] and body["got"] == fmt(forbidden)


@clause("STI-PLAY-1")
def test_a_card_not_in_hand_and_a_wrong_seat(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = copy.deepcopy(sti_log)
    line = index_of(objs, "action", 10)
    objs[line]["action"] = "A14"  # grey: not in the 4-player deck at all
    text = diverges(write(tmp_path / "a.jsonl", objs), capsys)
    assert "A14 is not in that seat's hand" in text and text.endswith("[STI-PLAY-1]")
    objs = copy.deepcopy(sti_log)
    seat = objs[line]["seat"]
    objs[line]["seat"] = (seat + 1) % 4
    text = diverges(write(tmp_path / "b.jsonl", objs), capsys)
    assert f"it is seat {seat}'s turn; expected seat {seat} [STI-PLAY-1]" in text


@clause("STI-TRICK-5")
def test_a_wrong_trick_winner_names_the_deciding_clauses(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = copy.deepcopy(sti_log)
    line = index_of(objs, "trick", 3)
    trick = objs[line]["trick"]
    right = trick["winner"]
    trick["winner"] = (right + 1) % 4
    path = write(tmp_path / "winner.jsonl", objs)
    text = diverges(path, capsys)
    assert text.startswith(f"diverges: line {line + 1}, round 0, trick 3: ")
    assert f"the log says winner = {(right + 1) % 4}; expected winner = {right}" in text
    assert text.endswith(f"[{', '.join(trick['clauses'])}]")
    body = verdict_json(path, capsys)
    assert (body["expected"], body["got"]) == (right, (right + 1) % 4)
    assert body["clauses"] == trick["clauses"]
    assert body["clauses"][0] in {"STI-TRICK-5", "STI-D-ZEROLEAD"}


def test_wrong_taken_cards_and_cards_and_leader(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = copy.deepcopy(sti_log)
    line = index_of(objs, "trick", 5)
    trick = objs[line]["trick"]
    right = copy.deepcopy(trick["taken"])
    winner = str(trick["winner"])
    other = str((trick["winner"] + 1) % 4)
    moved = trick["taken"][winner].pop()
    trick["taken"][other] = [moved]
    text = diverges(write(tmp_path / "taken.jsonl", objs), capsys)
    assert f"trick 5: the log says taken = {json.dumps(trick['taken'])}" in text
    assert f"expected taken = {json.dumps(right)}" in text
    assert text.endswith(f"[{', '.join(trick['clauses'])}]")
    # The same cards in another order are the same taken cards.
    objs = copy.deepcopy(sti_log)
    objs[line]["trick"]["taken"][winner].reverse()
    assert check_lines(json.dumps(o) for o in objs).status == "agrees"
    objs = copy.deepcopy(sti_log)
    objs[line]["trick"]["cards"].reverse()
    assert "the log says cards = " in diverges(write(tmp_path / "cards.jsonl", objs), capsys)
    objs = copy.deepcopy(sti_log)
    objs[line]["trick"]["leader"] = (objs[line]["trick"]["leader"] + 1) % 4
    assert "the log says leader = " in diverges(write(tmp_path / "leader.jsonl", objs), capsys)


@clause("STI-SCORE-4")
def test_a_wrong_score_and_wrong_running_totals(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = copy.deepcopy(sti_log)
    line = index_of(objs, "scores", 1)
    right = list(objs[line]["scores"])
    objs[line]["scores"][2] += 1
    path = write(tmp_path / "scores.jsonl", objs)
    text = diverges(path, capsys)
    assert text.startswith(f"diverges: line {line + 1}, round 1: ")
    assert f"expected scores = {json.dumps(right)} [STI-SCORE-4]" in text
    body = verdict_json(path, capsys)
    assert body["expected"] == right and body["where"]["round"] == 1
    objs = copy.deepcopy(sti_log)
    objs[index_of(objs, "scores", 0)]["totals"][0] -= 1
    text = diverges(write(tmp_path / "running.jsonl", objs), capsys)
    assert "the totals after round 0 are" in text and text.endswith("[STI-SCORE-4]")


@clause("STI-GAME-2")
def test_wrong_totals_winners_and_completion(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = copy.deepcopy(sti_log)
    final = objs[-1]
    right = list(final["totals"])
    final["totals"][1] += 5
    path = write(tmp_path / "totals.jsonl", objs)
    text = diverges(path, capsys)
    assert text.startswith(f"diverges: line {len(objs)}: the log says totals = ")
    assert f"expected {json.dumps(right)} [STI-SCORE-4]" in text
    objs = copy.deepcopy(sti_log)
    winners = objs[-1]["winners"]
    objs[-1]["winners"] = [s for s in range(4) if s not in winners][:1]
    text = diverges(write(tmp_path / "winners.jsonl", objs), capsys)
    assert f"expected {json.dumps(winners)} [STI-GAME-2]" in text
    objs = copy.deepcopy(sti_log)
    cut = index_of(objs, "round", 1)
    partial = [*objs[:cut], {"totals": objs[cut - 1]["totals"], "complete": True}]
    text = diverges(write(tmp_path / "complete.jsonl", partial), capsys)
    assert "the log says the game is complete; expected not over" in text
    assert text.endswith("[STI-GAME-1]")


@clause("STI-DEAL-1")
def test_a_wrong_deal_card_names_the_seeded_hand(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = copy.deepcopy(sti_log)
    line = index_of(objs, "round", 1)
    hands = objs[line]["deal"]["hands"]
    right = sorted(hands[0], key=lambda c: ("RYGBPA".index(c[0]), int(c[1:])))
    hands[0][3], hands[1][5] = hands[1][5], hands[0][3]
    path = write(tmp_path / "deal.jsonl", objs)
    text = diverges(path, capsys)
    assert text.startswith(f"diverges: line {line + 1}, round 1: ")
    assert f"the log deals seat 0 {hands[0][3]} where seed 21 deals {hands[1][5]}" in text
    assert f"expected seat 0's hand {' '.join(right)} [STI-DEAL-1]" in text
    body = verdict_json(path, capsys)
    assert sorted(body["expected"]) == sorted(right) and body["clauses"] == ["STI-DEAL-1"]
    # With --own-shuffle the swapped deal is a legal deal; the actions then diverge.
    text = diverges(path, capsys, "--own-shuffle")
    assert "is not in that seat's hand" in text and "round 1, action" in text


@clause("STI-DECK-1")
def test_an_own_shuffle_deal_must_be_a_legal_deal(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = copy.deepcopy(sti_log)
    hands = objs[1]["deal"]["hands"]
    hands[0][0] = hands[1][0]
    objs[0]["seed"] = None
    text = diverges(write(tmp_path / "twice.jsonl", objs), capsys)
    assert f"the deal breaks the rules: the deal holds {hands[1][0]} 2 times" in text
    assert text.endswith("; expected a deal by the rules [STI-DECK-1]")
    objs = copy.deepcopy(sti_log)
    objs[1]["deal"]["hands"][2][0] = "A14"  # grey: not in the 4-player deck
    text = diverges(write(tmp_path / "grey.jsonl", objs), capsys, "--own-shuffle")
    assert "the deal breaks the rules: " in text and "A14" in text
    assert text.endswith("[STI-DECK-1]")


@clause("LAST-LEAD-1", "LAST-GHOST-3")
def test_the_last_first_player_and_the_ghost_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = log_of(("the-last", 2, {"rounds": 2}, 41))
    first = objs[1]["deal"]["first_leader"]
    objs[1]["deal"]["first_leader"] = 1 - first
    text = diverges(write(tmp_path / "first.jsonl", objs), capsys)
    assert f"expected seed 41 deals first_leader = {first} [LAST-LEAD-1]" in text
    objs = log_of(("the-last", 2, {"rounds": 2}, 41))
    line = index_of(objs, "action", 2)
    objs.insert(line, {"seat": 2, "action": "R1"})
    text = diverges(write(tmp_path / "ghost.jsonl", objs), capsys)
    assert "(the rules play seat 2: its cards appear only in the tricks)" in text


@clause("HUND-DESIG-1")
def test_hund_wrong_designation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    objs = log_of(("hund", 3, {}, 43))
    right = objs[1]["deal"]["extras"]["designation"]
    objs[1]["deal"]["extras"]["designation"] = right % 5 + 1
    text = diverges(write(tmp_path / "designation.jsonl", objs), capsys)
    assert f"expected seed 43 deals designation = {right} [HUND-DESIG-1]" in text


@clause("STI-ROUND-1")
def test_the_order_of_events_is_checked(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = copy.deepcopy(sti_log)
    first_trick = index_of(objs, "trick")
    objs.insert(first_trick - 1, objs[first_trick])  # a trick line before its last card
    text = diverges(write(tmp_path / "early.jsonl", objs), capsys)
    assert "the last action completed none" in text and "(3 of 4 cards:" in text
    objs = copy.deepcopy(sti_log)
    scores = index_of(objs, "scores")
    objs.insert(scores - 3, objs[scores])  # scores before the last trick is over
    text = diverges(write(tmp_path / "scores.jsonl", objs), capsys)
    assert "the log ends round 0, but by the rules it is not over" in text
    assert text.endswith("[STI-ROUND-1]")
    objs = [o for o in copy.deepcopy(sti_log) if not {"trick", "scores"} & o.keys()]
    next_round = index_of(objs, "round", 1)
    del objs[next_round - 1]  # the last card of round 0 is missing
    text = diverges(write(tmp_path / "missing.jsonl", objs), capsys)
    assert "the log begins round 1, but by the rules round 0 is not over" in text
    objs = copy.deepcopy(sti_log)
    next_round = index_of(objs, "round", 1)
    objs.insert(next_round, dict(objs[index_of(objs, "action", 5)]))
    text = diverges(write(tmp_path / "extra.jsonl", objs), capsys)
    assert "by the rules round 0 is over" in text


@clause("STI-GAME-1")
def test_actions_and_rounds_after_the_end_of_the_game(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = copy.deepcopy(sti_log)
    objs.insert(len(objs) - 1, dict(objs[index_of(objs, "action", 70)]))
    text = diverges(write(tmp_path / "after.jsonl", objs), capsys)
    assert "the log goes on with an action, but by the rules the game is over" in text
    assert text.endswith("[STI-GAME-1]")
    objs = copy.deepcopy(sti_log)
    objs.insert(len(objs) - 1, {"round": 2})
    text = diverges(write(tmp_path / "round.jsonl", objs), capsys)
    assert "the game ended after round 1" in text
    objs = copy.deepcopy(sti_log)
    objs.insert(len(objs) - 1, {"round": 5})
    assert "a round with index 5; expected index 2" in diverges(
        write(tmp_path / "index.jsonl", objs), capsys
    )


def test_a_record_diverges_with_its_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_of(STI)
    trick = record["rounds"][1]["tricks"][2]
    right = trick["winner"]
    trick["winner"] = (right + 1) % 4
    with pytest.raises(RecordError, match="winner"):
        replay(copy.deepcopy(record))
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, indent=1))
    text = diverges(path, capsys)
    assert text.startswith("diverges: round 1, trick 2: the record says winner")
    assert f"expected winner = {right}" in text
    body = verdict_json(path, capsys)
    assert body["where"]["path"] == "rounds[1].tricks[2]" and body["where"]["line"] is None
    record = record_of(STI)
    record["rounds"][0]["tricks"].append(record["rounds"][0]["tricks"][0])
    path.write_text(json.dumps(record))
    assert "the record lists 15 tricks for the round; expected 14" in diverges(path, capsys)


# --- unreadable input ------------------------------------------------------------------------


def test_truncated_json(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "cut.jsonl", sti_log)
    text = path.read_text()
    path.write_text(text[: len(text) - 30] + "\n")  # a bad last line that is whole
    line = unreadable(path, capsys)
    assert line.startswith(f"tricklaw: error: check: line {len(sti_log)}: not valid JSON: ")
    # Cut off mid-line, without its line end, it is where the log stops (issue 16):
    # tests/test_hostile_input.py checks that verdict.
    record = tmp_path / "cut.json"
    record.write_text(json.dumps(record_of(STI), indent=1)[:5000])
    assert "the record is not valid JSON" in unreadable(record, capsys)
    header = tmp_path / "header.jsonl"
    header.write_text(json.dumps(sti_log[0])[:40] + "\n" + text)
    assert unreadable(header, capsys).startswith("tricklaw: error: check: line 1: not valid JSON")


@pytest.mark.parametrize(
    "case",
    [
        (0, {"ruleset": "skat"}, "line 1: ruleset: unknown ruleset 'skat'"),
        (0, {"options": {"colour": "red"}}, "line 1: options: sticheln: unknown option 'colour'"),
        (0, {"options": {"rounds": "many"}}, "line 1: options: sticheln: option rounds takes"),
        (0, {"players": 2}, "line 1: players: sticheln is for 3-6 players, not 2"),
        (0, {"players": "4"}, "line 1: players: '4' is not of type 'integer'"),
        (0, {"version": 3}, "line 1: version: 3 is not one of [1, 2]"),
        (0, {"seed": -1}, "line 1: seed: -1 is less than the minimum of 0"),
        (0, {"seed": 2**64}, "line 1: seed: 18446744073709551616 is greater than the maximum"),
        ("action", {"action": "Q99"}, "action: 'Q99': unknown colour 'Q'"),
        ("action", {"action": "R99"}, "action: 'R99': value 99 is out of range"),
        ("action", {"seat": "0"}, "seat: '0' is not of type 'integer'"),
        ("action", {"seat": 16}, "seat: 16 is greater than the maximum of 15"),
        ("action", {"action": 5}, "action: 5 is not of type 'string'"),
        ("action", {"action": ""}, "action: '' should be non-empty"),
        (
            "trick",
            {"trick": {"leader": 0, "cards": ["R-1"], "winner": 0}},
            "trick.cards[0]: 'R-1' does not match '^[A-Za-z][0-9]{1,2}$'",
        ),
        (
            "trick",
            {"trick": {"leader": 0, "cards": ["X9"], "winner": 0}},
            "trick.cards[0]: 'X9': unknown colour 'X'",
        ),
        (
            "trick",
            {"trick": {"leader": 0, "cards": [], "winner": None, "taken": []}},
            "trick.taken: [] is not of type 'object'",
        ),
        ("scores", {"scores": [1, "2"]}, "scores[1]: '2' is not of type 'integer'"),
        ("round", {"deal": {"hands": [["R1", "Q99"]]}}, "deal.hands[0][1]: 'Q99': unknown colour"),
        ("round", {"deal": None}, "deal: None is not of type 'object'"),
        ("round", {"extra": 1}, "Additional properties are not allowed ('extra' was unexpected)"),
    ],
    ids=lambda v: str(v)[:30],
)
def test_unreadable_fields_are_named(
    case: tuple[int | str, dict[str, Any], str],
    sti_log: list[dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    where, change, message = case
    objs = copy.deepcopy(sti_log)
    line = where if isinstance(where, int) else index_of(objs, where, 1)
    objs[line] = {**objs[line], **change}
    path = write(tmp_path / "bad.jsonl", objs)
    text = unreadable(path, capsys)
    assert message in text, text
    body = verdict_json(path, capsys)
    assert body["status"] == "unreadable" and body["where"]["line"] == line + 1


def test_missing_header_empty_files_and_more(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "noheader.jsonl", sti_log[1:])
    assert "line 1: the log has no header: its first line must be" in unreadable(path, capsys)
    path = write(tmp_path / "twice.jsonl", [sti_log[0], *sti_log])
    assert "line 2: a second header line" in unreadable(path, capsys)
    path = write(tmp_path / "after.jsonl", [*sti_log, sti_log[3]])
    assert f"line {len(sti_log) + 1}: the log goes on after its totals line" in unreadable(
        path, capsys
    )
    path = write(tmp_path / "other.jsonl", [{**sti_log[0], "format": "pgn"}, *sti_log[1:]])
    assert "line 1: format: 'tricklaw-log' was expected" in unreadable(path, capsys)
    path = tmp_path / "empty.jsonl"
    path.write_text("")
    assert unreadable(path, capsys).endswith("the file is empty")
    assert "cannot read" in unreadable(tmp_path / "missing.jsonl", capsys)
    path.write_bytes(b"\xff\xfe{}\n")
    assert "not UTF-8" in unreadable(path, capsys)
    path = write(tmp_path / "unseeded.jsonl", [{**sti_log[0], "seed": None}, {"round": 0}])
    assert "line 2: deal: the round has no deal and the header no seed" in unreadable(path, capsys)
    path = write(tmp_path / "list.jsonl", [sti_log[0], [1, 2]])  # type: ignore[list-item]
    assert "line 2: expected a JSON object, got [1, 2]" in unreadable(path, capsys)


def test_an_unreadable_record_names_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = record_of(STI)
    record["rounds"][1]["actions"][4]["seat"] = "one"
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record, indent=1))
    text = unreadable(path, capsys)
    assert "record field rounds[1].actions[4].seat: 'one' is not of type 'integer'" in text
    record = record_of(STI)
    record["players"] = "four"
    path.write_text(json.dumps(record, indent=1))
    assert "record field players: 'four' is not of type 'integer'" in unreadable(path, capsys)
    record = record_of(STI)
    record["rounds"][0]["deal"]["hands"][1][2] = "Q99"
    path.write_text(json.dumps(record, indent=1))
    assert "rounds[0].deal.hands[1][2]: 'Q99': unknown colour 'Q'" in unreadable(path, capsys)
    path.write_text("[1, 2]")
    assert "the record is not a JSON object" in unreadable(path, capsys)


@pytest.mark.slow
def test_the_module_runs_as_a_command(sti_log: list[dict[str, Any]], tmp_path: Path) -> None:
    good = write(tmp_path / "good.jsonl", sti_log)
    bad_objs = copy.deepcopy(sti_log)
    bad_objs[-1]["totals"][0] += 1
    bad = write(tmp_path / "bad.jsonl", bad_objs)
    broken = tmp_path / "broken.jsonl"
    broken.write_text(good.read_text()[:-20] + "\n")  # cut mid-line alone, it would agree
    for path, status in ((good, 0), (bad, 1), (broken, 2)):
        proc = subprocess.run(
            [sys.executable, "-m", "tricklaw", "check", str(path)],
            cwd=tmp_path,  # not the repository, whose tricklaw/ folder would shadow the package
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert proc.returncode == status, proc.stderr
        assert "Traceback" not in proc.stdout + proc.stderr
        assert len((proc.stdout + proc.stderr).splitlines()) == 1


@pytest.mark.slow
@settings(max_examples=60, deadline=None, database=None)
@given(data=st.data())
def test_any_damaged_log_gets_a_one_line_verdict(data: st.DataObject) -> None:
    lines = record_to_log(record_of(CONFIGS[data.draw(st.sampled_from([0, 5, 11]))]))
    how = data.draw(st.sampled_from(["drop", "repeat", "swap", "edit"]))
    i = data.draw(st.integers(0, len(lines) - 2))
    if how == "drop":
        del lines[i]
    elif how == "repeat":
        lines.insert(i, lines[i])
    elif how == "swap":
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    else:
        pos = data.draw(st.integers(0, len(lines[i]) - 1))
        char = data.draw(st.sampled_from(list('0123456789RYGB",:{}[] nulltrue')))
        lines[i] = lines[i][:pos] + char + lines[i][pos + 1 :]
    verdict = check_lines(lines)
    assert verdict.status in {"agrees", "diverges", "unreadable"}
    assert "\n" not in verdict.message and verdict.message
    json.dumps(verdict.as_json())


# --- streaming -------------------------------------------------------------------------------


class _Sampling:
    """A text file that, every ``every`` lines read, records the memory the program holds:
    what tracemalloc traces after a full collection (CPython keeps freed tuples and dicts
    on free lists, which tracemalloc counts as allocated and a full collection empties)."""

    def __init__(self, path: Path, every: int = 400) -> None:
        self.file = path.open(encoding="utf-8")
        self.every = every
        self.samples: list[int] = []
        self.lines = 0

    def readline(self, size: int = -1) -> str:
        if self.lines % self.every == 0:
            gc.collect()
            self.samples.append(tracemalloc.get_traced_memory()[0])
        self.lines += 1
        return self.file.readline(size)

    def read(self, size: int = -1) -> str:
        return self.file.read(size)


def _held_while_checking(path: Path) -> list[int]:
    check_path(str(path))  # warm the card and action caches
    stream = _Sampling(path)
    gc.collect()
    tracemalloc.start()
    try:
        verdict = check.check_stream(stream)  # type: ignore[arg-type]
    finally:
        tracemalloc.stop()
        stream.file.close()
    assert verdict.status == "agrees", verdict.message
    return stream.samples


@pytest.mark.slow
def test_memory_stays_flat_however_long_the_log(tmp_path: Path) -> None:
    game = get_ruleset("sticheln-1993").make_game(4, {"rounds": 200})
    state = play_random_game(game, 5)
    assert len(state.history) == 200
    lines = record_to_log(json.loads(json.dumps(to_record(state, 5))))
    long_log = tmp_path / "long.jsonl"
    long_log.write_text("\n".join(lines) + "\n")
    size = long_log.stat().st_size
    assert size > 500_000
    held = _held_while_checking(long_log)
    assert len(held) > 30
    early, late = held[1 : len(held) // 4], held[len(held) // 2 :]
    assert max(held) < size / 4, (max(held), size)
    assert max(late) < max(early) * 1.25 + 16_000, (early, late)


def test_the_checker_keeps_only_the_rounds_the_rules_look_back_at() -> None:
    """It keeps the first round (The Last's fixed ghost seat looks back at it) and the last
    ``KEPT_ROUNDS``; a game longer than that still agrees with the trimmed history. (The
    memory test above shows the trimming takes effect.)"""
    kept = check.KEPT_ROUNDS
    game = get_ruleset("the-last").make_game(2, {"rounds": kept + 4, "ghost-seat": "fixed"})
    history = play_random_game(game, 3).history
    assert len(history) == kept + 4
    out = kept_rounds(history)
    assert len(out) == kept + 1
    assert out[0] is history[0] and out[1:] == history[-kept:]
    assert kept_rounds(history[: kept + 1]) == history[: kept + 1]
    logs = record_to_log(record_of(("the-last", 2, {"rounds": 9, "ghost-seat": "fixed"}, 3)))
    assert check_lines(logs).status == "agrees"


@pytest.mark.slow
def test_bench_check_reports_actions_per_second() -> None:
    rate = bench_check("lowhigh", 3, min_actions=300, repeat=1)
    assert rate > 1000


def test_the_command_runs_inside_the_tricklaw_command_line(
    sti_log: list[dict[str, Any]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``tricklaw.cli.main`` with ``check`` added to its parser (as ``cli.py`` wires it)."""
    from tricklaw import cli

    build = cli.build_parser

    def with_check(command: str | None = None) -> argparse.ArgumentParser:
        parser = build("rulesets")  # every command but one as a help line only
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                del action.choices["check"]
                add_command(action)
        return parser

    monkeypatch.setattr(cli, "build_parser", with_check)
    good = write(tmp_path / "good.jsonl", sti_log)
    assert cli.main(["check", str(good)]) == 0
    assert capsys.readouterr().out.startswith("agrees: sticheln, 4 players")
    bad_objs = copy.deepcopy(sti_log)
    bad_objs[index_of(bad_objs, "scores")]["scores"][0] += 1
    assert cli.main(["check", str(write(tmp_path / "bad.jsonl", bad_objs)), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["clauses"] == ["STI-SCORE-4"]
    assert cli.main(["check", str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tricklaw: error: check: cannot read") and len(err.splitlines()) == 1
    assert cli.main(["check"]) == 2
    assert capsys.readouterr().err.startswith("tricklaw: error: ")


def test_convert_refuses_to_overwrite_its_input(
    sti_log: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "game.jsonl", sti_log)
    before = path.read_text()
    with pytest.raises(TricklawError, match="would overwrite the input"):
        run([str(path), "--convert", str(path)], capsys)
    assert path.read_text() == before


class _Counting(io.StringIO):
    """A text stream that counts the characters read from it."""

    taken = 0

    def readline(self, size: int | None = -1, /) -> str:
        line = super().readline(-1 if size is None else size)
        self.taken += len(line)
        return line

    def read(self, size: int | None = -1, /) -> str:
        text = super().read(size)
        self.taken += len(text)
        return text


def test_a_log_line_over_the_limit_is_unreadable_and_read_no_further() -> None:
    """``check`` read a line of any length whole (a 1.5 GB line took 2 GB of memory)."""
    from tricklaw.check.reading import MAX_LINE_CHARS, check_stream

    state = play_random_game(get_ruleset("lowhigh").make_game(3), 2, max_rounds=1)
    log = [line + "\n" for line in record_to_log(to_record(state))]
    huge = '{"seat": 0, "action": "' + "x" * (2 * MAX_LINE_CHARS) + '"}\n'
    stream = _Counting("".join([*log[:3], huge, *log[3:]]))
    found = check_stream(stream)
    assert found.status == "unreadable" and found.line == 4
    assert "longer than" in found.problem
    assert stream.taken < sum(map(len, log[:3])) + MAX_LINE_CHARS + 2
    assert check_stream(io.StringIO("".join(log))).status == "agrees"
