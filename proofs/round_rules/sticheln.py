"""Sticheln's rules of a finished round, in Z3, for both editions: 1993, who deals
(STI93-ROUND-2) and who leads the first trick (STI93-LEAD-1); the later edition, who leads
each round (STI-LEAD-1, dispute STI-D-ROUNDLEAD)."""

from __future__ import annotations

from collections.abc import Mapping

import z3

from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.round_rules import NONE, ROUND_RULES, RoundRule
from tricklaw.proofs.solver import Tracked


def _round(game: Game, log: RoundLog) -> dict[str, int]:
    """The round's number (from 0)."""
    return {"round": log.index}


def _dealer_rule(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """1993: the deal passes to the left each round (STI93-ROUND-2), from the first dealer,
    whom the draw of STI93-DEAL-1 makes seat 0 (the seats are numbered from him)."""
    return [Tracked("STI93-ROUND-2", out == v["round"] % game.players)]


def _dealer_leads(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """1993: the player to the dealer's left leads the round's first trick (STI93-LEAD-1),
    the dealer being as :func:`_dealer_rule` states."""
    dealer = z3.Int("sti93_dealer")
    return [
        *_dealer_rule(game, v, dealer),
        Tracked("STI93-LEAD-1", out == (dealer + 1) % game.players),
    ]


def _youngest_leads(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """Later edition: the youngest player (seat 0) leads the first round (STI-LEAD-1); the
    rounds after it are dispute ``round-leader`` (STI-D-ROUNDLEAD): each player leads one
    round in turn to the left (``rotate``: STI-GAME-1 has every player lead once), or the
    youngest leads every round (``youngest``)."""
    later = v["round"] > 0
    if game.options.text("round-leader") == "rotate":
        rotated = Tracked("STI-GAME-1", z3.Implies(later, out == v["round"] % game.players))
    else:
        rotated = Tracked("STI-LEAD-1", z3.Implies(later, out == 0))
    return [Tracked("STI-LEAD-1", z3.Implies(z3.Not(later), out == 0)), rotated]


def _first_leader(game: Game, log: RoundLog) -> int:
    """The model's leader of the round's first trick."""
    return log.first_leader


def _dealer(game: Game, log: RoundLog) -> int:
    """The model's dealer of the round (:data:`~tricklaw.proofs.round_rules.NONE` if none)."""
    return NONE if log.dealer is None else log.dealer


ROUND_RULES.register(
    "sticheln-1993",
    (
        RoundRule("dealer", (), None, _round, _dealer_rule, _dealer),
        RoundRule("first-leader", (), None, _round, _dealer_leads, _first_leader),
    ),
)
ROUND_RULES.register(
    "sticheln",
    (RoundRule("first-leader", ("round-leader",), None, _round, _youngest_leads, _first_leader),),
)
