"""Two false passes the log checker must never give (issue 44, item 4): a move made by a
seat that was not asked, and a tie reported as fewer (or more) winners than the rules
give. Both are what a real engine gets wrong; a planted checker bug of either kind
survived the whole suite before these tests.

Every game and reading of tests/test_check.py's ``CONFIGS`` is tried: each choice that is
not a card (Hund's start-player choice, a keep or swap) and the first card of each round,
given by every other seat; and, in one tied game per ruleset, every proper part of the
winners and the winners with a loser added.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
from typing import Any

import pytest
from test_check import CONFIGS, IDS, log_of

from tricklaw.check import check_lines, record_to_log
from tricklaw.model.agents import play_random_game
from tricklaw.model.record import to_record
from tricklaw.model.rulesets import RULESETS, get_ruleset

CARD = re.compile(r"[A-Z]\d+")
"""An action that plays a card (``R5``); anything else is a choice (``leader 1``)."""


def texts(objs: list[dict[str, Any]]) -> list[str]:
    return [json.dumps(o) + "\n" for o in objs]


def asked_lines(objs: list[dict[str, Any]]) -> list[int]:
    """The lines to try: every choice, and each round's first card."""
    choices = [i for i, o in enumerate(objs) if "action" in o and not CARD.fullmatch(o["action"])]
    firsts = [
        i
        for i, o in enumerate(objs)
        if "action" in o and CARD.fullmatch(o["action"]) and "action" not in objs[i - 1]
    ]
    return sorted(set(choices[:12] + firsts[:3]))


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_move_by_a_seat_that_was_not_asked_diverges(
    config: tuple[str, int, dict[str, Any], int],
) -> None:
    objs = log_of(config)
    assert check_lines(texts(objs)).status == "agrees"
    lines = asked_lines(objs)
    assert lines, "the game has no move to try"
    for index in lines:
        seat = objs[index]["seat"]
        for other in (s for s in range(config[1]) if s != seat):
            bad = copy.deepcopy(objs)
            bad[index]["seat"] = other
            verdict = check_lines(texts(bad))
            assert (verdict.status, verdict.line) == ("diverges", index + 1), (
                config,
                objs[index],
                other,
                verdict,
            )


def test_every_game_with_choices_is_tried() -> None:
    """Not vacuous: the configurations include games whose logs hold choices."""
    with_choices = [
        c
        for c in CONFIGS
        if any("action" in o and not CARD.fullmatch(o["action"]) for o in log_of(c))
    ]
    assert {c[0] for c in with_choices} >= {"hund"}


def tied_game(ruleset_id: str, players: int) -> list[dict[str, Any]]:
    """The log (version 1, no end line) of the first seeded one-round game that ends in
    a tie for first place."""
    ruleset = get_ruleset(ruleset_id)
    options = {"rounds": 1} if any(s.name == "rounds" for s in ruleset.option_specs) else {}
    game = ruleset.make_game(players, options)
    for seed in range(400):
        record = json.loads(json.dumps(to_record(play_random_game(game, seed, 12), seed)))
        if len(record["winners"]) >= 2:
            objs = [json.loads(line) for line in record_to_log(record)]
            return [{**objs[0], "version": 1}, *objs[1:-1]]
    raise AssertionError(f"no tie in 400 games of {ruleset_id} at {players} players")


@pytest.mark.parametrize("ruleset_id", sorted(RULESETS))
def test_a_tie_reported_with_other_winners_diverges(ruleset_id: str) -> None:
    players = min(3, max(get_ruleset(ruleset_id).player_counts))
    objs = tied_game(ruleset_id, players)
    assert check_lines(texts(objs)).status == "agrees"
    winners = objs[-1]["winners"]
    losers = [s for s in range(players) if s not in winners]
    wrong = [list(p) for n in range(1, len(winners)) for p in itertools.combinations(winners, n)]
    wrong += [sorted([*winners, loser]) for loser in losers]
    for reported in wrong:
        bad = copy.deepcopy(objs)
        bad[-1]["winners"] = reported
        verdict = check_lines(texts(bad))
        assert verdict.status == "diverges", (ruleset_id, reported, verdict)
        assert (verdict.line, verdict.expected, verdict.got) == (len(objs), winners, reported)
