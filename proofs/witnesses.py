"""Witnesses of the score bounds: deals and actions that the model replays.

A :class:`Plan` says which seat plays which card in which trick of one round (and
the picks and choices a ruleset asks for); :func:`drive` plays it through the
model, every action checked for legality, and gives the replayed scores as a
:class:`Witness`. Witnesses are written to and read from JSON
(:func:`witness_json`, :func:`replay_witness`).

Plans are laid out trick by trick by :func:`lay_out` at a :class:`Table` (the
game's seats, trick judge and follow rule): for each trick it asks the model's own
judge which seat wins a given order of cards, and its follow rule whether each card
may be played from any hand the seat can still be dealt (:func:`arrangements`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tricklaw.model import actions
from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.options import OptionValue
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Deal, Game, Phase, State
from tricklaw.model.trick import TrickResult
from tricklaw.spec.errors import TricklawError

SEAT = 0
"""The seat whose score is bounded (every relaxation is blind to seat numbers, so
its bounds hold for every player)."""
WITNESS_SEED = 0
"""The seed that deals the rounds after the witness round (Hund always plays five)."""

# --- witnesses: deals and actions the model replays -----------------------------------------


ROUND_OPTIONS: Mapping[str, Mapping[str, OptionValue]] = {
    "sticheln-1993": {"rounds": 1},
    "sticheln": {"rounds": 1},
    "lowhigh": {"rounds": 1},
    "the-last": {"rounds": 1},
    "hund": {},
}
"""The options a witness is replayed under: the defaults, with a single round where the
ruleset has a ``rounds`` option (Hund always plays five: its witness is the first)."""


def witness_game(
    ruleset_id: str, players: int, reading: Mapping[str, OptionValue] | None = None
) -> Game:
    """The game a witness of ``ruleset_id`` is played in: the options of ``reading``,
    the defaults otherwise, and a single round (see :data:`ROUND_OPTIONS`)."""
    options = {**ROUND_OPTIONS[ruleset_id], **(reading or {})}
    return get_ruleset(ruleset_id).make_game(players, options)


def chosen_options(game: Game) -> dict[str, OptionValue]:
    """The options of ``game`` that differ from their defaults."""
    defaults = {s.name: s.default for s in game.ruleset.option_specs}
    return {k: v for k, v in game.options.items if v != defaults[k]}


@dataclass
class Plan:
    """A round to play: the deal, which card each seat plays in each trick (in trick
    order, seat -> card), each seat's pick (Sticheln), the taker's choices (The Last:
    trick index -> action; KEEP when not given) and the decisions taken before the
    first trick, in turn (Hund's designation sets)."""

    deal: Deal
    tricks: list[dict[int, Card]]
    picks: dict[int, Card] = field(default_factory=dict)
    choices: dict[int, int] = field(default_factory=dict)
    opening: tuple[int, ...] = ()


@dataclass
class Witness:
    """A deal and the actions of its first round, with the score the model gives them."""

    deal: Deal
    actions: tuple[tuple[int, int], ...]
    score: int
    scores: tuple[int, ...]


def drive(game: Game, plan: Plan) -> Witness:
    """Play ``plan``'s first round through the model, every action checked for legality
    (raises :class:`~tricklaw.spec.errors.TricklawError` or ``KeyError`` if the plan is not
    playable); the replayed scores."""
    state: State[Any] = game.new_state_from_deals([plan.deal], WITNESS_SEED)
    done: list[tuple[int, int]] = []
    opening = list(plan.opening)
    while not state.history:
        seat = state.current_player()
        if state.phase is Phase.SELECT:
            action = actions.select(plan.picks[seat])
        elif state.phase is Phase.CHOOSE and not state.tricks:
            action = opening.pop(0)
        elif state.phase is Phase.CHOOSE:
            action = plan.choices.get(len(state.tricks) - 1, actions.KEEP)
        else:
            action = actions.play(plan.tricks[len(state.tricks)][seat])
        state = state.apply_action(action)
        done.append((seat, action))
    scores = state.history[0].scores
    return Witness(plan.deal, tuple(done), scores[SEAT], scores)


def deal_json(deal: Deal, ruleset: Ruleset[Any]) -> dict[str, Any]:
    """``deal`` in notation (the record's deal format)."""
    fmt = ruleset.palette.format_all
    out: dict[str, Any] = {
        "hands": [fmt(h) for h in deal.hands],
        "piles": {name: fmt(cards) for name, cards in deal.piles},
    }
    if deal.first_leader is not None:
        out["first_leader"] = deal.first_leader
    if deal.extras:
        out["extras"] = dict(deal.extras)
    return out


def deal_from_json(raw: Mapping[str, Any], ruleset: Ruleset[Any]) -> Deal:
    """The deal :func:`deal_json` wrote."""
    parse = ruleset.palette.parse_all
    return Deal(
        tuple(tuple(parse(h)) for h in raw["hands"]),
        tuple((k, tuple(parse(v))) for k, v in raw.get("piles", {}).items()),
        raw.get("first_leader"),
        tuple((k, int(v)) for k, v in raw.get("extras", {}).items()),
    )


def witness_json(game: Game, witness: Witness) -> dict[str, Any]:
    """A witness as JSON-ready data: options, seed, deal, actions (notation), scores."""
    ruleset = game.ruleset
    return {
        "options": chosen_options(game),
        "seed": WITNESS_SEED,
        "deal": deal_json(witness.deal, ruleset),
        "actions": [
            {"seat": s, "action": actions.action_to_string(a, ruleset.palette)}
            for s, a in witness.actions
        ],
        "score": witness.score,
        "scores": list(witness.scores),
    }


def replay_witness(ruleset_id: str, players: int, witness: Mapping[str, Any]) -> int:
    """Replay a witness (as :func:`witness_json` writes it) through the model, checking
    each action's seat and legality; seat 0's score in the finished first round."""
    ruleset = get_ruleset(ruleset_id)
    game = ruleset.make_game(players, dict(witness.get("options", {})))
    deal = deal_from_json(witness["deal"], ruleset)
    state: State[Any] = game.new_state_from_deals([deal], witness.get("seed"))
    for entry in witness["actions"]:
        if state.history:
            raise TricklawError("the witness has actions after its round is over")
        if entry["seat"] != state.current_player():
            raise TricklawError(f"seat {entry['seat']} acts on seat {state.current}'s turn")
        state = state.apply_action(actions.string_to_action(entry["action"], ruleset.palette))
    if not state.history:
        raise TricklawError("the witness's actions do not finish the round")
    score: int = state.history[0].scores[SEAT]
    return score


def deck_shape(ruleset: Ruleset[Any], game: Game) -> tuple[list[int], list[int]]:
    deck = ruleset.deck(game.players, game.options)
    return sorted({colour_of(c) for c in deck}), sorted({value_of(c) for c in deck})


# --- laying out tricks with the model's own judge ------------------------------------------

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
    def judge(cards: tuple[Card, ...]) -> TrickResult:
        return game.ruleset.judge_trick(game, cards)

    return judge


def wins(seat: int) -> Accept:
    return lambda winner, _taken: winner == seat


def takes_nothing(seat: int) -> Accept:
    return lambda _winner, taken: seat not in taken


def loses(seat: int) -> Accept:
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
    out: dict[int, list[Card]] = {}
    for card in sorted(cards, key=lambda c: (colour_of(c), -value_of(c))):
        out.setdefault(colour_of(card), []).append(card)
    return out


def first_leader(game: Game) -> int:
    state: State[Any] = game.new_initial_state(WITNESS_SEED)
    return state.first_leader


def judge_seat(judge: Judge, trick: Mapping[int, Card], leader: int, seats: int) -> int | None:
    """The seat that wins ``trick`` (seat -> card) led by ``leader``."""
    order = [(leader + i) % seats for i in range(seats)]
    result = judge(tuple(trick[s] for s in order))
    return None if result.winner is None else order[result.winner]
