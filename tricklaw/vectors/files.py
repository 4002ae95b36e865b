"""The vector files: generating every file of the version folder (deterministically, the
same text on every machine and run), writing them (``tricklaw vectors``) and comparing a
folder with a fresh generation (``tricklaw vectors --check``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS
from tricklaw.spec import json_text, load_registry
from tricklaw.spec.json_text import JsonTextError
from tricklaw.vectors.cases import Json, VectorError
from tricklaw.vectors.deals import deal_cases
from tricklaw.vectors.games import game_cases
from tricklaw.vectors.legal import legal_cases
from tricklaw.vectors.perft import perft_cases
from tricklaw.vectors.rng import rng_cases
from tricklaw.vectors.scores import score_cases
from tricklaw.vectors.tricks import trick_cases

FORMAT = "tricklaw-vectors"
INDEX_FORMAT = "tricklaw-vectors-index"
VERSION = 1
FOLDER = f"v{VERSION}"
KINDS = ("rng", "deals", "tricks", "legal", "scores", "games", "perft")
"""The kinds of vector, in file order (``rng`` has one file, the others one per ruleset)."""

DESCRIPTIONS = {
    "rng": "The portable random number generator: SplitMix64 outputs, bounded draws, "
    "Fisher-Yates shuffles of [0 .. n-1], round seeds and the agents' generator.",
    "deals": "Round 0 of seeded games: the round seed, the deck in canonical order, its "
    "shuffle and the deal cut from it.",
    "tricks": "Complete tricks (first card = lead; seats are offsets from the leader): the "
    "winner, the cards each seat takes, the cards set aside, facts and deciding clauses.",
    "legal": "Positions of seeded games: a hand and an unfinished trick, the playable cards "
    "and the clause that forbids the others.",
    "scores": "Finished rounds of seeded games: the cards that count for each seat and the "
    "round's facts, and the scores.",
    "games": "Whole games of seeded random agents as tricklaw records, with the number of "
    "legal actions at each decision.",
    "perft": "The number of sequences of legal decisions from a seeded deal, to each depth.",
}

GENERATORS: Mapping[str, Callable[[Ruleset[Any]], list[Json]]] = {
    "deals": deal_cases,
    "tricks": trick_cases,
    "legal": legal_cases,
    "scores": score_cases,
    "games": game_cases,
    "perft": perft_cases,
}
"""The case builder of each kind with one file per ruleset."""


def file_name(kind: str, ruleset_id: str | None) -> str:
    """The name of the vector file of ``kind`` (and ``ruleset_id``) in the version folder."""
    return "rng.json" if kind == "rng" else f"{ruleset_id}.{kind}.json"


def _document(kind: str, ruleset: Ruleset[Any] | None, cases: list[Json]) -> Json:
    palette = (
        {"letters": list(ruleset.palette.letters), "names": list(ruleset.palette.names)}
        if ruleset
        else None
    )
    return {
        "format": FORMAT,
        "version": VERSION,
        "kind": kind,
        "ruleset": ruleset.id if ruleset else None,
        "palette": palette,
        "description": DESCRIPTIONS[kind],
        "cases": cases,
    }


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def dumps(document: Json) -> str:
    """A vector file as text: the header fields one per line, then one case per line (so
    that a changed case is a changed line)."""
    lines = ["{"]
    for key, value in document.items():
        if key != "cases":
            lines.append(f" {json.dumps(key)}: {_compact(value)},")
    cases = document.get("cases", [])
    lines.append(' "cases": [')
    lines += [f"  {_compact(case)}," for case in cases[:-1]]
    lines += [f"  {_compact(case)}" for case in cases[-1:]]
    lines += [" ]", "}"]
    return "\n".join(lines) + "\n"


def check_clause_ids(documents: Mapping[str, Json]) -> None:
    """Raise VectorError naming a case that cites a clause id its ruleset lacks."""
    known: dict[str, frozenset[str]] = {r: load_registry(r).ids for r in RULESETS}
    for name, doc in documents.items():
        for case in doc["cases"]:
            ids = known.get(case["ruleset"], frozenset())
            unknown = [c for c in case["clauses"] if c not in ids]
            if unknown:
                raise VectorError(f"{name} {case['id']}: unknown clause ids {', '.join(unknown)}")


def ruleset_documents(ruleset: Ruleset[Any]) -> dict[str, Json]:
    """The vector documents of one ruleset, by file name: one per kind (every kind but
    ``rng``), its cases freshly generated."""
    return {
        file_name(kind, ruleset.id): _document(kind, ruleset, generate_kind(ruleset))
        for kind, generate_kind in GENERATORS.items()
    }


@cache
def _generate() -> tuple[tuple[str, str], ...]:
    documents: dict[str, Json] = {"rng.json": _document("rng", None, rng_cases())}
    for ruleset in RULESETS.values():
        documents |= ruleset_documents(ruleset)
    check_clause_ids(documents)
    index = {
        "format": INDEX_FORMAT,
        "version": VERSION,
        "files": [
            {
                "file": name,
                "kind": doc["kind"],
                "ruleset": doc["ruleset"],
                "cases": len(doc["cases"]),
            }
            for name, doc in documents.items()
        ],
    }
    texts = [(f"{FOLDER}/{name}", dumps(doc)) for name, doc in documents.items()]
    return (
        (f"{FOLDER}/index.json", json.dumps(index, indent=1, ensure_ascii=True) + "\n"),
        *texts,
    )


def generate() -> dict[str, str]:
    """Every vector file, freshly generated: path under the vectors folder (``v1/...``) ->
    its text. Deterministic: the same text on every machine and run."""
    return dict(_generate())


def write(out: Path) -> dict[str, str]:
    """Generate the vectors into ``out`` (``out/v1/...``), removing stale ``.json`` files
    of the version folder; returns what was written. A folder that cannot be made fails
    before the vectors are generated (seconds of work)."""
    folder = out / FOLDER
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise VectorError(f"cannot write the vectors to {folder}: {exc.strerror}") from None
    files = generate()
    try:
        for stale in sorted(folder.glob("*.json")):
            if f"{FOLDER}/{stale.name}" not in files:
                stale.unlink()
        for path, text in files.items():
            (out / path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise VectorError(f"cannot write the vectors to {folder}: {exc.strerror}") from None
    return files


def check(out: Path) -> str | None:
    """The first difference between ``out/v1`` and a fresh generation (a sentence naming
    the file), or None when they agree."""
    files = generate()
    folder = out / FOLDER
    present = {f"{FOLDER}/{p.name}" for p in folder.glob("*.json")} if folder.is_dir() else set()
    for path in sorted(files.keys() | present):
        where = out / path
        if path not in files:
            return f"{where} is not generated by this version of tricklaw"
        if path not in present:
            return f"{where} is missing"
        try:
            text = json_text.read_text(str(where))
        except JsonTextError as exc:
            return f"{where}: {exc}"
        if text != files[path]:
            return f"{where} differs from a fresh generation: {_difference(text, files[path])}"
    return None


def _difference(written: str, fresh: str) -> str:
    """Where the text ``written`` first differs from the ``fresh`` one: the first case (by
    id) that is missing, extra or changed, and its first changed field."""
    try:
        old = json_text.loads(written)
    except JsonTextError as exc:
        return str(exc)
    new = json.loads(fresh)
    if not isinstance(old, dict):
        return "it is not a JSON object"
    new_cases = new.get("cases", [])
    old_cases = old.get("cases", [])
    if isinstance(old_cases, list):
        by_id = {c.get("id"): c for c in old_cases if isinstance(c, dict)}
        for case in new_cases:
            got = by_id.get(case["id"])
            if got is None:
                return f"case {case['id']} is missing"
            if got != case:
                return f"case {case['id']}: {field_difference(got, case)}"
        fresh_ids = {c["id"] for c in new_cases}
        for case_id in by_id:
            if case_id not in fresh_ids:
                return f"case {case_id} is not generated by this version"
    return field_difference(old, new)


def field_difference(old: Any, new: Any, path: str = "") -> str:
    """The first field (a dotted path) where ``old`` differs from ``new``."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*new, *(k for k in old if k not in new)]:
            if old.get(key, _MISSING) != new.get(key, _MISSING):
                return field_difference(
                    old.get(key), new.get(key), f"{path}.{key}" if path else key
                )
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=True)):
            if a != b:
                return field_difference(a, b, f"{path}[{index}]")
    return f"field {path or '(the whole file)'} differs" if old != new else "the layout differs"


_MISSING = object()
