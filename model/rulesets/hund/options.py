"""Hund's options and their compiled form: the readings of the text's disputes
(HUND-D-TRUMPTIMING, HUND-D-HUNDTIE, HUND-D-LEADTIE, HUND-D-DESIGNATION, HUND-D-VALUES,
HUND-D-VIRTUALODD, HUND-D-VIRTUALHUND, HUND-D-SETSUITS, HUND-D-SETMATCH, HUND-D-SETREPEAT)
and the custom options ``more-cards`` (HUND-OPT-1) and ``designation-mode`` (HUND-OPT-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tricklaw.model.options import CompiledRules, Options, OptionSpec
from tricklaw.model.ruleset import game_tie_option
from tricklaw.model.state import Game

SETS: tuple[tuple[str, str], ...] = (("designation-mode", "sets"),)
"""The custom option the ``set-*`` options refine: they act only with designation sets
(HUND-OPT-2)."""

OPTION_SPECS = (
    OptionSpec(
        "trump-timing",
        "whole-trick",
        "which cards of a new trump suit count in its own trick",
        choices=("whole-trick", "from-card", "next-trick"),
        dispute="HUND-D-TRUMPTIMING",
        affects_trick=True,
    ),
    OptionSpec(
        "hund-tie",
        "excluded",
        "players tied for the most or fewest Hund cards",
        choices=("excluded", "scores"),
        dispute="HUND-D-HUNDTIE",
    ),
    OptionSpec(
        "lead-tie",
        "nobody",
        "players tied for the most Lead cards",
        choices=("nobody", "earliest"),
        dispute="HUND-D-LEADTIE",
    ),
    OptionSpec(
        "designation",
        "shuffled",
        "the order of the designated numbers",
        choices=("shuffled", "ascending"),
        dispute="HUND-D-DESIGNATION",
        acts_with=(("designation-mode", "drawn"),),  # sets designate no number
    ),
    OptionSpec(
        "values",
        "from-1",
        "the lowest card value of each suit",
        choices=("from-1", "from-0"),
        dispute="HUND-D-VALUES",
    ),
    OptionSpec(
        "virtual-odd",
        "extra-down",
        "the virtual player's odd column (15 cards)",
        choices=("extra-down", "extra-up"),
        dispute="HUND-D-VIRTUALODD",
        acts_with=(("more-cards", "yes"),),  # the odd hand exists only then
    ),
    OptionSpec(
        "virtual-hund",
        "counts",
        "whether the virtual player counts for Hund",
        choices=("counts", "ignored"),
        dispute="HUND-D-VIRTUALHUND",
    ),
    OptionSpec(
        "more-cards",
        "no",
        "custom option: 9/9/12/15 cards per suit",
        choices=("no", "yes"),
    ),
    OptionSpec(
        "designation-mode",
        "drawn",
        "custom option: players choose designation sets",
        choices=("drawn", "sets"),
    ),
    OptionSpec(
        "set-suits",
        "distinct",
        "may two designation sets name one suit",
        choices=("distinct", "any"),
        dispute="HUND-D-SETSUITS",
        acts_with=SETS,
    ),
    OptionSpec(
        "set-match",
        "card",
        "which played cards match a designation set",
        choices=("card", "value"),
        dispute="HUND-D-SETMATCH",
        acts_with=SETS,
    ),
    OptionSpec(
        "set-repeat",
        "skip",
        "may a suit take a second power",
        choices=("skip", "stack"),
        dispute="HUND-D-SETREPEAT",
        acts_with=SETS,
    ),
    game_tie_option("HUND-D-GAMETIE"),
)
"""The options of :class:`~tricklaw.model.rulesets.hund.ruleset.Hund`, in the order they are
listed."""


@dataclass(frozen=True, slots=True)
class Rules(CompiledRules):
    """The options of one game, compiled."""

    trump_timing: str
    hund_tie_excludes: bool
    lead_tie_earliest: bool
    ascending: bool
    from_zero: bool
    extra_up: bool
    virtual_in_hund: bool
    more_cards: bool
    sets: bool
    set_suits_distinct: bool
    set_match_card: bool
    set_repeat_stack: bool


def rules_of(game: Game) -> Rules:
    """``game``'s options as :meth:`~tricklaw.model.rulesets.hund.ruleset.Hund.compile` compiled
    them (``Game.rules``), typed."""
    return game.rules_as(Rules)


@lru_cache(maxsize=64)
def compile_rules(options: Options) -> Rules:
    """``options`` compiled, once per choice of options
    (:meth:`~tricklaw.model.rulesets.hund.ruleset.Hund.deck` asks every round)."""
    return Rules(
        trump_timing=options.text("trump-timing"),
        hund_tie_excludes=options.text("hund-tie") == "excluded",
        lead_tie_earliest=options.text("lead-tie") == "earliest",
        ascending=options.text("designation") == "ascending",
        from_zero=options.text("values") == "from-0",
        extra_up=options.text("virtual-odd") == "extra-up",
        virtual_in_hund=options.text("virtual-hund") == "counts",
        more_cards=options.text("more-cards") == "yes",
        sets=options.text("designation-mode") == "sets",
        set_suits_distinct=options.text("set-suits") == "distinct",
        set_match_card=options.text("set-match") == "card",
        set_repeat_stack=options.text("set-repeat") == "stack",
    )
