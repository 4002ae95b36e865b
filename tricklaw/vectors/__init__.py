"""Conformance vectors: language-neutral JSON cases with which any implementation of a
ruleset shows that it agrees with tricklaw's reference model.

``tricklaw vectors`` writes them, deterministically, into the versioned folder
``spec/vectors/v1/`` (checked in, and installed with the package); ``tricklaw vectors
--check`` regenerates them in memory and exits 1 with one line naming the first file that
differs from the checked-in one. ``spec/vectors.schema.json`` is their JSON Schema (a game
case's record refers to ``record.schema.json`` beside it). A version folder never changes
meaning: a new format, or a changed expected output, is published as ``v2/``.

**The runner contract.** What an implementation reads, and what it must reproduce:

*Files.* ``v1/index.json`` lists every vector file with its ``kind``, ``ruleset`` and number
of ``cases``. ``rng.json`` holds the ruleset-free cases; every ruleset has one file per
kind, ``<ruleset>.<kind>.json``, for the kinds ``deals``, ``tricks``, ``legal``, ``scores``,
``games`` and ``perft``. A vector file is one JSON object: ``format``
(``"tricklaw-vectors"``), ``version`` (1), ``kind``, ``ruleset`` (null in ``rng.json``),
the ruleset's ``palette`` (colour ``letters`` and ``names`` in canonical order), a
``description`` and the ``cases``.

*Cases.* Every case has a stable ``id`` (``STI93-trick-0042``: the registry's clause
prefix, the kind, a number), the ``ruleset``, the number of ``players``, ``options`` (every
option of the ruleset, defaults included, as the model resolves them), ``input``,
``expected`` and ``clauses``. A runner makes the game from ruleset, players and options,
computes the outputs from ``input`` alone and compares them with ``expected``: a case
passes when every field of ``expected`` is reproduced exactly (JSON equality: objects by
key, lists in order). ``clauses`` (sorted) lists the ids of the rule clauses and disputes
of ``spec/<ruleset>.toml`` that the case exercises; it is traceability, not an output. The
clause ids that the model itself reports are outputs, in ``expected``; a runner that
reports no clause ids may skip ``expected.clauses`` and ``expected.forbidden_by`` and
should say so.

*Notation.* A card is its colour letter and value (``R5``, ``Y14``) in the ruleset's
palette; the canonical deck order is colour by colour in palette order, values ascending.
Seats are 0-based and clockwise. In ``tricks`` and ``legal`` a trick lists its cards in
play order and names seats by their offset from the leader (0 = the leader); elsewhere
seats are absolute. 64-bit numbers (the seeds and outputs of ``rng.json``, round seeds)
are 16-digit lower-case hexadecimal strings; game seeds are JSON integers.

*Per kind:*

``rng``
    ``input.function`` names a primitive of :mod:`tricklaw.model.rng`: ``splitmix64``
    (the first eight outputs of ``SplitMix64(seed)``), ``below`` (``below(n)`` for each of
    ``bounds`` in turn, from one generator), ``shuffle`` (the Fisher-Yates shuffle of
    ``[0 .. n-1]``), ``round_seed`` (output ``round`` of ``SplitMix64(seed)``), ``agent``
    (the first four outputs of the agents' generator ``SplitMix64(seed xor 2**64-1)``).
``deals``
    From ``input.seed`` and ``input.round`` (0): the ``round_seed``; the ``deck`` for the
    player count and options, in canonical order; its shuffled ``order``; and the ``deal``
    cut from it: ``hands`` (one list per seat, in dealt order), ``piles`` (name -> cards,
    top first: Sticheln's ``aside``, The Last's ``ghost`` and ``points``, Hund's
    ``virtual-down`` and ``virtual-up``), ``first_leader`` (The Last's drawn first player,
    else null) and ``extras`` (Hund's drawn ``designation``). Draws after the shuffle
    (first player, designation) continue the shuffling generator.
``tricks``
    ``input.cards`` is a complete trick, the lead first; Hund adds ``input.context``:
    ``powers``, the suits that held powers before the trick (letters, in power order Trump,
    Plus, Hund, Minus, Lead), and the round's ``designation`` or, with
    ``designation-mode=sets``, its five ``sets``. Reproduce ``winner`` (an offset, or null
    when nobody takes the trick), ``taken`` (offset -> the cards that seat takes, in the
    model's order), ``aside`` (cards that go to nobody), ``facts`` (name -> text: The
    Last's winning colour and points-card taker, Hund's trump and the powers held after the
    trick, ``"trump=red, plus=yellow"``) and ``clauses`` (the clause ids that decided the
    trick, in order). Every reading of the options marked ``affects_trick`` has its cases,
    as do Hund's three trick contexts.
``legal``
    A position of a seeded game played under the case's options: ``input.hand`` (canonical
    order) and the unfinished ``input.trick``. Reproduce ``playable``, the cards of the hand
    that may be played, in hand order, and ``forbidden_by``, the clause id the model names
    when one of the other cards is played (null when every card is playable).
``scores``
    A finished round of a seeded game: ``input.taken`` (per seat, the cards that count for
    it: in Sticheln and lowhigh the cards won, in The Last the face-down cards, in Hund the
    cards taken), ``first_leader``, ``seating`` and ``facts`` (Sticheln: the ``picked``
    cards, seat by seat; Hund: the ``powers``, suit letters in power order). Reproduce
    ``scores``, one per seat (The Last's ghost and Hund's virtual player included), and for
    Hund ``lead_decider``, the seat that names the next start player, or null.
``games``
    ``input.seed`` and ``input.agent`` (``"random"``): a whole game of seeded random
    agents. An agent chooses ``legal[below(len(legal))]`` from the agents' generator, where
    ``legal`` is the current player's legal actions in canonical order: ascending action
    code, that is by kind (``play``, ``select``, ``keep``, ``swap``, ``leader``,
    ``designate``), then by card in canonical order, or by seat. ``expected.record`` is the
    game's tricklaw record (``spec/record.schema.json``): options, seed, every deal, every
    action with its seat, every trick's result (absolute seats), the round facts and
    scores, the totals and the winners. ``expected.legal_counts`` is the number of legal
    actions at each decision, in order (the automatic plays of The Last's ghost and Hund's
    virtual player are no decisions). A runner without the random agent replays the
    record's deals and actions and checks every trick, score, total and the winners.
``perft``
    From the seeded deal of round 0 of ``input.seed``, after the actions of
    ``input.prefix`` (each a seat and an action in notation), ``counts[d-1]`` is the number
    of sequences of ``d`` decisions (legal actions of any kind) for ``d`` from 1 to
    ``input.depth``. Automatic plays happen between decisions and are not counted.

The reference runner is :func:`run_case`: it computes a case's outputs from its inputs
along other paths through the model than the generator took (the deal cut from the
shuffle, not the game's own; the rules' scoring functions, not the state's bookkeeping;
a depth-first perft against the generator's breadth-first one; the games replayed).
``tests/test_vectors.py`` runs every case through it.

*The package.* One module per job: :mod:`~tricklaw.vectors.cases` (what every case
builder shares), one module per kind that builds its cases and runs them
(:mod:`~tricklaw.vectors.rng`, :mod:`~tricklaw.vectors.deals`,
:mod:`~tricklaw.vectors.tricks`, :mod:`~tricklaw.vectors.legal`,
:mod:`~tricklaw.vectors.scores`, :mod:`~tricklaw.vectors.games`,
:mod:`~tricklaw.vectors.perft`), :mod:`~tricklaw.vectors.files` (generating, writing and
checking the files), :mod:`~tricklaw.vectors.runner` (reading them, the reference runner,
the schema) and :mod:`~tricklaw.vectors.command` (the ``tricklaw vectors`` command). What is
particular to one game (the readings sampled, trick contexts, clauses, scoring) is that
game's :class:`~tricklaw.vectors.profile.Profile` in :mod:`tricklaw.vectors.profiles`.
"""

from __future__ import annotations

from tricklaw.vectors.cases import NON_NORMATIVE, TAGS, VectorError
from tricklaw.vectors.command import add_command, cmd_vectors
from tricklaw.vectors.files import (
    FOLDER,
    FORMAT,
    INDEX_FORMAT,
    KINDS,
    VERSION,
    check,
    dumps,
    file_name,
    generate,
    write,
)
from tricklaw.vectors.runner import RUNNERS, load, run_case, schema, validate
from tricklaw.vectors.tricks import sample_trick, trick_variants

__all__ = [
    "FOLDER",
    "FORMAT",
    "INDEX_FORMAT",
    "KINDS",
    "NON_NORMATIVE",
    "RUNNERS",
    "TAGS",
    "VERSION",
    "VectorError",
    "add_command",
    "check",
    "cmd_vectors",
    "dumps",
    "file_name",
    "generate",
    "load",
    "run_case",
    "sample_trick",
    "schema",
    "trick_variants",
    "validate",
    "write",
]
