"""Hund's rules of a finished round, in Z3: who names the next start player (the Lead
decider: HUND-POWER-5, HUND-D-LEADTIE, HUND-GAP-6) and each round's designated number
(HUND-DESIG-1 under both readings of HUND-D-DESIGNATION)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import z3

from tricklaw.model.state import Game, RoundLog
from tricklaw.proofs.encodings.hund import DESIGNATIONS, ROUNDS
from tricklaw.proofs.round_rules import NONE, ROUND_RULES, RoundRule
from tricklaw.proofs.solver import Tracked
from tricklaw.proofs.tricks import NOBODY

# --- the Lead decider ---------------------------------------------------------------------

LEAD_EFFECT = 4
"""Lead is the fifth effect handed out (HUND-POWER-5, "Effect 5"; HUND-DESIG-2: in order)."""


def lead_inputs(game: Game, log: RoundLog) -> dict[str, int]:
    """What the Lead decider is decided from: whether the fifth effect was handed out
    (``assigned``), the cards of the Lead suit each seat took (``count_s``), and the seats
    in play order from the round's start player (``order_k``)."""
    holders = [game.ruleset.palette.letters.index(x) for x in dict(log.facts)["powers"]]
    assigned = len(holders) > LEAD_EFFECT
    suit = holders[LEAD_EFFECT] if assigned else -1
    taken = log.taken(game.seats)
    out = {"assigned": int(assigned)}
    out |= {f"count_{s}": sum(1 for c in pile if c >> 5 == suit) for s, pile in enumerate(taken)}
    seats = len(log.seating)
    at = log.seating.index(log.first_leader)
    out |= {f"order_{k}": log.seating[(at + k) % seats] for k in range(seats)}
    return out


def lead_rule(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """The Lead decider from the clauses: nobody when Lead was not handed out; the seat
    with most cards of the Lead suit (HUND-POWER-5); a tie for most (HUND-D-LEADTIE):
    nobody, or under ``earliest`` the tied seat first in play order from the start player;
    never the virtual player: then nobody (HUND-GAP-6)."""
    seats = game.seats
    counts = [v[f"count_{s}"] for s in range(seats)]
    order = [v[f"order_{k}"] for k in range(seats)]
    best = [z3.And(*[c >= d for d in counts]) for c in counts]
    unique = [
        z3.And(best[s], *[counts[t] < counts[s] for t in range(seats) if t != s])
        for s in range(seats)
    ]
    tie = z3.Not(z3.Or(*unique))
    if game.options["lead-tie"] == "earliest":

        def first_best(k: int) -> z3.BoolRef:
            at = [z3.And(order[k] == s, best[s]) for s in range(seats)]
            before = [z3.And(order[j] == s, best[s]) for j in range(k) for s in range(seats)]
            return z3.And(z3.Or(*at), z3.Not(z3.Or(*before)) if before else z3.BoolVal(True))

        tie_rule = z3.And(*[z3.Implies(first_best(k), out == order[k]) for k in range(seats)])
    else:
        tie_rule = out == NOBODY
    chosen = z3.Int("lead_chosen")
    virtual = list(range(game.players, seats))
    return [
        Tracked("HUND-POWER-5", z3.Implies(v["assigned"] == 0, out == NOBODY)),
        Tracked(
            "HUND-POWER-5",
            z3.Implies(
                v["assigned"] == 1,
                z3.And(*[z3.Implies(unique[s], chosen == s) for s in range(seats)]),
            ),
        ),
        Tracked(
            "HUND-D-LEADTIE",
            z3.Implies(
                z3.And(v["assigned"] == 1, tie),
                z3.substitute(tie_rule, (out, chosen)),
            ),
        ),
        Tracked(
            "HUND-GAP-6",
            z3.Implies(
                v["assigned"] == 1,
                z3.If(
                    z3.Or(chosen == NOBODY, *[chosen == s for s in virtual]),
                    out == NOBODY,
                    out == chosen,
                ),
            ),
        ),
    ]


def lead_model(game: Game, log: RoundLog) -> int:
    """The model's Lead decider, as the round's facts record it."""
    decider = dict(log.facts)["lead_decider"]
    return NOBODY if decider is None else int(decider)


# --- the round's designated number --------------------------------------------------------


def designation_inputs(game: Game, log: RoundLog) -> dict[str, int]:
    """The round's place in the game (0 for the first), all the ascending reading reads."""
    return {"round": log.index}


def earlier_designations(game: Game, logs: Sequence[RoundLog]) -> dict[str, int]:
    """The numbers the game's earlier rounds designated: ``earlier_k`` for round k (from
    0), :data:`~tricklaw.proofs.round_rules.NONE` for a round not played before this one.
    They are the model's own draws: the rule asks only that this round's number is none
    of them, so a number drawn twice is caught in the round that repeats it."""
    out = {f"earlier_{k}": NONE for k in range(ROUNDS - 1)}
    for log in logs[:-1]:
        out[f"earlier_{log.index}"] = designation_model(game, log)
    return out


def ascending_rule(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """Each round has a designated number (HUND-DESIG-1); under the reading
    ``designation=ascending`` of HUND-D-DESIGNATION, round r (counted from 1) has r."""
    return [Tracked("HUND-D-DESIGNATION", out == v["round"] + 1)]


def shuffled_rule(game: Game, v: Mapping[str, z3.ArithRef], out: z3.ArithRef) -> list[Tracked]:
    """The number is one of the designation cards 1-5 (HUND-DESIG-1, line 43 of the text);
    under the reading ``designation=shuffled`` of HUND-D-DESIGNATION each card is turned
    up once a game, so no earlier round's number comes again. Any number left is allowed:
    a rule that leaves a choice (:attr:`~tricklaw.proofs.round_rules.RoundRule.chooses`)."""
    return [
        Tracked("HUND-DESIG-1", z3.Or(*[out == d for d in DESIGNATIONS])),
        *[
            Tracked("HUND-D-DESIGNATION", z3.Implies(v[name] != NONE, out != v[name]))
            for name in (f"earlier_{k}" for k in range(ROUNDS - 1))
        ],
    ]


def designation_model(game: Game, log: RoundLog) -> int:
    """The round's designated number as the model dealt it."""
    return int(dict(log.deal.extras)["designation"])


ASCENDING = MappingProxyType({"designation": "ascending", "designation-mode": "drawn"})
"""The games the ascending rule is sampled in: numbers drawn (not chosen sets)."""
SHUFFLED = MappingProxyType({"designation": "shuffled", "designation-mode": "drawn"})
"""The games the shuffled rule is sampled in: numbers drawn (not chosen sets)."""

ROUND_RULES.register(
    "hund",
    (
        RoundRule("lead-decider", ("lead-tie",), None, lead_inputs, lead_rule, lead_model),
        RoundRule(
            "designation-ascending",
            (),
            None,
            designation_inputs,
            ascending_rule,
            designation_model,
            ASCENDING,
        ),
        RoundRule(
            "designation-shuffled",
            (),
            None,
            designation_inputs,
            shuffled_rule,
            designation_model,
            SHUFFLED,
            earlier_designations,
            chooses=True,
        ),
    ),
)
