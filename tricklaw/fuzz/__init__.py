"""``tricklaw fuzz --engine "COMMAND"``: differential fuzzing of another implementation.

The fuzzer starts COMMAND, an engine that speaks the live oracle's stdio protocol
(:mod:`tricklaw.oracle`: JSON-RPC 2.0, one request per line), and plays games on it and
on the reference model side by side. After every action it compares the engine's answer
with the rules: the legal actions, each completed trick (leader, cards, winner, who takes
what, what is set aside), each round's scores, the totals, the seat to act, the end of the
game and the winners. Now and then it also tries an illegal action, which the engine must
refuse. The first disagreement stops the game; the fuzzer then **shrinks** it and writes
the smallest case it can find that still disagrees in the same way.

**The games.** Game ``i`` of a run seeded ``S`` draws everything from
``SplitMix64(round_seed(S, i))`` (:mod:`tricklaw.model.rng`), so a run is reproducible on
every machine. Each game picks a ruleset, a player count and a reading of every option
(those not fixed on the command line), with short games (``rounds`` 1-2, a small
``target``), and deals from a deck order of one of four styles: a fair shuffle, the deck
sorted by value, the deck in colour order, or sorted by value from the top, each lightly
stirred. Sorted decks give hands of equal values and of one colour: ties, zeros and
empty suits, the rare cases of every text. The players choose adversarially: a card that
ties a card already in the trick, the lowest card (zeros), the highest, or any.

The engine receives the deals explicitly in ``new_game`` (``deals``, one per round, up to
:data:`~tricklaw.fuzz.games.DEALT_ROUNDS`) together with the seed. A round after them is
dealt from the seed by the portable shuffle and compared from the action that starts it
(the state view after the last dealt round's last card), so the engine needs the shuffle
for any game that outlasts its deals, including a replayed case whose deals the shrinker
cut (see the protocol docs).

**The declaration.** The engine's ``hello`` answer may carry ``implements``
(:mod:`~tricklaw.model.replay.declaration`; or ``--declare FILE``): the rulesets, player
counts and option values it plays, and per dispute the reading it follows or a rule of
its own. Games are drawn only inside it (:mod:`~tricklaw.fuzz.declared`), and a
disagreement established to turn on a dispute declared ``own``, whose answer some reading
of the dispute gives, is a *departure*: the game is played again with the model under
that reading to its end (:func:`~tricklaw.fuzz.declared.follow`) and, if the engine
agrees, listed but not a failure. Any other answer is a failure.

**Shrinking.** A case is the game's set-up plus its *steps*: at each decision the index of
the chosen action among the legal ones (and, at some steps, an illegal action tried
first). The shrinker cuts the steps after the disagreement, drops the illegal probes that
do not matter, turns each choice into ``0`` (the first legal action) where the
disagreement stays, drops whole rounds from the front, and sets options back to their
defaults; it keeps a change only when the engine still disagrees in the same way (same
kind: legal actions, trick, scores, ...), and repeats until nothing changes.

**The report** (``--out DIR``, one ``fuzz-N.json`` per disagreement, ``format``
``tricklaw-fuzz-case``): the set-up, the deals, the actions in notation, the
disagreement (what the engine said, what the rules give, the clause ids), and the
reference record of the shrunk game up to the disagreement (``tricklaw check`` reads
it). A declared departure is written beside them as ``departure-N.json``, the same
format unshrunk, with the engine's stated rule as ``departure`` and the readings the
model followed as ``readings``. ``tricklaw fuzz
--engine "COMMAND" --replay FILE`` plays a case again.

Exit status: 0 no disagreement, 1 a disagreement (or an engine that breaks the protocol,
hangs or dies), 2 bad input.

The modules, one job each: :mod:`~tricklaw.fuzz.engine` (the engine process),
:mod:`~tricklaw.fuzz.cases` (cases, disagreements, outcomes), :mod:`~tricklaw.fuzz.games`
(the games and the players' choices), :mod:`~tricklaw.fuzz.declared` (the engine's
declaration), :mod:`~tricklaw.fuzz.progress` (the progress bar),
:mod:`~tricklaw.fuzz.compare` (the engine's answers
against the model's), :mod:`~tricklaw.fuzz.play` (one case played),
:mod:`~tricklaw.fuzz.shrink`, :mod:`~tricklaw.fuzz.report` (the case files),
:mod:`~tricklaw.fuzz.run` (a run) and :mod:`~tricklaw.fuzz.command` (``tricklaw fuzz``).
"""

from __future__ import annotations

from tricklaw.check.reading import CASE_FORMAT
from tricklaw.fuzz.cases import Case, Disagreement, Outcome, Step
from tricklaw.fuzz.command import add_command, cmd_fuzz
from tricklaw.fuzz.engine import ENGINE_TIMEOUT, Engine, EngineError
from tricklaw.fuzz.games import DEALT_ROUNDS, choose, illegal_candidates, make_deals, new_case
from tricklaw.fuzz.play import PROBE_RATE, play_case
from tricklaw.fuzz.report import case_from_json, case_json
from tricklaw.fuzz.run import Run, fuzz, replay_case
from tricklaw.fuzz.shrink import shrink

__all__ = [
    "CASE_FORMAT",
    "DEALT_ROUNDS",
    "ENGINE_TIMEOUT",
    "PROBE_RATE",
    "Case",
    "Disagreement",
    "Engine",
    "EngineError",
    "Outcome",
    "Run",
    "Step",
    "add_command",
    "case_from_json",
    "case_json",
    "choose",
    "cmd_fuzz",
    "fuzz",
    "illegal_candidates",
    "make_deals",
    "new_case",
    "play_case",
    "replay_case",
    "shrink",
]
