"""The Last's score bounds: the relaxation, the plan, the readings.

The relaxation (:func:`relaxation`) counts the cards of each value a player can have
laid face down, and his penalty, from the deck (LAST-DECK-1), deal (LAST-DEAL-1,
LAST-GHOST-1), collect (LAST-COLLECT-1) and score (LAST-SCORE-1) clauses and the dispute
LAST-D-UNUSED. The plan (:func:`plan`), built from the rules alone, is a round in which
seat 0 wins every trick and keeps the highest points cards (or wins none).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from types import MappingProxyType

import z3

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.rulesets.the_last import GHOST, face_down
from tricklaw.model.state import Deal, Game, RoundLog
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
    PLAN_TRIES,
    Table,
    TrickSpec,
    by_colour_desc,
    lay_out,
    loses,
    mono_chunks,
    pick_subsets,
    table_of,
    wins,
)
from tricklaw.proofs.bounds.relaxation import Relaxation
from tricklaw.proofs.bounds.witness import SEAT, Plan
from tricklaw.proofs.solver import Tracked

HAND = MappingProxyType({2: 12, 3: 12, 4: 9, 5: 8})
"""players -> the cards in a hand, and so the tricks of a round: 12, 9 and 8 with 3, 4
and 5 players (LAST-DEAL-1); 12 with two, and 12 for the ghost (LAST-GHOST-1)."""


def relaxation(game: Game) -> Relaxation:
    """The Last: how many cards of each value a player can have face down, and his
    penalty.

    ``down_v``: the player's face-down cards of value ``v``; ``t``: the tricks he
    won. Constraints:

    * deck (LAST-DECK-1): four colours, each with every value ``1..12`` once:
      ``0 <= down_v <= 4``;
    * tricks: as many as cards in a hand (LAST-DEAL-1; LAST-GHOST-1 for two
      players; LAST-ROUND-1): ``0 <= t <= H``;
    * one card a trick won (LAST-TRICK-3: the winner takes that trick's points
      card; LAST-COLLECT-1: he lays it, or a hand card instead, face down: one
      card either way), plus ``u`` of the ``L`` points cards never turned up
      (``L = 48 - s H - H``: 3 with four players, else 0): under
      ``unused-points=stay`` they stay in the pile and score for nobody, ``u = 0``;
      under ``last-winner`` they go to the winner of the last trick, ``u`` is 0 or
      ``L``, and ``L`` only for a player who won a trick (LAST-D-UNUSED);
    * penalty (LAST-SCORE-1): the sum of the face-down values.

    The readings of ``last-play`` and ``ghost-play`` change what may be played, and
    ``ghost-seat`` the seating, never which cards are taken or what they count: the
    relaxation lets any trick go to anyone, so it covers them all.
    """
    hand = HAND[game.players]
    left_over = len(game.ruleset.deck(game.players, game.options)) - (game.seats + 1) * hand
    deal_clause = "LAST-GHOST-1" if game.players == 2 else "LAST-DEAL-1"
    down = {v: z3.Int(f"down_{v}") for v in range(1, 13)}
    won, unused, score = z3.Ints("tricks_won unused_points score")
    assertions = [
        *[Tracked("LAST-DECK-1", z3.And(d >= 0, d <= 4)) for d in down.values()],
        Tracked(deal_clause, z3.And(won >= 0, won <= hand)),
        Tracked(
            "LAST-D-UNUSED",
            z3.Or(unused == 0, z3.And(unused == left_over, won >= 1))
            if game.options.text("unused-points") == "last-winner"
            else unused == 0,
        ),
        Tracked("LAST-COLLECT-1", z3.Sum(list(down.values())) == won + unused),
        Tracked("LAST-SCORE-1", score == z3.Sum([v * d for v, d in down.items()])),
    ]
    return Relaxation(assertions, score)


def round_values(game: Game, log: RoundLog, seat: int) -> RoundValues:
    """The relaxation's variables in a finished round, for ``seat``: its face-down cards
    of each value, and how many of them are points cards never turned up."""
    downs, unused = face_down(game, log)
    out: RoundValues = {
        f"down_{v}": sum(1 for c in downs[seat] if value_of(c) == v) for v in range(1, 13)
    }
    out["unused_points"] = unused[seat]
    return out


# --- the witness -------------------------------------------------------------------------


def _compositions(total: int, parts: int, cap: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as ``parts`` numbers in ``0..cap``."""
    if parts == 1:
        if 0 <= total <= cap:
            yield (total,)
        return
    for first in range(min(total, cap) + 1):
        for rest in _compositions(total - first, parts - 1, cap):
            yield (first, *rest)


def _points(game: Game, maximize: bool) -> Iterator[list[Card]]:
    """Candidate points piles, top first. Greatest penalty: the highest cards where they
    can count (the ``H`` turned up; under ``unused-points=last-winner`` the whole pile,
    LAST-D-UNUSED), which of several equal values tried in turn, then fillers, each
    colour's highest remaining cards. Least: any numbers of cards per colour."""
    deck = list(game.ruleset.deck(game.players, game.options))
    hand = HAND[game.players]
    size = len(deck) - game.seats * hand
    counted = size if game.options.text("unused-points") == "last-winner" else hand
    colours = sorted({colour_of(c) for c in deck})
    if not maximize:
        for counts in _compositions(size, len(colours), 12):
            by_colour = by_colour_desc(deck)
            yield [
                c for colour, n in zip(colours, counts, strict=True) for c in by_colour[colour][:n]
            ]
        return
    ranked = sorted(deck, key=lambda c: -value_of(c))
    edge = value_of(ranked[counted - 1])
    sure = [c for c in deck if value_of(c) > edge]
    ties = [c for c in deck if value_of(c) == edge]
    for chosen in itertools.combinations(ties, counted - len(sure)):
        turned = sure + list(chosen)
        rest = by_colour_desc([c for c in deck if c not in turned])
        for counts in _compositions(size - counted, len(colours), 12):
            if any(
                n > len(rest.get(colour, [])) for colour, n in zip(colours, counts, strict=True)
            ):
                continue
            fill = [c for colour, n in zip(colours, counts, strict=True) for c in rest[colour][:n]]
            yield turned + fill


def _tricks(
    table: Table, cards: list[Card], seats: int, maximize: bool
) -> Iterator[list[list[Card]]]:
    """Ways to cut the cards played into tricks: mono-colour tricks (everyone can follow,
    LAST-PLAY-2/3, under either ``last-play`` reading) and the few left over as one more
    trick. For the greatest penalty seat 0 leads and wins every trick, which a trick of
    several colours allows only if its last card has the leader's colour (LAST-TRICK-2):
    the cards left over are then regrouped with one or two mono-colour tricks into
    tricks of that shape."""
    mono, leftover = mono_chunks(cards, seats)
    if len(leftover) in (0, seats) and not (maximize and len({colour_of(c) for c in leftover}) > 1):
        yield [*mono, *([leftover] if leftover else [])]
    if not maximize or not leftover:
        return

    def winnable(trick: Sequence[Card]) -> bool:
        return any(table.judge(perm).winner == 0 for perm in itertools.permutations(trick))

    for dissolved in (1, 2):
        for picked in itertools.combinations(range(len(mono)), dissolved):
            pool = leftover + [c for i in picked for c in mono[i]]
            kept = [t for i, t in enumerate(mono) if i not in picked]
            count = len(pool) // seats
            for mixed in itertools.islice(pick_subsets(winnable, pool, [], count, seats), 4):
                yield kept + mixed


def plan(game: Game, maximize: bool, hint: Hint = EMPTY) -> Plan | None:
    """A round of The Last, seat 0 leading the first trick.

    Greatest penalty: the points pile holds the highest cards (``_points``);
    seat 0 wins every trick, the last one included (so that under
    ``unused-points=last-winner`` the cards never turned up are his too), holding the
    highest card of the winning colour (LAST-TRICK-2/3), and keeps every points card
    face down. Least: seat 0 never holds the winning card and lays nothing down. The
    tricks are cut as ``_tricks`` says and laid out in an order where every
    card is legal. With two players the ghost (seat 2) gets its pile in the order of its
    plays: its top card is always one it may play, so both ``ghost-play`` readings play
    it."""
    seats = game.seats
    table = table_of(game)
    accept = wins(SEAT) if maximize else loses(SEAT)
    deck = list(game.ruleset.deck(game.players, game.options))
    for points in itertools.islice(_points(game, maximize), PLAN_TRIES):
        played = [c for c in deck if c not in points]
        for cut in itertools.islice(_tricks(table, played, seats, maximize), PLAN_TRIES):
            specs = [TrickSpec(tuple(c), accept) for c in cut]
            tricks = lay_out(table, specs, first_leader=SEAT, ordered=False)
            if tricks is None:
                continue
            hands = [tuple(sorted(t[s] for t in tricks)) for s in range(game.players)]
            piles: list[tuple[str, tuple[Card, ...]]] = []
            if game.players == 2:
                hands.append(())
                piles.append(("ghost", tuple(t[GHOST] for t in tricks)))
            piles.append(("points", tuple(points)))
            return Plan(Deal(tuple(hands), tuple(piles), first_leader=SEAT), tricks)
    return None


READINGS = ReadingTable(
    unchanged={
        "game-tie": GAME_TIE_ONLY,
        "rounds": ROUNDS_ONLY,
        "ghost-seat": (
            "only where the ghost sits from the second round on (the first is seated alike, "
            "and the relaxation is blind to the seating)"
        ),
    },
    only_at={
        "unused-points": (
            (4,),
            "with 2 (ghost), 3 and 5 players the pile holds one card a trick: none is left over",
        ),
        "ghost-play": ((2,), "the ghost plays only at a two-player table"),
        "ghost-lead": ((2,), "the ghost wins tricks only at a two-player table"),
    },
)
"""Options that cannot change a bound, and those that can only at some player counts
(LAST-D-GHOSTSEAT, LAST-D-UNUSED, LAST-D-GHOSTPLAY, LAST-D-GHOSTLEAD)."""

BOUNDS.register("the-last", GameBounds(relaxation, plan, round_values, READINGS, {"rounds": 1}))
