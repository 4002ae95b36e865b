"""The parts every kind of vector case shares: the case list that numbers its cases, the
fixed seeds and samples of the samplers, and the helpers that name clauses and cards.

A case's clause list is traceability (the runner contract in :mod:`tricklaw.vectors`):
:class:`Cases` sorts it and drops repeats, so the builders may add a clause twice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from tricklaw.model.cards import Card
from tricklaw.model.record import deal_json
from tricklaw.model.rng import MASK64, SplitMix64
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.state import Deal, Game
from tricklaw.spec import load_registry
from tricklaw.spec.errors import TricklawError

Json = dict[str, Any]

TAGS = {
    "deals": "deal",
    "tricks": "trick",
    "legal": "legal",
    "scores": "score",
    "games": "game",
    "perft": "perft",
}
"""The word of each kind in case ids (``STI93-trick-0042``)."""
NON_NORMATIVE = frozenset({"advice", "info", "example"})
"""Clause kinds that state no rule (the coverage check skips them)."""


class VectorError(TricklawError):
    """Vectors that cannot be generated, written, read or checked."""


def hex64(value: int) -> str:
    """A 64-bit number as the vectors write it: 16 lower-case hexadecimal digits."""
    return f"{value & MASK64:016x}"


def named_seed(*parts: object) -> int:
    """A fixed 64-bit seed for a sampler, from its name (the same on every machine)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def sample(rng: SplitMix64, pool: Sequence[Any], k: int) -> list[Any]:
    """``k`` distinct items of ``pool`` (a partial Fisher-Yates shuffle from the front)."""
    items = list(pool)
    for i in range(k):
        j = i + rng.below(len(items) - i)
        items[i], items[j] = items[j], items[i]
    return items[:k]


def fmt(ruleset: Ruleset[Any], cards: Iterable[Card]) -> list[str]:
    """``cards`` in the ruleset's notation."""
    return ruleset.palette.format_all(cards)


def roles(ruleset: Ruleset[Any], *names: str) -> list[str]:
    """The clause ids of the rule roles ``names`` in ``ruleset``'s role table."""
    return [ruleset.clause[n] for n in names if ruleset.clause.get(n)]


def non_default_disputes(ruleset: Ruleset[Any], game: Game) -> list[str]:
    """The disputes whose reading ``game`` changes from the default."""
    return [
        s.dispute for s in ruleset.option_specs if s.dispute and game.options[s.name] != s.default
    ]


def vector_deal_json(ruleset: Ruleset[Any], deal: Deal) -> Json:
    """A deal as the vectors write it: the record's form
    (``tricklaw.model.record.deal_json``), with ``first_leader`` and ``extras``
    always present, last (null and empty when the rules draw none)."""
    always = {"first_leader": deal.first_leader, "extras": dict(deal.extras)}
    record = deal_json(deal, ruleset.palette)
    return {**{k: v for k, v in record.items() if k not in always}, **always}


class Cases:
    """The cases of one vector file, numbered as they are added (``STI93-trick-0042``:
    the registry's clause prefix, the kind's tag, a number)."""

    def __init__(self, prefix: str, tag: str) -> None:
        self.prefix = prefix
        self.tag = tag
        self.items: list[Json] = []

    @classmethod
    def of(cls, ruleset: Ruleset[Any], kind: str) -> Cases:
        """The empty case list of ``ruleset``'s file of ``kind``."""
        return cls(load_registry(ruleset.id).prefix, TAGS[kind])

    def add(
        self,
        game: Game | None,
        inputs: Json,
        expected: Json,
        clauses: Iterable[str],
    ) -> None:
        """Add a case of ``game`` (None: a ruleset-free case) with its sorted clauses."""
        self.items.append(
            {
                "id": f"{self.prefix}-{self.tag}-{len(self.items) + 1:04d}",
                "ruleset": game.ruleset.id if game else None,
                "players": game.players if game else None,
                "options": game.options.as_dict() if game else {},
                "input": inputs,
                "expected": expected,
                "clauses": sorted(set(clauses)),
            }
        )
