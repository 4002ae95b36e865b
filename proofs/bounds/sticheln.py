"""Sticheln's score bounds, both editions: the relaxation, the plan, the readings.

The relaxation (:func:`relaxation`) counts the cards a player picks and takes, from the
deck, select, play, collect, round and score clauses of each edition (STI93-* in the
1993 text, STI-* in the later one; :data:`CLAUSES` maps the rule roles to them). The
plan (:func:`plan`) realises the relaxation's optimum as a round the model replays:
seat 0 picks the misery card the optimum names and wins the tricks it names, laid out
under the game's trick judge and follow rule. The readings table says which options
are varied (STI93-D-DECK, STI93-D-FOLLOW, STI93-D-ALLZERO, STI-D-ZEROLEAD) and which
cannot change a bound.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of, make_card, value_of
from tricklaw.model.state import Deal, Game, RoundLog
from tricklaw.proofs.bounds.game import (
    BOUNDS,
    GAME_TIE_ONLY,
    ROUNDS_ONLY,
    Combination,
    GameBounds,
    Hint,
    ReadingTable,
    RoundValues,
)
from tricklaw.proofs.bounds.layout import (
    PLAN_TRIES,
    Judge,
    Table,
    TrickSpec,
    chunks,
    lay_out,
    mono_chunks,
    pick_subsets,
    table_of,
    takes_nothing,
    wins,
)
from tricklaw.proofs.bounds.relaxation import Relaxation, count, deck_shape
from tricklaw.proofs.bounds.witness import SEAT, Plan, first_leader
from tricklaw.proofs.solver import Tracked

HAND = 15
"""Cards in a Sticheln hand (STI93-DEAL-2, STI-DEAL-1)."""

CLAUSES: Mapping[str, Mapping[str, str]] = {
    "sticheln-1993": {
        "deck": "STI93-DECK-2",
        "deal": "STI93-DEAL-2",
        "select": "STI93-SELECT-1",
        "play": "STI93-PLAY-1",
        "collect": "STI93-COLLECT-1",
        "round": "STI93-ROUND-1",
        "minus": "STI93-SCORE-1",
        "plus": "STI93-SCORE-2",
        "total": "STI93-SCORE-3",
    },
    "sticheln": {
        "deck": "STI-DECK-1",
        "deal": "STI-DEAL-1",
        "select": "STI-SELECT-2",
        "play": "STI-PLAY-1",
        "collect": "STI-COLLECT-1",
        "round": "STI-ROUND-1",
        "minus": "STI-SCORE-1",
        "plus": "STI-SCORE-2",
        "total": "STI-SCORE-3",
    },
}
"""Ruleset id -> the role of a rule in the relaxation -> the clause stating it there."""


def relaxation(game: Game) -> Relaxation:
    """Sticheln (both editions): what a player's picked and taken cards can be.

    A card of any colour but the misery colour scores +1 whatever it is
    (STI93-SCORE-2, STI-SCORE-2), so only their *number* ``a`` matters; the
    misery-colour cards are modelled one by one (``pick_v``, ``take_v`` for
    value ``v``). Constraints, each a fact of every round:

    * deck (STI93-DECK-2, STI-DECK-1): every colour holds the values
      ``0..T`` once, so the other colours hold ``(C-1)(T+1)`` cards: ``0 <= a
      <= (C-1)(T+1)``;
    * select (STI93-SELECT-1, STI-SELECT-2): the player picks exactly one
      card, and its colour *is* the misery colour: exactly one ``pick_v``;
      the picked card lies in front of him and is never played, so never
      taken: not both ``pick_v`` and ``take_v``;
    * play and collect (STI93-PLAY-1 / STI-PLAY-1: every player adds exactly
      one card to each trick; STI93-COLLECT-1 / STI-COLLECT-1: the winner
      gathers the trick; in the later text an all-zero trick goes to nobody,
      which takes nothing from anyone): the cards taken are ``n k`` for the
      ``k`` tricks won, ``k >= 0``;
    * round (STI93-ROUND-1, STI-ROUND-1; 15 cards dealt and one picked,
      STI93-DEAL-2 / STI-DEAL-1): 14 tricks, ``k <= 14``;
    * score: +1 for each of the ``a`` other cards (STI93-SCORE-2, STI-SCORE-2),
      minus the value of each misery card taken (STI93-SCORE-1, STI-SCORE-1)
      and of the picked card (STI93-SCORE-3, STI-SCORE-3).

    The deck is the game's (under ``deck=full``, STI93-D-DECK, all 90 cards for every
    player count, only ``15 n`` of them dealt: ``k <= 14`` still caps what is taken).
    The readings of ``follow`` (STI93-D-FOLLOW), ``all-zero`` (STI93-D-ALLZERO) and
    ``zero-lead`` (STI-D-ZEROLEAD) change what may be played and who takes a trick,
    never which cards exist or what they count: the relaxation lets any trick go to
    anyone (or to nobody), so it covers them all.
    """
    ids = CLAUSES[game.ruleset.id]
    colours, values = deck_shape(game)
    n = game.players
    pick = {v: z3.Bool(f"pick_{v}") for v in values}
    take = {v: z3.Bool(f"take_{v}") for v in values}
    a, k, score = z3.Int("others_taken"), z3.Int("tricks_won"), z3.Int("score")
    plus, minus = z3.Int("plus"), z3.Int("minus")
    tricks = HAND - 1
    assertions = [
        Tracked(ids["deck"], z3.And(a >= 0, a <= (len(colours) - 1) * len(values))),
        Tracked(ids["select"], z3.PbEq([(p, 1) for p in pick.values()], 1)),
        Tracked(ids["select"], z3.And(*[z3.Not(z3.And(pick[v], take[v])) for v in values])),
        Tracked(ids["collect"], a + count(list(take.values())) == n * k),
        Tracked(ids["play"], k >= 0),
        Tracked(ids["round"], k <= tricks),
        Tracked(ids["plus"], plus == a),
        Tracked(ids["minus"], minus == z3.Sum([z3.If(take[v], v, 0) for v in values])),
        Tracked(
            ids["total"],
            score == plus - minus - z3.Sum([z3.If(pick[v], v, 0) for v in values]),
        ),
    ]

    def decode(model: Any) -> dict[str, Any]:
        def holds(b: Any) -> bool:
            return bool(z3.is_true(model.eval(b, model_completion=True)))

        return {
            "pick": next(v for v in values if holds(pick[v])),
            "taken": sorted(v for v in values if holds(take[v])),
            "others": model.eval(a, model_completion=True).as_long(),
            "tricks": model.eval(k, model_completion=True).as_long(),
        }

    canonical = (
        z3.Sum([z3.If(pick[v], v, 0) for v in values]),
        z3.Sum([z3.If(take[v], 2**v, 0) for v in values]),
    )
    return Relaxation(assertions, score, decode, canonical)


def round_values(game: Game, log: RoundLog, seat: int) -> RoundValues:
    """The relaxation's variables in a finished round, for ``seat``: the picked card
    (``pick_v``), the misery cards taken (``take_v``), the other cards taken."""
    _, values = deck_shape(game)
    taken = log.taken(game.seats)[seat]
    pick = game.ruleset.palette.parse(dict(log.facts)["picked"][seat])
    misery = {value_of(c) for c in taken if colour_of(c) == colour_of(pick)}
    out: RoundValues = {f"pick_{v}": v == value_of(pick) for v in values}
    out |= {f"take_{v}": v in misery for v in values}
    out |= {"others_taken": len(taken) - len(misery), "plus": len(taken) - len(misery)}
    out["minus"] = sum(misery)
    return out


# --- the witness: a round realising the relaxation's optimum ----------------------------


def plan(game: Game, maximize: bool, hint: Hint) -> Plan | None:
    """The round realising the relaxation's optimum ``hint`` (``_realise``), whether
    it is the greatest or the least (``maximize``); None without an optimum."""
    return _realise(game, hint) if hint else None


def _winnable(judge: Judge, cards: Sequence[Card]) -> bool:
    """Whether seat 0 can win a trick of ``cards``: leading it, or playing right after
    another seat's lead (so that it is the earliest of equal trumps, STI93-TRICK-6,
    STI-TRICK-3)."""
    pool = sorted(cards)
    for own in pool:
        rest = [c for c in pool if c != own]
        if judge((own, *rest)).winner == 0:
            return True
        for lead in rest:
            others = [c for c in rest if c != lead]
            if judge((lead, own, *others)).winner == 1:
                return True
    return False


def _won(
    judge: Judge, others: list[Card], taken: list[Card], tricks: int, n: int
) -> Iterator[list[list[Card]]]:
    """Compositions of the tricks seat 0 wins: the misery cards ``taken`` (highest first)
    in mono-colour tricks, the few left over with fillers of other colours (zeros first,
    which are never trumps, STI93-TRICK-2 / STI-TRICK-4), and mono-colour tricks of other
    colours for the rest; mixed tricks of the cards left over where those run short."""

    def winnable(cards: Sequence[Card]) -> bool:
        return _winnable(judge, cards)

    misery_full, misery_rest = chunks(taken, n)
    low = sorted(others, key=lambda c: (value_of(c), c))[: 2 * n]
    pool = misery_rest + sorted(low, key=lambda c: (value_of(c) != 0, c))
    fillers = pick_subsets(winnable, pool, misery_rest, 1 if misery_rest else 0, n)
    for filler in itertools.islice(fillers, 4):
        used = {c for trick in filler for c in trick}
        mono, rest = mono_chunks([c for c in others if c not in used], n)
        need = tricks - len(misery_full) - len(filler)
        if need <= len(mono):
            yield misery_full + filler + mono[:need]
            continue
        spare = sorted(rest, key=lambda c: (value_of(c) == 0, -value_of(c), c))
        for extra in itertools.islice(pick_subsets(winnable, spare, [], need - len(mono), n), 8):
            yield misery_full + filler + mono + extra


def _lost(
    left: list[Card], lost: int, n: int, dealt_all: bool
) -> Iterator[tuple[list[list[Card]], tuple[Card, ...], list[Card]]]:
    """Ways to play the cards seat 0 does not win: (lost tricks, the other seats' picks,
    cards set aside). A deck dealt out (``dealt_all``) loses every card: mono-colour tricks,
    and the cards left over between the picks and mixed tricks. A larger deck (``deck=full``
    with fewer than six players, STI93-D-DECK) deals only what the plan needs: ``lost``
    mono-colour tricks, ``n - 1`` picks, and the rest set aside."""
    mono, leftover = mono_chunks(left, n)
    if not dealt_all:
        if lost <= len(mono):
            rest = [c for c in left if all(c not in t for t in mono[:lost])]
            yield mono[:lost], tuple(rest[: n - 1]), rest[n - 1 :]
        return
    leftover.sort(key=lambda c: (-value_of(c), c))
    for picks in itertools.islice(itertools.combinations(leftover, n - 1), PLAN_TRIES):
        mixed, spare = chunks([c for c in leftover if c not in picks], n)
        if not spare:
            yield mono + mixed, picks, []


def _realise(game: Game, hint: Hint) -> Plan | None:
    """A Sticheln round realising the relaxation's optimum ``hint``: seat 0 picks the
    misery card of value ``pick``, wins ``tricks`` tricks holding the misery cards
    ``taken`` and ``others`` cards of other colours, and takes nothing from the others.

    The won and lost tricks are composed (``_won``, ``_lost``)
    and laid out in an order the search finds, under the game's trick judge and follow
    rule: tricks seat 0 can only win by trumping come after a trick another seat won, and
    a trick with cards off the lead colour comes once the seats playing them can have
    none of it (dispute ``follow``, STI93-D-FOLLOW)."""
    n = game.players
    table = table_of(game)
    deck = list(game.ruleset.deck(n, game.options))
    colours, _ = deck_shape(game)
    misery = colours[0]
    pick = make_card(misery, hint["pick"])
    taken = [make_card(misery, v) for v in sorted(hint["taken"], reverse=True)]
    others = [c for c in deck if colour_of(c) != misery]
    tricks = hint["tricks"]
    lost_count = HAND - 1 - tricks
    dealt_all = len(deck) == HAND * n
    for won in itertools.islice(_won(table.judge, others, taken, tricks, n), PLAN_TRIES):
        won_cards = {c for trick in won for c in trick}
        left = [c for c in deck if c != pick and c not in won_cards]
        for lost, others_picks, aside in _lost(left, lost_count, n, dealt_all):
            plan = _layout(game, table, won, lost, picks=(pick, *others_picks), aside=aside)
            if plan is not None:
                return plan
    return None


def _layout(
    game: Game,
    table: Table,
    won: list[list[Card]],
    lost: list[list[Card]],
    *,
    picks: Sequence[Card],
    aside: Sequence[Card],
) -> Plan | None:
    specs = [TrickSpec(tuple(t), wins(SEAT)) for t in won]
    specs += [TrickSpec(tuple(t), takes_nothing(SEAT)) for t in lost]
    tricks = lay_out(table, specs, first_leader=first_leader(game), ordered=False)
    if tricks is None:
        return None
    chosen = dict(enumerate(picks))
    hands = tuple(tuple(sorted([chosen[s], *[t[s] for t in tricks]])) for s in range(game.seats))
    piles = (("aside", tuple(sorted(aside))),) if aside else ()
    return Plan(Deal(hands, piles), tricks, chosen)


# --- lowhigh witnesses -------------------------------------------------------------------


# --- the readings, and the registration ------------------------------------------------

READINGS_1993 = ReadingTable(
    unchanged={
        "game-tie": GAME_TIE_ONLY,
        "end": "only decides when the game ends, never what a round scores",
        "rounds": ROUNDS_ONLY,
        "target": "only the total that ends the game",
    },
    combinations=tuple(
        Combination(
            (("deck", "full"), pair),
            "the deck sets the bound, the follow and all-zero rules which rounds reach it",
        )
        for pair in (
            ("all-zero", "no-winner"),
            ("follow", "follow-or-trump"),
            ("follow", "must-follow"),
        )
    ),
)
"""The 1993 text: options that cannot change a bound, and the deck varied with the
follow and all-zero rules (STI93-D-DECK, STI93-D-FOLLOW, STI93-D-ALLZERO)."""

READINGS_LATER = ReadingTable(
    unchanged={
        "game-tie": GAME_TIE_ONLY,
        "round-leader": (
            "only who leads the rounds after the first (the first is led by seat 0 either "
            "way, and the relaxation is blind to seats)"
        ),
        "rounds": ROUNDS_ONLY,
    },
)
"""The later text: options that cannot change a bound."""

BOUNDS.register(
    "sticheln-1993", GameBounds(relaxation, plan, round_values, READINGS_1993, {"rounds": 1})
)
BOUNDS.register(
    "sticheln", GameBounds(relaxation, plan, round_values, READINGS_LATER, {"rounds": 1})
)
