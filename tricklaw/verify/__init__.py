"""``tricklaw verify``: run every check and report each one.

For each ruleset (every player count, every reading where it matters):

* ``registry``: the clause registry loads and validates (ids, kinds, line
  ranges against ``spec/sources.toml``);
* ``model-cites-spec``: every clause id the model cites exists;
* ``options-are-disputes``: each dispute option of the model is a dispute in
  the registry with the same readings and default, and vice versa;
* ``example ID``: each worked example holds exactly under the readings
  its data names (see :mod:`tricklaw.proofs.examples`);
* ``shuffle-vectors``: SplitMix64 gives the published reference outputs and
  the shuffle and deals give ``spec/shuffle-vectors.json``;
* ``self-check``: sampled random games per player count keep every invariant
  after every action (:mod:`tricklaw.model.invariants`), replay from their
  JSON record to the same state, repeat exactly from the same seed, and score
  every round as recomputed from the tricks' cards;
* ``bounds-artifact``: the score bounds proved here are those checked in
  (``spec/bounds/v1.json``, :mod:`tricklaw.proofs.bounds.artifact`), readings and
  witnesses included.

the worked tricks as Z3 constraints (:mod:`tricklaw.proofs.example_constraints`),
and the Z3 obligations of :mod:`tricklaw.proofs.obligations` (trick rules,
model-encoding agreement, card conservation) and the score bounds of
:mod:`tricklaw.proofs.bounds` under every reading that can change them
(:mod:`tricklaw.proofs.bounds.readings`; each proved on a sound relaxation and met by
a witness the model replays).

Each row has one of the statuses of :data:`~tricklaw.proofs.statuses.STATUSES`
(``proved``, ``pass``, ``info``, ``finding``, ``trivial``, ``vacuous``, ``unknown``,
``counterexample``, ``fail``), listed with their meanings in the report and in
``tricklaw verify --help``. ``proved`` is a theorem about the rules: an unsat whose
premises are satisfiable and whose claim is not true on its own (else ``vacuous`` or
``trivial``, :func:`~tricklaw.proofs.solver.classify`). The command exits 1 if any row
fails (:func:`~tricklaw.proofs.results.fails`): a failed check, a counterexample,
an unknown (a time-out is never counted as proved), or a vacuous or trivial row that
its ruleset does not document as expected. By default the report is an 80-column
summary (:mod:`.summary`): counts by ruleset and by kind of obligation, every failure and
every finding in full, the statuses, and closing lines that count what passed apart from
the findings, the informational rows and the documented hollow ones. ``--table`` prints
every row instead, and ``--json FILE`` writes every row.

Each ruleset's own checks, and each (ruleset, player count) (:data:`PLAYER_STEPS`, the
one list of per-table steps), is a :class:`Unit`, each step run in a fresh Z3 context
(:func:`~tricklaw.proofs.solver.fresh_context`, so that a step's rows do not depend on
what ran before it) and, with ``--jobs N``, in a pool of
``N`` worker processes; the results keep their order, and are the same for every ``N``.
With ``--fail-fast`` each unit is one step of one table, the steps run over every table
in turn, quick ones first (:data:`~tricklaw.verify.run.FAIL_FAST_ORDER`), and verify
stops at the first failing row (:func:`~tricklaw.verify.run.collect`): it exits 1
exactly when the whole run would, sooner (the mutation harness,
:mod:`tricklaw.mutation`, runs verify this way on each mutant; with ``--past-falls`` it
goes on past a step that raised, to a row a step reported); ``--skip STEP`` leaves a
step out (:data:`~tricklaw.verify.run.STEP_NAMES`), and
a ``skipped`` row says so. With ``--smt2 DIR`` every solver query is written as an SMT-LIB 2 file
(:mod:`tricklaw.proofs.recorder`) for a second solver to check again.

The package: :mod:`.checks` holds the checks that are not Z3 obligations (the registry,
the worked examples by the model, the shuffle vectors, the self-check), :mod:`.run` the
steps, the units and :func:`collect`, :mod:`.summary` the default 80-column report,
and :mod:`.report` the full table, the JSON report and the exit status.
"""

from tricklaw.verify.report import BAD, run_verify
from tricklaw.verify.run import PARTED_STEPS, PLAYER_STEPS, PartedStep, Scope, Unit, collect
from tricklaw.verify.summary import summary, summary_lines

__all__ = [
    "BAD",
    "PARTED_STEPS",
    "PLAYER_STEPS",
    "PartedStep",
    "Scope",
    "Unit",
    "collect",
    "run_verify",
    "summary",
    "summary_lines",
]
