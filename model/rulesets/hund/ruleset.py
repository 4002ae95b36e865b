"""The Hund ruleset: the game played as states and actions (the deal and its checks,
HUND-GAP-2, HUND-TWO-2, HUND-DESIG-1; the start player, HUND-POWER-5, HUND-GAP-3; the
designation sets, HUND-OPT-2; play, HUND-PLAY-1/2, HUND-TWO-3..6; the tricks, HUND-TRICK-1/2;
scoring and the game's end, HUND-FACT-2/3, HUND-GAME-1), calling the pure rules of
:mod:`~tricklaw.model.rulesets.hund.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import Any

from tricklaw.model import actions, flow
from tricklaw.model.actions import ActionKind
from tricklaw.model.cards import Card, build_deck, make_card
from tricklaw.model.options import Options
from tricklaw.model.rng import SplitMix64
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets.hund.context import check_context, powers_named, read_context
from tricklaw.model.rulesets.hund.options import OPTION_SPECS, Rules, compile_rules, rules_of
from tricklaw.model.rulesets.hund.rules import (
    BASE_DESIGNATIONS,
    CLAUSES,
    MORE_CARDS,
    PALETTE,
    POWERS,
    ROUNDS,
    SUIT_SIZE,
    VIRTUAL,
    Powers,
    assign,
    judge,
    lead_decider,
    matches,
    playable,
    reveal,
    round_score,
    trump_window,
    virtual_card,
)
from tricklaw.model.state import Deal, DealSource, Game, Phase, RoundLog, State
from tricklaw.model.trick import TrickResult, follows
from tricklaw.spec.errors import CardError


class Hund(Ruleset[Powers]):
    """Hund, 2 (with the virtual player) to 5 players."""

    id = "hund"
    title = "Hund (online game help; first published as ebbes)"
    source = "004_b79a09774360d499.txt"
    player_counts = (2, 3, 4, 5)
    palette = PALETTE
    pile_names = ("virtual-down", "virtual-up")
    extra_names = ("designation",)
    action_kinds = (ActionKind.PLAY, ActionKind.LEADER, ActionKind.DESIGNATE)
    option_specs = OPTION_SPECS
    clause = CLAUSES
    implements = tuple(sorted(set(CLAUSES.values())))
    trick_context = (
        ("powers", "suits already holding powers, in power order (first = trump), e.g. R,Y"),
        ("designation", "the round's designated number (base game), e.g. 3"),
        ("sets", "the designation sets as cards (custom option), e.g. R3,Y5"),
    )
    trick_context_when = MappingProxyType(
        {"designation": (("designation-mode", "drawn"),), "sets": (("designation-mode", "sets"),)}
    )
    """The base game designates one number, the custom option sets (HUND-OPT-2)."""

    # --- set-up ----------------------------------------------------------------------

    def seat_count(self, players: int) -> int:
        """Two players add the virtual player in a third seat (HUND-TWO-1)."""
        return 3 if players == 2 else players

    def compile(self, options: Options) -> Rules:
        """``options`` compiled (``Game.rules``):
        :func:`~tricklaw.model.rulesets.hund.options.compile_rules`."""
        return compile_rules(options)

    def values(self, players: int, rules: Rules) -> range:
        """The card values of each suit (HUND-OPT-1, HUND-GAP-1, dispute ``values``)."""
        size = (MORE_CARDS if rules.more_cards else SUIT_SIZE)[players]
        return range(size) if rules.from_zero else range(1, size + 1)

    def deck(self, players: int, options: Options) -> tuple[Card, ...]:
        """Five suits of the values for the player count (HUND-FACT-1, HUND-OPT-1)."""
        values = self.values(players, self.compile(options))
        return _deck(values.start, values.stop)

    def cut(
        self, game: Game, order: Sequence[Card], rng: SplitMix64, history: tuple[RoundLog, ...]
    ) -> Deal:
        """Equal hands from the top, seat 0 first (HUND-GAP-2); with two players the
        virtual player's cards form its face-down then face-up rows. In the base game
        the round's number is the next designation card: ``below(remaining)`` over the
        numbers not yet used, in ascending order (or, ``designation=ascending``,
        number ``round + 1``)."""
        seats = game.seats
        size = len(order) // seats
        hands = [tuple(order[k * size : (k + 1) * size]) for k in range(seats)]
        piles: tuple[tuple[str, tuple[Card, ...]], ...] = ()
        if game.players == 2:
            virtual = hands[VIRTUAL]
            downs = size // 2 if rules_of(game).extra_up else size - size // 2
            piles = (("virtual-down", virtual[:downs]), ("virtual-up", virtual[downs:]))
            hands[VIRTUAL] = ()
        extras: tuple[tuple[str, int], ...] = ()
        if not rules_of(game).sets:
            used = {dict(log.deal.extras).get("designation") for log in history}
            left = [n for n in BASE_DESIGNATIONS if n not in used]
            number = left[0] if rules_of(game).ascending else left[rng.below(len(left))]
            extras = (("designation", number),)
        return Deal(tuple(hands), piles, extras=extras)

    def hand_size(self, game: Game) -> int:
        """All cards dealt evenly over the seats, the virtual player's too (HUND-GAP-2)."""
        return len(self.deck(game.players, game.options)) // game.seats

    def max_decisions(self, game: Game) -> int:
        """One play per card dealt to a player (the virtual player's are automatic), plus
        naming the start player (HUND-POWER-5) and, with sets, one set a power
        (HUND-OPT-2)."""
        return game.players * self.hand_size(game) + 1 + len(POWERS)

    def check_deal(self, game: Game, deal: Deal) -> None:
        """The shared check, plus equal hands, the virtual rows and a designation."""
        super().check_deal(game, deal)
        size = self.hand_size(game)
        if game.players == 2:
            downs = size // 2 if rules_of(game).extra_up else size - size // 2
            shape = (len(deal.pile("virtual-down")), len(deal.pile("virtual-up")))
            if deal.hands[VIRTUAL] or shape != (downs, size - downs):
                raise CardError(
                    f"the virtual player's {size} cards lie as {downs} face down "
                    f"('virtual-down') and {size - downs} face up ('virtual-up'), not "
                    f"{shape[0]} and {shape[1]} [HUND-TWO-2]"
                )
        number = deal.extra("designation")
        if not rules_of(game).sets and number not in BASE_DESIGNATIONS:
            raise CardError(f"the deal's designation {number} is not one of 1-5 [HUND-DESIG-1]")
        if rules_of(game).sets and number is not None:
            raise CardError("with designation sets a deal has no designated number [HUND-OPT-2]")

    def check_deals(self, game: Game, deals: Sequence[Deal]) -> None:
        """Each deal, plus five rounds at most and the designated numbers in turn: each
        of 1-5 once (``designation=shuffled``) or round ``r`` using ``r`` (``ascending``)."""
        super().check_deals(game, deals)
        if len(deals) > ROUNDS:
            raise CardError(f"{len(deals)} deals for a game of {ROUNDS} rounds [HUND-GAME-1]")
        if rules_of(game).sets:
            return
        numbers = [deal.extra("designation") for deal in deals]
        for index, number in enumerate(numbers):
            if rules_of(game).ascending and number != index + 1:
                raise CardError(
                    f"round {index} designates {number}; with designation=ascending it "
                    f"designates {index + 1} [HUND-D-DESIGNATION]"
                )
            if number in numbers[:index]:
                raise CardError(
                    f"round {index} designates {number} again; each designation card is "
                    "used once [HUND-D-DESIGNATION]"
                )

    def start_round(
        self,
        game: Game,
        source: DealSource,
        index: int,
        totals: tuple[int, ...],
        history: tuple[RoundLog, ...],
    ) -> State[Powers]:
        """Deal; then the Lead decider names the start player (HUND-POWER-5), or the
        start passes left (HUND-GAP-3); then, with sets, the sets are chosen."""
        deal = flow.deal_for_round(self, game, source, index, history)
        info = flow.round_info(
            game, source, index, dealer=None, deal=deal, totals=totals, history=history
        )
        hands = list(deal.hands)
        columns: tuple[tuple[Card | None, Card | None], ...] = ()
        if game.players == 2:
            downs, ups = deal.pile("virtual-down"), deal.pile("virtual-up")
            hands[VIRTUAL] = downs + ups
            width = max(len(downs), len(ups))
            columns = tuple(
                (ups[i] if i < len(ups) else None, downs[i] if i < len(downs) else None)
                for i in range(width)
            )
        powers = Powers("", deal.extra("designation"), (), (), -1, -1, columns)
        previous = history[-1] if history else None
        decider = dict(previous.facts).get("lead_decider") if previous else None
        start = info.after[previous.first_leader] if previous else 0
        if isinstance(decider, int):
            naming = powers._replace(choosing="leader")
            return flow.begin_round(info, Phase.CHOOSE, decider, start, naming, hands=tuple(hands))
        state = flow.begin_round(info, Phase.PLAY, start, start, powers, hands=tuple(hands))
        return self._after_start(state)

    def _after_start(self, state: State[Powers]) -> State[Powers]:
        """Once the start player is known: choose sets (custom option), or play."""
        if rules_of(state.info.game).sets:
            return state._replace(
                phase=Phase.CHOOSE,
                current=self._next_chooser(state, state.leader),
                extra=state.extra._replace(choosing="sets"),
            )
        return flow.settle(
            state._replace(
                phase=Phase.PLAY, current=state.leader, extra=state.extra._replace(choosing="")
            )
        )

    def _next_chooser(self, state: State[Powers], seat: int) -> int:
        """The next player after ``seat`` who chooses a set (never the virtual player)."""
        nxt = state.info.after[seat]
        return state.info.after[nxt] if state.info.game.players == 2 and nxt == VIRTUAL else nxt

    # --- play ------------------------------------------------------------------------

    def playable(
        self, game: Game, hand: tuple[Card, ...], trick: tuple[Card, ...]
    ) -> tuple[Card, ...]:
        """:func:`~tricklaw.model.rulesets.hund.rules.playable`."""
        return playable(hand, trick)

    def legal_actions(self, state: State[Powers]) -> tuple[int, ...]:
        """LEADER (the Lead decider), DESIGNATE (sets), else the playable cards."""
        choosing = state.extra.choosing
        if not choosing:
            return playable(state.hands[state.current], state.trick)
        if choosing == "leader":
            return tuple(actions.leader(s) for s in range(state.info.game.seats))
        return self._set_choices(state)

    def is_legal(self, state: State[Powers], action: int) -> bool:
        """A card played is tested against the follow rule (HUND-PLAY-1/2) without listing
        the playable cards; any other action against :meth:`legal_actions`."""
        if state.extra.choosing:
            return super().is_legal(state, action)
        hand, trick = state.hands[state.current], state.trick
        return action in hand and (not trick or follows(action, hand, (trick[0] >> 5,)))

    def _set_choices(self, state: State[Powers]) -> tuple[int, ...]:
        game = state.info.game
        rules: Rules = rules_of(game)
        chosen = state.extra.sets
        used_values = {c & 31 for c in chosen}
        used_suits = {c >> 5 for c in chosen}
        return tuple(
            actions.designate(make_card(suit, value))
            for suit in range(len(PALETTE.letters))
            if not (rules.set_suits_distinct and suit in used_suits)
            for value in self.values(game.players, rules)
            if value not in used_values
        )

    def automatic_action(self, state: State[Powers]) -> int | None:
        """The virtual player's card (HUND-TWO-3..5)."""
        if (
            state.info.game.players != 2
            or state.current != VIRTUAL
            or state.phase is not Phase.PLAY
        ):
            return None
        return actions.play(virtual_card(state.extra.columns, state.trick))

    def apply(self, state: State[Powers], action: int) -> State[Powers]:
        """Name the start player, choose a set, or play a card (assigning powers as
        matching cards fall, closing full tricks)."""
        if state.phase is Phase.CHOOSE:
            if actions.kind_of(action) is ActionKind.LEADER:
                seat = actions.seat_of(action)
                named = state._replace(
                    first_leader=seat,
                    leader=seat,
                    actions=(*state.actions, (state.current, action)),
                )
                return self._after_start(named)
            return self._designate(state, action)
        game = state.info.game
        rules: Rules = rules_of(game)
        virtual_game = game.players == 2
        card = actions.card_of(action)
        powers = state.extra
        automatic = virtual_game and state.current == VIRTUAL
        holders, columns = powers.holders, powers.columns
        trump_trick, trump_pos = powers.trump_trick, powers.trump_pos
        if automatic:
            columns = tuple((None if up == card else up, down) for up, down in columns)
        if matches(card, powers, rules):
            holders = assign(holders, card, rules)
            if holders != powers.holders and not powers.holders:  # Trump: the first power
                trump_trick, trump_pos = len(state.tricks), len(state.trick)
        full = len(state.trick) + 1 == game.seats
        if full and virtual_game:
            columns = reveal(columns)  # once the trick is over (HUND-TWO-6)
        if holders is not powers.holders or columns is not powers.columns:
            powers = Powers(
                powers.choosing,
                powers.designation,
                powers.sets,
                holders,
                trump_trick,
                trump_pos,
                columns,
            )
        # The virtual player's card is the rules' doing, not a decision (HUND-TWO-3).
        after = flow.add_to_trick(state, action, card, powers, recorded=not automatic)
        if full:
            trump, start = trump_window(powers, len(after.tricks), rules.trump_timing, game.seats)
            after = flow.close_trick(after, judge(after.trick, trump, start), powers)
            if not after.hands[after.leader]:
                return flow.end_round(after)
        return flow.settle(after) if virtual_game and after.current == VIRTUAL else after

    def _designate(self, state: State[Powers], action: int) -> State[Powers]:
        """Record a chosen set; after five sets the start player leads (HUND-OPT-2)."""
        sets = (*state.extra.sets, actions.card_of(action))
        chosen = state._replace(
            extra=state.extra._replace(sets=sets), actions=(*state.actions, (state.current, action))
        )
        if len(sets) < len(POWERS):
            return chosen._replace(current=self._next_chooser(state, state.current))
        return flow.settle(
            chosen._replace(
                phase=Phase.PLAY, current=state.leader, extra=chosen.extra._replace(choosing="")
            )
        )

    def why_illegal(self, state: State[Powers], action: int) -> str:
        """Why ``action`` is not legal here."""
        kind = actions.kind_of(action)
        if state.phase is Phase.CHOOSE:
            wanted = (
                "designate a set" if state.extra.choosing == "sets" else "name the start player"
            )
            return f"seat {state.current} must {wanted} now"
        if kind is not ActionKind.PLAY:
            return "the game expects a card to be played"
        card = actions.card_of(action)
        if card not in state.hands[state.current]:
            return f"{self.palette.format(card)} is not in that seat's hand"
        return f"the seat holds {self.palette.name(state.trick[0] >> 5)} and must follow suit"

    def forbidding_clause(self, state: State[Powers], action: int) -> str:
        """The clause the illegal ``action`` breaks."""
        if state.phase is Phase.CHOOSE:
            return "HUND-OPT-2" if state.extra.choosing == "sets" else "HUND-POWER-5"
        card = actions.card_of(action)
        if actions.kind_of(action) is not ActionKind.PLAY or card not in state.hands[state.current]:
            return "HUND-PLAY-1"
        return "HUND-PLAY-2"

    def judge_trick(
        self, game: Game, cards: Sequence[Card], context: Mapping[str, str] | None = None
    ) -> TrickResult:
        """A trick on its own: ``context`` gives the powers held before it (``powers``)
        and the round's ``designation`` or ``sets``; :meth:`trick_in_context` decides
        it, and the result's facts name the powers held after it."""
        result, holders = self.trick_in_context(game, cards, context)
        assigned = ", ".join(f"{POWERS[i]}={self.palette.name(s)}" for i, s in enumerate(holders))
        return TrickResult(
            result.cards,
            result.winner,
            result.taken,
            result.aside,
            result.clauses,
            (*result.facts, ("powers", assigned or "none")),
        )

    def check_trick_context(self, game: Game, context: Mapping[str, str]) -> None:
        """:func:`~tricklaw.model.rulesets.hund.context.check_context`: the powers, the
        designated number or the sets, as a round of ``game`` can have them."""
        deck = frozenset(self.deck(game.players, game.options))
        check_context(context, rules_of(game), self.palette, deck)

    def trick_in_context(
        self, game: Game, cards: Sequence[Card], context: Mapping[str, str] | None = None
    ) -> tuple[TrickResult, tuple[int, ...]]:
        """The rule part of :meth:`judge_trick`: matching cards in the trick assign powers
        as they fall (HUND-DESIG-1/2), then
        :func:`~tricklaw.model.rulesets.hund.rules.judge` decides under ``trump-timing``
        (HUND-TRICK-1/2, HUND-D-TRUMPTIMING). Returns the result and the suit holding
        each power after the trick, in power order. (The trick equivalence proof runs
        this, not the naming of the powers: naming a symbolic suit would split every
        path five ways.)"""
        rules: Rules = rules_of(game)
        number, sets, holders = read_context(context or {}, self.palette)
        powers = Powers("", number, sets, holders, -1, -1, ())
        for pos, card in enumerate(cards):
            if matches(card, powers, rules):
                new = assign(powers.holders, card, rules)
                if new != powers.holders and not powers.holders:
                    powers = powers._replace(holders=new, trump_trick=0, trump_pos=pos)
                else:
                    powers = powers._replace(holders=new)
        trump, start = trump_window(powers, 0, rules.trump_timing, len(cards))
        return judge(cards, trump, start), powers.holders

    def observation(self, state: State[Powers], seat: int) -> dict[str, Any]:
        """``seat``'s view: its hand, the trick, the powers so far, the virtual player's
        face-up cards, and the cards every seat has taken (tricks are public)."""
        fmt = self.palette.format
        powers = state.extra
        return {
            "seat": seat,
            "round": state.info.index,
            "phase": state.phase.name.lower(),
            "current": state.current,
            "hand": [fmt(c) for c in state.hands[seat]],
            "leader": state.leader,
            "trick": [fmt(c) for c in state.trick],
            "designation": powers.designation,
            "sets": [fmt(c) for c in powers.sets],
            "powers": {POWERS[i]: self.palette.name(s) for i, s in enumerate(powers.holders)},
            "virtual_display": [fmt(up) if up is not None else None for up, _ in powers.columns],
            "taken": [[fmt(c) for c in t] for t in state.taken],
            "totals": list(state.info.totals),
        }

    # --- scoring ---------------------------------------------------------------------

    def _virtual(self, game: Game) -> int | None:
        return VIRTUAL if game.players == 2 else None

    def round_scores(self, state: State[Powers]) -> tuple[int, ...]:
        """:func:`~tricklaw.model.rulesets.hund.rules.round_score` of the cards each seat took."""
        game = state.info.game
        return round_score(state.taken, state.extra.holders, rules_of(game), self._virtual(game))

    score_context = (
        ("powers", "the suits holding powers at the round's end, in power order, e.g. R,Y,B"),
    )

    def score_piles(
        self, game: Game, piles: Sequence[Sequence[Card]], context: Mapping[str, str]
    ) -> tuple[int, ...]:
        """:func:`~tricklaw.model.rulesets.hund.rules.round_score` of the piles, with the
        powers held at the round's end (``context['powers']``, as in a trick's context)."""
        holders = list(read_context({"powers": context.get("powers", "")}, self.palette)[2])
        return round_score(piles, holders, rules_of(game), self._virtual(game))

    def told_round(
        self, game: Game, log: RoundLog
    ) -> tuple[list[tuple[Card, ...]], dict[str, str]]:
        """Each seat's taken cards (the log's trick results) and the powers held at the
        round's end, in power order (the log's facts)."""
        powers = ",".join(dict(log.facts)["powers"])
        return [tuple(t) for t in log.taken(game.seats)], {"powers": powers}

    def told_tricks(self, game: Game, log: RoundLog) -> list[dict[str, str]]:
        """The round's designation or sets (the log's facts) and the powers held before
        each trick: none at first, then those each trick left (:meth:`trick_in_context`)."""
        facts = dict(log.facts)
        base = {"sets": ",".join(facts["sets"])} if facts["sets"] else {}
        if facts["designation"] is not None:
            base["designation"] = str(facts["designation"])
        told = [{**base, "powers": ""}]
        for _, result in log.tricks:
            holders = self.trick_in_context(game, result.cards, told[-1])[1]
            told.append({**base, "powers": ",".join(self.palette.letters[s] for s in holders)})
        return told

    def context_left(self, game: Game, result: TrickResult) -> dict[str, str]:
        """The powers held after the trick, as its ``powers`` fact names them."""
        return {"powers": powers_named(dict(result.facts)["powers"], self.palette)}

    def recount_scores(self, game: Game, log: RoundLog) -> tuple[int, ...]:
        """:func:`~tricklaw.model.rulesets.hund.rules.round_score` of the cards the log's trick
        results hand each seat, with the powers as the log's facts record them."""
        taken = log.taken(game.seats)
        holders = [self.palette.letters.index(x) for x in dict(log.facts)["powers"]]
        return round_score(taken, holders, rules_of(game), self._virtual(game))

    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        """After five rounds (HUND-GAME-1)."""
        return rounds_played >= ROUNDS

    def round_facts(self, state: State[Powers]) -> tuple[tuple[str, Any], ...]:
        """The designation (or sets), the power holders, and the next Lead decider."""
        game = state.info.game
        powers = state.extra
        decider = lead_decider(
            state.taken,
            powers.holders,
            rules_of(game),
            seating=state.info.seating,
            start=state.first_leader,
            virtual=self._virtual(game),
        )
        return (
            ("designation", powers.designation),
            ("sets", self.palette.format_all(powers.sets)),
            ("powers", [self.palette.letters[s] for s in powers.holders]),
            ("lead_decider", decider),
        )


@cache
def _deck(low: int, high: int) -> tuple[Card, ...]:
    return build_deck(range(5), range(low, high))
