"""Legal worked examples: Z3 searches every hand the text allows for the worked tricks.

For each worked trick sequence of ``spec/<ruleset>.examples.toml`` and each combination
of the readings the play rule depends on (:attr:`PlayEncoding.readings
<tricklaw.proofs.plays.PlayEncoding.readings>`, the deck's included), Z3 decides whether
some hands make every play of the sequence legal under the game's play-rule encoding
(:data:`~tricklaw.proofs.plays.PLAYS`). The hands are free Bools, one per player and
card, held to what the text says and nothing more:

* every card played is in the deck in play (the deck clause), and no card is in two hands
  (the deal clause: the cards are dealt once);
* a player plays only cards of his hand (the encoding's hold clause), so the cards he plays
  later in the sequence are in his hand from its start, and the cards others play are not;
* before the round's trick ``t`` every hand holds the first hand's size less ``t``
  (:meth:`PlayEncoding.first_hand`); ``t`` is free unless the data states the sequence's
  first trick (``first_trick``);
* a trick's ``void`` (player -> colour letters) says the text states that player holds no
  card of those colours at that trick (lowhigh: "he has no green");
* the sequence's ``aside`` (``clause``, and ``cards``: player -> a card or a colour letter)
  says each of those players laid that card, or one card of that colour, out of his hand
  before the sequence (Sticheln's misery or unwanted card): it is in no hand.

Whether the tricks of a sequence are consecutive tricks of one round is a fact only when
the text says so (``consecutive = "stated"``). Where the data only infers it
(``"assumed"``: each winner leads the next), a contradiction is checked again with the
tricks independent (each its own hands and place in the round); when it then disappears,
the result names the assumption it rests on.

Each trick is also decided alone (only its plays need be legal, the hands still bound by
the whole sequence; the deck clause for its own cards), against the trick's
``holds_under`` (else the sequence's); a contradiction that needs the tricks to be
consecutive says so there too.

An unsatisfiable combination is reported with its unsat core: clause ids, each with the
play or fact it stands for (``CLAUSE@TRICK/PLAYER/CARD``). Where the data expects it (the
reading is not among ``holds_under``), it is a *finding* of the dispute whose option the
reading belongs to and whose clauses the core names: machine ``example-legality`` when the
core holds the play rule itself, ``unsat-core`` when it is the other facts (a card missing
from the deck). Anything else the data does not expect is a counterexample.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tricklaw.model.cards import Card, colour_of, value_of
from tricklaw.model.ruleset import Ruleset
from tricklaw.proofs.combinations import reading_combinations
from tricklaw.proofs.plays import PLAYS, PlayEncoding, term
from tricklaw.proofs.results import Result
from tricklaw.proofs.solver import COUNTEREXAMPLE, FINDING, PROVED, UNKNOWN, Tracked, check
from tricklaw.spec import Dispute, load_examples, load_registry

ASSUMED = "assumed"
"""``consecutive = "assumed"``: the data infers the tricks follow one another in a round."""


@dataclass(frozen=True, slots=True)
class Play:
    """One card of a worked trick: the trick's index and clause, the player, position."""

    trick: int
    clause: str
    player: str
    position: int
    card: Card


@dataclass(frozen=True, slots=True)
class Verdict:
    """Z3's answer for one sequence (or one trick) under one combination of readings."""

    status: str
    """``holds`` (some hands make it legal), ``contradiction`` or ``unknown``."""
    core: tuple[str, ...] = ()
    witness: Mapping[str, Any] | None = None
    seconds: float = 0.0


class WorkedSequence:
    """One worked trick sequence, read from the examples data, for one game."""

    def __init__(self, ruleset: Ruleset[Any], enc: PlayEncoding, data: Mapping[str, Any]):
        self.ruleset = ruleset
        self.enc = enc
        self.data = data
        self.fmt = ruleset.palette.format
        self.seats: list[str] = list(data["seats"])
        self.tricks: list[Mapping[str, Any]] = list(data["trick"])
        self.plays: list[Play] = []
        n = len(self.seats)
        for k, t in enumerate(self.tricks):
            lead = self.seats.index(t["leader"])
            for pos, card in enumerate(ruleset.palette.parse_all(t["cards"])):
                self.plays.append(Play(k, t["clause"], self.seats[(lead + pos) % n], pos, card))
        deck = enc.deck()
        self.deck = set(deck)
        self.universe = sorted(self.deck | {p.card for p in self.plays})
        self.deal = ruleset.clause["deal"]
        self._parts: dict[bool, list[tuple[int, str, Tracked]]] = {}

    def label(self, clause: str, play: Play) -> str:
        """The tracking label of a play's part: ``CLAUSE@TRICK/PLAYER/CARD``."""
        return f"{clause}@{play.clause}/{play.player}/{self.fmt(play.card)}"

    def assertions(self, consecutive: bool, only: int | None = None) -> list[Tracked]:
        """The sequence's facts and plays (the play rule for every trick, or for trick
        ``only`` alone), with the tricks one block of one round (``consecutive``) or each
        a block of its own."""
        if consecutive not in self._parts:
            blocks = (
                [list(range(len(self.tricks)))]
                if consecutive
                else [[k] for k in range(len(self.tricks))]
            )
            self._parts[consecutive] = [
                part for b, block in enumerate(blocks) for part in self._block(b, block)
            ]
        return [
            item
            for trick, role, item in self._parts[consecutive]
            if only is None or role not in ("deck", "rule") or trick == only
        ]

    def _aside(self, b: int) -> dict[str, dict[Card, z3.BoolRef]]:
        """For each player the data's ``aside`` names: a Bool per deck card he may have laid
        aside before the sequence (the card named, or any card of the colour named)."""
        out: dict[str, dict[Card, z3.BoolRef]] = {}
        for s, what in self.data.get("aside", {}).get("cards", {}).items():
            if len(what) == 1:
                colour = self.ruleset.palette.letters.index(what.upper())
                cards = [c for c in sorted(self.deck) if colour_of(c) == colour]
            else:
                cards = [c for c in [self.ruleset.palette.parse(what)] if c in self.deck]
            out[s] = {c: z3.Bool(f"aside{b}_{s}_{colour_of(c)}_{value_of(c)}") for c in cards}
        return out

    def _block(self, b: int, block: list[int]) -> list[tuple[int, str, Tracked]]:
        """The parts of one block of tricks, each as (trick, role, assertion); roles:
        ``fact`` (the deal, hand sizes, a stated void), ``deck``, ``hold``, ``rule``."""
        fmt = self.fmt
        enc = self.enc
        hand = {
            s: {c: z3.Bool(f"h{b}_{s}_{colour_of(c)}_{value_of(c)}") for c in self.universe}
            for s in self.seats
        }
        plays = [p for p in self.plays if p.trick in block]
        out: list[tuple[int, str, Tracked]] = []
        for p in plays:
            if p.card not in self.deck:
                none = z3.And(*[z3.Not(hand[s][p.card]) for s in self.seats])
                out.append((p.trick, "deck", Tracked(f"{enc.deck_clause}@{fmt(p.card)}", none)))
        aside = self._aside(b)
        once = [
            z3.AtMost(
                *[hand[s][c] for s in self.seats], *[a[c] for a in aside.values() if c in a], 1
            )
            for c in self.universe
        ]
        out.append((block[0], "fact", Tracked(f"{self.deal}@dealt-once", z3.And(*once))))
        laid = self.data.get("aside", {})
        for s, cards in aside.items():
            one = z3.PbEq([(x, 1) for x in cards.values()], 1) if cards else z3.BoolVal(False)
            out.append((block[0], "fact", Tracked(f"{laid['clause']}@aside/{s}", one)))
        first = enc.first_hand()
        if first is not None:
            size, clause = first
            # The round's trick at which the block starts, in binary, so that each hand's
            # size is one pseudo-Boolean equation: cards held + start = first hand's size.
            bits = [z3.Bool(f"first_trick_{b}_bit{j}") for j in range(size.bit_length())]
            start = z3.Sum([z3.If(x, 2**j, 0) for j, x in enumerate(bits)])
            stated = self.data.get("first_trick") if b == 0 else None
            bound = start <= size - len(block)
            if stated is not None:
                bound = z3.And(bound, start == int(stated))
            weights = [(x, 2**j) for j, x in enumerate(bits)]
            counts = [
                z3.PbEq([*[(h, 1) for h in hand[s].values()], *weights], size) for s in self.seats
            ]
            out.append((block[0], "fact", Tracked(f"{clause}@hand-size", z3.And(bound, *counts))))
        gone: set[tuple[str, Card]] = set()  # (player, card) played in earlier tricks
        for k in block:
            trick = self.tricks[k]
            before = {
                s: {c: z3.BoolVal(False) if (s, c) in gone else h for c, h in hand[s].items()}
                for s in self.seats
            }
            row = [p for p in plays if p.trick == k]
            gone |= {(p.player, p.card) for p in row}
            for player, letters in trick.get("void", {}).items():
                colours = [self.ruleset.palette.letters.index(x) for x in letters]
                lacks = z3.And(
                    *[z3.Not(h) for c, h in before[player].items() if colour_of(c) in colours]
                )
                out.append((k, "fact", Tracked(f"{trick['clause']}@void/{player}", lacks)))
            for p in row:
                # PlayEncoding.legal, in its two parts: the card is his, and the rule.
                held, card = before[p.player], term(p.card)
                hold = Tracked(self.label(enc.hold_clause, p), enc.held_card(held, card))
                out.append((k, "hold", hold))
                prefix = [term(q.card) for q in row[: p.position]]
                for part in enc.rule(held, prefix, card):
                    out.append((k, "rule", Tracked(self.label(part.clause, p), part.formula)))
        return out

    def decide(self, consecutive: bool, timeout_ms: int, only: int | None = None) -> Verdict:
        """Whether some hands make the plays legal; the core when none do. Tricks taken
        apart share no hands, so each is decided on its own."""
        assertions = self.assertions(consecutive, only)
        if consecutive:
            return self._decide(assertions, timeout_ms, self._decode)
        tricks = [k for k, _, _ in self._parts[False]]
        verdicts = []
        for k in range(len(self.tricks)):
            mine = [a for a, t in zip(self._parts[False], tricks, strict=True) if t == k]
            keep = {id(item) for _, _, item in mine}
            verdicts.append(
                self._decide([a for a in assertions if id(a) in keep], timeout_ms, None)
            )
            if verdicts[-1].status != "holds":
                break
        seconds = sum(v.seconds for v in verdicts)
        last = verdicts[-1]
        return Verdict(last.status, last.core, None, seconds)

    @staticmethod
    def _decide(assertions: list[Tracked], timeout_ms: int, decode: Any) -> Verdict:
        start = time.perf_counter()
        outcome = check(assertions, timeout_ms, decode)
        seconds = time.perf_counter() - start
        if outcome.status == PROVED:  # unsatisfiable: no hands make it legal
            return Verdict("contradiction", outcome.clauses, None, seconds)
        if outcome.status == COUNTEREXAMPLE:
            return Verdict("holds", (), outcome.witness, seconds)
        return Verdict("unknown", (), None, seconds)

    def _decode(self, model: z3.ModelRef) -> dict[str, Any]:
        """The hands Z3 found at the sequence's start, and its first trick in the round."""
        hands = {
            s: [
                self.fmt(c)
                for c in self.universe
                if z3.is_true(
                    model.eval(
                        z3.Bool(f"h0_{s}_{colour_of(c)}_{value_of(c)}"), model_completion=True
                    )
                )
            ]
            for s in self.seats
        }
        bits = [z3.Bool(f"first_trick_0_bit{j}") for j in range(8)]
        first = sum(
            2**j for j, x in enumerate(bits) if z3.is_true(model.eval(x, model_completion=True))
        )
        return {"hands": hands, "first_trick": first}


def _expected(holds_under: Mapping[str, Sequence[str]], readings: Mapping[str, str]) -> bool:
    return all(readings[k] in v for k, v in holds_under.items() if k in readings)


def disputes_excluded(
    readings: Mapping[str, str],
    holds_under: Mapping[str, Sequence[str]],
    disputes: Sequence[Dispute],
    core: Sequence[str],
) -> list[Dispute]:
    """The disputes whose reading here the data excludes and whose clauses the core names."""
    named = {label.split("@")[0] for label in core}
    return [
        d
        for d in disputes
        if d.option in readings
        and d.option in holds_under
        and readings[d.option] not in holds_under[d.option]
        and named & {d.id, *d.clauses}
    ]


def _within_a_trick(core: Sequence[str]) -> bool:
    """Whether a core stays within one trick: no hand-size or deal fact (which tie the
    tricks of a round together), and the plays and facts it names all of one trick. Such a
    contradiction stands with the tricks taken apart too."""
    tricks = set()
    for label in core:
        clause, _, what = label.partition("@")
        if what in ("hand-size", "dealt-once"):
            return False
        if what.startswith("void/"):
            tricks.add(clause)
        elif "/" in what:
            tricks.add(what.split("/")[0])
    return len(tricks) <= 1


def _machine(enc: PlayEncoding, core: Sequence[str]) -> str:
    """``example-legality`` when the core holds the play rule, else ``unsat-core``."""
    rule = [c for c in core if "/" in c and c.split("@")[0] != enc.hold_clause]
    return "example-legality" if rule else "unsat-core"


def _label(readings: Mapping[str, str]) -> str:
    return ", ".join(f"{k}={v}" for k, v in readings.items()) or "default"


def sequence_results(ruleset: Ruleset[Any], timeout_ms: int) -> list[Result]:
    """Every worked sequence of ``ruleset`` under every reading of its play rule, and
    each of its tricks alone, as verify results."""
    if ruleset.id not in PLAYS:
        return []
    cls = PLAYS[ruleset.id]
    disputes = load_registry(ruleset.id).disputes
    out: list[Result] = []
    for ex in load_examples(ruleset.id).get("sequence", []):
        holds_under = ex.get("holds_under", {})
        trick_lines: dict[int, list[str]] = {k: [] for k in range(len(ex["trick"]))}
        trick_ok = {k: True for k in trick_lines}
        trick_found: dict[int, dict[str, str]] = {k: {} for k in trick_lines}
        trick_secs = 0.0
        for readings in reading_combinations(ruleset, cls.readings):
            game = ruleset.make_game(ex["players"], readings)
            seq = WorkedSequence(ruleset, cls(game, {}), ex)
            consecutive = ex.get("consecutive") in ("stated", ASSUMED)
            verdict = seq.decide(consecutive, timeout_ms)
            out.append(_result(seq, readings, verdict, disputes, timeout_ms))
            for k, trick in enumerate(ex["trick"]):
                alone = seq.decide(consecutive, timeout_ms, only=k)
                trick_secs += alone.seconds
                want = _expected(trick.get("holds_under", holds_under), readings)
                got = alone.status == "holds"
                if alone.status == "unknown" or got != want:
                    trick_ok[k] = False
                if alone.status == "contradiction" and not want:
                    for d in disputes_excluded(
                        readings, trick.get("holds_under", holds_under), disputes, alone.core
                    ):
                        trick_found[k].setdefault(d.id, _machine(seq.enc, alone.core))
                core = f" (core {', '.join(alone.core)})" if alone.core else ""
                if (
                    alone.status == "contradiction"
                    and ex.get("consecutive") == ASSUMED
                    and not _within_a_trick(alone.core)
                ):
                    apart = seq.decide(False, timeout_ms, only=k)
                    trick_secs += apart.seconds
                    if apart.status == "holds":
                        core += ", only if the tricks are consecutive (assumed)"
                trick_lines[k].append(f"{_label(readings)}: {alone.status}{core}")
        for k, trick in enumerate(ex["trick"]):
            out.append(
                per_reading(
                    f"example-legal {trick['clause']}",
                    ruleset.id,
                    str(ex["players"]),
                    ok=trick_ok[k],
                    found=trick_found[k],
                    seconds=trick_secs / max(1, len(trick_lines)),
                    clauses=(trick["clause"],),
                    lines=trick_lines[k],
                )
            )
    return out


def per_reading(
    obligation: str,
    ruleset_id: str,
    players: str,
    *,
    ok: bool,
    found: Mapping[str, str],
    seconds: float,
    clauses: tuple[str, ...],
    lines: Sequence[str],
) -> Result:
    """The row of one worked trick decided under every reading: ``proved`` when it holds
    under every reading, as its data says; a ``finding`` when it holds where its data says
    and fails elsewhere, each failure a recorded dispute (``found``: dispute id -> the
    machine whose core names it), so that a contradiction is never shown as proved; else a
    ``counterexample``."""
    detail = "; ".join(lines)
    if not ok:
        return Result(
            obligation,
            ruleset_id,
            players,
            "every reading",
            COUNTEREXAMPLE,
            seconds,
            clauses,
            detail,
        )
    if not found:
        return Result(
            obligation, ruleset_id, players, "every reading", PROVED, seconds, clauses, detail
        )
    ids = ",".join(sorted(found))
    machines = sorted(set(found.values()))
    return Result(
        obligation,
        ruleset_id,
        players,
        "every reading",
        FINDING,
        seconds,
        clauses,
        f"as its data says, except where dispute {ids} reads otherwise: {detail}",
        {"disputes": sorted(found), "machines": machines},
        machines[0],
        ids,
    )


def _result(
    seq: WorkedSequence,
    readings: Mapping[str, str],
    verdict: Verdict,
    disputes: Sequence[Dispute],
    timeout_ms: int,
) -> Result:
    """The verify result of one sequence under one combination of readings."""
    ruleset, ex = seq.ruleset, seq.data
    holds_under = ex.get("holds_under", {})
    stated = ex.get("consecutive") == "stated"

    # A contradiction cites the clauses of its core; anything else the sequence's.
    clauses = tuple(sorted({label.split("@")[0] for label in verdict.core})) or tuple(ex["clauses"])

    def result(
        status: str,
        detail: str,
        witness: Mapping[str, Any],
        machine: str = "",
        dispute: str = "",
    ) -> Result:
        return Result(
            f"example-legal {ex['id']}",
            ruleset.id,
            str(ex["players"]),
            _label(readings),
            status,
            verdict.seconds + extra,
            clauses,
            detail,
            dict(witness),
            machine,
            dispute,
        )

    extra = 0.0  # the time of the check with the tricks apart
    want = _expected(holds_under, readings)
    if verdict.status == "unknown":
        return result(UNKNOWN, "Z3 gave no answer in time", {})
    if verdict.status == "holds":
        hands = dict(verdict.witness or {})
        detail = "some hands make every play legal" + (f", e.g. {hands}" if hands else "")
        if want:
            return result(PROVED, detail, hands)
        return result(COUNTEREXAMPLE, detail + "; its data says it fails here", hands)
    core = verdict.core
    detail = "no hands make every play legal; unsat core: " + ", ".join(core)
    assumption = ""
    if not stated and ex.get("consecutive") == ASSUMED:
        apart = Verdict("contradiction") if _within_a_trick(core) else seq.decide(False, timeout_ms)
        extra += apart.seconds
        if apart.status == "holds":
            assumption = "consecutive"
            detail += (
                "; this rests on the assumption that the tricks are consecutive tricks of "
                'one round (consecutive = "assumed": the text does not say so); '
                "taken apart, each trick has legal hands"
            )
        elif apart.status == "contradiction":
            detail += "; it holds without assuming the tricks are consecutive"
        else:
            detail += "; whether it rests on the tricks being consecutive is unknown (time-out)"
    witness = {"core": list(core), "assumption": assumption}
    if want:
        return result(COUNTEREXAMPLE, detail + "; its data says it holds here", witness)
    found = disputes_excluded(readings, holds_under, disputes, core)
    if not found:
        detail += "; the core names no dispute of the readings the data excludes"
        return result(COUNTEREXAMPLE, detail, witness)
    ids = ",".join(d.id for d in found)
    detail = f"dispute {ids}: {detail}"
    return result(FINDING, detail, witness, _machine(seq.enc, core), ids)
