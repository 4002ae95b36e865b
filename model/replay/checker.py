"""The checker: the reference model, driven one event of a game at a time.

A reader (of a JSON record, :mod:`~tricklaw.model.replay.records`, or of a JSON Lines
log, :mod:`tricklaw.check`) hands the :class:`Checker` each event in order: a round
begins (with its deal), a seat acts, a trick's result, a round's scores, the game's end.
The checker applies each action through the model and compares every recorded fact with
the rules; at the first disagreement it raises :class:`~.verdict.DivergenceError` naming
the expected value and the deciding clause ids, and for a card or an action that cannot
be read, :class:`~.verdict.UnreadableError`.

The events' fields are taken as their schema describes them (the readers validate them,
or check on a fast path that they are well formed); what the checker reads itself is
the notation: a card of the palette, an action.

This is the hot path of ``tricklaw check``: the action (:meth:`Checker.action`) and
the trick as written (:meth:`Checker.trick_as_written`) parse nothing they have seen
before and build no message unless something is wrong. A log that streams keeps only
the rounds any ruleset looks back at (:data:`KEPT_ROUNDS`), so memory stays flat.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import replace
from typing import Any, NoReturn

from tricklaw.model.actions import action_to_string, string_to_action
from tricklaw.model.cards import Card, Palette
from tricklaw.model.record import new_tricks, trick_json
from tricklaw.model.replay.citation import cite, replayed_answer, trick_answer, trick_leader
from tricklaw.model.replay.deals import check_legal_deal, compare_deal
from tricklaw.model.replay.ends import check_game_end, check_round_end, round_over, turn
from tricklaw.model.replay.tricks import Completed, as_written, card_names, differing_field
from tricklaw.model.replay.verdict import (
    DEPARTS,
    DIVERGES,
    DivergenceError,
    UnreadableError,
    Verdict,
    show,
)
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.schemas import schema
from tricklaw.model.state import Deal, DealSource, Game, Phase, RoundLog, State
from tricklaw.spec.errors import CardError, IllegalActionError, OptionError

KEPT_ROUNDS = 5
"""Completed rounds kept besides the first: the most any ruleset looks back (Hund)."""
CACHE_LIMIT = 4096
"""Most distinct card and action texts remembered (a guard against odd spellings)."""
CARD_TEXT = re.compile(schema("log")["$defs"]["card"]["pattern"])
"""A card in notation: the schemas' ``card`` pattern."""
_CARD_CACHES: dict[Palette, dict[str, Card]] = {}
_ACTION_CACHES: dict[Palette, dict[str, int]] = {}


def game_of(ruleset_id: str, players: int, options: dict[str, Any]) -> Game:
    """The game a header or record names; :class:`UnreadableError` naming the field for an
    unknown ruleset, an unsupported player count or an option it does not have."""
    try:
        ruleset = get_ruleset(ruleset_id)
    except OptionError as exc:
        raise UnreadableError(f"ruleset: {exc}") from None
    try:
        return ruleset.make_game(players, options)
    except OptionError as exc:
        name = "options" if players in ruleset.player_counts else "players"
        raise UnreadableError(f"{name}: {exc}") from None


def join(prefix: str, key: str | int) -> str:
    """The path of ``key`` inside ``prefix``: ``rounds[1]``, ``deal.hands``."""
    if isinstance(key, int):
        return f"{prefix}[{key}]"
    return f"{prefix}.{key}" if prefix else key


class Checker:
    """The model, driven one event at a time; each method raises ``DivergenceError`` at the
    first disagreement and ``UnreadableError`` for a card or action it cannot read.

    ``seed`` deals the rounds whose deal is not given and, unless ``own_shuffle``, is
    the deal every given deal must be; ``noun`` names the input in messages (``log`` or
    ``record``); ``trim`` keeps only :data:`KEPT_ROUNDS` completed rounds besides the
    first (a log that streams), else every round (the state a record ends in)."""

    def __init__(
        self,
        game: Game,
        seed: int | None,
        own_shuffle: bool,
        noun: str,
        trim: bool,
        *,
        named: Collection[str] | None = None,
    ) -> None:
        self.game = game
        values = game.options.as_dict()
        self.defaulted = tuple(
            f"{spec.name}={values[spec.name]}"
            for spec in game.ruleset.option_specs
            if named is not None and spec.dispute and spec.name not in named
        )
        """The disputes whose reading the input never named (``named``: the options its
        header or record, its declaration and the command line gave), as ``name=value``
        at their default: the summary says so, since a check under a reading nobody
        chose is worth a word."""
        self.noun = noun
        self.ruleset: Ruleset[Any] = game.ruleset
        self.palette = game.ruleset.palette
        self.clause = game.ruleset.clause
        self.seed = seed
        self.own_shuffle = own_shuffle
        self.trim = trim
        self.state: State[Any] | None = None
        self.index = -1
        """The 0-based index of the input's current round."""
        self.tricks_done = 0
        """Tricks the rules have completed in the input's current round."""
        self.pending: list[Completed] = []
        self.completed_by: tuple[State[Any], int] | None = None
        """The state and the action that completed the pending tricks."""
        """Tricks completed by the last action and not yet checked: (index, leader, result,
        seating)."""
        self.scored = False
        self.ended = False
        self.actions_in_round = 0
        self.at_round: int | None = None
        """Where the last event is (1-based): the round, and the trick if ``at`` says so."""
        self.at = "round"
        """What the last event is: ``round``, ``action``, ``trick`` or ``game``."""
        self.at_trick = 0
        self.n_rounds = self.n_actions = self.n_tricks = 0
        self._cards = _CARD_CACHES.setdefault(self.palette, {})
        self._names = card_names(self.palette)
        self._actions = _ACTION_CACHES.setdefault(self.palette, {})

    # --- reading cards, actions and deals ----------------------------------------------

    def card(self, text: Any, where: str) -> Card:
        """The card ``text`` names; unreadable unless it is a card of the palette."""
        found = self._cards.get(text) if type(text) is str else None
        if found is not None:
            return found
        if type(text) is not str or not CARD_TEXT.fullmatch(text):
            raise UnreadableError(
                f"{where}: {show(text)} is not a card (a colour letter and a value)"
            )
        try:
            card = self.palette.parse(text)
        except CardError as exc:
            raise UnreadableError(f"{where}: {exc}") from None
        if len(self._cards) < CACHE_LIMIT:
            self._cards[text] = card
        return card

    def cards(self, texts: list[Any], where: str, key: str | int | None = None) -> tuple[Card, ...]:
        """Each card of ``texts``, found at ``where`` (at its ``key``, when given)."""
        try:
            found = tuple(map(self._cards.get, texts))
        except TypeError:  # an unhashable item: the slow path names it
            found = (None,)
        if None not in found:
            return found  # type: ignore[return-value]
        if key is not None:
            where = join(where, key)
        card = self.card
        return tuple(card(text, f"{where}[{i}]") for i, text in enumerate(texts))

    def action_code(self, text: str, where: str) -> int:
        """The action ``text`` names in notation."""
        found = self._actions.get(text)
        if found is not None:
            return found
        try:
            action = string_to_action(text, self.palette)
        except CardError as exc:
            raise UnreadableError(f"{where}: {exc}") from None
        if len(self._actions) < CACHE_LIMIT:
            self._actions[text] = action
        return action

    def deal(self, obj: dict[str, Any], where: str) -> Deal:
        """The deal object ``obj`` (the record's form)."""
        hands_at = join(where, "hands")
        hands = tuple(self.cards(hand, hands_at, i) for i, hand in enumerate(obj["hands"]))
        piles_at = join(where, "piles")
        piles = tuple(
            (name, self.cards(cards, piles_at, name))
            for name, cards in obj.get("piles", {}).items()
        )
        extras = tuple(obj.get("extras", {}).items())
        return Deal(hands, piles, obj.get("first_leader"), extras)

    # --- events ------------------------------------------------------------------------

    def begin_round(
        self, index: int, deal_raw: dict[str, Any] | None, fields: dict[str, Any], where: str
    ) -> None:
        """A round begins: check that the last one is over, then the deal (``deal_raw``,
        or None for the seed's), the dealer and the seating in ``fields``."""
        deal = None if deal_raw is None else self.deal(deal_raw, join(where, "deal"))
        self.pending.clear()
        self.at_round, self.at = None, "round"  # the round number, once the index is right
        if index != self.index + 1:
            raise DivergenceError(
                f"the {self.noun} begins a round with index {index}",
                self.index + 1,
                index,
                expected_text=f"index {self.index + 1}, the next round",
            )
        if deal is None and self.seed is None:
            raise UnreadableError(
                f"{join(where, 'deal')}: the round has no deal and the header no seed to deal it"
            )
        self.at_round = index
        state = self.state
        if state is not None:
            self._check_previous_over(state, index)
            if self.trim and len(state.info.history) > KEPT_ROUNDS + 1:
                kept = kept_rounds(state.info.history)
                state = state._replace(info=replace(state.info, history=kept))
        if deal is not None:
            state = self._dealt(state, index, deal)
        elif state is None:
            assert self.seed is not None
            state = self.game.new_initial_state(self.seed)
        info = state.info
        dealer = fields.get("dealer")
        if "dealer" in fields and dealer != info.dealer:
            raise DivergenceError(
                f"the {self.noun} says dealer = {show(dealer)}", info.dealer, dealer
            )
        if "seating" in fields and fields["seating"] != list(info.seating):
            raise DivergenceError(
                f"the {self.noun} says seating = {show(fields['seating'])}",
                list(info.seating),
                fields["seating"],
            )
        self.state = state
        self.index = index
        self.tricks_done = 0
        self.actions_in_round = 0
        self.scored = False
        self.n_rounds += 1

    def _check_previous_over(self, state: State[Any], index: int) -> None:
        if state.phase is Phase.OVER:
            raise DivergenceError(
                f"the {self.noun} begins round {index}, but by the rules the game ended after "
                f"round {index - 1}",
                None,
                index,
                [self.clause.get("game-end", "")],
                expected_text="no more rounds",
            )
        if state.info.index < index:
            raise DivergenceError(
                f"the {self.noun} begins round {index}, but by the rules round {index - 1} is not "
                f"over: {turn(state)}",
                None,
                index,
                [self.clause.get("round-end", "")],
                expected_text=f"the rest of round {index - 1}",
            )

    def _dealt(self, state: State[Any] | None, index: int, deal: Deal) -> State[Any]:
        """The round's state under the given ``deal``, checked against the seed's deal or
        (own shuffle, no seed) against the rules of a deal. Without a seed the round after
        is dealt this deal again until its own deal is given (:meth:`awaits_deal`)."""
        game = self.game
        if self.seed is not None and not self.own_shuffle:
            if state is None:
                state = game.new_initial_state(self.seed)
            compare_deal(self.ruleset, deal, state.info.deal, self.seed, self.noun)
            return state
        history = state.info.history if state is not None else ()
        every = len(history) == index  # every earlier round at hand: the rules across rounds
        check_legal_deal(game, deal, [log.deal for log in history] if every else None)
        ahead = 1 if self.seed is None else 0
        source = DealSource(self.seed, (deal,) * (index + 1 + ahead))
        totals = state.info.totals if state is not None else (0,) * game.seats
        return self.ruleset.start_round(game, source, index, totals, history)

    def awaits_deal(self) -> bool:
        """Whether the rules have begun a round whose deal the input has not given and no
        seed gives (its state holds the round before's deal as a stand-in)."""
        state = self.state
        return (
            self.seed is None
            and state is not None
            and state.phase is not Phase.OVER
            and state.info.index > self.index
        )

    def action(self, seat: int, text: str, where: str) -> None:
        """One action: the seat to act, its legality, then the tricks it completes."""
        state = self.state
        if state is None:
            raise UnreadableError(f"{where or 'action'}: an action before the first round line")
        code = self._actions.get(text)
        if code is None:
            code = self.action_code(text, join(where, "action"))
        if self.pending:
            self.pending.clear()
        self.actions_in_round += 1
        self.at = "action"
        info = state.info
        if seat != state.current or info.index != self.index:  # over: current is -1
            self._wrong_turn(state, seat)
        tricks = state.tricks
        ruleset = self.ruleset
        if not ruleset.is_legal(state, code):
            self._illegal(state, code, text)
        new = ruleset.apply(state, code)
        if new.info is not info:  # the action ended the round (or the game)
            self.completed_by = (state, code)
            for t_index, leader, result, seating in new_tricks(
                new, (len(info.history), len(tricks))
            ):
                self.pending.append((t_index, leader, result, seating))
                self.tricks_done += 1
        elif new.tricks is not tricks:  # the action completed a trick
            self.completed_by = (state, code)
            for t_index in range(len(tricks), len(new.tricks)):
                leader, result = new.tricks[t_index]
                self.pending.append((t_index, leader, result, info.seating))
                self.tricks_done += 1
        self.state = new
        self.n_actions += 1

    def _wrong_turn(self, state: State[Any], seat: int) -> NoReturn:
        if state.phase is Phase.OVER or state.info.index != self.index:
            self._after_end(state, "goes on with an action")
        auto = ""
        if self.game.players <= seat < self.game.seats:
            auto = f" (the rules play seat {seat}: its cards appear only in the tricks)"
        raise DivergenceError(
            f"seat {seat} acts, but it is seat {state.current}'s turn{auto}",
            state.current,
            seat,
            cite(self.game, "turn", (), replayed_answer(state, State.current_player), seat),
            expected_text=f"seat {state.current}",
        )

    def _illegal(self, state: State[Any], code: int, text: str) -> NoReturn:
        try:
            state.child(code)  # raises the error that names the clause
        except IllegalActionError as exc:
            legal = [action_to_string(a, self.palette) for a in state.legal_actions()]
            shown = " ".join(legal[:24]) + (" ..." if len(legal) > 24 else "")
            raise DivergenceError(
                str(exc).removesuffix(f" [{exc.clause}]"),
                legal,
                text,
                cite(
                    self.game,
                    "illegal",
                    (exc.clause,),
                    replayed_answer(state, lambda again: code in again.legal_actions()),
                    True,  # the input played it: legal by its rules
                ),
                expected_text=f"one of {shown}" if legal else "no action",
            ) from None
        raise AssertionError("an action not among the legal ones was applied")

    def _after_end(self, state: State[Any], doing: str) -> NoReturn:
        if state.phase is Phase.OVER and state.info.history[-1].index == self.index:
            raise DivergenceError(
                f"the {self.noun} {doing}, but by the rules the game is over",
                None,
                None,
                [self.clause.get("game-end", "")],
                expected_text="the end of the game",
            )
        raise DivergenceError(
            f"the {self.noun} {doing}, but by the rules round {self.index} is over",
            None,
            None,
            [self.clause.get("round-end", "")],
            expected_text=f"the end of round {self.index}",
        )

    def trick(self, raw: dict[str, Any], where: str) -> None:
        """A recorded trick result (the trick object ``raw``), against the trick the last
        action completed."""
        if self.trick_as_written(raw):
            return
        state = self.state
        if state is None:
            raise UnreadableError(f"{where or 'trick'}: a trick before the first round line")
        cards = self.cards(raw["cards"], where, "cards")
        taken_at = join(where, "taken")
        taken = (
            {seat: self.cards(cs, taken_at, seat) for seat, cs in raw["taken"].items() if cs}
            if "taken" in raw
            else None
        )
        aside = self.cards(raw["aside"], where, "aside") if "aside" in raw else None
        if not self.pending:
            self.at, self.at_trick = "trick", self.tricks_done
            played = self.palette.format_all(state.trick)
            raise DivergenceError(
                f"the {self.noun} records a trick, but by the rules the last action completed none",
                played,
                raw["cards"],
                expected_text=(
                    f"the trick in play to go on ({len(played)} of {self.game.seats} cards: "
                    f"{' '.join(played) or 'none'})"
                ),
            )
        trick = self.pending.pop(0)
        self.at, self.at_trick = "trick", trick[0]
        problem = differing_field(raw, cards, taken, aside, trick)
        if problem:
            _, leader, result, seating = trick
            expected = trick_json(leader, result, seating, self.palette).get(problem, {})
            raise DivergenceError(
                f"the {self.noun} says {problem} = {show(raw[problem])}",
                expected,
                raw[problem],
                cite(
                    self.game,
                    "trick",
                    result.clauses,
                    answer=self._trick_answer(trick[0], problem),
                    got=raw[problem],
                ),
                expected_text=f"{problem} = {show(expected)}",
            )
        self.n_tricks += 1

    def _trick_answer(self, index: int, problem: str) -> Any:
        """The rules' answer for field ``problem`` of trick ``index`` under another
        reading: the completing action played again, or, for the leader (settled by the
        tricks before), the whole game replayed from the start."""
        if self.completed_by is None:
            return None
        before, code = self.completed_by
        if problem == "leader":
            after = self.ruleset.apply(before, code)
            return replayed_answer(after, trick_leader(len(before.info.history), index))
        return trick_answer(before, code, index, problem)

    def trick_as_written(self, raw: Any) -> bool:
        """Whether ``raw`` is a well-formed trick object that says exactly what the next
        pending trick is, as tricklaw writes it (:func:`~.tricks.as_written`); if so, the
        trick is checked. The fast path: it parses no card and builds no message. Anything
        else (a divergence, a field that cannot be read, another spelling) goes the slow
        way, :meth:`trick`, which says what is wrong."""
        if not self.pending:
            return False
        t_index, leader, result, seating = self.pending[0]
        if not as_written(raw, leader, result, seating, self._names):
            return False
        self.pending.pop(0)
        self.at, self.at_trick = "trick", t_index
        self.n_tricks += 1
        return True

    def skip_trick(self) -> None:
        """The input does not record the next completed trick."""
        self.pending.pop(0)

    def round_over(self) -> bool:
        """Whether the rules have ended the input's current round."""
        return round_over(self.state, self.index)

    def end_round(self, fields: dict[str, Any], where: str) -> None:
        """The round's scores (and the other facts the input gives) once it is over."""
        state = self.state
        if state is None:
            raise UnreadableError(f"{where or 'scores'}: scores before the first round line")
        if self.scored:
            raise UnreadableError(f"{where or 'scores'}: round {self.index} is scored twice")
        self.pending.clear()
        self.at = "round"
        check_round_end(self.game, state, self.index, fields, self.noun)
        self.scored = True

    def end_game(self, fields: dict[str, Any]) -> None:
        """The input's last word: totals, winners, whether the game is over."""
        self.pending.clear()
        self.at_round, self.at = None, "game"
        self.ended = True
        check_game_end(self.game, self.state, fields, self.noun)

    # --- the verdict -------------------------------------------------------------------

    def where(self) -> tuple[int | None, int | None, int | None]:
        """(round, action, trick) of the last event, counted from 0 as in the files (the
        log's ``round``, a record's ``rounds[i]``)."""
        return (
            self.at_round,
            self.actions_in_round - 1 if self.at == "action" else None,
            self.at_trick if self.at == "trick" else None,
        )

    def counts(self) -> dict[str, int]:
        """How many rounds, actions and tricks were checked."""
        return {"rounds": self.n_rounds, "actions": self.n_actions, "tricks": self.n_tricks}

    def summary(self) -> str:
        """The one-line summary of an input that agrees."""
        state = self.state
        game = self.game
        counts = self.counts()
        head = f"{game.ruleset.id}, {game.players} players: " + ", ".join(
            f"{n} {name if n != 1 else name[:-1]}" for name, n in counts.items()
        )
        head += " checked"
        if state is None:
            return f"{head}; no round played"
        end = "the game is over" if state.phase is Phase.OVER else "the game goes on"
        defaults = (
            f" (by default, as the {self.noun} names no reading: {', '.join(self.defaulted)})"
            if self.defaulted
            else ""
        )
        return f"{head}; totals {list(state.returns())}; {end}{defaults}"


def verdict(
    status: str,
    problem: str,
    checker: Checker | None,
    *,
    line: int | None = None,
    path: str | None = None,
    divergence: DivergenceError | None = None,
) -> Verdict:
    """The verdict ``status`` (``problem``: what is wrong, or the summary), placed where
    ``checker`` is and with the counts it has checked."""
    where = (
        checker.where()
        if checker is not None and status in (DIVERGES, DEPARTS)
        else (None, None, None)
    )
    out = Verdict(
        status,
        problem,
        line=line,
        path=path,
        round=where[0],
        action=where[1],
        trick=where[2],
        checked=checker.counts() if checker is not None else {},
        game=f"{checker.game.ruleset.id}, {checker.game.players} players"
        if checker is not None and status in (DIVERGES, DEPARTS)
        else "",
    )
    if divergence is not None:
        out.expected, out.got = divergence.expected, divergence.got
        out.clauses = divergence.clauses
        out.disputes, out.established = divergence.disputes, divergence.established
    return out


def kept_rounds(history: tuple[RoundLog, ...]) -> tuple[RoundLog, ...]:
    """The completed rounds a streaming check keeps: the first and the last
    :data:`KEPT_ROUNDS`."""
    if len(history) <= KEPT_ROUNDS + 1:
        return history
    return (history[0], *history[-KEPT_ROUNDS:])
