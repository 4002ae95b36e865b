"""Hund's score bounds: the relaxation, the plans' registration, the readings.

The relaxation (:func:`relaxation`) counts the cards of each suit a player can have
taken and which suits hold the powers, and scores them, from the deck (HUND-FACT-1,
HUND-GAP-1), play and collect (HUND-PLAY-1, HUND-COLLECT-1, HUND-GAP-2), designation
(HUND-DESIG-2, HUND-OPT-2) and score (HUND-FACT-2, HUND-FACT-3) clauses and the disputes
HUND-D-SETREPEAT, HUND-D-HUNDTIE and HUND-D-VIRTUALHUND. The plans, built from the rules
alone, are in :mod:`tricklaw.proofs.bounds.hund_plans`.
"""

from __future__ import annotations

from typing import Any

import z3

from tricklaw.model.cards import colour_of
from tricklaw.model.rulesets.hund import HUND, MINUS, PLUS
from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.bounds.game import (
    BOUNDS,
    GAME_TIE_ONLY,
    Combination,
    GameBounds,
    ReadingTable,
    RoundValues,
)
from tricklaw.proofs.bounds.hund_plans import plan
from tricklaw.proofs.bounds.relaxation import Relaxation, deck_shape
from tricklaw.proofs.solver import Tracked


def relaxation(game: Game) -> Relaxation:
    """Hund: which cards a player can have taken, and what they score.

    Scoring reads only how many cards of each suit a player took: ``count_c`` for suit
    ``c``. Constraints:

    * deck (HUND-FACT-1, HUND-GAP-1): five suits of ``S`` cards (``S`` follows
      ``more-cards``; which values they carry, ``values``, counts for nothing here):
      ``0 <= count_c <= S``;
    * every seat plays one card to each trick and the winner gathers them all
      (HUND-PLAY-1, HUND-COLLECT-1); all cards are dealt (HUND-GAP-2): the cards
      taken are ``s k`` for ``k <= 5S/s`` tricks won, ``s`` the seats (the virtual
      player included, HUND-TWO-1);
    * the powers' suits ``plus``, ``hund``, ``minus`` (HUND-DESIG-1/2): in the base
      game the designated number exists once in each suit and every card is played,
      so the three are three different suits. With designation sets (HUND-OPT-2) a
      suit takes at most one power unless ``set-repeat=stack`` (HUND-D-SETREPEAT),
      and even then only where two sets name one suit (``set-suits=any``,
      HUND-D-SETSUITS) or cards match by value (``set-match=value``,
      HUND-D-SETMATCH); a power may stay unassigned (suit ``-1``, no card counts for
      it) when two sets name one suit and a repeat is skipped;
    * score: +1 a Plus card, -1 a Minus card (HUND-FACT-2), and 3 for the Hund award
      (HUND-FACT-3), which needs the Hund power assigned. Under ``hund-tie=excluded``
      (HUND-D-HUNDTIE) a player tied for the fewest does not score, so the award needs
      a count above the fewest (at least one Hund card), and a count strictly between
      the most and the fewest, which takes three seats compared: with two players and
      ``virtual-hund=ignored`` (HUND-D-VIRTUALHUND) no award is possible. Under
      ``scores`` a tie may score, even at zero.

    ``trump-timing`` changes who takes a trick, ``designation`` and ``virtual-odd``
    what is dealt where, never which cards exist or what they count: the relaxation
    lets any trick go to anyone, so it covers them all.
    """
    read = game.options.text
    sets = read("designation-mode") == "sets"
    stack = read("set-repeat") == "stack"
    distinct = read("set-suits") == "distinct"
    by_card = read("set-match") == "card"
    colours, values = deck_shape(game)
    seats = game.seats
    counts = {c: z3.Int(f"count_{c}") for c in colours}
    plus, hund, minus, k, score = z3.Ints("plus hund minus tricks_won score")
    award = z3.Bool("hund_award")

    def suit_count(suit: Any) -> Any:
        return z3.Sum([z3.If(suit == c, n, 0) for c, n in counts.items()])

    repeat = sets and stack and (not distinct or not by_card)
    missing = sets and by_card and not distinct and not stack
    lowest = -1 if missing else 0
    powers = (plus, hund, minus)
    same_suit = [z3.And(p == q, p >= 0) for i, p in enumerate(powers) for q in powers[i + 1 :]]
    compared = seats - (1 if game.players == 2 and read("virtual-hund") != "counts" else 0)
    tricks = len(colours) * len(values) // seats
    assertions = [
        *[Tracked("HUND-GAP-1", z3.And(n >= 0, n <= len(values))) for n in counts.values()],
        Tracked("HUND-COLLECT-1", z3.Sum(list(counts.values())) == seats * k),
        Tracked("HUND-PLAY-1", k >= 0),
        Tracked("HUND-GAP-2", k <= tricks),
        Tracked(
            "HUND-OPT-2" if sets else "HUND-DESIG-2",
            z3.And(*[z3.And(p >= lowest, p < len(colours)) for p in powers]),
        ),
        Tracked("HUND-FACT-3", z3.Implies(award, hund >= 0)),
        Tracked(
            "HUND-FACT-2",
            score == suit_count(plus) - suit_count(minus) + z3.If(award, 3, 0),
        ),
    ]
    if not repeat:
        clause = "HUND-D-SETREPEAT" if sets else "HUND-DESIG-2"
        assertions.append(Tracked(clause, z3.Not(z3.Or(*same_suit))))
    if read("hund-tie") == "excluded":
        assertions.append(Tracked("HUND-D-HUNDTIE", z3.Implies(award, suit_count(hund) >= 1)))
        if compared < 3:
            assertions.append(Tracked("HUND-D-VIRTUALHUND", z3.Not(award)))
    return Relaxation(assertions, score)


def round_values(game: Game, log: RoundLog, seat: int) -> RoundValues:
    """The relaxation's variables in a finished round, for ``seat``: the cards of each
    suit it took, the suits of the Plus, Hund and Minus powers (-1: unassigned), and
    whether its score includes the Hund award."""
    colours, _ = deck_shape(game)
    taken = log.taken(game.seats)[seat]
    holders = [game.ruleset.palette.letters.index(x) for x in dict(log.facts)["powers"]]
    plus, hund, minus = (
        holders[power] if power < len(holders) else -1 for power in (PLUS, HUND, MINUS)
    )
    out: RoundValues = {f"count_{c}": sum(1 for x in taken if colour_of(x) == c) for c in colours}
    out |= {"plus": plus, "hund": hund, "minus": minus}
    gained = sum(1 for c in taken if colour_of(c) == plus)
    lost = sum(1 for c in taken if colour_of(c) == minus)
    out["hund_award"] = log.scores[seat] - gained + lost == 3
    return out


# --- the readings, and the registration ------------------------------------------------

SETS = (("designation-mode", "sets"),)
"""The designation sets (HUND-OPT-2), which the ``set-*`` sub-options need."""
SUB_OPTION = "a sub-option of the designation sets"

READINGS = ReadingTable(
    unchanged={
        "game-tie": GAME_TIE_ONLY,
        "lead-tie": (
            "only who names the next round's start player (HUND-POWER-5): no card scores by it"
        ),
    },
    only_at={
        "virtual-hund": ((2,), "the virtual player sits only at a two-player table"),
    },
    combined={
        "virtual-odd": (
            "only an odd virtual hand has an odd column: 15 cards, with more-cards=yes "
            "at two players"
        ),
        "set-suits": "read only with designation-mode=sets",
        "set-match": "read only with designation-mode=sets",
        "set-repeat": "read only with designation-mode=sets",
    },
    combinations=(
        Combination(
            (("more-cards", "yes"), ("virtual-odd", "extra-up")),
            "the odd column exists only with 15 cards a seat",
            (2,),
        ),
        Combination(
            (("hund-tie", "scores"), ("virtual-hund", "ignored")),
            "with two seats compared only a tie can earn the Hund award",
            (2,),
        ),
        Combination((*SETS, ("set-suits", "any")), SUB_OPTION),
        Combination((*SETS, ("set-match", "value")), SUB_OPTION),
        Combination((*SETS, ("set-repeat", "stack")), SUB_OPTION),
        Combination(
            (*SETS, ("set-repeat", "stack"), ("set-suits", "any")),
            "two sets of one suit stack powers on it only if repeats stack",
        ),
        Combination(
            (*SETS, ("set-match", "value"), ("set-repeat", "stack")),
            "matching by value gives a suit many matching cards, which stack only if repeats stack",
        ),
    ),
)
"""Options that cannot change a bound, those that can only at two players
(HUND-D-VIRTUALHUND), and those varied only together (HUND-D-VIRTUALODD, HUND-D-HUNDTIE,
the designation sets' sub-options HUND-D-SETSUITS, HUND-D-SETMATCH, HUND-D-SETREPEAT)."""

BOUNDS.register("hund", GameBounds(relaxation, plan, round_values, READINGS))
