"""The vector profile of Hund (``hund``).

A Hund trick is judged in a context: the powers the suits held before it, and the round's
designated number or, with the custom option ``designation-mode=sets``, its five
designation sets (HUND-DESIG-1/2, HUND-OPT-2). The trick vectors give that context as
``input.context`` and read it in three modes: the drawn number, and sets matched by card
or by value. Scoring reads the powers held at the end of the round (HUND-POWER-2..5); two
players add the virtual player (HUND-TWO-1..6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from tricklaw.model.cards import Card, make_card
from tricklaw.model.options import OptionValue
from tricklaw.model.rng import SplitMix64
from tricklaw.model.rulesets import hund as rules
from tricklaw.model.state import Game, RoundLog
from tricklaw.model.trick import TrickResult
from tricklaw.vectors.cases import Json, roles, sample
from tricklaw.vectors.profile import GamePlan, Profile, Variants, actions_seen
from tricklaw.vectors.profiles import PROFILES

TWO_PLAYER_OPTIONS = frozenset({"virtual-odd", "virtual-hund"})
"""The options about the virtual player, read only in the two-player game."""


def sample_hund_context(rng: SplitMix64, game: Game) -> Json:
    """A random Hund trick context: the powers held before the trick (0-5 suits, fewer
    more often) and the round's designated number (HUND-DESIG-1), or one designation set
    per power (HUND-OPT-2; distinct suits and values)."""
    compiled = rules.rules_of(game)
    letters = rules.PALETTE.letters
    held = sample(rng, range(len(letters)), (0, 0, 1, 1, 2, 3, 4, 5)[rng.below(8)])
    powers = [letters[s] for s in held]
    if not compiled.sets:
        numbers = rules.BASE_DESIGNATIONS
        return {"powers": powers, "designation": numbers[rng.below(len(numbers))]}
    values = list(rules.HUND_RULESET.values(game.players, compiled))
    suits = sample(rng, range(len(letters)), len(rules.POWERS))
    chosen = sample(rng, values, len(rules.POWERS))
    sets = [rules.PALETTE.format(make_card(s, v)) for s, v in zip(suits, chosen, strict=True)]
    return {"powers": powers, "sets": sets}


def model_context(context: Mapping[str, Any] | None) -> dict[str, str] | None:
    """A vector's structured trick context in the form ``Ruleset.judge_trick`` reads."""
    if context is None:
        return None
    out = {"powers": ",".join(context["powers"])}
    if "designation" in context:
        out["designation"] = str(context["designation"])
    if "sets" in context:
        out["sets"] = ",".join(context["sets"])
    return out


def hot_values(context: Mapping[str, Any] | None) -> list[int]:
    """The card values that assign powers in a Hund trick context (none without one)."""
    if context is None:
        return []
    if "designation" in context:
        return [int(context["designation"])]
    return [int(s[1:]) for s in context["sets"]]


def _powers_before_after(result: TrickResult, context: Mapping[str, Any]) -> tuple[int, int]:
    """How many suits held powers before the trick, and after it."""
    return len(context["powers"]), dict(result.facts)["powers"].count("=")


def _held(inputs: Json) -> int:
    """How many powers were assigned in a scored round."""
    return len(inputs["facts"]["powers"])


class HundProfile(Profile):
    """Hund: trick contexts, powers, designation sets and the virtual player."""

    deal_variants: ClassVar[Variants] = (
        {"values": "from-0"},
        {"more-cards": "yes"},
        {"designation": "ascending"},
        {"designation-mode": "sets"},
        {"virtual-odd": "extra-up"},
    )
    trick_contexts: ClassVar[Variants] = (
        {},
        {"designation-mode": "sets"},
        {"designation-mode": "sets", "set-match": "value", "set-repeat": "stack"},
    )
    """The drawn designated number, and designation sets read both ways."""
    trick_candidates = 700
    per_signature = 1
    """One trick per signature, for its many readings."""
    score_variants: ClassVar[Variants] = (
        {},
        {"hund-tie": "scores"},
        {"lead-tie": "earliest"},
        {"virtual-hund": "ignored"},
    )
    score_facts = ("powers",)
    game_variants: ClassVar[tuple[GamePlan, ...]] = (
        (3, {"lead-tie": "earliest"}, 3),
        (3, {"hund-tie": "scores"}, 3),
        (3, {"designation": "ascending"}, 3),
        (3, {"values": "from-0"}, 3),
        (3, {"more-cards": "yes"}, 3),
        (3, {"designation-mode": "sets"}, 3),
        (3, {"designation-mode": "sets", "set-suits": "any", "set-match": "value"}, 4),
        (4, {"designation-mode": "sets", "set-repeat": "stack"}, 3),
        (2, {"virtual-odd": "extra-up", "virtual-hund": "ignored"}, 3),
        (4, {"trump-timing": "from-card"}, 3),
        (4, {"trump-timing": "next-trick"}, 3),
    )

    def applies(self, players: int, variant: Mapping[str, OptionValue]) -> bool:
        """The virtual player's options only with two players."""
        return players == 2 or not TWO_PLAYER_OPTIONS & variant.keys()

    def deal_clauses(self, game: Game) -> list[str]:
        """The suits and colours, the drawn designated number, the virtual player's
        columns and the custom option's larger suits, where the deal shows them."""
        ruleset = game.ruleset
        options = game.options
        out = super().deal_clauses(game) + roles(ruleset, "suits", "colours")
        if options.text("designation-mode") == "drawn":
            out += [*roles(ruleset, "designation"), "HUND-D-DESIGNATION"]
        if game.players == 2:
            out += [*roles(ruleset, "two", "display"), "HUND-D-VIRTUALODD"]
        if options.text("more-cards") == "yes":
            out += roles(ruleset, "more-cards")
        return out

    # --- tricks ----------------------------------------------------------------------

    def context_mode(self, variant: Mapping[str, OptionValue]) -> str:
        """The drawn number, or sets read one way."""
        return f"{variant.get('designation-mode', '')}{variant.get('set-match', '')}"

    def sample_context(self, rng: SplitMix64, game: Game) -> Json | None:
        """:func:`sample_hund_context`."""
        return sample_hund_context(rng, game)

    def edge_context(self, game: Game) -> Json | None:
        """A fixed context without powers held."""
        edge = sample_hund_context(SplitMix64(0), game)
        edge["powers"] = []
        return edge

    def hot_values(self, context: Mapping[str, Any] | None) -> list[int]:
        """:func:`hot_values`."""
        return hot_values(context)

    def model_context(self, context: Mapping[str, Any] | None) -> dict[str, str] | None:
        """:func:`model_context`."""
        return model_context(context)

    def trick_signature(
        self, cards: Sequence[Card], result: TrickResult, context: Mapping[str, Any] | None
    ) -> tuple[Any, ...]:
        """Whether a trump was in force, whether no power was held before, and whether
        the trick assigned one."""
        if context is None:
            return ()
        before, after = _powers_before_after(result, context)
        return ("trump" in dict(result.facts), before == 0, after > before)

    def trick_clauses(
        self, game: Game, result: TrickResult, context: Mapping[str, Any] | None
    ) -> list[str]:
        """The winner leads next; a matching card assigns a power; a trump in force."""
        if context is None:
            return []
        ruleset = game.ruleset
        out = roles(ruleset, "next-lead")
        before, after = _powers_before_after(result, context)
        if after > before:
            mode = "sets" if "sets" in context else "designation"
            out += roles(ruleset, mode, "assign")
        if after:
            out += roles(ruleset, "trump")
        return out

    # --- scores ----------------------------------------------------------------------

    def score_expected(self, game: Game, log: RoundLog) -> Json:
        """The scores, and the seat that names the next start player (or null)."""
        decider = dict(log.facts)["lead_decider"]
        return {**super().score_expected(game, log), "lead_decider": decider}

    def run_score(
        self, game: Game, taken: list[tuple[Card, ...]], inputs: Mapping[str, Any]
    ) -> Json:
        """:func:`~tricklaw.model.rulesets.hund.round_score` and
        :func:`~tricklaw.model.rulesets.hund.lead_decider` of the powers held."""
        holders = [game.ruleset.palette.letters.index(x) for x in inputs["facts"]["powers"]]
        virtual = rules.VIRTUAL if game.players == 2 else None
        points = rules.round_score(taken, holders, rules.rules_of(game), virtual)
        decider = rules.lead_decider(
            taken,
            holders,
            rules.rules_of(game),
            seating=tuple(inputs["seating"]),
            start=inputs["first_leader"],
            virtual=virtual,
        )
        return {"scores": list(points), "lead_decider": decider}

    def score_signature(self, game: Game, inputs: Json, expected: Json) -> tuple[Any, ...]:
        """The powers held, whether anybody names the next start player, how many
        different scores and whether one is negative."""
        scores = expected["scores"]
        nobody = expected["lead_decider"] is None
        return (_held(inputs), nobody, len(set(scores)), min(scores) < 0)

    def score_clauses(self, game: Game, inputs: Json) -> list[str]:
        """The scoring clauses of the powers held, and the virtual player's score."""
        ruleset = game.ruleset
        held = _held(inputs)
        out = super().score_clauses(game, inputs) + roles(ruleset, "plus-minus")
        out += roles(ruleset, "plus") if held > rules.PLUS else []
        if held > rules.HUND:
            out += [*roles(ruleset, "hund", "hund-award"), "HUND-D-HUNDTIE"]
            out += ["HUND-D-VIRTUALHUND"] if game.players == 2 else []
        out += roles(ruleset, "minus") if held > rules.MINUS else []
        out += [*roles(ruleset, "lead"), "HUND-D-LEADTIE"] if held > rules.LEAD else []
        out += roles(ruleset, "virtual-score") if game.players == 2 else []
        return out

    # --- whole games -----------------------------------------------------------------

    def game_clauses(self, game: Game, record: Json) -> list[str]:
        """The aim, suits and start, the designation, every power assigned, the start
        player's choice, the custom options and the virtual player, where shown."""
        ruleset = game.ruleset
        compiled = rules.rules_of(game)
        out = super().game_clauses(game, record)
        out += roles(ruleset, "aim", "suits", "colours", "players", "start", "next-lead")
        out += roles(ruleset, "plus-minus")
        held = max(len(r["facts"]["powers"]) for r in record["rounds"])
        if compiled.sets:
            out += roles(ruleset, "sets", "set-timing")
        else:
            out += roles(ruleset, "designation")
        out += roles(ruleset, "assign", "trump") if held else []
        out += roles(ruleset, "plus") if held > rules.PLUS else []
        out += roles(ruleset, "hund", "hund-award") if held > rules.HUND else []
        out += roles(ruleset, "minus") if held > rules.MINUS else []
        out += roles(ruleset, "lead", "lead-known") if held > rules.LEAD else []
        out += roles(ruleset, "choice") if "leader" in actions_seen(record) else []
        out += roles(ruleset, "more-cards") if compiled.more_cards else []
        if game.players == 2:
            out += roles(ruleset, "two", "display", "virtual-turn", "virtual-play")
            out += roles(ruleset, "virtual-suit", "reveal", "virtual-score")
        return out

    # --- perft -----------------------------------------------------------------------

    def perft_clauses(self, game: Game, met: set[str], prefix: Sequence[int]) -> list[str]:
        """With two players the virtual player's turns come between the decisions."""
        out = super().perft_clauses(game, met, prefix)
        return out + (roles(game.ruleset, "virtual-turn") if game.players == 2 else [])


PROFILES.register("hund", HundProfile())
