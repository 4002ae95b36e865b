"""Laying out a witness's tricks: which seat plays which card, asked of the model.

A plan (:class:`~tricklaw.proofs.bounds.witness.Plan`) is built trick by trick: for each
trick, given its cards and the outcome it must have (:class:`TrickSpec`), :func:`lay_out`
finds an order in which the seats play them, at a :class:`Table` (the game's seats, the
model's own trick judge and follow rule): the judge says which seat wins a given order,
and the follow rule whether each card may be played from any hand the seat can still be
dealt (:func:`arrangements`). The helpers below cut a deck into tricks the plans use
(mono-colour tricks everyone can follow, chunks, subsets a seat can win).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.state import Game
from tricklaw.model.trick import TrickResult

PLAN_TRIES = 40
"""How many alternatives a plan tries at each choice it makes (Sticheln: the won and the
lost tricks; The Last: the points piles and the cuts into tricks)."""

Judge = Callable[[tuple[Card, ...]], TrickResult]
Accept = Callable[[int | None, Mapping[int, tuple[Card, ...]]], bool]
"""Whether a trick outcome is wanted: (winning seat or None, cards each seat takes)."""
Playable = Callable[[tuple[Card, ...], tuple[Card, ...]], tuple[Card, ...]]
"""The cards of a hand that may be played to a trick so far (the follow rule)."""


@dataclass(frozen=True)
class Table:
    """Where a plan's tricks are laid out: the number of seats, the trick judge (unless
    a trick brings its own), the follow rule (None: not checked) and the seats that play
    by a fixed rule rather than choose (the ghost, the virtual player)."""

    seats: int
    judge: Judge
    playable: Playable | None = None
    automatic: frozenset[int] = frozenset()


def table_of(game: Game) -> Table:
    """The table of ``game``: the model's judge and follow rule; the seats beyond the
    players play automatically."""

    def playable(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> tuple[Card, ...]:
        return game.ruleset.playable(game, hand, trick)

    return Table(
        game.seats, model_judge(game), playable, frozenset(range(game.players, game.seats))
    )


@dataclass
class TrickSpec:
    """One trick of a plan to lay out: its cards, what its outcome must be, pins (seat ->
    card), and its own judge where it differs from the table's (Hund: the powers held
    before it)."""

    cards: tuple[Card, ...]
    accept: Accept
    pins: dict[int, Card] = field(default_factory=dict)
    judge: Judge | None = None

    def open_to(self, seat: int) -> tuple[Card, ...]:
        """The cards of this trick ``seat`` may be given: its pin, else any unpinned."""
        if seat in self.pins:
            return (self.pins[seat],)
        return tuple(c for c in self.cards if c not in self.pins.values())


Forbidden = frozenset[tuple[int, Card]]
"""(seat, card) pairs a layout may no longer give: the card would make that seat's
earlier play illegal."""


def arrangements(
    table: Table,
    spec: TrickSpec,
    *,
    leader: int,
    later: Sequence[TrickSpec] = (),
    forbidden: Forbidden = frozenset(),
) -> Iterator[tuple[dict[int, Card], int | None, Forbidden]]:
    """Ways to play ``spec`` as one trick led by ``leader`` (seat -> card, seats clockwise
    0, 1, 2, ...) whose outcome is accepted, with the pins respected and no ``forbidden``
    card given: for each different outcome, the first found, with its winning seat and
    the pairs it forbids from the ``later`` tricks.

    A card stays legal as long as its seat is given none of the later cards that would
    forbid it: under every follow rule here a card is illegal in a hand exactly when one
    card of that hand forbids it (a card of the lead colour, of a colour played, a trump),
    so the pairs are found by asking the follow rule about the card and one later card at
    a time."""
    judge = spec.judge or table.judge
    order = [(leader + i) % table.seats for i in range(table.seats)]
    playable = table.playable
    open_later = {
        seat: [c for s in later for c in s.open_to(seat)]
        for seat in order
        if playable is not None and seat not in table.automatic
    }
    seen: set[tuple[int | None, Forbidden]] = set()
    for perm in itertools.permutations(sorted(spec.cards)):
        placed = list(zip(order, perm, strict=True))
        if any(spec.pins.get(s, c) != c or (s, c) in forbidden for s, c in placed):
            continue
        result = judge(perm)
        winner = None if result.winner is None else order[result.winner]
        if not spec.accept(winner, {order[offset]: got for offset, got in result.taken}):
            continue
        more = frozenset(
            (seat, other)
            for i, (seat, card) in enumerate(placed)
            if playable is not None and seat in open_later
            for other in open_later[seat]
            if card not in playable((card, other), perm[:i])
        )
        if (winner, more) in seen:
            continue
        seen.add((winner, more))
        yield dict(placed), winner, forbidden | more


def can_deal(spec: TrickSpec, seats: int, forbidden: Forbidden) -> bool:
    """Whether ``spec``'s cards can still go one to each seat, pins and ``forbidden``
    respected (a bipartite matching, found by augmenting paths)."""
    owner: dict[Card, int] = {}

    def place(seat: int, tried: set[Card]) -> bool:
        for card in spec.open_to(seat):
            if (seat, card) in forbidden or card in tried:
                continue
            tried.add(card)
            if card not in owner or place(owner[card], tried):
                owner[card] = seat
                return True
        return False

    return all(place(seat, set()) for seat in range(seats))


def lay_out(
    table: Table,
    specs: Sequence[TrickSpec],
    *,
    first_leader: int,
    ordered: bool,
    budget: int = 4000,
) -> list[dict[int, Card]] | None:
    """The tricks of ``specs`` laid out one after another, each led by the previous
    winner (or, when nobody takes a trick, by its leader again): in the given order
    (``ordered``), or in any order found by a depth-first search; at most ``budget``
    tricks are tried. Every play is legal under the table's follow rule however the
    hands are completed, as long as no forbidden pair is dealt (see
    :func:`arrangements`); a search from given tricks left, leader and forbidden pairs
    succeeds or fails whatever came before, so failures are remembered."""
    tries = 0
    failed: set[tuple[frozenset[int], int, Forbidden]] = set()

    def search(
        left: frozenset[int], leader: int, forbidden: Forbidden
    ) -> list[dict[int, Card]] | None:
        nonlocal tries
        if not left:
            return []
        if (left, leader, forbidden) in failed or tries > budget:
            return None
        for i in [min(left)] if ordered else sorted(left):
            later = [specs[j] for j in sorted(left - {i})]
            cards = {c for s in later for c in s.cards}
            for trick, winner, now in arrangements(
                table, specs[i], leader=leader, later=later, forbidden=forbidden
            ):
                tries += 1
                kept = frozenset(p for p in now if p[1] in cards)
                if all(can_deal(s, table.seats, kept) for s in later):
                    rest = search(left - {i}, leader if winner is None else winner, kept)
                    if rest is not None:
                        return [trick, *rest]
                if tries > budget:
                    return None
        failed.add((left, leader, forbidden))
        return None

    return search(frozenset(range(len(specs))), first_leader, frozenset())


def model_judge(game: Game) -> Judge:
    """The model's trick judge of ``game``, as a function of the cards alone."""

    def judge(cards: tuple[Card, ...]) -> TrickResult:
        return game.ruleset.judge_trick(game, cards)

    return judge


def wins(seat: int) -> Accept:
    """Accepts a trick that ``seat`` wins."""
    return lambda winner, _taken: winner == seat


def takes_nothing(seat: int) -> Accept:
    """Accepts a trick that gives ``seat`` no card."""
    return lambda _winner, taken: seat not in taken


def loses(seat: int) -> Accept:
    """Accepts a trick that some other seat wins."""
    return lambda winner, _taken: winner is not None and winner != seat


def chunks(cards: Sequence[Card], size: int) -> tuple[list[list[Card]], list[Card]]:
    """``cards`` (kept in order) cut into full chunks of ``size``, and the rest."""
    full = len(cards) // size * size
    return [list(cards[i : i + size]) for i in range(0, full, size)], list(cards[full:])


def mono_chunks(cards: Sequence[Card], size: int) -> tuple[list[list[Card]], list[Card]]:
    """``cards`` colour by colour, each colour from its highest card down cut into full
    chunks of ``size`` (mono-colour tricks, which every seat can follow): the chunks,
    and the cards left over."""
    full: list[list[Card]] = []
    rest: list[Card] = []
    for group in by_colour_desc(cards).values():
        more, left = chunks(group, size)
        full += more
        rest += left
    return full, rest


def by_colour_desc(cards: Sequence[Card]) -> dict[int, list[Card]]:
    """``cards`` by colour, each colour from its highest card down."""
    out: dict[int, list[Card]] = {}
    for card in sorted(cards, key=lambda c: (colour_of(c), -value_of(c))):
        out.setdefault(colour_of(card), []).append(card)
    return out


def judge_seat(judge: Judge, trick: Mapping[int, Card], leader: int, seats: int) -> int | None:
    """The seat that wins ``trick`` (seat -> card) led by ``leader``."""
    order = [(leader + i) % seats for i in range(seats)]
    result = judge(tuple(trick[s] for s in order))
    return None if result.winner is None else order[result.winner]


def pick_subsets(
    winnable: Callable[[Sequence[Card]], bool],
    pool: list[Card],
    required: list[Card],
    count: int,
    size: int,
) -> Iterator[list[list[Card]]]:
    """``count`` disjoint tricks of ``size`` cards from ``pool`` that seat 0 can win,
    together holding every card of ``required`` (in ``pool`` order)."""
    if count == 0:
        if not required:
            yield []
        return
    for combo in itertools.combinations(pool, size):
        if required and required[0] not in combo:
            continue
        if not winnable(combo):
            continue
        rest_pool = [c for c in pool if c not in combo]
        rest_required = [c for c in required if c not in combo]
        for more in pick_subsets(winnable, rest_pool, rest_required, count - 1, size):
            yield [list(combo), *more]
