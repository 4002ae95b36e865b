"""The ruleset of The Last: the game played as states and actions (the deal and its checks,
LAST-DEAL-1/2, LAST-LEAD-1, LAST-GHOST-1; play, LAST-PLAY-1..3, LAST-GHOST-3/4; the
points cards, LAST-TRICK-1, LAST-COLLECT-1/2; the round's end and scores, LAST-ROUND-1,
LAST-SCORE-1, LAST-GHOST-6, LAST-GAME-1), calling the pure rules of
:mod:`~tricklaw.model.rulesets.the_last.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from tricklaw.model import actions, flow
from tricklaw.model.actions import KEEP, ActionKind
from tricklaw.model.cards import Card, build_deck
from tricklaw.model.options import Options, OptionSpec
from tricklaw.model.rng import SplitMix64
from tricklaw.model.ruleset import Ruleset, break_game_tie, game_tie_option
from tricklaw.model.rulesets.the_last.rules import (
    CLAUSES,
    GHOST,
    HAND_SIZE,
    PALETTE,
    Rules,
    Table,
    colours_to_follow,
    face_down,
    judge,
    penalty,
    playable,
    rules_of,
)
from tricklaw.model.state import Deal, DealSource, Game, Phase, RoundLog, State
from tricklaw.model.trick import TrickResult, follows
from tricklaw.spec.errors import CardError


class TheLast(Ruleset[Table]):
    """The Last, 2 (with the ghost) to 5 players."""

    id = "the-last"
    title = "The Last (online game help)"
    source = "002_18a5f98381d9736c.txt"
    player_counts = (2, 3, 4, 5)
    palette = PALETTE
    pile_names = ("ghost", "points")
    action_kinds = (ActionKind.PLAY, ActionKind.KEEP, ActionKind.SWAP)
    option_specs = (
        OptionSpec(
            "rounds",
            1,
            "rounds in a game",
            minimum=1,
            maximum=10_000,
            dispute="LAST-D-ROUNDS",
            stand_ins=(("N", 3),),  # the reading "N" studied as 3 rounds, as ghost-seat is
            sets_length=True,
        ),
        OptionSpec(
            "unused-points",
            "stay",
            "points cards never turned up (4 players)",
            choices=("stay", "last-winner"),
            dispute="LAST-D-UNUSED",
        ),
        OptionSpec(
            "last-play",
            "played-colours",
            "what the last player of a trick may play",
            choices=("played-colours", "free"),
            dispute="LAST-D-LASTPLAY",
        ),
        OptionSpec(
            "ghost-play",
            "top-card",
            "what the ghost plays (2 players)",
            choices=("top-card", "first-legal"),
            dispute="LAST-D-GHOSTPLAY",
        ),
        OptionSpec(
            "ghost-lead",
            "ghost",
            "who starts the trick after the ghost wins one (2 players)",
            choices=("ghost", "next"),
            dispute="LAST-D-GHOSTLEAD",
        ),
        OptionSpec(
            "ghost-seat",
            "per-round",
            "where the ghost sits (2 players)",
            choices=("per-round", "fixed"),
            dispute="LAST-D-GHOSTSEAT",
            acts_with=(("rounds", 3),),  # the seat can move only from a second round on
        ),
        game_tie_option("LAST-D-GAMETIE"),
    )
    clause = CLAUSES
    implements = tuple(sorted(CLAUSES.values()))

    # --- set-up ----------------------------------------------------------------------

    def seat_count(self, players: int) -> int:
        """Two players play with the ghost in a third seat (LAST-GHOST-1)."""
        return 3 if players == 2 else players

    def compile(self, options: Options) -> Rules:
        """``options`` compiled (``Game.rules``)."""
        return Rules(
            last_play_free=options.text("last-play") == "free",
            ghost_first_legal=options.text("ghost-play") == "first-legal",
            ghost_fixed=options.text("ghost-seat") == "fixed",
            ghost_lead_next=options.text("ghost-lead") == "next",
            unused_to_last_winner=options.text("unused-points") == "last-winner",
            rounds=options.number("rounds"),
        )

    def deck(self, players: int, options: Options) -> tuple[Card, ...]:
        """48 cards, 1-12 in four colours, for every player count (LAST-DECK-1)."""
        return _deck()

    def cut(
        self, game: Game, order: Sequence[Card], rng: SplitMix64, history: tuple[RoundLog, ...]
    ) -> Deal:
        """Hands in blocks of the hand size from the top (seat 0 first), then the ghost's
        pile (two players), then the points pile; the first player is ``rng.below(n)``
        over the players (never the ghost)."""
        size = HAND_SIZE[game.players]
        hands = [tuple(order[k * size : (k + 1) * size]) for k in range(game.players)]
        dealt = size * game.players
        piles: list[tuple[str, tuple[Card, ...]]] = []
        if game.players == 2:
            hands.append(())
            piles.append(("ghost", tuple(order[dealt : dealt + size])))
            dealt += size
        piles.append(("points", tuple(order[dealt:])))
        return Deal(tuple(hands), tuple(piles), first_leader=rng.below(game.players))

    def hand_size(self, game: Game) -> int:
        """12, 9 or 8 cards for 3, 4 or 5 players; 12 with the ghost (LAST-DEAL-1,
        LAST-GHOST-1)."""
        return HAND_SIZE[game.players]

    def max_decisions(self, game: Game) -> int:
        """One action per card dealt to a player, plus at most one keep-or-swap a trick
        (LAST-COLLECT-1), in as many tricks as cards in a hand (LAST-ROUND-1)."""
        return (game.players + 1) * self.hand_size(game)

    def check_deal(self, game: Game, deal: Deal) -> None:
        """The shared check, plus the ghost's pile, the points pile and a first player."""
        super().check_deal(game, deal)
        size = self.hand_size(game)
        if game.players == 2 and (deal.hands[GHOST] or len(deal.pile("ghost")) != size):
            raise CardError("the ghost's 12 cards belong in the pile 'ghost' [LAST-GHOST-1]")
        if game.players != 2 and deal.pile("ghost"):
            raise CardError(
                f"a deal for {game.players} players has no ghost pile; only two players play "
                "with the ghost [LAST-GHOST-1]"
            )
        tricks = size
        if len(deal.pile("points")) < tricks:
            raise CardError(
                f"the points pile holds {len(deal.pile('points'))} cards for {tricks} tricks "
                "[LAST-DEAL-2]"
            )
        if deal.first_leader is None or not 0 <= deal.first_leader < game.players:
            raise CardError("the deal names no first player among the players [LAST-LEAD-1]")

    def start_round(
        self,
        game: Game,
        source: DealSource,
        index: int,
        totals: tuple[int, ...],
        history: tuple[RoundLog, ...],
    ) -> State[Table]:
        """Deal; seat the ghost to the right of the first player (two players,
        ``ghost-seat``); turn up the first points card."""
        deal = flow.deal_for_round(self, game, source, index, history)
        first = deal.first_leader
        assert first is not None, "check_deal and cut always name a first player"
        seating = None
        if game.players == 2:
            anchor = history[0].first_leader if rules_of(game).ghost_fixed and history else first
            seating = (anchor, 1 - anchor, GHOST)
        info = flow.round_info(
            game,
            source,
            index,
            dealer=None,
            deal=deal,
            totals=totals,
            history=history,
            seating=seating,
        )
        ghost_pile = deal.pile("ghost")
        hands = list(deal.hands)
        if game.players == 2:
            hands[GHOST] = ghost_pile  # the ghost holds its pile; the deal keeps it as dealt
        table = Table(points=deal.pile("points"), shown=None, pending=None, ghost_order=ghost_pile)
        state = flow.begin_round(info, Phase.PLAY, first, first, table, hands=tuple(hands))
        return flow.settle(_turn_up(state))

    # --- play ------------------------------------------------------------------------

    def playable(
        self, game: Game, hand: tuple[Card, ...], trick: tuple[Card, ...]
    ) -> tuple[Card, ...]:
        """:func:`~tricklaw.model.rulesets.the_last.rules.playable` for the next card of ``trick``
        at ``game``'s table."""
        last = len(trick) == game.seats - 1
        return playable(hand, trick, last, rules_of(game).last_play_free)

    def legal_actions(self, state: State[Table]) -> tuple[int, ...]:
        """KEEP or a SWAP for each hand card (CHOOSE), else the playable cards."""
        hand = state.hands[state.current]
        if state.phase is Phase.CHOOSE:
            return (KEEP, *[actions.SWAP | c for c in hand])  # actions.swap(c)
        trick = state.trick
        game = state.info.game
        return playable(hand, trick, len(trick) == game.seats - 1, rules_of(game).last_play_free)

    def is_legal(self, state: State[Table], action: int) -> bool:
        """A card played is tested against the follow rules (LAST-PLAY-1..3), a keep or
        swap against the taker's hand (LAST-COLLECT-1), without listing the actions."""
        hand, trick = state.hands[state.current], state.trick
        if state.phase is Phase.CHOOSE:  # KEEP, or swap(c) == actions.SWAP + c for c in hand
            return action == KEEP or action - actions.SWAP in hand
        if state.phase is not Phase.PLAY:
            return super().is_legal(state, action)
        game = state.info.game
        last = len(trick) == game.seats - 1
        colours = colours_to_follow(trick, last, rules_of(game).last_play_free)
        return action in hand and (colours is None or follows(action, hand, colours))

    def automatic_action(self, state: State[Table]) -> int | None:
        """The ghost's card: its top card, or (``ghost-play=first-legal``) the first
        card of its pile the follow rule allows (LAST-GHOST-3/4)."""
        game = state.info.game
        if game.players != 2 or state.current != GHOST or state.phase is not Phase.PLAY:
            return None
        order = state.extra.ghost_order
        if rules_of(game).ghost_first_legal:
            return self.playable(game, order, state.trick)[0]
        return order[0]

    def apply(self, state: State[Table], action: int) -> State[Table]:
        """Play a card (closing the trick when full), or keep / swap the points card."""
        if state.phase is Phase.CHOOSE:
            return self._decide(state, action)
        game = state.info.game
        ghost_game = game.players == 2
        card = actions.card_of(action)
        table = state.extra
        if ghost_game and state.current == GHOST:
            # The ghost's card is the rules' doing, not a decision: the trick records it,
            # the action list does not (LAST-GHOST-3).
            order = table.ghost_order
            i = order.index(card)
            table = Table(table.points, table.shown, None, order[:i] + order[i + 1 :])
            after = flow.add_to_trick(state, action, card, table, recorded=False)
        else:
            after = flow.add_to_trick(state, action, card, table)
        if len(after.trick) < game.seats:
            return flow.settle(after) if ghost_game and after.current == GHOST else after
        shown = table.shown
        assert shown is not None, "a points card is face up during every trick"
        # The taker keeps or swaps the points card (LAST-COLLECT-1); the ghost keeps it.
        deciding = Table(table.points, None, shown, table.ghost_order)
        after = flow.close_trick(after, judge(after.trick), deciding, Phase.CHOOSE)
        if ghost_game and after.leader == GHOST:
            # The ghost keeps the points card (LAST-GHOST-5); it starts the next trick as
            # the winner (LAST-COLLECT-2), or the first player after it does
            # (dispute LAST-D-GHOSTLEAD).
            taken = _add(after.taken, GHOST, (shown,))
            if rules_of(game).ghost_lead_next:
                first = after.info.after[GHOST]
                after = after._replace(current=first, leader=first)
            return self._next_trick(after, after.hands, taken, after.actions, table)
        return after

    def _decide(self, state: State[Table], action: int) -> State[Table]:
        """The taker keeps the points card face down, or swaps it for a hand card
        (LAST-COLLECT-1)."""
        seat = state.current
        table = state.extra
        pending = table.pending
        assert pending is not None, "the CHOOSE phase always has a pending points card"
        hands = state.hands
        if action == KEEP:
            down = pending
        else:
            down = actions.card_of(action)
            hand = tuple(sorted((*flow.remove_from_hand(hands, seat, down)[seat], pending)))
            hands = (*hands[:seat], hand, *hands[seat + 1 :])
        taken = _add(state.taken, seat, (down,))
        return self._next_trick(state, hands, taken, (*state.actions, (seat, action)), table)

    def _next_trick(
        self,
        state: State[Table],
        hands: tuple[tuple[Card, ...], ...],
        taken: tuple[tuple[Card, ...], ...],
        done: tuple[tuple[int, int], ...],
        table: Table,
    ) -> State[Table]:
        """Turn up the next points card (LAST-TRICK-1) for the taker's lead, or end the
        round when the hands are empty (LAST-ROUND-1, dispute ``unused-points``)."""
        leader = state.leader
        points = table.points
        if hands[leader]:
            nxt = State(
                info=state.info,
                phase=Phase.PLAY,
                current=leader,
                first_leader=state.first_leader,
                leader=leader,
                hands=hands,
                trick=(),
                taken=taken,
                aside=state.aside,
                tricks=state.tricks,
                actions=done,
                extra=Table(points[1:], points[0], None, table.ghost_order),
            )
            return flow.settle(nxt) if leader == GHOST and state.info.game.players == 2 else nxt
        if points and rules_of(state.info.game).unused_to_last_winner:
            taken = _add(taken, leader, points)
            points = ()
        over = state._replace(
            phase=Phase.PLAY,
            hands=hands,
            taken=taken,
            actions=done,
            extra=Table(points, None, None, table.ghost_order),
        )
        return flow.end_round(over)

    def why_illegal(self, state: State[Table], action: int) -> str:
        """Why ``action`` is not legal here."""
        kind = actions.kind_of(action)
        hand = state.hands[state.current]
        if state.phase is Phase.CHOOSE:
            if kind not in {ActionKind.KEEP, ActionKind.SWAP}:
                return "the trick's taker must keep or swap the points card now"
            return f"{self.palette.format(actions.card_of(action))} is not in that hand"
        if kind is not ActionKind.PLAY:
            return "the game expects a card to be played now"
        card = actions.card_of(action)
        if card not in hand:
            return f"{self.palette.format(card)} is not in that seat's hand"
        if len(state.trick) == state.info.game.seats - 1:
            return "the last player must play a colour already in the trick if he can"
        lead = self.palette.name(state.trick[0] >> 5)
        return f"the seat holds {lead} and must follow the lead colour"

    def forbidding_clause(self, state: State[Table], action: int) -> str:
        """The clause the illegal ``action`` breaks."""
        if state.phase is Phase.CHOOSE:
            return "LAST-COLLECT-1"
        card = actions.card_of(action)
        if actions.kind_of(action) is not ActionKind.PLAY or card not in state.hands[state.current]:
            return "LAST-PLAY-1"
        return "LAST-PLAY-3" if len(state.trick) == state.info.game.seats - 1 else "LAST-PLAY-2"

    def judge_trick(
        self, game: Game, cards: Sequence[Card], context: Mapping[str, str] | None = None
    ) -> TrickResult:
        """:func:`~tricklaw.model.rulesets.the_last.rules.judge` (no option changes who takes a
        trick)."""
        return judge(cards)

    def observation(self, state: State[Table], seat: int) -> dict[str, Any]:
        """``seat``'s view: its hand and face-down cards, the face-up points card, the
        trick, and how many face-down cards every other seat has."""
        fmt = self.palette.format
        table = state.extra
        return {
            "seat": seat,
            "round": state.info.index,
            "phase": state.phase.name.lower(),
            "current": state.current,
            "hand": [fmt(c) for c in state.hands[seat]],
            "face_down": [fmt(c) for c in state.taken[seat]],
            "face_down_counts": [len(t) for t in state.taken],
            "points_card": fmt(table.shown) if table.shown is not None else None,
            "pending": fmt(table.pending) if table.pending is not None else None,
            "points_left": len(table.points),
            "leader": state.leader,
            "trick": [fmt(c) for c in state.trick],
            "totals": list(state.info.totals),
        }

    # --- scoring ---------------------------------------------------------------------

    def round_scores(self, state: State[Table]) -> tuple[int, ...]:
        """Each player's penalty; the ghost's is not counted (LAST-GHOST-6)."""
        return _scores(state.info.game, state.taken)

    def score_piles(
        self, game: Game, piles: Sequence[Sequence[Card]], context: Mapping[str, str]
    ) -> tuple[int, ...]:
        """Each player's penalty from the cards face down beside him; the ghost's is not
        counted (LAST-GHOST-6)."""
        return _scores(game, [tuple(pile) for pile in piles])

    def told_round(
        self, game: Game, log: RoundLog
    ) -> tuple[list[tuple[Card, ...]], dict[str, str]]:
        """Each seat's face-down cards
        (:func:`~tricklaw.model.rulesets.the_last.rules.face_down`); no context."""
        down, _ = face_down(game, log)
        return [tuple(cards) for cards in down], {}

    def recount_scores(self, game: Game, log: RoundLog) -> tuple[int, ...]:
        """Penalties recounted from the log
        (:func:`~tricklaw.model.rulesets.the_last.rules.face_down`)."""
        down, _ = face_down(game, log)
        return _scores(game, [tuple(cards) for cards in down])

    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        """After ``rounds`` rounds (dispute LAST-D-ROUNDS)."""
        over: bool = rounds_played >= rules_of(game).rounds
        return over

    def winners(self, game: Game, totals: Sequence[int]) -> tuple[int, ...]:
        """The players with the lowest penalty (LAST-GAME-1), never the ghost (seat 2 of
        the two-player game, beyond the players' seats); a tie is dispute LAST-D-GAMETIE
        (option ``game-tie``)."""
        best = min(totals[: game.players])
        return break_game_tie(game, tuple(s for s in range(game.players) if totals[s] == best))

    def held_aside(self, state: State[Table]) -> tuple[Card, ...]:
        """The points pile and the points card face up or being decided on."""
        table = state.extra
        held = table.points
        if table.shown is not None:
            held = (*held, table.shown)
        if table.pending is not None:
            held = (*held, table.pending)
        return held

    def round_facts(self, state: State[Table]) -> tuple[tuple[str, Any], ...]:
        """The points cards never turned up, and the ghost's seat if any."""
        facts: list[tuple[str, Any]] = [
            ("points_left", self.palette.format_all(state.extra.points))
        ]
        if state.info.game.players == 2:
            facts.append(("ghost", GHOST))
        return tuple(facts)


def _turn_up(state: State[Table]) -> State[Table]:
    """Turn up the top points card for the first trick (LAST-TRICK-1)."""
    table = state.extra
    return state._replace(extra=Table(table.points[1:], table.points[0], None, table.ghost_order))


def _add(
    taken: tuple[tuple[Card, ...], ...], seat: int, cards: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*taken[:seat], taken[seat] + cards, *taken[seat + 1 :])


def _scores(game: Game, taken: Sequence[tuple[Card, ...]]) -> tuple[int, ...]:
    return tuple(
        0 if game.players == 2 and seat == GHOST else penalty(cards)
        for seat, cards in enumerate(taken)
    )


@cache
def _deck() -> tuple[Card, ...]:
    return build_deck(range(4), range(1, 13))
