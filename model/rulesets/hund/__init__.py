"""Hund (online game help text ``004_b79a09774360d499.txt``; first published as *ebbes*).

Five rounds (HUND-GAME-1). Each round has a designated number; the cards of
that number give their suits, in the order they are played, the powers Trump,
Plus, Hund, Minus and Lead (HUND-DESIG-1/2, HUND-POWER-1..5):

* Trump: that suit is trump from then on; when trumps are in a trick the
  highest trump wins, else the highest card of the lead suit (HUND-TRICK-1/2).
* Plus / Minus: each card of the suit scores +1 / -1 (HUND-FACT-2).
* Hund: every player with neither the most nor the fewest cards of the suit
  scores 3 (HUND-POWER-3, HUND-FACT-3; ties: dispute ``hund-tie``).
* Lead: the player with most cards of the suit names the next round's start
  player after its deal (HUND-POWER-5, HUND-GAP-5): a LEADER action.

Players follow suit if they can (HUND-PLAY-2); the trick's winner takes it
and leads next (HUND-COLLECT-1, HUND-GAP-4). All cards are dealt
(HUND-GAP-2). Two players add a virtual player in seat 2 (HUND-TWO-1..6):
its hand lies in columns, face-up cards on face-down ones, and it plays by a
fixed rule, automatically. The custom options: ``more-cards`` (HUND-OPT-1)
and ``designation-mode=sets`` (HUND-OPT-2), in which players choose five
(suit, designation card) sets each round with DESIGNATE actions.

Power order, used throughout: 0 Trump, 1 Plus, 2 Hund, 3 Minus, 4 Lead.

The package: :mod:`~tricklaw.model.rulesets.hund.rules` holds the rules as pure
functions and the clause of each rule role, :mod:`~tricklaw.model.rulesets.hund.options`
the options and their compiled form, :mod:`~tricklaw.model.rulesets.hund.ruleset` the
ruleset that plays them (:class:`~tricklaw.model.rulesets.hund.ruleset.Hund`). This module
registers the ruleset and re-exports their names.
"""

from __future__ import annotations

from tricklaw.model.rulesets import RULESETS
from tricklaw.model.rulesets.hund.options import (
    OPTION_SPECS,
    SETS,
    Rules,
    compile_rules,
    rules_of,
)
from tricklaw.model.rulesets.hund.rules import (
    BASE_DESIGNATIONS,
    CLAUSES,
    HUND,
    LEAD,
    LEAD_WINS,
    MINUS,
    MORE_CARDS,
    PALETTE,
    PLUS,
    POWERS,
    ROUNDS,
    SUIT_SIZE,
    TRUMP,
    TRUMP_FACTS,
    TRUMP_WINS,
    VIRTUAL,
    Powers,
    assign,
    judge,
    lead_decider,
    matches,
    playable,
    reveal,
    round_score,
    trump_window,
    virtual_card,
)
from tricklaw.model.rulesets.hund.ruleset import Hund

__all__ = [
    "BASE_DESIGNATIONS",
    "CLAUSES",
    "HUND",
    "HUND_RULESET",
    "LEAD",
    "LEAD_WINS",
    "MINUS",
    "MORE_CARDS",
    "OPTION_SPECS",
    "PALETTE",
    "PLUS",
    "POWERS",
    "ROUNDS",
    "SETS",
    "SUIT_SIZE",
    "TRUMP",
    "TRUMP_FACTS",
    "TRUMP_WINS",
    "VIRTUAL",
    "Hund",
    "Powers",
    "Rules",
    "assign",
    "compile_rules",
    "judge",
    "lead_decider",
    "matches",
    "playable",
    "reveal",
    "round_score",
    "rules_of",
    "trump_window",
    "virtual_card",
]

HUND_RULESET = Hund()
RULESETS.register(HUND_RULESET.id, HUND_RULESET)
