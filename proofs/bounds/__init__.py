"""Score bounds: the least and the greatest score one player can make in a round.

For each ruleset, player count and reading of the rules that can change them
(:func:`~tricklaw.proofs.bounds.readings.readings`: the defaults, each dispute or
custom option that changes scoring, legality, trick-taking or the deck varied one
value at a time, and the pairs that interact), and for seat 0, two obligations:
``score-max`` (no round gives seat 0 more than ``B``) and ``score-min`` (no round
gives seat 0 less than ``B``). Each is settled in two independent halves
(:mod:`~tricklaw.proofs.bounds.results`):

1. **The bound, proved by Z3** over a sound *relaxation* of the round under that
   reading (:mod:`~tricklaw.proofs.bounds.relaxation`): a small set of integer and
   Boolean variables saying which cards end up counting for the player, constrained
   only by facts every real round of the reading satisfies, each a tracked assertion
   named by the clause (or dispute) it comes from. Every real round is a solution of
   the relaxation, so its optimum bounds the real one; the bound ``B`` is then proved
   on its own by checking that "score > B" (or "< B") is unsatisfiable, and the unsat
   core names the clauses the proof rests on (:mod:`~tricklaw.proofs.bounds.prove`).

2. **A witness**: a concrete deal and a sequence of legal actions that the Python
   model replays under the same reading
   (:func:`~tricklaw.proofs.bounds.witness.replay_witness`) to a score for seat 0,
   built from a *plan* (which seat plays which card in which trick) whose tricks are
   laid out by asking the model's own trick judge and follow rule
   (:mod:`~tricklaw.proofs.bounds.layout`). Only the replayed score counts. (The
   Sticheln plans realise the relaxation's optimum; the other plans come from the
   rules alone, so they would also expose a relaxation that cut off real rounds.
   Soundness itself is checked separately: :mod:`~tricklaw.proofs.bounds.soundness`
   confirms that a finished round of the model, its score included, is a solution of
   the relaxation.)

A result is ``proved`` when the witness reaches the proved bound (the bound is tight,
and is therefore the exact least / greatest score), ``unknown`` with the detail
"proved bound B, best witness W" when it does not, and a ``counterexample`` when the
witness goes beyond the proved bound (an unsound relaxation).

Each game's relaxation, plan, round values, readings table and witness options are in
its own module of this package (:mod:`~tricklaw.proofs.bounds.sticheln`,
:mod:`~tricklaw.proofs.bounds.the_last`, :mod:`~tricklaw.proofs.bounds.lowhigh`,
:mod:`~tricklaw.proofs.bounds.hund`), registered in :data:`BOUNDS` under each ruleset
id it serves (:class:`~tricklaw.proofs.bounds.game.GameBounds`). The results are
proved once and checked in (:mod:`~tricklaw.proofs.bounds.artifact`,
``spec/bounds/v1.json``, read without Z3 by :mod:`tricklaw.spec.proved_bounds`).

(A Z3 search over a whole round with cooperative play, every card and play free, was
tried for the witnesses; it did not answer within 30 s even for three players of
Sticheln, so the witnesses are constructed instead.)
"""

from __future__ import annotations

from tricklaw.proofs.bounds.game import BOUNDS, GameBounds, witness_game
from tricklaw.proofs.bounds.readings import agrees, not_varied, readings
from tricklaw.proofs.bounds.results import all_bounds_results, bound_result, bounds_results
from tricklaw.proofs.bounds.soundness import relaxation_admits, round_values
from tricklaw.spec.proved_bounds import MAX, MIN, Reading, label

__all__ = [
    "BOUNDS",
    "MAX",
    "MIN",
    "GameBounds",
    "Reading",
    "agrees",
    "all_bounds_results",
    "bound_result",
    "bounds_results",
    "label",
    "not_varied",
    "readings",
    "relaxation_admits",
    "round_values",
    "witness_game",
]
