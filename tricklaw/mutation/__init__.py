"""The mutation score of ``tricklaw verify``: plant bugs in the model, see verify kill them.

* :mod:`~tricklaw.mutation.mutants`: the project's own semantic mutants of the rule
  functions (an AST mutator) and the file format of a mutant set (a unified diff, or a
  function's replacement source), so that a held-back set plugs in;
* :mod:`~tricklaw.mutation.behaviour`: the model's fingerprint on seeded legal inputs
  (games, tricks, hands, every reading), which decides mechanically whether a mutant is
  equivalent;
* :mod:`~tricklaw.mutation.runner`: each mutant in a copy of the source, its fingerprint
  compared, then ``tricklaw verify`` on each ruleset it changed, every run under a hard
  time limit set from the unmutated run (which must pass): killed (by which obligation,
  and of which kind: a failed obligation, a counterexample, a check's exception, the
  mutated code's own exception, a time-out), survived, equivalent, or a harness error
  (outside the score);
* ``python -m tricklaw.mutation``: the command (not part of the user CLI: it is a
  developer's measure of verify, it needs the source tree and ``patch``).

The slow test tier runs a seeded sample (``tests/test_mutation.py``).
"""
