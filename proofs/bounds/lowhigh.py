"""lowhigh's score bounds: the relaxation, the plan, the readings.

The relaxation (:func:`relaxation`) counts the cards of each colour a player can have
received, and what they score, from the deck (LH-DECK-1), trick (LH-TRICK-4,
LH-TRICK-5), round (LH-ROUND-1) and score (LH-SCORE-2..4) clauses and the dispute
LH-D-SAMECARD. The plan (:func:`plan`) is a round of mono-colour tricks, built from the
rules alone, in which seat 0 gains the top two cards of every colour (or nothing).
"""

from __future__ import annotations

from collections.abc import Sequence

import z3

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.state import Deal, Game, RoundLog, seat_after
from tricklaw.proofs.bounds.game import (
    BOUNDS,
    EMPTY,
    GAME_TIE_ONLY,
    ROUNDS_ONLY,
    GameBounds,
    Hint,
    ReadingTable,
    RoundValues,
)
from tricklaw.proofs.bounds.layout import (
    Accept,
    TrickSpec,
    by_colour_desc,
    lay_out,
    table_of,
    takes_nothing,
)
from tricklaw.proofs.bounds.relaxation import Relaxation, deck_shape
from tricklaw.proofs.bounds.witness import SEAT, Plan, first_leader
from tricklaw.proofs.solver import Tracked
from tricklaw.spec.errors import TricklawError


def relaxation(game: Game) -> Relaxation:
    """lowhigh: how many cards of each colour a player can have won, and their score.

    Per colour ``X``: the number ``cnt_X`` of its cards the player won and, when
    that is one or two, their values ``hi_X`` (and ``lo_X``). Constraints:

    * deck (LH-DECK-1): each colour holds every value ``1..top`` once:
      ``cnt_X <= top``; one card has a value in ``1..top``, two cards have two
      different ones, ``top >= hi_X > lo_X >= 1``;
    * receiving (LH-TRICK-4, LH-TRICK-5, LH-D-SAMECARD): from each trick a
      player receives nothing, the highest card alone (as the lowest card's
      player), the ``n-1`` other cards (as the highest card's player), or,
      under ``same-card=same-player`` with all values equal, all ``n``: the
      cards won are ``x + (n-1) y + n z`` with ``x + y + z <= 15`` tricks
      (LH-ROUND-1); under ``same-card=among-rest`` the lowest card is then sought
      among the others, so no trick gives one player everything: ``z = 0``;
    * score: a colour with one or two cards scores their values (LH-SCORE-2),
      with three or more one point a card (LH-SCORE-3); the round score is the
      sum over the colours (LH-SCORE-1, LH-SCORE-4).
    """
    colours, values = deck_shape(game)
    top = max(values)
    n = game.players
    x, y, z_, score = z3.Ints("low_tricks high_tricks whole_tricks score")
    among_rest = game.options.text("same-card") == "among-rest"
    assertions = [
        Tracked("LH-TRICK-4", x >= 0),
        Tracked("LH-TRICK-5", y >= 0),
        Tracked("LH-D-SAMECARD", z_ == 0 if among_rest else z_ >= 0),
        Tracked("LH-ROUND-1", x + y + z_ <= 15),
    ]
    counts, parts = [], []
    for c in colours:
        cnt, hi, lo, part = z3.Ints(f"count_{c} high_{c} low_{c} points_{c}")
        counts.append(cnt)
        parts.append(part)
        assertions += [
            Tracked("LH-DECK-1", z3.And(cnt >= 0, cnt <= top)),
            Tracked("LH-DECK-1", z3.Implies(cnt == 1, z3.And(hi >= 1, hi <= top, lo == 0))),
            Tracked("LH-DECK-1", z3.Implies(cnt == 2, z3.And(hi <= top, hi > lo, lo >= 1))),
            Tracked("LH-SCORE-2", z3.Implies(cnt <= 2, part == z3.If(cnt == 0, 0, hi + lo))),
            Tracked("LH-SCORE-3", z3.Implies(cnt >= 3, part == cnt)),
        ]
    assertions += [
        Tracked("LH-TRICK-5", z3.Sum(counts) == x + (n - 1) * y + n * z_),
        Tracked("LH-SCORE-4", score == z3.Sum(parts)),
    ]
    return Relaxation(assertions, score)


def round_values(game: Game, log: RoundLog, seat: int) -> RoundValues:
    """The relaxation's variables in a finished round, for ``seat``: how many tricks gave
    it the highest card only, the rest, or everything, and per colour the cards it
    received, their two values (when two or fewer) and their points."""
    colours, _ = deck_shape(game)
    taken = log.taken(game.seats)[seat]
    out = _receipts(log, seat) | _points(taken, colours)
    for c in colours:
        own = sorted((value_of(x) for x in taken if colour_of(x) == c), reverse=True)
        out[f"count_{c}"] = len(own)
        if len(own) <= 2:
            out[f"high_{c}"] = own[0] if own else 0
            out[f"low_{c}"] = own[1] if len(own) == 2 else 0
    return out


def _receipts(log: RoundLog, seat: int) -> RoundValues:
    """How many tricks gave ``seat`` the highest card only, the rest, or everything."""
    low = high = whole = 0
    for leader, result in log.tricks:
        got = [
            c for o, cs in result.taken if seat_after(log.seating, leader, o) == seat for c in cs
        ]
        if not got:
            continue
        if result.winner is None or seat_after(log.seating, leader, result.winner) != seat:
            low += 1
        elif len(got) == len(result.cards):
            whole += 1
        else:
            high += 1
    return {"low_tricks": low, "high_tricks": high, "whole_tricks": whole}


def _points(taken: Sequence[Card], colours: Sequence[int]) -> RoundValues:
    """Per colour, the points of the cards ``taken`` (LH-SCORE-2, LH-SCORE-3)."""
    out: RoundValues = {}
    for c in colours:
        mine = [value_of(x) for x in taken if colour_of(x) == c]
        out[f"points_{c}"] = sum(mine) if len(mine) <= 2 else len(mine)
    return out


# --- the witness -------------------------------------------------------------------------


def plan(game: Game, maximize: bool, hint: Hint = EMPTY) -> Plan:
    """A lowhigh round of mono-colour tricks (everyone follows the lead colour; each
    colour holds ``3n`` values, three tricks of ``n``; no trick has one value throughout,
    so dispute ``same-card`` never comes up).

    Greatest: in each colour seat 0 plays the lowest card of two tricks whose highest
    cards are the colour's top two values, so it gains exactly those two cards (LH-TRICK-4)
    and scores their sum; in the third trick it plays a middle card and gains nothing.
    Least: seat 0 plays a middle card in every trick and gains nothing. (Built from the
    rules alone: ``hint`` is not read.)"""
    n = game.players
    specs: list[TrickSpec] = []
    for cards in by_colour_desc(game.ruleset.deck(n, game.options)).values():
        asc = sorted(cards)
        if not maximize:
            specs += [
                TrickSpec(tuple(asc[i : i + n]), takes_nothing(SEAT)) for i in range(0, 3 * n, n)
            ]
            continue
        top, second = asc[-1], asc[-2]
        first = (top, asc[0], *asc[2:n])
        other = (second, asc[1], *asc[n : 2 * n - 2])
        middle = tuple(c for c in asc if c not in first and c not in other)
        specs += [
            TrickSpec(first, _gains_exactly(SEAT, (top,))),
            TrickSpec(other, _gains_exactly(SEAT, (second,))),
            TrickSpec(middle, takes_nothing(SEAT)),
        ]
    tricks = lay_out(table_of(game), specs, first_leader=first_leader(game), ordered=True)
    if tricks is None:
        raise TricklawError("no layout for the lowhigh plan")
    hands = tuple(tuple(sorted(t[s] for t in tricks)) for s in range(n))
    return Plan(Deal(hands), tricks)


def _gains_exactly(seat: int, cards: tuple[Card, ...]) -> Accept:
    """Accepts a trick that gives ``seat`` exactly ``cards``."""
    return lambda _winner, taken: tuple(sorted(taken.get(seat, ()))) == tuple(sorted(cards))


READINGS = ReadingTable(
    unchanged={
        "game-tie": GAME_TIE_ONLY,
        "first-leader": (
            "only who starts the rounds after the first (seat 0 starts the first either way, "
            "and the relaxation is blind to seats)"
        ),
        "rounds": ROUNDS_ONLY,
    },
)
"""Options that cannot change a bound (``same-card``, LH-D-SAMECARD, is varied)."""

BOUNDS.register("lowhigh", GameBounds(relaxation, plan, round_values, READINGS, {"rounds": 1}))
