"""Sticheln, both editions: the 1993 "misery colour" text and the later "unwanted colour" text.

The two texts describe one game. Everything they share is written once here;
everything they disagree on is either an :class:`Edition` fact (deck, colour
names, who leads) or a dispute option whose default follows each text
(see ``spec/sticheln-1993.toml`` and ``spec/sticheln.toml``).

A round, as both texts tell it:

1. Deal 15 cards to each player from the deck for the player count
   (STI93-DECK-2, STI93-DEAL-2; STI-DECK-1, STI-DEAL-1).
2. Each player secretly picks one hand card; its colour is his misery /
   unwanted colour. All picks are revealed together (STI93-SELECT-1..3;
   STI-SELECT-1..3). The pick is modelled as a hidden SELECT action per seat.
3. Fourteen tricks: the leader plays any card, the others follow clockwise
   (STI93-PLAY-1; STI-PLAY-1); what they may play is dispute
   ``follow`` in 1993 (STI93-D-FOLLOW) and free in the later text (STI-PLAY-2).
4. Who takes the trick: :func:`judge` (STI93-TRICK-1..6; STI-TRICK-1..6).
5. Score: misery-colour cards, the picked card included, count minus their
   value; every other card counts one (STI93-SCORE-1..3; STI-SCORE-1..4).

Seat convention: in 1993 seat 0 is the first dealer (STI93-DEAL-1); in the
later edition seat 0 is the youngest player, who leads first (STI-LEAD-1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from tricklaw.model import actions, flow
from tricklaw.model.actions import ActionKind
from tricklaw.model.cards import Card, Palette, build_deck, colour_of, value_of
from tricklaw.model.options import CompiledRules, Options, OptionSpec
from tricklaw.model.rng import SplitMix64
from tricklaw.model.ruleset import Ruleset, game_tie_option
from tricklaw.model.rulesets import RULESETS
from tricklaw.model.state import Deal, DealSource, Game, Phase, RoundLog, State
from tricklaw.model.trick import TrickResult, nobody_takes, winner_takes_all
from tricklaw.spec.errors import CardError

HAND_SIZE = 15


@dataclass(frozen=True, slots=True)
class Selection:
    """Sticheln's own part of the state: each seat's picked (misery) card, if any yet."""

    picked: tuple[Card | None, ...]

    @property
    def revealed(self) -> bool:
        """Whether every seat has picked, so that all picks are face up."""
        return None not in self.picked


@dataclass(frozen=True, slots=True)
class Rules(CompiledRules):
    """The options of one game, compiled to what the hot path needs."""

    follow: str
    all_zero_nobody: bool
    lead_by_first_nonzero: bool


def rules_of(game: Game) -> Rules:
    """``game``'s options as :meth:`Sticheln.compile` compiled them (``Game.rules``), typed."""
    return game.rules_as(Rules)


@dataclass(frozen=True, slots=True)
class Edition:
    """What distinguishes one Sticheln text from the other."""

    ruleset_id: str
    title: str
    source: str
    palette: Palette
    decks: Mapping[int, tuple[int, int]]
    """players -> (number of colours, highest value) of the deck table."""
    options: tuple[OptionSpec, ...]
    clause: Mapping[str, str]
    """The clause id of each rule role (``"tie"``, ``"all-zero"``, ...) in this text."""
    has_dealer: bool
    colour_word: str
    """What this text calls a player's picked colour (the 1993 "misery colour", the later
    "unwanted colour"), in the words a player is shown."""


# --- trick resolution -------------------------------------------------------------------


def judge(cards: Sequence[Card], rules: Rules, clause: Mapping[str, str]) -> TrickResult:
    """Who takes the complete trick ``cards`` (first card = lead).

    Both texts agree on every case but the all-zero trick:

    * A non-zero card of another colour than the lead colour (a trump card,
      STI93-TRICK-2) beats every card of the lead colour; among those the
      highest value wins, the earliest played on a tie (STI93-TRICK-5/6,
      STI-TRICK-2/3).
    * Otherwise the highest card of the lead colour wins (STI93-TRICK-3/4,
      STI-TRICK-1); zeros of other colours never count (STI-TRICK-4).
    * If every card is a zero, dispute ``all-zero``: the leader's zero takes
      it as the highest lead-colour card (STI93-TRICK-4), or nobody takes it
      and the same leader leads again (STI-TRICK-6).

    The lead colour is the lead card's colour (STI93-TRICK-1, STI-TRICK-5),
    or, under ``zero-lead=first-nonzero``, that of the first non-zero card.
    """
    trick = tuple(cards)
    lead = trick[0] >> 5
    via = clause["lead-colour"]
    if rules.lead_by_first_nonzero and trick[0] & 31 == 0:
        lead = next((c >> 5 for c in trick if c & 31), lead)
        via = clause["zero-lead"]
    best_off = best_lead = 0
    off_i = lead_i = -1
    tie = any_zero = any_off = False
    for i, card in enumerate(trick):  # colour = card >> 5, value = card & 31 (see cards.py)
        value = card & 31
        if (card >> 5) != lead:
            any_off = True
            if value > best_off:
                best_off, off_i, tie = value, i, False
            elif value == best_off and value:
                tie = True
        elif value > best_lead:
            best_lead, lead_i = value, i
        if not value:
            any_zero = True
    zero_note = (clause["zero-ignored"],) if any_zero and clause["zero-ignored"] else ()
    if off_i >= 0:
        tie_note = (clause["tie"],) if tie else ()
        return winner_takes_all(trick, off_i, (via, clause["trump"], *zero_note, *tie_note))
    if lead_i >= 0:
        case = clause["zero-off"] if any_off else clause["all-lead"]
        return winner_takes_all(trick, lead_i, (via, case, *zero_note))
    if rules.all_zero_nobody:
        return nobody_takes(trick, (via, clause["all-zero"]))
    # Every card is a zero: the leader's zero is the only, so the highest, lead-colour card.
    return winner_takes_all(trick, 0, (via, clause["zero-off"]))


# --- what may be played -----------------------------------------------------------------


def playable(hand: tuple[Card, ...], trick: tuple[Card, ...], follow: str) -> tuple[Card, ...]:
    """The cards of ``hand`` that may be played to ``trick`` (STI93-PLAY-2, STI-PLAY-2).

    ``follow`` is the reading of dispute STI93-D-FOLLOW: ``free`` (any card),
    ``follow-or-trump`` (a lead-colour card or a trump card, i.e. any card but
    a zero of another colour, unless the hand holds nothing else) or
    ``must-follow`` (the lead colour if possible, else a trump card if
    possible, else anything). The leader may always play any card (STI93-LEAD-2).

    Under every reading a card's legality is anti-monotone in the hand: adding
    cards to a hand can forbid a card, never allow one (tested). The worked
    examples checker relies on it.
    """
    if follow == "free" or not trick:
        return hand
    lead = colour_of(trick[0])
    if follow == "follow-or-trump":
        allowed = tuple([c for c in hand if colour_of(c) == lead or value_of(c) != 0])
        return allowed or hand
    same = tuple([c for c in hand if colour_of(c) == lead])
    if same:
        return same
    trumps = tuple([c for c in hand if value_of(c) != 0])
    return trumps or hand


# --- scoring ---------------------------------------------------------------------------


def card_points(misery: int, cards: Sequence[Card]) -> int:
    """What ``cards`` are worth to a player whose misery colour is ``misery``.

    A card of the misery colour counts minus its value (STI93-SCORE-1,
    STI-SCORE-1); any other card counts plus one (STI93-SCORE-2, STI-SCORE-2).
    """
    total = 0
    for card in cards:
        total += -value_of(card) if colour_of(card) == misery else 1
    return total


def score(picked: Card, taken: Sequence[Card]) -> int:
    """A player's round score: his taken cards and his picked card, which counts
    against him like any card of its colour (STI93-SCORE-3, STI-SCORE-3), so that he
    starts the round below zero unless he picked a zero (STI93-SCORE-4)."""
    return card_points(colour_of(picked), (picked, *taken))


# --- the ruleset -------------------------------------------------------------------------


class Sticheln(Ruleset[Selection]):
    """Sticheln in one :class:`Edition` (the editions are the subclasses below)."""

    family = "sticheln"  # both texts are editions of one game: ``tricklaw diff`` compares them
    player_counts = (3, 4, 5, 6)  # three to six players (STI93-SETUP-1; STI-DECK-1)
    pile_names = ("aside",)
    action_kinds = (ActionKind.PLAY, ActionKind.SELECT)

    edition: ClassVar[Edition]

    def __init_subclass__(cls, edition: Edition, **kwargs: Any) -> None:
        """Each edition is a subclass, ``class Sticheln1993(Sticheln, edition=...)``,
        whose ruleset attributes are read off its :class:`Edition`."""
        super().__init_subclass__(**kwargs)
        cls.edition = edition
        cls.id = edition.ruleset_id
        cls.title = edition.title
        cls.source = edition.source
        cls.palette = edition.palette
        cls.option_specs = edition.options
        cls.clause = edition.clause
        cls.implements = tuple(sorted({c for c in edition.clause.values() if c}))
        cls.score_context = (
            (
                "picked",
                f"each player's picked card, in seat order (its colour is his "
                f"{edition.colour_word}), e.g. R3,G0,B5",
            ),
        )

    def compile(self, options: Options) -> Rules:
        """``options`` compiled for the hot path (``Game.rules``)."""
        values = options.as_dict()
        return Rules(
            follow=str(values.get("follow", "free")),
            all_zero_nobody=values.get("all-zero", "no-winner") == "no-winner",
            lead_by_first_nonzero=values.get("zero-lead") == "first-nonzero",
        )

    # --- set-up ----------------------------------------------------------------------

    def deck(self, players: int, options: Options) -> tuple[Card, ...]:
        """The deck table of the edition (STI93-DECK-2, STI-DECK-1), or the whole deck."""
        full = options.as_dict().get("deck") == "full"
        colours, top = (len(self.palette.letters), 14) if full else self.edition.decks[players]
        return _deck(colours, top)

    def cut(
        self, game: Game, order: Sequence[Card], rng: SplitMix64, history: tuple[RoundLog, ...]
    ) -> Deal:
        """Seat ``k`` receives cards ``15k .. 15k+14``; any rest is set aside."""
        dealt = HAND_SIZE * game.players
        hands = tuple(
            tuple(order[k * HAND_SIZE : (k + 1) * HAND_SIZE]) for k in range(game.players)
        )
        return Deal(hands, (("aside", tuple(order[dealt:])),) if len(order) > dealt else ())

    def hand_size(self, game: Game) -> int:
        """Fifteen cards each (STI93-DEAL-2, STI-DEAL-1)."""
        return HAND_SIZE

    def start_round(
        self,
        game: Game,
        source: DealSource,
        index: int,
        totals: tuple[int, ...],
        history: tuple[RoundLog, ...],
    ) -> State[Selection]:
        """Deal round ``index``; the picks start with its first leader.

        1993: seat ``index mod n`` deals, the seat to its left leads
        (STI93-LEAD-1, STI93-ROUND-2). Later edition: seat ``index mod n``
        leads (``round-leader=rotate``, STI-GAME-1) or seat 0 always
        (``youngest``, STI-LEAD-1).
        """
        players = game.players
        if self.edition.has_dealer:
            dealer: int | None = index % players
            leader = (index + 1) % players
        else:
            dealer = None
            leader = index % players if game.options.text("round-leader") == "rotate" else 0
        deal = flow.deal_for_round(self, game, source, index, history)
        info = flow.round_info(
            game, source, index, dealer=dealer, deal=deal, totals=totals, history=history
        )
        return flow.begin_round(info, Phase.SELECT, leader, leader, Selection((None,) * players))

    # --- play ------------------------------------------------------------------------

    def legal_actions(self, state: State[Selection]) -> tuple[int, ...]:
        """Pick any hand card (SELECT phase), else the playable cards."""
        hand = state.hands[state.current]
        if state.phase is Phase.SELECT:
            return tuple(actions.select(c) for c in hand)
        return playable(hand, state.trick, rules_of(state.info.game).follow)

    def playable(
        self, game: Game, hand: tuple[Card, ...], trick: tuple[Card, ...]
    ) -> tuple[Card, ...]:
        """:func:`playable` under ``game``'s ``follow`` reading."""
        rules: Rules = rules_of(game)
        return playable(hand, trick, rules.follow)

    def apply(self, state: State[Selection], action: int) -> State[Selection]:
        """Record a pick, or play a card and, when the trick is full, close it."""
        players = state.info.game.players
        if state.phase is Phase.SELECT:
            return self._pick(state, action)
        after = flow.add_to_trick(state, action, actions.card_of(action), state.extra)
        if len(after.trick) < players:
            return after
        result = judge(after.trick, rules_of(state.info.game), self.clause)
        after = flow.close_trick(after, result, after.extra)
        if after.hands[0]:
            return after
        return flow.end_round(after)

    def _pick(self, state: State[Selection], action: int) -> State[Selection]:
        seat = state.current
        card = actions.card_of(action)
        picked = list(state.extra.picked)
        picked[seat] = card
        selection = Selection(tuple(picked))
        nxt = state.info.after[seat]
        return State(
            info=state.info,
            phase=Phase.PLAY if selection.revealed else Phase.SELECT,
            current=state.leader if selection.revealed else nxt,
            first_leader=state.first_leader,
            leader=state.leader,
            hands=flow.remove_from_hand(state.hands, seat, card),
            trick=state.trick,
            taken=state.taken,
            aside=state.aside,
            tricks=state.tricks,
            actions=(*state.actions, (seat, action)),
            extra=selection,
        )

    def why_illegal(self, state: State[Selection], action: int) -> str:
        """Why ``action`` is not legal: wrong phase, card not held, or the follow rule."""
        card = actions.card_of(action)
        name = self.palette.format(card)
        expected = ActionKind.SELECT if state.phase is Phase.SELECT else ActionKind.PLAY
        if actions.kind_of(action) is not expected:
            return f"the game expects a {expected.name.lower()} action now"
        if card not in state.hands[state.current]:
            return f"{name} is not in that seat's hand"
        follow = rules_of(state.info.game).follow
        lead = self.palette.name(colour_of(state.trick[0]))
        return f"under follow={follow}, {name} may not be played to a {lead} lead"

    def forbidding_clause(self, state: State[Selection], action: int) -> str:
        """The clause the illegal ``action`` breaks."""
        card = actions.card_of(action)
        if state.phase is Phase.SELECT:
            return self.clause["select"]
        if actions.kind_of(action) is not ActionKind.PLAY or card not in state.hands[state.current]:
            return self.clause["turn"]
        return self.clause["play"]

    def judge_trick(
        self, game: Game, cards: Sequence[Card], context: Mapping[str, str] | None = None
    ) -> TrickResult:
        """:func:`judge` under ``game``'s options."""
        return judge(cards, rules_of(game), self.clause)

    def observation(self, state: State[Selection], seat: int) -> dict[str, Any]:
        """``seat``'s view: its hand and pick, others' picks only once all are revealed."""
        fmt = self.palette.format
        picked = state.extra.picked
        shown = state.extra.revealed or state.phase is Phase.OVER
        return {
            "seat": seat,
            "round": state.info.index,
            "phase": state.phase.name.lower(),
            "current": state.current,
            "hand": [fmt(c) for c in state.hands[seat]],
            "picked": [
                (fmt(p) if p is not None else None)
                if (shown or s == seat)
                else ("hidden" if p is not None else None)
                for s, p in enumerate(picked)
            ],
            "leader": state.leader,
            "trick": [fmt(c) for c in state.trick],
            "taken": [len(t) for t in state.taken],
            "totals": list(state.info.totals),
        }

    # --- scoring ---------------------------------------------------------------------

    def round_scores(self, state: State[Selection]) -> tuple[int, ...]:
        """:func:`score` for every seat."""
        picked = state.extra.picked
        return tuple(score(p, t) for p, t in zip(_all_picked(picked), state.taken, strict=True))

    def score_piles(
        self, game: Game, piles: Sequence[Sequence[Card]], context: Mapping[str, str]
    ) -> tuple[int, ...]:
        """:func:`score` of each player's picked card (``context['picked']``, one per seat)
        and the cards he took (STI93-SCORE-1..4, STI-SCORE-1..3)."""
        picked = self.palette.parse_all(
            x.strip() for x in context.get("picked", "").split(",") if x.strip()
        )
        if len(picked) != len(piles):
            raise CardError(
                f"{self.id}: name each player's picked card ({len(piles)}), not {len(picked)}"
            )
        return tuple(score(p, pile) for p, pile in zip(picked, piles, strict=True))

    def told_round(
        self, game: Game, log: RoundLog
    ) -> tuple[list[tuple[Card, ...]], dict[str, str]]:
        """Each seat's taken cards (the log's trick results) and each player's picked card
        (the log's facts)."""
        picked = ",".join(dict(log.facts)["picked"])
        return [tuple(t) for t in log.taken(game.seats)], {"picked": picked}

    def recount_scores(self, game: Game, log: RoundLog) -> tuple[int, ...]:
        """:func:`score` of each seat's picked card (from the log's facts) and the cards
        its won tricks hold (from the log's trick results)."""
        taken = log.taken(game.seats)
        picked = self.palette.parse_all(dict(log.facts)["picked"])
        return tuple(score(p, t) for p, t in zip(picked, taken, strict=True))

    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        """1993: after ``rounds`` rounds, or once a total reaches ``target`` (STI93-GAME-1,
        dispute ``end``). Later: after as many rounds as players (STI-GAME-1)."""
        options = game.options
        if self.edition.has_dealer and options.text("end") == "target":
            return max(totals) >= options.number("target")
        rounds = options.number("rounds") or game.players
        return rounds_played >= rounds

    def example_score(self, game: Game, example: Mapping[str, Any]) -> tuple[list[Card], int]:
        """A scoring example: ``picked``, the misery cards ``taken`` and a count of
        ``others`` (cards of other colours, which score one each whatever they are)."""
        picked = self.palette.parse(example["picked"])
        taken = self.palette.parse_all(example["taken"])
        return [picked, *taken], score(picked, taken) + example["others"]

    def example_points(self, game: Game, owner: str, cards: Sequence[Card]) -> int:
        """:func:`card_points` for a winner whose misery colour has the letter ``owner``."""
        return card_points(self.palette.letters.index(owner), cards)

    def held_aside(self, state: State[Selection]) -> tuple[Card, ...]:
        """The picked cards, face down or face up in front of their players."""
        return tuple(p for p in state.extra.picked if p is not None)

    def round_facts(self, state: State[Selection]) -> tuple[tuple[str, Any], ...]:
        """The picked cards, for the record."""
        return (("picked", self.palette.format_all(_all_picked(state.extra.picked))),)


@cache
def _deck(colours: int, top: int) -> tuple[Card, ...]:
    return build_deck(range(colours), range(top + 1))


def _all_picked(picked: tuple[Card | None, ...]) -> tuple[Card, ...]:
    out = tuple(p for p in picked if p is not None)
    assert len(out) == len(picked), "every seat picks before play starts"
    return out


# --- the two editions --------------------------------------------------------------------

ROUNDS_HELP = "number of rounds (a house rule; 0 = the text's own number)"


class Sticheln1993(
    Sticheln,
    edition=Edition(
        ruleset_id="sticheln-1993",
        title="Sticheln (AMIGO 1993, English translation)",
        source="000_c546595a30f74efa.txt",
        palette=Palette(
            ("red", "orange", "yellow", "green", "blue", "purple"), ("R", "O", "Y", "G", "B", "P")
        ),
        # The palette is the 90-card deck's six colours, values 0-14 (STI93-DECK-1). The table
        # of lines 15-23: six players use all 90 (STI93-DECK-3); five drop purple
        # (STI93-DECK-4); four also drop 12-14 (STI93-DECK-5); three also drop 9-14
        # (STI93-DECK-6).
        decks={6: (6, 14), 5: (5, 14), 4: (5, 11), 3: (5, 8)},
        options=(
            OptionSpec(
                "follow",
                "free",
                "what may be played to a trick",
                choices=("free", "follow-or-trump", "must-follow"),
                dispute="STI93-D-FOLLOW",
            ),
            OptionSpec(
                "all-zero",
                "leader-takes",
                "who takes a trick of zeros only",
                choices=("leader-takes", "no-winner"),
                dispute="STI93-D-ALLZERO",
                affects_trick=True,
            ),
            OptionSpec(
                "deck",
                "table",
                "the deck table per player count, or all 90 cards",
                choices=("table", "full"),
                dispute="STI93-D-DECK",
            ),
            OptionSpec(
                "end",
                "rounds",
                "the game ends after a set number of rounds, or at a target total",
                choices=("rounds", "target"),
                dispute="STI93-D-END",
            ),
            # The defaults are the text's suggested lengths: 10 rounds or 100 points
            # (STI93-GAME-2).
            OptionSpec("rounds", 10, "number of rounds with end=rounds", minimum=1, maximum=10_000),
            OptionSpec("target", 100, "target total with end=target", minimum=1, maximum=10_000),
            game_tie_option("STI93-D-GAMETIE"),
        ),
        clause={
            "deck": "STI93-DECK-2",
            "deal": "STI93-DEAL-2",
            "select": "STI93-SELECT-1",
            "reveal": "STI93-SELECT-2",
            "fact:picked": "STI93-SELECT-1",
            "first-lead": "STI93-LEAD-1",
            "turn": "STI93-PLAY-1",
            "play": "STI93-PLAY-2",
            "lead-colour": "STI93-TRICK-1",
            "zero-lead": "",
            "trump": "STI93-TRICK-5",
            "tie": "STI93-TRICK-6",
            "all-lead": "STI93-TRICK-3",
            "zero-off": "STI93-TRICK-4",
            "zero-ignored": "STI93-TRICK-2",
            "all-zero": "STI93-D-ALLZERO",
            "collect": "STI93-COLLECT-1",
            "round-end": "STI93-ROUND-1",
            "score-minus": "STI93-SCORE-1",
            "score-plus": "STI93-SCORE-2",
            "score-total": "STI93-SCORE-3",
            "next-round": "STI93-ROUND-2",
            "game-end": "STI93-GAME-1",
            "winner": "STI93-GAME-3",
        },
        has_dealer=True,
        colour_word="misery colour",
    ),
):
    """The AMIGO 1993 edition in English translation."""


STICHELN_1993 = Sticheln1993()
RULESETS.register(STICHELN_1993.id, STICHELN_1993)


class StichelnLater(
    Sticheln,
    edition=Edition(
        ruleset_id="sticheln",
        title="Sticheln (later edition, unwanted colour)",
        source="001_e30e3e0d532f54b4.txt",
        palette=Palette(
            ("red", "yellow", "green", "blue", "purple", "grey"), ("R", "Y", "G", "B", "P", "A")
        ),
        # Three players: five colours, 0-8 (STI-DECK-2); four: 0-11 (STI-DECK-3); five: 0-14
        # (STI-DECK-4); six: the five colours plus grey, 0-14 (STI-DECK-5).
        decks={6: (6, 14), 5: (5, 14), 4: (5, 11), 3: (5, 8)},
        options=(
            OptionSpec(
                "zero-lead",
                "lead-card",
                "the lead colour when a zero is led",
                choices=("lead-card", "first-nonzero"),
                dispute="STI-D-ZEROLEAD",
                affects_trick=True,
            ),
            OptionSpec(
                "round-leader",
                "rotate",
                "who leads the first trick of each round",
                choices=("rotate", "youngest"),
                dispute="STI-D-ROUNDLEAD",
            ),
            OptionSpec("rounds", 0, ROUNDS_HELP, minimum=0, maximum=10_000),
            game_tie_option("STI-D-GAMETIE"),
        ),
        clause={
            "deck": "STI-DECK-1",
            "deal": "STI-DEAL-1",
            "select": "STI-SELECT-2",
            "reveal": "STI-SELECT-3",
            "fact:picked": "STI-SELECT-2",
            "first-lead": "STI-LEAD-1",
            "turn": "STI-PLAY-1",
            "play": "STI-PLAY-2",
            "lead-colour": "STI-TRICK-5",
            "zero-lead": "STI-D-ZEROLEAD",
            "trump": "STI-TRICK-2",
            "tie": "STI-TRICK-3",
            "all-lead": "STI-TRICK-1",
            "zero-off": "STI-TRICK-1",
            "zero-ignored": "STI-TRICK-4",
            "all-zero": "STI-TRICK-6",
            "collect": "STI-COLLECT-1",
            "round-end": "STI-ROUND-1",
            "score-minus": "STI-SCORE-1",
            "score-plus": "STI-SCORE-2",
            "score-total": "STI-SCORE-4",
            "next-round": "STI-GAME-1",
            "game-end": "STI-GAME-1",
            "winner": "STI-GAME-2",
        },
        has_dealer=False,
        colour_word="unwanted colour",
    ),
):
    """The later edition, with the unwanted colour."""


STICHELN = StichelnLater()
RULESETS.register(STICHELN.id, STICHELN)
