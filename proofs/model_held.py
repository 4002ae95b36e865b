"""The model held to the proofs: verify's steps for issue 14's parts 3 to 5.

For one ruleset at one player count (a verify unit), four of verify's steps, each its own
so that one falling over (a model that crashes on a sampled round) hides none of the
others:

* ``declared-readings``: every option that changes the model's trick judge, play rule
  or round score is declared by the matching encoding
  (:mod:`tricklaw.proofs.declared_readings`);
* ``symmetry``: the symmetries the trick encoding declares, proved on the encoding and
  tested on the model (:mod:`tricklaw.proofs.symmetries`);
* ``bound-holds-on-model``: the model's rounds, sampled and the witnesses', inside the
  relaxation every score bound is proved over (:mod:`tricklaw.proofs.bounds.held`);
* ``rule NAME``: the model's answer to each rule of a finished round (Hund's Lead
  decider, The Last's ghost score) is the one its Z3 statement allows, on sampled
  rounds (:mod:`tricklaw.proofs.round_rule_checks`); and ``rule first-hand``, the hand
  each player holds at the first play as the play encoding states it; ``rule deck``, the
  model's deck as the trick encoding's deck clause, under every reading and deck.

Across all units, :func:`tricklaw.proofs.rule_coverage.coverage_results` then lists every
rule function of the model with the obligations that check it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs import declared_readings, round_rule_checks, symmetries
from tricklaw.proofs.bounds.held import held_results
from tricklaw.proofs.encodings import ENCODINGS
from tricklaw.proofs.recorder import labelled
from tricklaw.proofs.results import Result


def readings_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``declared-readings`` for ``ruleset`` at ``players``, under the readings fixed by
    ``chosen``."""
    return declared_readings.results(ruleset, players, chosen, timeout_ms)


def symmetry_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``symmetry``: the trick encoding's declared symmetries (none without an encoding)."""
    if ruleset.id not in ENCODINGS:
        return []
    with labelled(obligation="symmetry"):
        return symmetries.symmetry_results(ruleset, players, chosen, timeout_ms)


def bound_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``bound-holds-on-model``: the model's rounds inside every bound's relaxation."""
    with labelled(obligation="bound-holds-on-model"):
        return held_results(ruleset, players, chosen, timeout_ms)


def round_results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """``rule NAME``, ``rule first-hand`` and ``rule deck``: the model's answers to the
    round rules, its first hands and its deck, held to their Z3 statements."""
    with labelled(obligation="round rules"):
        return [
            *round_rule_checks.rule_results(ruleset, players, chosen, timeout_ms),
            *round_rule_checks.first_hand_results(ruleset, players, chosen, timeout_ms),
            *round_rule_checks.deck_results(ruleset, players, chosen, timeout_ms),
        ]
