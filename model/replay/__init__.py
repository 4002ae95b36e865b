"""Replaying a game against the rules: the one record and log checker's core.

A game that some implementation played, given as a JSON record or a JSON Lines log, is
replayed event by event through the reference model, and the first place where it
disagrees with the rules is reported with the clause ids that decide it:

* :mod:`~tricklaw.model.replay.verdict`: the outcome of a check (agrees, diverges,
  unreadable) and the two errors that end one;
* :mod:`~tricklaw.model.replay.checker`: the checker, driven one event at a time (a round
  begins, an action, a trick's result, a round's scores, the game's end); the hot path;
* :mod:`~tricklaw.model.replay.deals`: a given deal against the seed's deal, or against
  the rules of a deal;
* :mod:`~tricklaw.model.replay.tricks`: a recorded trick result against the trick the
  rules completed;
* :mod:`~tricklaw.model.replay.ends`: a round's scores and the game's end against the
  rules';
* :mod:`~tricklaw.model.replay.departure`: an engine's declared own rule, judged: which
  divergences a reading excuses, and the check to the end under that reading;
* :mod:`~tricklaw.model.replay.records`: a JSON record, validated by its schema and
  replayed through the checker (:func:`~tricklaw.model.replay.records.replay` and ``tricklaw
  check RECORD`` both go this way).

The JSON Lines reader, the ``tricklaw check`` command and the log converter are the
application's (:mod:`tricklaw.check`); they drive this checker too.
"""
