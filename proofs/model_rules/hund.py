"""Hund's table and its virtual player as the clauses state them.

* The table: one seat a player, and with two players a virtual player in the third seat
  (HUND-TWO-1); all cards dealt evenly over the seats, the virtual player's too: ten
  cards each, fifteen with ``more-cards`` (HUND-GAP-2, HUND-OPT-1).
* ``rule virtual-card``: at the virtual player's turn its card is played for it
  (HUND-TWO-3): the leftmost of its face-up cards of the lead suit when it shows one
  (HUND-TWO-5), else the leftmost face-up card it may play (HUND-TWO-4; its face-down
  cards do not count, as the clause's note says). Every other seat chooses its own card
  (HUND-PLAY-1): no automatic move.
* ``rule virtual-card-rows``: the model's ``virtual_card`` on every face-up row of the
  base game's width, led to by every suit (alone, or followed by another suit), against
  the same statement (:func:`leftmost_allowed`): a proof for the base game; the wider
  rows of ``more-cards`` are sampled by ``rule virtual-card`` only.
* ``rule start-player``: the round's start player is seat 0, then the one the Lead
  decider names (HUND-POWER-5), else the seat left of the last start player (HUND-GAP-3).
* ``rule trump-assigned``: where the Trump power was assigned, between the tricks of the
  base game: the first card of the round showing the designated number (HUND-DESIG-1/2,
  HUND-POWER-1); a later designated card moves nothing.
* ``rule virtual-layout``: the virtual player's rows as dealt, half its hand face up on
  the other half (HUND-TWO-2), the odd card of fifteen as HUND-D-VIRTUALODD reads.
* ``rule virtual-display``: at every state, the virtual player's uncovered face-down
  cards are those the deal's layout and the cards played leave uncovered (HUND-TWO-2): a
  face-down card is turned up once the trick that uncovered it is over, not before
  (HUND-TWO-6).
* ``rule reveal``: the model's ``reveal`` on every display pattern of the game's width
  (each column face up over face down, face up alone, face down alone, or empty):
  exactly the uncovered face-down cards are turned up, nothing else moves (HUND-TWO-6).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import z3

from tricklaw.model import actions
from tricklaw.model.actions import ActionKind
from tricklaw.model.cards import Card, colour_of, make_card
from tricklaw.model.state import Game, Phase, State, seat_after
from tricklaw.proofs.model_rules import (
    MODEL_RULES,
    NONE,
    Exhausted,
    ExhaustiveRule,
    GameRules,
    StateRule,
    Table,
    automatic_card,
)
from tricklaw.proofs.solver import Tracked

HAND, MORE = 10, 15
"""Cards each seat is dealt, and with the ``more-cards`` option (HUND-GAP-2)."""
VIRTUAL = 2
"""The virtual player's seat: the third place of the two-player game (HUND-TWO-1)."""

Column = tuple[Card | None, Card | None]


def hand(game: Game) -> int:
    """The cards each seat is dealt (HUND-GAP-2, HUND-OPT-1)."""
    return MORE if game.options.text("more-cards") == "yes" else HAND


def table(game: Game) -> Table:
    """The seats of HUND-TWO-1 and the hands of HUND-GAP-2."""
    seats = 3 if game.players == 2 else game.players
    return Table(seats, hand(game), ("HUND-TWO-1", "HUND-GAP-2", "HUND-OPT-1"))


def _virtual_to_play(game: Game, state: State[Any]) -> bool:
    return game.players == 2 and state.current == VIRTUAL and state.phase is Phase.PLAY


def leftmost_allowed(shown: Sequence[Card], lead: int | None) -> Card | None:
    """The virtual player's card from its face-up cards ``shown`` (left to right) when
    the trick's lead suit is ``lead`` (None: it leads): the leftmost of the lead suit if
    it shows one (HUND-TWO-5), else the leftmost (HUND-TWO-4); None when it shows none."""
    following = [c for c in shown if lead is not None and colour_of(c) == lead]
    allowed = following or list(shown)
    return allowed[0] if allowed else None


def virtual_rule(game: Game, state: State[Any], out: z3.ArithRef) -> list[Tracked]:
    """The virtual player's card at ``state`` (see the module docstring), from its
    face-up row left to right (the state's ``extra.columns``)."""
    if not _virtual_to_play(game, state):
        return [Tracked("HUND-PLAY-1", out == NONE)]
    shown = [up for up, _ in state.extra.columns if up is not None]
    lead = colour_of(state.trick[0]) if state.trick else None
    card = leftmost_allowed(shown, lead)
    rule = (
        "HUND-TWO-5"
        if lead is not None and card is not None and colour_of(card) == lead
        else "HUND-TWO-4"
    )
    return [
        Tracked("HUND-TWO-3", out != NONE),  # its card is played for it
        Tracked(rule, out == (NONE if card is None else card)),
    ]


def start_rule(game: Game, state: State[Any], out: z3.ArithRef) -> list[Tracked]:
    """The round's start player, once play begins: seat 0 in the first round; then the
    seat the previous round's Lead decider names (HUND-POWER-5; the decider as the
    previous round records it, which ``rule lead-decider`` holds to its clause); with no
    decider, the seat to the left of the previous round's start player (HUND-GAP-3)."""
    if state.phase is not Phase.PLAY:
        return [Tracked("HUND-GAP-3", out == NONE)]
    if not state.info.history:
        return [Tracked("HUND-GAP-3", out == 0)]
    previous = state.info.history[-1]
    decider = dict(previous.facts).get("lead_decider")
    if isinstance(decider, int):
        named = [
            actions.seat_of(a)
            for seat, a in state.actions
            if seat == decider and actions.kind_of(a) is ActionKind.LEADER
        ]
        return [Tracked("HUND-POWER-5", out == (named[0] if named else NONE))]
    left = seat_after(previous.seating, previous.first_leader, 1)
    return [Tracked("HUND-GAP-3", out == left)]


def start_model(game: Game, state: State[Any]) -> int:
    """The model's start player of the round, once play begins."""
    return state.first_leader if state.phase is Phase.PLAY else NONE


def _base_game(game: Game) -> bool:
    """The base game, where a round's number is one designation card (not sets)."""
    return game.options.text("designation-mode") != "sets"


def trump_rule(game: Game, state: State[Any], out: z3.ArithRef) -> list[Tracked]:
    """Where the Trump power was assigned (``100 * trick + position``), stated between
    tricks: at the first card of the round showing the designated number (HUND-DESIG-1),
    whose suit takes the first power, Trump (HUND-DESIG-2), from then on (HUND-POWER-1);
    a later designated card gives a later power and moves nothing. ``NONE`` before such
    a card, during a trick (the sampled states put a card in a trick without playing it
    through the model) and with sets."""
    if not _base_game(game) or state.trick:
        return [Tracked("HUND-DESIG-1", out == NONE)]
    number = state.info.deal.extra("designation")
    for index, cards in enumerate(result.cards for _, result in state.tricks):
        for pos, card in enumerate(cards):
            if card & 31 == number:
                return [
                    Tracked("HUND-DESIG-1", out == 100 * index + pos),
                    Tracked("HUND-DESIG-2", out >= 0),
                ]
    return [Tracked("HUND-DESIG-1", out == NONE)]


def trump_model(game: Game, state: State[Any]) -> int:
    """Where the model's state says the Trump power was assigned (its ``extra``)."""
    powers = state.extra
    if not _base_game(game) or state.trick or not powers.holders:
        return NONE
    return 100 * int(powers.trump_trick) + int(powers.trump_pos)


def layout_rule(game: Game, state: State[Any], out: z3.ArithRef) -> list[Tracked]:
    """The virtual player's rows as dealt, stated before the round's first card is played
    (``100 * face-up + face-down``): half its hand face up on the other half (HUND-TWO-2);
    of an odd hand (fifteen cards, HUND-OPT-1) the odd card lies face down or face up as
    HUND-D-VIRTUALODD reads. With more players, or once play has begun, nothing is
    stated (the outcome is ``NONE``)."""
    if game.players != 2 or state.tricks or state.trick:
        return [Tracked("HUND-TWO-2", out == NONE)]
    size = hand(game)
    up = size // 2 if game.options.text("virtual-odd") == "extra-down" else size - size // 2
    return [
        Tracked("HUND-TWO-2", out / 100 == up),
        Tracked("HUND-D-VIRTUALODD", out % 100 == size - up),
    ]


def layout_model(game: Game, state: State[Any]) -> int:
    """The model's rows as dealt (its deal's piles), at the states :func:`layout_rule`
    states them."""
    if game.players != 2 or state.tricks or state.trick:
        return NONE
    deal = state.info.deal
    return 100 * len(deal.pile("virtual-up")) + len(deal.pile("virtual-down"))


def uncovered(state: State[Any]) -> int:
    """How many of the virtual player's face-down cards lie uncovered, from the round's
    deal and the cards played: the deal lays the face-up cards on the face-down ones
    (HUND-TWO-2; the deal's piles ``virtual-up`` and ``virtual-down``, column by column),
    and a face-down card is turned up once a trick is over (HUND-TWO-6). So a face-down
    card not yet played lies uncovered while the card on it has been played in the trick
    under way, or, with no card on it (an odd card dealt face down, HUND-D-VIRTUALODD),
    until the first trick is over."""
    downs, ups = state.info.deal.pile("virtual-down"), state.info.deal.pile("virtual-up")
    played = {c for _, result in state.tricks for c in result.cards} | set(state.trick)
    count = 0
    for i, down in enumerate(downs):
        if down in played:
            continue
        if i >= len(ups):
            count += not state.tricks
        else:
            count += ups[i] in state.trick
    return count


def display_rule(game: Game, state: State[Any], out: z3.ArithRef) -> list[Tracked]:
    """At every state of the two-player game, the virtual player's uncovered face-down
    cards are :func:`uncovered`'s (HUND-TWO-2, HUND-TWO-6): none between tricks, and
    during a trick only the one its own card of this trick lay on; with more players
    nothing is stated (the outcome is ``NONE``)."""
    if game.players != 2:
        return [Tracked("HUND-TWO-6", out == NONE)]
    return [Tracked("HUND-TWO-6", out == uncovered(state))]


def display_model(game: Game, state: State[Any]) -> int:
    """The uncovered face-down cards of the model's display (its ``extra.columns``)."""
    if game.players != 2:
        return NONE
    return sum(1 for up, down in state.extra.columns if up is None and down is not None)


def turned_up(column: Column) -> Column:
    """One column once a trick is over (HUND-TWO-6): a face-down card with nothing on it
    is turned face up; a covered one stays, and so does a face-up card."""
    up, down = column
    return (down, None) if up is None else column


def _tricks(suits: range, value: int) -> list[tuple[int | None, tuple[Card, ...]]]:
    """The tricks the virtual player may face, by lead suit: none (it leads), a lead card
    of each suit, and that card followed by one of the next suit."""
    out: list[tuple[int | None, tuple[Card, ...]]] = [(None, ())]
    for lead in suits:
        first = make_card(lead, value)
        out.append((lead, (first,)))
        out.append((lead, (first, make_card((lead + 1) % len(suits), value))))
    return out


def check_virtual_card(game: Game, model: Sequence[ModuleType]) -> Exhausted:
    """The model's ``virtual_card`` on every face-up row of the game's width (each column
    empty or showing a card of any suit; the cards differ in value from column to column;
    the face-down cards, which the rule does not read, left out) and every trick of
    ``_tricks``."""
    choose = next(m.virtual_card for m in model if hasattr(m, "virtual_card"))
    width = (hand(game) + 1) // 2
    low = game.ruleset.deck(game.players, game.options)[0] & 31
    suits = range(len(game.ruleset.palette.letters))
    cases = 0
    for row in itertools.product([None, *suits], repeat=width):
        if all(s is None for s in row):
            continue  # it always shows a card while it holds one (HUND-TWO-6)
        columns = tuple(
            (None if s is None else make_card(s, low + i), None) for i, s in enumerate(row)
        )
        shown = [up for up, _ in columns if up is not None]
        for lead, trick in _tricks(suits, low + width):
            cases += 1
            got = choose(columns, trick)
            want = leftmost_allowed(shown, lead)
            if got != want:
                fmt = game.ruleset.palette.format
                witness = {
                    "face-up": [None if up is None else fmt(up) for up, _ in columns],
                    "trick": [fmt(c) for c in trick],
                    "model": fmt(got),
                    "rule": None if want is None else fmt(want),
                }
                return Exhausted(cases, f"face-up rows of width {width}", witness)
    domain = f"every face-up row of width {width}, led to by every suit, alone or followed"
    return Exhausted(cases, domain, None)


def _show(game: Game, columns: Sequence[Column]) -> list[list[str | None]]:
    fmt = game.ruleset.palette.format
    return [[None if c is None else fmt(c) for c in column] for column in columns]


def check_reveal(game: Game, model: Sequence[ModuleType]) -> Exhausted:
    """The model's ``reveal`` on every display pattern of the game's width."""
    reveal = next(m.reveal for m in model if hasattr(m, "reveal"))
    width = (hand(game) + 1) // 2  # columns: half the cards face up on the others
    deck = game.ruleset.deck(game.players, game.options)
    cases = 0
    for pattern in itertools.product(range(4), repeat=width):
        columns = tuple(
            (deck[2 * i] if k & 1 else None, deck[2 * i + 1] if k & 2 else None)
            for i, k in enumerate(pattern)
        )
        cases += 1
        after = tuple(reveal(columns))
        want = tuple(turned_up(c) for c in columns)
        if after != want:
            witness = {
                "display": _show(game, columns),
                "model": _show(game, after),
                "rule": _show(game, want),
            }
            return Exhausted(cases, f"display patterns of width {width}", witness)
    return Exhausted(cases, f"every display pattern of width {width}", None)


MODEL_RULES.register(
    "hund",
    GameRules(
        table,
        ("more-cards", "values"),
        states=(
            StateRule("virtual-card", ("more-cards",), (2,), virtual_rule, automatic_card),
            StateRule("start-player", ("lead-tie",), None, start_rule, start_model, card=False),
            StateRule("trump-assigned", (), None, trump_rule, trump_model, card=False),
            StateRule(
                "virtual-layout",
                ("more-cards", "virtual-odd"),
                (2,),
                layout_rule,
                layout_model,
                card=False,
            ),
            StateRule(
                "virtual-display",
                ("more-cards", "virtual-odd"),
                (2,),
                display_rule,
                display_model,
                card=False,
            ),
        ),
        exhaustive=(
            ExhaustiveRule(
                "virtual-card-rows", (), (2,), ("HUND-TWO-4", "HUND-TWO-5"), check_virtual_card
            ),
            ExhaustiveRule("reveal", ("more-cards",), (2,), ("HUND-TWO-6",), check_reveal),
        ),
    ),
)
