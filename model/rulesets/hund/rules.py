"""Hund's rules as pure functions and values: the powers a designation assigns
(HUND-DESIG-1/2, HUND-OPT-2), who takes a trick (HUND-TRICK-1/2), what may be played
(HUND-PLAY-1/2), the virtual player's card and columns (HUND-TWO-4..6), a round's scores
(HUND-POWER-2..4, HUND-FACT-2/3) and the next Lead decider (HUND-POWER-5); and the clause
stating each rule role.

Power order, used throughout: 0 Trump, 1 Plus, 2 Hund, 3 Minus, 4 Lead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple

from tricklaw.model.cards import Card, Palette
from tricklaw.model.rulesets.hund.options import Rules
from tricklaw.model.state import seat_after
from tricklaw.model.trick import TrickResult

PALETTE = Palette(("red", "yellow", "green", "blue", "purple"), ("R", "Y", "G", "B", "P"))
POWERS = ("trump", "plus", "hund", "minus", "lead")
TRUMP, PLUS, HUND, MINUS, LEAD = range(5)
SUIT_SIZE = {2: 6, 3: 6, 4: 8, 5: 10}
"""Cards per suit by player count (HUND-OPT-1: "instead of 6/6/8/10")."""
MORE_CARDS = {2: 9, 3: 9, 4: 12, 5: 15}
"""Cards per suit with the custom option ``more-cards`` (HUND-OPT-1)."""
ROUNDS = 5
BASE_DESIGNATIONS = (1, 2, 3, 4, 5)
VIRTUAL = 2
"""The virtual player's seat in the two-player game."""


class Powers(NamedTuple):
    """Hund's own part of the state.

    ``designation`` is the round's number (base game); ``sets`` the chosen
    (suit, designation value) sets as cards (custom option); ``holders`` the
    suit of each power assigned so far, in power order; ``trump_trick`` and
    ``trump_pos`` where the Trump power was assigned (trick index in the
    round, position in that trick; -1 before); ``columns`` the virtual
    player's (face-up, face-down) columns, left to right; ``choosing`` what the
    CHOOSE phase decides: ``"leader"`` or ``"sets"`` (empty in play).

    (Immutable, and a ``NamedTuple`` like :class:`~tricklaw.model.state.State`:
    one is built for each virtual card and power, in half the time of a frozen
    dataclass.)
    """

    choosing: str
    designation: int | None
    sets: tuple[Card, ...]
    holders: tuple[int, ...]
    trump_trick: int
    trump_pos: int
    columns: tuple[tuple[Card | None, Card | None], ...]


# --- the rules as pure functions -----------------------------------------------------------


def matches(card: Card, powers: Powers, rules: Rules) -> bool:
    """Whether playing ``card`` assigns a power (HUND-DESIG-1; HUND-OPT-2 with sets)."""
    if not rules.sets:
        return card & 31 == powers.designation
    if rules.set_match_card:
        return card in powers.sets
    return any(card & 31 == s & 31 for s in powers.sets)


def assign(holders: tuple[int, ...], card: Card, rules: Rules) -> tuple[int, ...]:
    """``holders`` after a matching ``card``: its suit takes the next free power
    (HUND-DESIG-2), unless every power is taken or, under ``set-repeat=skip``, the
    suit already holds one."""
    suit = card >> 5
    if len(holders) == len(POWERS) or (suit in holders and not rules.set_repeat_stack):
        return holders
    return (*holders, suit)


TRUMP_FACTS = tuple((("trump", name),) for name in PALETTE.names)
"""The facts of a trick played under each trump suit."""
TRUMP_WINS = ("HUND-TRICK-1", "HUND-COLLECT-1")
LEAD_WINS = ("HUND-TRICK-2", "HUND-COLLECT-1")


def judge(cards: Sequence[Card], trump: int | None, trump_from: int) -> TrickResult:
    """Who takes the complete trick ``cards`` (HUND-TRICK-1/2).

    ``trump`` is the trump suit (or None) and ``trump_from`` the first position
    in this trick whose cards of that suit count as trumps (dispute
    ``trump-timing``; ``len(cards)`` when none count). Each value exists once
    per suit, so there is never a tie (and within one suit the highest card
    number is the highest value).
    """
    trick = tuple(cards)
    facts = () if trump is None else TRUMP_FACTS[trump]
    if trump is not None:
        trumps = [c for c in trick[trump_from:] if c >> 5 == trump]
        if trumps:
            best = trick.index(max(trumps), trump_from)
            return TrickResult(trick, best, ((best, trick),), (), TRUMP_WINS, facts)
    lead = trick[0] >> 5
    best = trick.index(max([c for c in trick if c >> 5 == lead]))
    return TrickResult(trick, best, ((best, trick),), (), LEAD_WINS, facts)


def trump_window(
    powers: Powers, trick_index: int, timing: str, size: int
) -> tuple[int | None, int]:
    """The trump suit for trick ``trick_index`` and the first position whose cards
    of it count (dispute ``trump-timing``)."""
    if not powers.holders:
        return None, size
    if powers.trump_trick < trick_index or timing == "whole-trick":
        return powers.holders[TRUMP], 0
    if timing == "from-card":
        return powers.holders[TRUMP], powers.trump_pos
    return powers.holders[TRUMP], size  # next-trick: none count yet


def playable(hand: Sequence[Card], trick: Sequence[Card]) -> tuple[Card, ...]:
    """The lead suit if the hand has it, else any card (HUND-PLAY-1/2)."""
    if not trick:
        return tuple(hand)
    lead = trick[0] >> 5
    return tuple([c for c in hand if c >> 5 == lead]) or tuple(hand)


def virtual_card(columns: Sequence[tuple[Card | None, Card | None]], trick: Sequence[Card]) -> Card:
    """The virtual player's card (HUND-TWO-4/5): the leftmost face-up card of the lead
    suit, else the leftmost face-up card."""
    shown = [up for up, _ in columns if up is not None]
    if trick:
        lead = trick[0] >> 5
        for card in shown:
            if card >> 5 == lead:
                return card
    return shown[0]


def reveal(
    columns: tuple[tuple[Card | None, Card | None], ...],
) -> tuple[tuple[Card | None, Card | None], ...]:
    """Turn up every face-down card with no face-up card on it (HUND-TWO-6)."""
    return tuple((down, None) if up is None else (up, down) for up, down in columns)


def round_score(
    taken: Sequence[Sequence[Card]], holders: Sequence[int], rules: Rules, virtual: int | None
) -> tuple[int, ...]:
    """Each seat's score (HUND-POWER-2..4, HUND-FACT-2/3): +1 a Plus card, -1 a Minus
    card, and 3 for a Hund count that is neither the most nor the fewest."""

    suits = [[c >> 5 for c in pile] for pile in taken]

    def counts(power: int) -> list[int]:
        """Each seat's number of cards of the suit holding ``power`` (none unassigned)."""
        if power >= len(holders):
            return [0] * len(taken)
        return [pile.count(holders[power]) for pile in suits]

    plus, minus, hund = counts(PLUS), counts(MINUS), counts(HUND)
    compared = [rules.virtual_in_hund or s != virtual for s in range(len(taken))]
    field = [n for n, counted in zip(hund, compared, strict=True) if counted]
    most, fewest = max(field), min(field)
    n_most, n_fewest = field.count(most), field.count(fewest)

    def hund_award(seat: int) -> int:
        if not compared[seat] or len(holders) <= HUND:
            return 0
        at_most = hund[seat] == most and (rules.hund_tie_excludes or n_most == 1)
        at_fewest = hund[seat] == fewest and (rules.hund_tie_excludes or n_fewest == 1)
        return 0 if at_most or at_fewest else 3

    return tuple(plus[s] - minus[s] + hund_award(s) for s in range(len(taken)))


def lead_decider(
    taken: Sequence[Sequence[Card]],
    holders: Sequence[int],
    rules: Rules,
    *,
    seating: tuple[int, ...],
    start: int,
    virtual: int | None,
) -> int | None:
    """Who names the next round's start player (HUND-POWER-5, dispute ``lead-tie``,
    HUND-GAP-6): the seat with most Lead-suit cards, or None."""
    if len(holders) <= LEAD:
        return None
    counts = [[c >> 5 for c in pile].count(holders[LEAD]) for pile in taken]
    best = max(counts)
    tied = [s for s, c in enumerate(counts) if c == best]
    if len(tied) > 1:
        if not rules.lead_tie_earliest:
            return None
        tied = [seat_after(seating, start, k) for k in range(len(seating))]
        tied = [s for s in tied if counts[s] == best][:1]
    decider = tied[0]
    return None if decider == virtual else decider


CLAUSES: Mapping[str, str] = MappingProxyType(
    {
        "aim": "HUND-AIM-1",
        "game-end": "HUND-GAME-1",
        "designation": "HUND-DESIG-1",
        "assign": "HUND-DESIG-2",
        "turn": "HUND-PLAY-1",
        "play": "HUND-PLAY-2",
        "trump-wins": "HUND-TRICK-1",
        "lead-wins": "HUND-TRICK-2",
        "collect": "HUND-COLLECT-1",
        "trump": "HUND-POWER-1",
        "plus": "HUND-POWER-2",
        "hund": "HUND-POWER-3",
        "minus": "HUND-POWER-4",
        "lead": "HUND-POWER-5",
        "two": "HUND-TWO-1",
        "display": "HUND-TWO-2",
        "virtual-turn": "HUND-TWO-3",
        "virtual-play": "HUND-TWO-4",
        "virtual-suit": "HUND-TWO-5",
        "reveal": "HUND-TWO-6",
        "more-cards": "HUND-OPT-1",
        "sets": "HUND-OPT-2",
        "suits": "HUND-FACT-1",
        "plus-minus": "HUND-FACT-2",
        "hund-award": "HUND-FACT-3",
        "lead-known": "HUND-FACT-4",
        "players": "HUND-FACT-5",
        "deck": "HUND-GAP-1",
        "deal": "HUND-GAP-2",
        "start": "HUND-GAP-3",
        "first-lead": "HUND-GAP-3",
        "fact:designation": "HUND-DESIG-1",
        "fact:sets": "HUND-OPT-2",
        "fact:powers": "HUND-DESIG-2",
        "fact:lead_decider": "HUND-POWER-5",
        "next-lead": "HUND-GAP-4",
        "choice": "HUND-GAP-5",
        "virtual-score": "HUND-GAP-6",
        "set-timing": "HUND-GAP-7",
        "colours": "HUND-GAP-8",
        "score-total": "HUND-FACT-2",
    }
)
"""The clause id stating each rule role."""
