"""The aspects in which the edition diff compares two rulesets of one game family.

Each aspect is a function of two :class:`Side` s (a ruleset under one choice of readings)
and the player counts to look at, and returns a :class:`Comparison`: ``proved`` when the
two agree on every input (Z3's ``unsat``, or an exhaustive check of a finite domain:
player counts, decks); ``pass`` when they agree on a sample or on every input of a bounded
part of an unbounded domain (hands of up to two cards, the deal of a seeded game;
``how`` says which), never counted as proved; ``counterexample`` with a minimal witness when they
differ; ``unknown`` when Z3 does not answer. Every aspect is compared through the layers'
interfaces only: the model's
:class:`~tricklaw.model.ruleset.Ruleset` (deck, player counts, its states' dealer and
first leader, follow rule, scores, rounds, game end, winners), the trick encodings of
:data:`~tricklaw.proofs.encodings.ENCODINGS` (trick resolution and the no-winner cases,
on one shared symbolic trick) and the score encodings of
:data:`~tricklaw.proofs.scores.SCORES`. No ruleset is named here.

The aspects (:data:`tricklaw.spec.EDITION_ASPECTS`):

* ``players``: the player counts;
* ``deck``: the cards in play at each player count (colour names are compared as a note:
  the model's cards are colour indices, so two palettes naming index 1 differently
  describe the same cards under a renaming);
* ``deal``: each seat's hand size, the piles dealt and the dealer, round by round;
* ``first-lead``: who leads the first trick of each round;
* ``play``: the cards a hand may play to a lead (and when leading), exhaustively over
  hands of up to :data:`PLAY_HAND` cards of the smallest common deck;
* ``trick``: who takes a trick (every outcome variable), by Z3 on a shared trick;
* ``no-winner``: which tricks go to nobody, by Z3;
* ``score``: a seat's round score, by Z3 on the two score encodings over one shared
  symbolic round, each encoding proved equal to its model
  (:mod:`~tricklaw.proofs.edition_score`), and recounted round logs as a second line;
* ``rounds``: how many rounds a game lasts when no total moves, every round number;
* ``game-end``: whether the totals change that the game is over, every round number and
  every vector of integer totals;
* ``winner``: who wins from final totals, every vector of integer totals (these three
  run the models' own ``game_over`` and ``winners`` symbolically and compare them by
  Z3: :mod:`~tricklaw.proofs.edition_game`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from typing import Any

from tricklaw.model.agents import play_random_game
from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.state import RoundLog
from tricklaw.proofs import edition_game, edition_rules, edition_score
from tricklaw.proofs.edition_sides import SAMPLED, Comparison, Side, differ
from tricklaw.proofs.plays import PLAYS
from tricklaw.proofs.solver import PROVED

PLAY_HAND = 2
"""The bounded play check (a ruleset without a play-rule encoding) compares every hand of
up to this many cards."""

# --- model facts --------------------------------------------------------------------------


def players(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """The player counts of the two rulesets."""
    how = "every player count"
    only = sorted(set(a.ruleset.player_counts) ^ set(b.ruleset.player_counts))
    if not only:
        return Comparison(PROVED, how)
    n = only[0]
    has = a.id if n in a.ruleset.player_counts else b.id
    lacks = b.id if has == a.id else a.id
    return differ(
        how, f"{n} players: {has} is for them, {lacks} is not", {"players": n, "only": has}
    )


def _palette_note(a: Side, b: Side, cards: Sequence[Card]) -> str:
    renamed = sorted(
        {
            (k, a.ruleset.palette.name(k), b.ruleset.palette.name(k))
            for k in {colour_of(c) for c in cards}
        }
    )
    pairs = [f"{x}/{y}" for _, x, y in renamed if x != y]
    return f" (colour names differ: {', '.join(pairs)})" if pairs else ""


def deck(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """The deck at each common player count: the smallest card one has and the other lacks."""
    note = ""
    for n in counts:
        deck_a = set(a.ruleset.deck(n, a.game(n).options))
        deck_b = set(b.ruleset.deck(n, b.game(n).options))
        note = note or _palette_note(a, b, sorted(deck_a & deck_b))
        only = sorted(deck_a ^ deck_b, key=lambda c: (value_of(c), colour_of(c)))
        if only:
            card = only[0]
            has, lacks = (a, b) if card in deck_a else (b, a)
            name = has.ruleset.palette.format(card)
            witness = {
                "players": n,
                "card": name,
                "in": has.id,
                "cards": [len(deck_a), len(deck_b)],
            }
            return differ(
                "every card at every player count",
                f"{n} players: {name} is in the deck of {has.id} ({len(deck_a)} vs "
                f"{len(deck_b)} cards), not of {lacks.id}",
                witness,
            )
    return Comparison(PROVED, "every card at every player count" + note)


def _first_rounds(side: Side, n: int) -> tuple[RoundLog, ...]:
    """The completed rounds of one seeded random game (up to one per seat)."""
    state = play_random_game(side.game(n), seed=1, max_rounds=n)
    return tuple(state.history)


def _deal_facts(log: RoundLog) -> str:
    dealer = "no dealer" if log.dealer is None else f"seat {log.dealer} deals"
    piles = "".join(f", {len(cards)} cards {name}" for name, cards in log.deal.piles)
    return f"{dealer}, hands of {'/'.join(str(len(h)) for h in log.deal.hands)}{piles}"


def _rounds_compare(
    a: Side, b: Side, counts: Sequence[int], facts: Callable[[RoundLog], Any], what: str
) -> Comparison:
    how = "the model's rounds of a seeded game at each player count, one round per seat"
    for n in counts:
        for la, lb in zip(_first_rounds(a, n), _first_rounds(b, n), strict=False):
            fa, fb = facts(la), facts(lb)
            if fa != fb:
                return differ(
                    how,
                    f"{n} players, round {la.index + 1}: "
                    f"{what}{fa} in {a.id}, {what}{fb} in {b.id}",
                    {"players": n, "round": la.index + 1, a.id: fa, b.id: fb},
                )
    return Comparison(SAMPLED, how)


def deal(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """Hand sizes, piles and dealer of each round, as the model's states have them."""
    return _rounds_compare(a, b, counts, _deal_facts, "")


def first_lead(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """The seat that leads the first trick of each round, as the model's states have it."""
    return _rounds_compare(a, b, counts, lambda log: log.first_leader, "seat ")


def play(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """What a hand may play: by Z3 over the play-rule encodings of :data:`PLAYS` (every
    hand, every unfinished trick), or, for a ruleset without one, :func:`play_bounded`."""
    if a.id in PLAYS and b.id in PLAYS:
        return edition_rules.play(a, b, counts, timeout_ms)
    return play_bounded(a, b, counts, timeout_ms)


def play_bounded(a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """What a hand may play: every lead (or none) and every hand of up to :data:`PLAY_HAND`
    cards of the smallest common deck; the witness has the fewest cards, lowest values."""
    n = counts[0]
    game_a, game_b = a.game(n), b.game(n)
    common = sorted(set(a.ruleset.deck(n, game_a.options)) & set(b.ruleset.deck(n, game_b.options)))
    how = f"every lead and every hand of 1-{PLAY_HAND} cards of the {n}-player deck"
    cases: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    for lead in [None, *common]:
        led: tuple[Card, ...] = () if lead is None else (lead,)
        rest = [c for c in common if c != lead]
        for k in range(1, PLAY_HAND + 1):
            cases += [(led, hand) for hand in itertools.combinations(rest, k)]
    cases.sort(key=lambda th: (len(th[1]), sum(value_of(c) for c in (*th[0], *th[1])), th))
    for trick, hand in cases:
        pa = set(a.ruleset.playable(game_a, hand, trick))
        pb = set(b.ruleset.playable(game_b, hand, trick))
        if pa != pb:
            fmt = a.ruleset.palette.format_all
            witness: dict[str, Any] = {
                "players": n,
                "trick": fmt(list(trick)),
                "hand": fmt(list(hand)),
                a.id: fmt(sorted(pa)),
                b.id: fmt(sorted(pb)),
            }
            shown = " ".join(witness["trick"]) or "nothing (leading)"
            return differ(
                how,
                f"{n} players, hand {' '.join(witness['hand'])} to {shown}: {a.id} allows "
                f"{' '.join(witness[a.id])}, {b.id} allows {' '.join(witness[b.id])}",
                witness,
            )
    return Comparison(SAMPLED, how + f" ({len(cases)} cases)")


Aspect = Callable[[Side, Side, Sequence[int], int], Comparison]

ASPECTS: dict[str, Aspect] = {
    "players": players,
    "deck": deck,
    "deal": deal,
    "first-lead": first_lead,
    "play": play,
    "trick": edition_rules.trick,
    "no-winner": edition_rules.no_winner,
    "score": edition_score.score,
    "rounds": edition_game.rounds,
    "game-end": edition_game.game_end,
    "winner": edition_game.winner,
}
"""Each aspect of :data:`tricklaw.spec.EDITION_ASPECTS` and the function comparing it."""


def compare(aspect: str, a: Side, b: Side, counts: Sequence[int], timeout_ms: int) -> Comparison:
    """Compare ``aspect`` of the two sides at ``counts`` (ascending), timed."""
    start = time.perf_counter()
    out = ASPECTS[aspect](a, b, counts, timeout_ms)
    return Comparison(
        out.status, out.how, out.summary, out.witness, out.clauses, time.perf_counter() - start
    )
