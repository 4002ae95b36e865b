"""The model held to the proofs: verify's step for issue 14's parts 3 to 5.

For one ruleset at one player count (a verify unit), :func:`results` gathers

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
from tricklaw.proofs.obligations import Result
from tricklaw.proofs.recorder import labelled


def results(
    ruleset: Ruleset[Any], players: int, chosen: Mapping[str, str], timeout_ms: int
) -> list[Result]:
    """The checks of this module's docstring for ``ruleset`` at ``players``, under the
    readings fixed by ``chosen``."""
    out = declared_readings.results(ruleset, players, chosen, timeout_ms)
    if ruleset.id in ENCODINGS:
        with labelled(obligation="symmetry"):
            out += symmetries.symmetry_results(ruleset, players, chosen, timeout_ms)
    with labelled(obligation="bound-holds-on-model"):
        out += held_results(ruleset, players, chosen, timeout_ms)
    with labelled(obligation="round rules"):
        out += round_rule_checks.rule_results(ruleset, players, chosen, timeout_ms)
        out += round_rule_checks.first_hand_results(ruleset, players, chosen, timeout_ms)
        out += round_rule_checks.deck_results(ruleset, players, chosen, timeout_ms)
    return out
