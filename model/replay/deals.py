"""A deal given by a record or log, checked: against the seed's deal, or by the rules.

With a seed, every deal given must be the deal of tricklaw's portable shuffle for that
seed (:func:`compare_deal`: hands in any order, piles top first, the ``aside`` pile in
any order, the drawn first player and extras). An implementation that shuffles its own
way (``--own-shuffle``, and :func:`~tricklaw.model.replay.records.replay`) or a game without a
seed has each deal checked only to be a legal deal (:func:`check_legal_deal`: the deck,
the hand sizes, and the ruleset's rules across rounds).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tricklaw.model.replay.verdict import DivergenceError, show
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Deal, Game
from tricklaw.spec.errors import CardError

PILE_ROLES = {
    "aside": "deck",
    "points": "points-pile",
    "ghost": "ghost-deal",
    "virtual-down": "display",
    "virtual-up": "display",
}
"""The clause role that governs each named pile of a deal (else the ruleset's ``deal``)."""
UNORDERED_PILES = frozenset({"aside"})
"""Piles whose order does not matter (compared as sets of cards)."""
NOTE = " (--own-shuffle accepts any legal deal)"
"""What a divergent deal's message adds: the way to accept another shuffle."""


def compare_deal(ruleset: Ruleset[Any], given: Deal, expected: Deal, seed: int, noun: str) -> None:
    """Raise :class:`DivergenceError` unless the deal ``given`` (by the ``noun``: log or record)
    is ``expected``, the deal of ``seed``; hands and the aside pile in any order."""
    fmt = ruleset.palette.format_all
    clause = ruleset.clause
    hint = f"seed {seed} deals"
    deal_clause = clause["deal"]
    if len(given.hands) != len(expected.hands):
        raise DivergenceError(
            f"the {noun} deals {len(given.hands)} hands{NOTE}",
            len(expected.hands),
            len(given.hands),
            [deal_clause],
            expected_text=f"{len(expected.hands)} hands",
        )
    for seat, (mine, theirs) in enumerate(zip(given.hands, expected.hands, strict=True)):
        if mine != theirs and sorted(mine) != sorted(theirs):
            extra = sorted(set(mine) - set(theirs)) or sorted(mine)
            missing = sorted(set(theirs) - set(mine)) or sorted(theirs)
            raise DivergenceError(
                f"the {noun} deals seat {seat} {' '.join(fmt(extra))} where {hint} "
                f"{' '.join(fmt(missing))}{NOTE}",
                fmt(theirs),
                fmt(mine),
                [deal_clause],
                expected_text=f"seat {seat}'s hand {' '.join(fmt(sorted(theirs)))}",
            )
    if given.piles:
        names = [n for n, _ in expected.piles] + [n for n, _ in given.piles if not expected.pile(n)]
        for name in names:
            mine, theirs = given.pile(name), expected.pile(name)
            same = sorted(mine) == sorted(theirs) if name in UNORDERED_PILES else mine == theirs
            if not same:
                pile_clause = clause.get(PILE_ROLES.get(name, "deal"), deal_clause)
                raise DivergenceError(
                    f"the {noun}'s pile {name!r} is {' '.join(fmt(mine)) or 'empty'}{NOTE}",
                    fmt(theirs),
                    fmt(mine),
                    [pile_clause or deal_clause],
                    expected_text=f"{hint} {' '.join(fmt(theirs)) or 'none'}",
                )
    if given.first_leader is not None and given.first_leader != expected.first_leader:
        raise DivergenceError(
            f"the {noun}'s deal says first_leader = {given.first_leader}{NOTE}",
            expected.first_leader,
            given.first_leader,
            [clause.get("first-lead", deal_clause)],
            expected_text=f"{hint} first_leader = {expected.first_leader}",
        )
    theirs_extras = dict(expected.extras)
    for name, number in given.extras:
        if theirs_extras.get(name) != number:
            raise DivergenceError(
                f"the {noun}'s deal says {name} = {number}{NOTE}",
                theirs_extras.get(name),
                number,
                [clause.get(name, deal_clause)],
                expected_text=f"{hint} {name} = {show(theirs_extras.get(name))}",
            )


def check_legal_deal(game: Game, deal: Deal, earlier: Sequence[Deal] | None) -> None:
    """Raise :class:`DivergenceError` unless ``deal`` is a legal deal of ``game``: with the
    ``earlier`` rounds' deals (all of them, in order), by the rules across rounds too;
    without them (None), on its own."""
    ruleset = game.ruleset
    try:
        if earlier is not None:
            ruleset.check_deals(game, [*earlier, deal])
        else:
            ruleset.check_deal(game, deal)
    except CardError as exc:
        text = str(exc)
        found = re.search(r" \[([A-Z][A-Z0-9-]*)\]$", text)
        clause = found.group(1) if found else ruleset.clause["deck"]
        text = text[: found.start()] if found else text
        text = re.sub(r"^round \d+: ", "", text)
        raise DivergenceError(
            f"the deal breaks the rules: {text}",
            None,
            None,
            [clause],
            expected_text="a deal by the rules",
        ) from None
