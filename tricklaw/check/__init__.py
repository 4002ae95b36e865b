"""The log checker: ``tricklaw check RECORD`` replays a game written by any implementation.

It reads either a JSON game record (``spec/record.schema.json``) or a **JSON Lines log**
(``spec/log.schema.json``, described in :mod:`tricklaw.check.log_format`), replays
every action through the reference model, and reports the **first** divergence in log
order as one line: an illegal action, a wrong trick result, a wrong deal, score, total
or winner. Each report names the place (line, round, action or trick), what the log
says, the value the rules give (the *expected* value) and the clause ids that decide
it. Exit status: 0 the log agrees with the rules, 1 it diverges, 2 it cannot be read
(malformed JSON, a field that breaks the schema, an unknown ruleset or option, a card
that no palette has such as ``Q99``)::

    $ tricklaw check game.jsonl
    agrees: sticheln, 4 players: 2 rounds, 120 actions, 28 tricks checked; totals
    [-15, -6, -17, -30]; the game is over
    $ tricklaw check wrong.jsonl
    diverges (sticheln, 4 players): line 26, round 0, trick 3: the log says winner = 2;
    expected winner = 1 [STI-TRICK-5, STI-TRICK-2, STI-TRICK-4]

(each verdict is one line; an unreadable log prints ``tricklaw: error: check: ...`` to
standard error, a field that breaks the schema with the schema's message). ``--json``
prints the verdict as one JSON object instead::

    {"status": "diverges", "where": {"line": 26, "path": null, "round": 0,
     "action": null, "trick": 3}, "game": "sticheln, 4 players",
     "message": "line 26, round 0, trick 3: ...",
     "expected": 1, "got": 2, "clauses": ["STI-TRICK-5", "STI-TRICK-2", "STI-TRICK-4"],
     "disputes": [], "checked": {"rounds": 1, "actions": 20, "tricks": 3}}

``status`` is ``agrees``, ``diverges``, ``departs`` or ``unreadable``; ``disputes``
lists the disputes the divergence is established to turn on
(:mod:`tricklaw.model.replay.citation`, shared with ``tricklaw fuzz``). ``--declare FILE``
reads an engine's declaration (:mod:`tricklaw.model.replay.declaration`): its readings
fill in the options, and a divergence on a dispute it settles by its own rule is
``departs`` (exit 0) only when some reading of the dispute gives the log's answer and the
whole log, checked again under that reading, agrees
(:mod:`tricklaw.model.replay.departure`; ``readings`` names the readings). In ``where``,
``line`` is the
log's line and ``path`` the place in a record (``rounds[1].tricks[2]``); ``round``, and
``action`` and ``trick`` within the round, count from 0, as the files do (the log's
``round``, a record's ``rounds[i]``), in the message too; only ``line`` counts from 1, as
an editor does.

One checker does the work, whatever the input: the model's
(:mod:`tricklaw.model.replay`), which :func:`tricklaw.model.replay.records.replay` and so
``tricklaw replay`` use too. This package adds what an application needs around it:

* :mod:`~tricklaw.check.log_format`: the JSON Lines log and its kinds of line;
* :mod:`~tricklaw.check.validation`: each line validated by the log schema (a fast
  plain path for the usual line, the schema's message for a bad one);
* :mod:`~tricklaw.check.lines`: the JSON Lines reader, streaming (memory stays flat
  however long the log);
* :mod:`~tricklaw.check.reading`: a file or stream, told to be a log or a record (a
  record is read whole and validated by the record schema);
* :mod:`~tricklaw.check.convert`: ``--convert FILE``, a record written as a log
  (:func:`record_to_log` in Python);
* :mod:`~tricklaw.check.bench`: ``tricklaw bench --check``, the checker's speed;
* :mod:`~tricklaw.check.command`: the subcommand (:func:`~tricklaw.check.command.add_command`).
"""

from __future__ import annotations

from tricklaw.check.bench import bench_check
from tricklaw.check.command import add_command, cmd_check
from tricklaw.check.convert import record_to_log, state_to_log
from tricklaw.check.lines import check_lines
from tricklaw.check.log_format import FORMAT, VERSION
from tricklaw.check.reading import check_path, check_stream
from tricklaw.model.replay.checker import KEPT_ROUNDS
from tricklaw.model.replay.records import check_record
from tricklaw.model.replay.verdict import AGREES, DIVERGES, EXIT_STATUS, UNREADABLE, Verdict

__all__ = [
    "AGREES",
    "DIVERGES",
    "EXIT_STATUS",
    "FORMAT",
    "KEPT_ROUNDS",
    "UNREADABLE",
    "VERSION",
    "Verdict",
    "add_command",
    "bench_check",
    "check_lines",
    "check_path",
    "check_record",
    "check_stream",
    "cmd_check",
    "record_to_log",
    "state_to_log",
]
