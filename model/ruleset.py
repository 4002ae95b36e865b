"""The interface every ruleset implements, and the parts they all share.

A ruleset module reads like its rulebook: it says what the deck is, how the
cards are dealt, what may be played, who takes a trick, and how a round is
scored, citing clause ids from ``spec/``. The shared trick machinery (playing
a card, closing a trick, ending a round, dealing the next one) lives in
:mod:`tricklaw.model.flow`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from mypy_extensions import mypyc_attr

from tricklaw.model.actions import ActionKind
from tricklaw.model.cards import VALUE_LIMIT, Card, Palette
from tricklaw.model.options import (
    CompiledRules,
    Options,
    OptionSpec,
    OptionValue,
    resolve_options,
)
from tricklaw.model.record import dumps_state
from tricklaw.model.rng import SplitMix64
from tricklaw.model.state import Deal, DealSource, Game, RoundLog, State
from tricklaw.model.trick import TrickResult
from tricklaw.spec.errors import CardError, OptionError, SpecError

X = TypeVar("X")

GAME_TIE = "game-tie"
"""The option of every ruleset whose text leaves a tie for the game's win open: its
readings are :data:`GAME_TIE_READINGS`, the dispute's (``*-D-GAMETIE`` in each registry)."""
GAME_TIE_READINGS = ("shared", "nobody", "first-seat")
"""A tie for the best total: every tied player wins (the default); nobody wins (a drawn
game); the tied player in the lowest seat wins (what an engine taking the first best
index, ``argmax``, does)."""


def game_tie_option(dispute: str) -> OptionSpec:
    """The ``game-tie`` option of a ruleset whose dispute ``dispute`` records the gap."""
    return OptionSpec(
        GAME_TIE,
        GAME_TIE_READINGS[0],
        "who wins when players tie for the best total",
        choices=GAME_TIE_READINGS,
        dispute=dispute,
    )


def break_game_tie(game: Game, tied: tuple[int, ...]) -> tuple[int, ...]:
    """The winners among the seats ``tied`` for the best total (in seat order), by the
    game's ``game-tie`` reading; all of them when the ruleset has no such option."""
    if len(tied) < 2:
        return tied
    reading = dict(game.options.items).get(GAME_TIE, GAME_TIE_READINGS[0])
    if reading == "nobody":
        return ()
    if reading == "first-seat":
        return tied[:1]
    return tied


# Compiled with mypyc where the build allows (setup.py); a ruleset may still be a plain
# Python subclass (the Sticheln editions, the tests' mutants).
@mypyc_attr(allow_interpreted_subclasses=True)
class Ruleset(ABC, Generic[X]):
    """One ruleset (one rule text). Subclasses hold no mutable state: what describes a
    ruleset (its id, deck palette, options, clauses) is a class attribute."""

    id: ClassVar[str]
    """The ruleset id used on the command line and in records, e.g. ``sticheln-1993``."""
    title: ClassVar[str]
    source: ClassVar[str]
    """The seed file the clauses cite."""
    family: ClassVar[str] = ""
    """The game whose edition this text is: rulesets with the same non-empty family are
    editions of one game, which ``tricklaw diff`` compares aspect by aspect; empty for a
    ruleset that is a family of its own."""
    player_counts: ClassVar[tuple[int, ...]]
    palette: ClassVar[Palette]
    option_specs: ClassVar[tuple[OptionSpec, ...]]
    implements: ClassVar[tuple[str, ...]]
    """The clause ids this module implements (for coverage)."""
    clause: ClassVar[Mapping[str, str]]
    """The clause id stating each rule role: ``deck``, ``deal``, ``turn`` (whose turn,
    what an action is), ``play`` (what may be played), ``collect`` (who leads next),
    ``score-total``, ``game-end``, ... (see each ruleset)."""
    pile_names: ClassVar[tuple[str, ...]] = ()
    """The names of the piles a deal of this ruleset may hold besides the hands."""
    extra_names: ClassVar[tuple[str, ...]] = ()
    """The names of the other numbers a deal of this ruleset draws (Hund: the round's
    ``designation``); a deal with any other extra is not this ruleset's."""
    action_kinds: ClassVar[tuple[ActionKind, ...]] = (ActionKind.PLAY,)
    """The kinds of action its players take (:mod:`tricklaw.model.actions`); with the deck
    and the seats they span every action the ruleset can use."""

    # --- set-up ----------------------------------------------------------------------

    def make_game(self, players: int, options: Mapping[str, OptionValue] | None = None) -> Game:
        """A :class:`Game` of this ruleset; raises OptionError for bad counts or options."""
        if players not in self.player_counts:
            counts = self.player_counts
            raise OptionError(
                f"{self.id} is for {counts[0]}-{counts[-1]} players, not {players}"
                if counts == tuple(range(counts[0], counts[-1] + 1))
                else f"{self.id} is for {', '.join(map(str, counts))} players, not {players}"
            )
        resolved = resolve_options(self.id, self.option_specs, options or {})
        return Game(self, players, self.seat_count(players), resolved, self.compile(resolved))

    def seat_count(self, players: int) -> int:
        """The places at the table for ``players`` (more when the rules add a player)."""
        return players

    def compile(self, options: Options) -> CompiledRules:
        """``options`` in the form the ruleset's hot path reads (``Game.rules``); a ruleset
        whose hot path reads no option keeps this empty default."""
        return CompiledRules()

    @abstractmethod
    def deck(self, players: int, options: Options) -> tuple[Card, ...]:
        """Every card in play for ``players``, in canonical order."""

    @abstractmethod
    def cut(
        self, game: Game, order: Sequence[Card], rng: SplitMix64, history: tuple[RoundLog, ...]
    ) -> Deal:
        """The deal made from the shuffled deck ``order``; ``rng`` (the generator that
        shuffled it) serves any further draw the rules make, such as a random first player,
        and ``history`` (the rounds before) any draw without replacement across rounds."""

    @abstractmethod
    def hand_size(self, game: Game) -> int:
        """How many cards each player is dealt (automatic seats may differ)."""

    def max_decisions(self, game: Game) -> int:
        """An upper bound on the actions the players take in one round: one per card
        dealt to a player, since each PLAY or SELECT takes a card from the actor's hand.
        Rulesets with decisions that take no card from the hand add them."""
        return game.players * self.hand_size(game)

    def check_deal(self, game: Game, deal: Deal) -> None:
        """Raise CardError unless ``deal`` could have come from :meth:`cut`.

        The shared check: the right number of hands, each player's hand of
        :meth:`hand_size` cards (the ``deal`` clause), only known piles and extras (an
        extra a whole number), and hands and piles together holding each card of the deck
        exactly once. So a deal holds nothing but what the ruleset deals: no field a
        client adds is kept with a game or echoed in its answers.
        """
        if len(deal.hands) != game.seats:
            raise CardError(f"the deal has {len(deal.hands)} hands for {game.seats} seats")
        size = self.hand_size(game)
        for seat in range(game.players):
            if len(deal.hands[seat]) != size:
                raise CardError(
                    f"seat {seat} is dealt {len(deal.hands[seat])} cards; with {game.players} "
                    f"players {self.id} deals {size} each [{self.clause['deal']}]"
                )
        for name, _ in deal.piles:
            if name not in self.pile_names:
                known = ", ".join(self.pile_names) or "none"
                raise CardError(f"the deal has a pile {name!r}; {self.id} deals piles: {known}")
        for name, value in deal.extras:
            if name not in self.extra_names:
                known = ", ".join(self.extra_names) or "none"
                raise CardError(f"the deal has an extra {name!r}; {self.id} deals extras: {known}")
            if type(value) is not int or not 0 <= value < VALUE_LIMIT:
                raise CardError(f"the deal's extra {name} is {value!r}, not a card's number")
        deck = self.deck(game.players, game.options)
        held = [c for hand in deal.hands for c in hand] + [c for _, p in deal.piles for c in p]
        counts = Counter(held)
        for card, n in counts.items():
            if n > 1:
                raise CardError(f"the deal holds {self.palette.format(card)} {n} times")
        missing = set(deck) - counts.keys()
        extra = counts.keys() - set(deck)
        if extra:
            raise CardError(
                f"the deal holds {', '.join(self.palette.format_all(sorted(extra)))}, "
                f"not in the {game.players}-player deck of {self.id}"
            )
        if missing:
            raise CardError(f"the deal lacks {', '.join(self.palette.format_all(sorted(missing)))}")

    def check_deals(self, game: Game, deals: Sequence[Deal]) -> None:
        """Raise CardError unless ``deals`` could be a game's deals, round after round:
        each passes :meth:`check_deal` (rulesets with rules across rounds add to this)."""
        for index, deal in enumerate(deals):
            try:
                self.check_deal(game, deal)
            except CardError as exc:
                raise CardError(f"round {index}: {exc}") from None

    @abstractmethod
    def start_round(
        self,
        game: Game,
        source: DealSource,
        index: int,
        totals: tuple[int, ...],
        history: tuple[RoundLog, ...],
    ) -> State[X]:
        """The first decision of round ``index``."""

    # --- play ------------------------------------------------------------------------

    @abstractmethod
    def legal_actions(self, state: State[X]) -> tuple[int, ...]:
        """The current player's legal actions, in canonical order."""

    def is_legal(self, state: State[X], action: int) -> bool:
        """Whether ``action`` is one of :meth:`legal_actions` (the log checker asks this of
        every action it replays). A ruleset may answer without listing the legal actions;
        the answer is always ``action in self.legal_actions(state)`` (tested)."""
        return action in self.legal_actions(state)

    def ruled_out(
        self, state: State[X], action: int, held: Sequence[Card], candidates: Iterable[Card]
    ) -> frozenset[Card]:
        """The cards of ``candidates`` that the current player of ``state`` cannot have
        held when he took ``action`` there, if all an onlooker knows of his hand then is
        that it held the cards ``held`` (they include the card ``action`` takes from the
        hand, if any): each card ``c`` such that ``action`` is illegal with the hand
        ``held`` plus ``c``. The information-set sampler (:mod:`tricklaw.resample`) reads a
        seat's voids from it, generically, through :meth:`is_legal`.

        Sound where the legality of an action is anti-monotone in the hand: adding cards to
        a hand that holds the action's card may forbid the action, never allow it. Every
        built-in play rule is of this kind (a card of the led colour in hand forbids the
        others; a pick, a swap, a designation or a choice of leader is allowed whatever else
        the hand holds), and ``tests/test_resample.py`` checks it for every ruleset on
        random states. Then ``action`` is illegal with every hand that holds ``held`` and
        ``c``, whatever else it holds, so no deal that keeps ``held`` in the hand can have
        put ``c`` there. A ruleset whose legality is not anti-monotone overrides this (the
        empty set is always sound: the sampler then relies on its replay check alone).
        For the same reason, when ``action`` is legal even with every candidate added at
        once, no candidate is ruled out, and one query answers for all.
        """
        seat = state.current
        cards = tuple(candidates)

        def legal_with(extra: tuple[Card, ...]) -> bool:
            hand = tuple(sorted((*held, *extra)))
            hands = (*state.hands[:seat], hand, *state.hands[seat + 1 :])
            return self.is_legal(state._replace(hands=hands), action)

        if not cards or legal_with(cards):
            return frozenset()
        return frozenset(card for card in cards if not legal_with((card,)))

    @abstractmethod
    def apply(self, state: State[X], action: int) -> State[X]:
        """The state after the legal ``action``."""

    @abstractmethod
    def why_illegal(self, state: State[X], action: int) -> str:
        """A sentence saying why ``action`` is not legal in ``state``."""

    @abstractmethod
    def forbidding_clause(self, state: State[X], action: int) -> str:
        """The clause id that forbids ``action`` in ``state``."""

    @abstractmethod
    def playable(
        self, game: Game, hand: tuple[Card, ...], trick: tuple[Card, ...]
    ) -> tuple[Card, ...]:
        """The cards of ``hand`` that may be played to the unfinished ``trick``."""

    trick_context: ClassVar[tuple[tuple[str, str], ...]] = ()
    """What else :meth:`judge_trick` needs to know, as (name, help) pairs (Hund: the
    powers already assigned); empty when a trick's cards decide it alone."""

    trick_context_when: ClassVar[Mapping[str, tuple[tuple[str, str], ...]]] = {}
    """The option values under which a name of :attr:`trick_context` means anything, by
    name (Hund's ``sets`` only with ``designation-mode=sets``); a name not listed always
    does. :meth:`check_trick_context` refuses a name given where it means nothing; the
    page shows a context's box only where it does."""

    def check_trick_context(self, game: Game, context: Mapping[str, str]) -> None:
        """Raise :class:`~tricklaw.spec.errors.TricklawError` naming the field unless the
        trick ``context`` (names of :attr:`trick_context`) is one a round of ``game`` can
        reach: the input check of a trick judged on its own (a game whose context has rules
        overrides this; :meth:`judge_trick` itself may be lenient, since it is also asked
        under readings other than the one a context was written for)."""

    @abstractmethod
    def judge_trick(
        self, game: Game, cards: Sequence[Card], context: Mapping[str, str] | None = None
    ) -> TrickResult:
        """The result of a complete trick ``cards`` (first card = lead), given the
        ``context`` named by :attr:`trick_context`."""

    @abstractmethod
    def observation(self, state: State[X], seat: int) -> dict[str, Any]:
        """What ``seat`` sees in ``state`` (JSON-ready)."""

    # --- scoring ---------------------------------------------------------------------

    @abstractmethod
    def round_scores(self, state: State[X]) -> tuple[int, ...]:
        """Each seat's score for the round that ``state`` has just finished."""

    score_context: ClassVar[tuple[tuple[str, str], ...]] = ()
    """What else :meth:`~tricklaw.model.ruleset.Ruleset.score_piles` needs besides the
    piles, as (name, help) pairs (Sticheln: each player's picked card); empty when the
    piles decide the score."""

    def score_piles(
        self, game: Game, piles: Sequence[Sequence[Card]], context: Mapping[str, str]
    ) -> tuple[int, ...]:
        """Each seat's round score from the cards it ended the round with (``piles``, one
        per seat) and the ``context`` named by :attr:`score_context`: the score clauses
        applied to a round told, not played (``tricklaw``'s page scores a table's round
        with it). A ruleset that cannot score from piles alone keeps this refusal."""
        raise SpecError(f"{self.id} cannot score a round from the piles alone")

    def told_round(
        self, game: Game, log: RoundLog
    ) -> tuple[list[tuple[Card, ...]], dict[str, str]] | None:
        """A finished round as a table tells it to :meth:`score_piles`: each seat's pile
        (the cards it ended the round with) and the :attr:`score_context`, read from the
        round's ``log`` alone; ``None`` for a ruleset that cannot score from piles (the
        default). verify's self-check holds :meth:`score_piles` of it to the round's
        scores, so the told-round scoring is checked against the played one."""
        return None

    def told_tricks(self, game: Game, log: RoundLog) -> list[dict[str, str]]:
        """The trick context (names of :attr:`trick_context`) before each trick of a
        finished round and after its last, as a table tells them from the round's ``log``:
        what :meth:`judge_trick` needs to judge each trick on its own (by default nothing:
        the cards decide a trick alone). verify's self-check judges every trick of the log
        again in its told context: the result must be the one play gave, and the context
        its facts say it leaves (:meth:`context_left`) the next trick's."""
        return [{} for _ in range(len(log.tricks) + 1)]

    def context_left(self, game: Game, result: TrickResult) -> dict[str, str]:
        """The part of the next trick's context that a judged trick's facts name (Hund:
        the powers held after it; by default none), as :meth:`told_tricks` writes it."""
        return {}

    @abstractmethod
    def game_over(self, game: Game, rounds_played: int, totals: tuple[int, ...]) -> bool:
        """Whether the game ends after ``rounds_played`` rounds with ``totals``."""

    @abstractmethod
    def recount_scores(self, game: Game, log: RoundLog) -> tuple[int, ...]:
        """A finished round's scores recounted from its log alone (trick results and
        facts), independent of the state's own bookkeeping of taken cards."""

    def winners(self, game: Game, totals: Sequence[int]) -> tuple[int, ...]:
        """The players (never an automatic seat) with the highest total; a tie is settled
        by the ruleset's ``game-tie`` option (:func:`break_game_tie`), shared by default."""
        best = max(totals[: game.players])
        return break_game_tie(
            game, tuple(seat for seat in range(game.players) if totals[seat] == best)
        )

    def automatic_action(self, state: State[X]) -> int | None:
        """The forced action of the current seat when the rules play it (a ghost or
        virtual player), else ``None``. :func:`tricklaw.model.flow.settle` applies it."""
        return None

    def example_score(self, game: Game, example: Mapping[str, Any]) -> tuple[list[Card], int]:
        """A worked scoring example of the text (``spec/<ruleset>.examples.toml``): the
        cards it names and the score the model gives them. Rulesets whose text has
        scoring examples override this."""
        raise SpecError(f"{self.id} has no scoring examples")

    def example_points(self, game: Game, owner: str, cards: Sequence[Card]) -> int:
        """What the cards of one worked trick are worth to a player described by
        ``owner`` (Sticheln: his misery colour's letter). Rulesets whose worked tricks
        state points override this."""
        raise SpecError(f"{self.id}'s worked tricks state no points")

    def held_aside(self, state: State[X]) -> tuple[Card, ...]:
        """Cards out of hands, trick, taken piles and ``aside`` that the ruleset keeps
        elsewhere (Sticheln: the picked cards). Used by the conservation check."""
        return ()

    def serialize_state(self, state: State[X]) -> str:
        """``state`` as JSON record text (:meth:`State.serialize`)."""
        return dumps_state(state)

    def round_facts(self, state: State[X]) -> tuple[tuple[str, Any], ...]:
        """Ruleset-specific facts of a finished round for the record (JSON-ready)."""
        return ()
