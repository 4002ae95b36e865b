"""Tiny's reference model: the model layer's part of the example game.

A round (``spec/tiny.txt``):

1. Three colours of 1-4, twelve cards, all dealt: 6 each with 2 players, 4 with 3
   (TINY-SETUP-1, TINY-DECK-1, TINY-DEAL-1).
2. Seat 0 leads the first trick (TINY-LEAD-1); the others must follow the led colour
   if they can (TINY-PLAY-1).
3. The highest card of the led colour wins; its player takes the trick and leads next
   (TINY-TRICK-1, TINY-COLLECT-1): :func:`judge`.
4. One point a trick (TINY-SCORE-1); one deal is the game, the most points win, and a
   tie is dispute ``tie`` (TINY-GAME-1, TINY-D-TIE): :meth:`Tiny.winners`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from tricklaw.model import actions, flow
from tricklaw.model.actions import ActionKind
from tricklaw.model.cards import Card, Palette, build_deck
from tricklaw.model.options import CompiledRules, Options, OptionSpec
from tricklaw.model.rng import SplitMix64
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Deal, DealSource, Game, Phase, RoundLog, State
from tricklaw.model.trick import TrickResult, follows, winner_takes_all

PALETTE = Palette(("red", "green", "blue"), ("R", "G", "B"))
DECK = build_deck(range(3), range(1, 5))
"""Three colours of 1-4 (TINY-DECK-1), in canonical order."""


@dataclass(frozen=True, slots=True)
class Rules(CompiledRules):
    """The options of one game, compiled."""

    tie_has_no_winner: bool


def rules_of(game: Game) -> Rules:
    """``game``'s options as :meth:`Tiny.compile` compiled them (``Game.rules``), typed."""
    return game.rules_as(Rules)


def judge(cards: Sequence[Card]) -> TrickResult:
    """The highest card of the led colour takes the trick (TINY-TRICK-1, TINY-COLLECT-1)."""
    trick = tuple(cards)
    lead = trick[0] >> 5
    winner = max(
        (i for i, card in enumerate(trick) if card >> 5 == lead), key=lambda i: trick[i] & 31
    )
    return winner_takes_all(trick, winner, ("TINY-TRICK-1", "TINY-COLLECT-1"))


def playable(hand: Sequence[Card], trick: Sequence[Card]) -> tuple[Card, ...]:
    """Any card to lead; then the led colour if the hand holds it (TINY-PLAY-1)."""
    if not trick:
        return tuple(hand)
    lead = (trick[0] >> 5,)
    return tuple(card for card in hand if follows(card, hand, lead))


def score(taken: Sequence[Card], players: int) -> int:
    """One point a trick taken (TINY-SCORE-1): the taker of a trick takes all its cards
    (TINY-COLLECT-1), so a seat's tricks are its cards over the players."""
    return len(taken) // players


CLAUSES: Mapping[str, str] = MappingProxyType(
    {
        "setup": "TINY-SETUP-1",
        "deck": "TINY-DECK-1",
        "deal": "TINY-DEAL-1",
        "lead": "TINY-LEAD-1",
        "first-lead": "TINY-LEAD-1",
        "turn": "TINY-PLAY-1",
        "play": "TINY-PLAY-1",
        "trick": "TINY-TRICK-1",
        "collect": "TINY-COLLECT-1",
        "score-total": "TINY-SCORE-1",
        "game-end": "TINY-GAME-1",
    }
)
"""The clause id stating each rule role."""


class Tiny(Ruleset[None]):
    """Tiny, 2-3 players."""

    id = "tiny"
    title = "Tiny (the example game of 'Adding a ruleset')"
    source = "tiny.txt"
    player_counts = (2, 3)
    palette = PALETTE
    option_specs = (
        OptionSpec(
            "tie",
            "shared",
            "who wins a tie for the most points",
            choices=("shared", "nobody"),
            dispute="TINY-D-TIE",
        ),
    )
    clause = CLAUSES
    implements = tuple(sorted(set(CLAUSES.values())))

    def compile(self, options: Options) -> Rules:
        """``options`` compiled (``Game.rules``)."""
        return Rules(tie_has_no_winner=options.text("tie") == "nobody")

    def deck(self, players: int, options: Options) -> tuple[Card, ...]:
        """Twelve cards whatever the player count (TINY-DECK-1)."""
        return DECK

    def hand_size(self, game: Game) -> int:
        """Every card is dealt (TINY-DEAL-1)."""
        return len(DECK) // game.players

    def cut(
        self, game: Game, order: Sequence[Card], rng: SplitMix64, history: tuple[RoundLog, ...]
    ) -> Deal:
        """Seat ``k`` receives the ``k``-th run of :meth:`hand_size` cards (TINY-DEAL-1)."""
        size = self.hand_size(game)
        return Deal(tuple(tuple(order[k * size : (k + 1) * size]) for k in range(game.players)))

    def start_round(
        self,
        game: Game,
        source: DealSource,
        index: int,
        totals: tuple[int, ...],
        history: tuple[RoundLog, ...],
    ) -> State[None]:
        """Deal; seat 0 leads (TINY-LEAD-1)."""
        deal = flow.deal_for_round(self, game, source, index, history)
        info = flow.round_info(
            game, source, index, dealer=None, deal=deal, totals=totals, history=history
        )
        return flow.begin_round(info, Phase.PLAY, 0, 0, None)

    def playable(
        self, game: Game, hand: tuple[Card, ...], trick: tuple[Card, ...]
    ) -> tuple[Card, ...]:
        """:func:`playable`."""
        return playable(hand, trick)

    def legal_actions(self, state: State[None]) -> tuple[int, ...]:
        """The playable cards of the current hand."""
        return playable(state.hands[state.current], state.trick)

    def apply(self, state: State[None], action: int) -> State[None]:
        """Play a card; close a full trick; end the round after the last."""
        after = flow.add_to_trick(state, action, actions.card_of(action), None)
        if len(after.trick) < state.info.game.players:
            return after
        after = flow.close_trick(after, judge(after.trick), None)
        return after if after.hands[0] else flow.end_round(after)

    def why_illegal(self, state: State[None], action: int) -> str:
        """Why ``action`` is not legal here."""
        card = actions.card_of(action)
        if actions.kind_of(action) is not ActionKind.PLAY:
            return "the game expects a card to be played"
        if card not in state.hands[state.current]:
            return f"{self.palette.format(card)} is not in that seat's hand"
        lead = self.palette.name(state.trick[0] >> 5)
        return f"the seat holds {lead} and must follow the led colour"

    def forbidding_clause(self, state: State[None], action: int) -> str:
        """The clause the illegal ``action`` breaks."""
        return "TINY-PLAY-1"

    def judge_trick(
        self, game: Game, cards: Sequence[Card], context: Mapping[str, str] | None = None
    ) -> TrickResult:
        """:func:`judge`."""
        return judge(cards)

    def observation(self, state: State[None], seat: int) -> dict[str, Any]:
        """``seat``'s view: its hand, the trick, and every seat's taken cards."""
        fmt = self.palette.format_all
        return {
            "seat": seat,
            "round": state.info.index,
            "phase": state.phase.name.lower(),
            "current": state.current,
            "hand": fmt(state.hands[seat]),
            "leader": state.leader,
            "trick": fmt(state.trick),
            "captured": [fmt(sorted(t)) for t in state.taken],
            "totals": list(state.info.totals),
        }

    def round_scores(self, state: State[None]) -> tuple[int, ...]:
        """One point a trick (TINY-SCORE-1)."""
        return tuple(score(taken, state.info.game.players) for taken in state.taken)

    def recount_scores(self, game: Game, log: RoundLog) -> tuple[int, ...]:
        """One point for each trick the log's results give a seat (TINY-SCORE-1)."""
        return tuple(score(taken, game.players) for taken in log.taken(game.seats))

    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        """One deal is a game (TINY-GAME-1)."""
        return rounds_played >= 1

    def winners(self, game: Game, totals: Sequence[int]) -> tuple[int, ...]:
        """The player with the most points (TINY-GAME-1); a tie is dispute ``tie``
        (TINY-D-TIE): every tied player wins, or nobody does."""
        tied = super().winners(game, totals)
        return () if len(tied) > 1 and rules_of(game).tie_has_no_winner else tied


TINY = Tiny()
