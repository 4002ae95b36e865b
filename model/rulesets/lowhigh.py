"""The low-card-takes-high game (untitled text, ``003_804f0a416bc7a761.txt``).

A round (the text says "game"; it calls a trick a "round"):

1. Five colours, values 1 up to 9, 12, 15 or 18 for 3, 4, 5 or 6 players;
   15 cards each (LH-DECK-1, LH-DEAL-1).
2. The leader plays any card; the others follow the lead colour if they can
   (LH-PLAY-1/2).
3. The highest card is found first, then the lowest, by number alone; on a
   tie the one played last counts (LH-TRICK-1..3). The lowest card's player
   takes the highest card; the highest card's player takes all the rest and
   leads next (LH-TRICK-4/5, LH-LEAD-1): :func:`judge`.
4. After 15 tricks, each colour a player holds scores its face values when he
   has one or two cards of it, else one point a card (LH-SCORE-1..4).

As many rounds as players; the highest total wins (LH-GAME-1). Seat 0 starts
the first round; who starts later rounds is dispute ``first-leader``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from tricklaw.model import actions, flow
from tricklaw.model.actions import ActionKind
from tricklaw.model.cards import Card, Palette, build_deck
from tricklaw.model.options import CompiledRules, Options, OptionSpec
from tricklaw.model.rng import SplitMix64
from tricklaw.model.ruleset import Ruleset, game_tie_option
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Deal, DealSource, Game, Phase, RoundLog, State
from tricklaw.model.trick import TrickResult

PALETTE = Palette(("red", "yellow", "green", "blue", "violet"), ("R", "Y", "G", "B", "V"))
TOP_VALUE = {3: 9, 4: 12, 5: 15, 6: 18}
"""The highest value in play by player count (LH-DECK-1)."""
HAND_SIZE = 15


@dataclass(frozen=True, slots=True)
class Rules(CompiledRules):
    """The options of one game, compiled."""

    lowest_among_rest: bool
    rotate_leader: bool
    rounds: int


def rules_of(game: Game) -> Rules:
    """``game``'s options as :meth:`LowHigh.compile` compiled them (``Game.rules``), typed."""
    return game.rules_as(Rules)


def judge(cards: Sequence[Card], lowest_among_rest: bool = False) -> TrickResult:
    """Who takes what from the complete trick ``cards`` (LH-TRICK-1..5).

    The highest number wins, the last played on a tie; then the lowest, the
    last played on a tie. When every card has the same value the last card is
    both (dispute ``same-card``): its player takes the whole trick, or, under
    ``among-rest``, the lowest is sought among the other cards.
    """
    trick = tuple(cards)
    high = low = 0
    for i, card in enumerate(trick):  # value = card & 31; ">=" and "<=": the later one counts
        if card & 31 >= trick[high] & 31:
            high = i
        if card & 31 <= trick[low] & 31:
            low = i
    clauses = ["LH-TRICK-1", "LH-TRICK-2", "LH-TRICK-3"]
    if low == high:
        clauses.append("LH-D-SAMECARD")
        if not lowest_among_rest:
            return TrickResult(trick, high, ((high, trick),), (), (*clauses, "LH-LEAD-1"))
        others = [i for i in range(len(trick)) if i != high]
        low = min(others, key=lambda i: (trick[i] & 31, -i))
    rest = tuple(c for i, c in enumerate(trick) if i != high)
    taken = ((low, (trick[high],)), (high, rest))
    return TrickResult(trick, high, taken, (), (*clauses, "LH-TRICK-4", "LH-TRICK-5", "LH-LEAD-1"))


def playable(hand: Sequence[Card], trick: Sequence[Card]) -> tuple[Card, ...]:
    """The lead colour if the hand has it, else any card (LH-PLAY-1/2)."""
    if not trick:
        return tuple(hand)
    lead = trick[0] >> 5
    return tuple([c for c in hand if c >> 5 == lead]) or tuple(hand)


def score(cards: Sequence[Card]) -> int:
    """A player's round score (LH-SCORE-1..4): per colour, face values when he has one
    or two cards of it, one point a card when he has more."""
    total = 0
    for colour in {c >> 5 for c in cards}:
        values = [c & 31 for c in cards if c >> 5 == colour]
        total += sum(values) if len(values) <= 2 else len(values)
    return total


CLAUSES: Mapping[str, str] = MappingProxyType(
    {
        "setup": "LH-SETUP-1",
        "deck": "LH-DECK-1",
        "deal": "LH-DEAL-1",
        "turn": "LH-PLAY-1",
        "play": "LH-PLAY-2",
        "order": "LH-TRICK-1",
        "highest": "LH-TRICK-2",
        "lowest": "LH-TRICK-3",
        "low-takes": "LH-TRICK-4",
        "high-takes": "LH-TRICK-5",
        "first-lead": "LH-PLAY-1",
        "collect": "LH-LEAD-1",
        "display": "LH-COLLECT-1",
        "round-end": "LH-ROUND-1",
        "score-colour": "LH-SCORE-1",
        "score-few": "LH-SCORE-2",
        "score-many": "LH-SCORE-3",
        "score-total": "LH-SCORE-4",
        "game-end": "LH-GAME-1",
    }
)
"""The clause id stating each rule role."""


class LowHigh(Ruleset[None]):
    """The low-card-takes-high game, 3-6 players."""

    id = "lowhigh"
    title = "Low card takes the high card (untitled text)"
    source = "003_804f0a416bc7a761.txt"
    player_counts = (3, 4, 5, 6)
    palette = PALETTE
    option_specs = (
        OptionSpec(
            "same-card",
            "same-player",
            "a trick whose cards all have one value",
            choices=("same-player", "among-rest"),
            dispute="LH-D-SAMECARD",
            affects_trick=True,
        ),
        OptionSpec(
            "first-leader",
            "rotate",
            "who starts each round",
            choices=("rotate", "seat0"),
            dispute="LH-D-FIRSTLEAD",
        ),
        OptionSpec("rounds", 0, "number of rounds (0 = as many as players)", maximum=10_000),
        game_tie_option("LH-D-GAMETIE"),
    )
    clause = CLAUSES
    implements = tuple(sorted(CLAUSES.values()))

    def compile(self, options: Options) -> Rules:
        """``options`` compiled (``Game.rules``)."""
        return Rules(
            lowest_among_rest=options.text("same-card") == "among-rest",
            rotate_leader=options.text("first-leader") == "rotate",
            rounds=options.number("rounds"),
        )

    def deck(self, players: int, options: Options) -> tuple[Card, ...]:
        """Five colours, 1 .. the top value for the player count (LH-DECK-1)."""
        return _deck(TOP_VALUE[players])

    def cut(
        self, game: Game, order: Sequence[Card], rng: SplitMix64, history: tuple[RoundLog, ...]
    ) -> Deal:
        """Seat ``k`` receives cards ``15k .. 15k+14`` (LH-DEAL-1)."""
        return Deal(
            tuple(tuple(order[k * HAND_SIZE : (k + 1) * HAND_SIZE]) for k in range(game.players))
        )

    def hand_size(self, game: Game) -> int:
        """Fifteen cards each (LH-DEAL-1)."""
        return HAND_SIZE

    def start_round(
        self,
        game: Game,
        source: DealSource,
        index: int,
        totals: tuple[int, ...],
        history: tuple[RoundLog, ...],
    ) -> State[None]:
        """Deal; seat ``index mod n`` starts (``first-leader=rotate``) or seat 0."""
        deal = flow.deal_for_round(self, game, source, index, history)
        info = flow.round_info(
            game, source, index, dealer=None, deal=deal, totals=totals, history=history
        )
        leader = index % game.players if rules_of(game).rotate_leader else 0
        return flow.begin_round(info, Phase.PLAY, leader, leader, None)

    def playable(
        self, game: Game, hand: tuple[Card, ...], trick: tuple[Card, ...]
    ) -> tuple[Card, ...]:
        """:func:`playable`."""
        return playable(hand, trick)

    def legal_actions(self, state: State[None]) -> tuple[int, ...]:
        """The playable cards of the current hand."""
        return playable(state.hands[state.current], state.trick)

    def apply(self, state: State[None], action: int) -> State[None]:
        """Play a card; close a full trick; end the round after the 15th."""
        after = flow.add_to_trick(state, action, actions.card_of(action), None)
        game = state.info.game
        if len(after.trick) < game.players:
            return after
        after = flow.close_trick(after, judge(after.trick, rules_of(game).lowest_among_rest), None)
        return after if after.hands[0] else flow.end_round(after)

    def why_illegal(self, state: State[None], action: int) -> str:
        """Why ``action`` is not legal here."""
        card = actions.card_of(action)
        if actions.kind_of(action) is not ActionKind.PLAY:
            return "the game expects a card to be played"
        if card not in state.hands[state.current]:
            return f"{self.palette.format(card)} is not in that seat's hand"
        lead = self.palette.name(state.trick[0] >> 5)
        return f"the seat holds {lead} and must follow the lead colour"

    def forbidding_clause(self, state: State[None], action: int) -> str:
        """The clause the illegal ``action`` breaks."""
        card = actions.card_of(action)
        if actions.kind_of(action) is not ActionKind.PLAY or card not in state.hands[state.current]:
            return "LH-PLAY-1"
        return "LH-PLAY-2"

    def judge_trick(
        self, game: Game, cards: Sequence[Card], context: Mapping[str, str] | None = None
    ) -> TrickResult:
        """:func:`judge` under ``game``'s ``same-card`` reading."""
        return judge(cards, rules_of(game).lowest_among_rest)

    def observation(self, state: State[None], seat: int) -> dict[str, Any]:
        """``seat``'s view: its hand, the trick, and every captured card (all face up)."""
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
        """:func:`score` for every seat."""
        return tuple(score(t) for t in state.taken)

    def score_piles(
        self, game: Game, piles: Sequence[Sequence[Card]], context: Mapping[str, str]
    ) -> tuple[int, ...]:
        """:func:`score` of each seat's cards (LH-SCORE-1)."""
        return tuple(score(pile) for pile in piles)

    def told_round(
        self, game: Game, log: RoundLog
    ) -> tuple[list[tuple[Card, ...]], dict[str, str]]:
        """Each seat's captured cards (the log's trick results); no context."""
        return [tuple(t) for t in log.taken(game.seats)], {}

    def recount_scores(self, game: Game, log: RoundLog) -> tuple[int, ...]:
        """:func:`score` of the cards the log's trick results hand each seat."""
        taken = log.taken(game.seats)
        return tuple(score(t) for t in taken)

    def example_score(self, game: Game, example: Mapping[str, Any]) -> tuple[list[Card], int]:
        """A scoring example: the ``cards`` a player captured."""
        cards = self.palette.parse_all(example["cards"])
        return cards, score(cards)

    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        """After as many rounds as players, or ``rounds`` (LH-GAME-1)."""
        return rounds_played >= (rules_of(game).rounds or game.players)


@cache
def _deck(top: int) -> tuple[Card, ...]:
    return build_deck(range(5), range(1, top + 1))


LOW_HIGH = LowHigh()
RULESETS.register(LOW_HIGH.id, LOW_HIGH)
