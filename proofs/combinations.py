"""Every combination of the readings of some options: what the proofs are run under.

A dispute option (or a custom option with choices) has one value per reading of the
rules; the trick obligations (:mod:`tricklaw.proofs.obligations`), the worked examples
(:mod:`tricklaw.proofs.examples`) and their Z3 constraints
(:mod:`tricklaw.proofs.example_constraints`) are each checked under every combination
of the readings of the options they depend on.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping
from typing import Any

from tricklaw.model.options import OptionValue
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Game
from tricklaw.spec.errors import OptionError


def reading_combinations(
    ruleset: Ruleset[Any], names: Collection[str], chosen: Mapping[str, str] | None = None
) -> list[dict[str, str]]:
    """Every combination of the readings of the options ``names`` that ``ruleset`` has
    (option name -> value, in the ruleset's option order), each fixed to ``chosen``
    where given."""
    fixed = chosen or {}
    specs = [s for s in ruleset.option_specs if s.name in names and s.choices]
    choices = [[fixed[s.name]] if s.name in fixed else list(s.choices) for s in specs]
    return [
        {s.name: v for s, v in zip(specs, values, strict=True)}
        for values in itertools.product(*choices)
    ]


def dispute_options(ruleset: Ruleset[Any]) -> tuple[str, ...]:
    """The names of ``ruleset``'s options that select a reading of a dispute."""
    return tuple(s.name for s in ruleset.option_specs if s.dispute)


def with_deck_variants(
    ruleset: Ruleset[Any],
    names: Collection[str],
    deck_names: Collection[str],
    chosen: Mapping[str, str] | None = None,
) -> list[dict[str, str]]:
    """:func:`reading_combinations` of ``names``, then each other value of each option of
    ``deck_names`` (options that change only the deck in play) on its own, with
    ``names`` at their defaults; every option that ``chosen`` fixes keeps its value
    there (and is not varied)."""
    fixed = chosen or {}
    out = reading_combinations(ruleset, names, fixed)
    base = {
        s.name: fixed.get(s.name, str(s.default)) for s in ruleset.option_specs if s.name in names
    }
    for spec in ruleset.option_specs:
        if spec.name in deck_names and spec.choices and spec.name not in fixed:
            out += [{**base, spec.name: v} for v in spec.choices if v != str(spec.default)]
    held = {k: v for k, v in fixed.items() if k in deck_names}
    return [{**r, **held} for r in out]


def option_variants(
    ruleset: Ruleset[Any], game: Game, fixed: Collection[str]
) -> list[tuple[str, Game]]:
    """The games a sampled check of the model draws from, each with a label: ``game``
    (labelled ``defaults``), then ``game`` with each other value of each option not in
    ``fixed`` (the readings the check reads, verify's ``--option``), on its own and with
    the values it acts with (``OptionSpec.acts_with``), where those are not fixed. An
    option a rule does not read can still decide which of its cases a game reaches
    (Hund's Lead goes to no suit only when two designation sets may name one suit).
    Integer options are house parameters and not varied; a value the game refuses at
    this player count (an ``OptionError``) is left out."""
    out = [("defaults", game)]
    for spec in ruleset.option_specs:
        if spec.name in fixed or not spec.choices:
            continue
        acting = {k: v for k, v in spec.acts_with if game.options[k] != v}
        if any(k in fixed for k in acting):
            continue  # the values it acts with are fixed otherwise: it changes nothing
        for value in spec.choices:
            if value == game.options[spec.name]:
                continue
            changed: dict[str, OptionValue] = {**game.options.as_dict(), **acting, spec.name: value}
            try:
                out.append(
                    (
                        _variant_label(acting, spec.name, value),
                        ruleset.make_game(game.players, changed),
                    )
                )
            except OptionError:
                continue
    return out


def _variant_label(acting: Mapping[str, OptionValue], name: str, value: str) -> str:
    return ", ".join(f"{k}={v}" for k, v in {**acting, name: value}.items())
