"""The score bounds proved once: writing ``spec/bounds/v1.json`` and checking it.

:func:`generate` proves every bound (:func:`~tricklaw.proofs.bounds.results.all_bounds_results`)
and writes the results as :mod:`tricklaw.spec.proved_bounds` describes, deterministically: the
same text on every machine and run (the results carry no timing; the witnesses and the
clauses do not depend on Z3's state, see :mod:`~tricklaw.proofs.bounds.prove`).
``tricklaw bounds`` writes the file; ``tricklaw bounds --check`` proves again and names
the first difference (:func:`first_difference`); ``tricklaw verify`` compares the bounds
it proves anyway with the file (:func:`artifact_check`, check ``bounds-artifact``), so
that nothing is proved twice.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Mapping, Sequence
from typing import Any

from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import RULESETS
from tricklaw.proofs.bounds.readings import not_varied, readings, table
from tricklaw.proofs.bounds.results import all_bounds_results
from tricklaw.proofs.results import Result
from tricklaw.spec.proved_bounds import FILE, FORMAT, VERSION, ProvedBounds, label, parse_bounds

TIMEOUT_MS = 30_000
"""The time-out per obligation the file is proved with (``verify``'s default)."""
CHECK = "bounds-artifact"
"""The name of ``verify``'s check that its bounds are the file's."""
DESCRIPTION = (
    "The least and the greatest round score of one player (seat 0), for every ruleset, "
    "player count and reading that can change them: each bound proved by Z3 over a sound "
    "relaxation of the round (clauses: the unsat core) and met by a witness (options, deal, "
    "actions) that the model replays to exactly that score. tricklaw verify's score-max and "
    "score-min results, timing aside; written by 'tricklaw bounds'."
)


def row(result: Result) -> dict[str, Any]:
    """A result as the file holds it: every field ``verify`` reports but ``seconds`` and
    ``cached_from`` (the run's, not the bound's) (and ``expected`` when empty: no bound is
    documented as vacuous), as JSON values."""
    data = dataclasses.asdict(result)
    del data["seconds"], data["cached_from"]
    if not data["expected"]:
        del data["expected"]
    parsed: dict[str, Any] = json.loads(json.dumps(data))
    return parsed


def ruleset_part(ruleset_id: str) -> dict[str, Any]:
    """What the file says of ``ruleset_id``'s readings: the options that cannot change a
    bound, why each option not varied on its own is not, and the combinations."""
    own = table(ruleset_id)
    return {
        "unchanged": sorted(own.unchanged),
        "not_varied": [{"option": k, "why": why} for k, why in not_varied(ruleset_id).items()],
        "combinations": [
            {
                "reading": label(tuple(sorted(c.options))),
                "why": c.why,
                "players": None if c.players is None else list(c.players),
            }
            for c in own.combinations
        ],
    }


def document(results: Sequence[Result], ruleset_ids: Sequence[str]) -> dict[str, Any]:
    """The file's content for the rulesets ``ruleset_ids`` and their bound ``results``
    (in the order given)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "description": DESCRIPTION,
        "rulesets": {rid: ruleset_part(rid) for rid in ruleset_ids},
        "bounds": [row(r) for r in results],
    }


def dumps(value: Any) -> str:
    """``value`` as the file's text: JSON with sorted keys, one member a line, except
    that an object or array holding no object or array stays on one line; a newline at
    the end."""
    return _dump(value, 0) + "\n"


def _dump(value: Any, depth: int) -> str:
    inner = value.values() if isinstance(value, dict) else value
    if not isinstance(value, dict | list) or not any(isinstance(v, dict | list) for v in inner):
        return json.dumps(value, sort_keys=True, ensure_ascii=True)
    pad = " " * (depth + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_dump(v, depth + 1)}" for k, v in sorted(value.items())]
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"
    items = [f"{pad}{_dump(v, depth + 1)}" for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * depth + "]"


def generate(ruleset_ids: Sequence[str] | None = None, timeout_ms: int = TIMEOUT_MS) -> str:
    """The bounds of ``ruleset_ids`` (default: every ruleset), freshly proved, as the
    file's text."""
    ids = list(RULESETS) if ruleset_ids is None else list(ruleset_ids)
    return dumps(document(all_bounds_results(timeout_ms, ids), ids))


def merged(existing: str, fresh: str, ruleset_ids: Sequence[str]) -> str:
    """The file ``existing`` with the parts of ``ruleset_ids`` (their readings and bound
    rows) replaced by those of ``fresh``, every other ruleset's kept as it was, in the
    registry's order: ``tricklaw bounds RULESET`` proves one game again without
    dropping the others from the file. ``fresh`` alone where ``existing`` is not a
    bounds file of this format."""
    try:
        old = json.loads(existing)
        if old.get("format") != FORMAT or old.get("version") != VERSION:
            return fresh
        kept_parts, kept_rows = dict(old["rulesets"]), list(old["bounds"])
    except (ValueError, AttributeError, KeyError, TypeError):
        return fresh
    new = json.loads(fresh)
    chosen = set(ruleset_ids)
    order = [rid for rid in RULESETS if rid in chosen or rid in kept_parts]
    parts = {
        rid: (new if rid in chosen else {"rulesets": kept_parts})["rulesets"][rid] for rid in order
    }
    source = {rid: new["bounds"] if rid in chosen else kept_rows for rid in order}
    rows = [r for rid in order for r in source[rid] if r.get("ruleset") == rid]
    return dumps({**new, "rulesets": parts, "bounds": rows})


def _where(entry: Mapping[str, Any]) -> str:
    return f"{entry['obligation']} {entry['ruleset']} {entry['players']}p [{entry['reading']}]"


def _differ(kept: Mapping[str, Any], fresh: Mapping[str, Any]) -> str | None:
    """The first field (and witness field) in which two results differ, or None."""
    for key in sorted(kept.keys() | fresh.keys()):
        if kept.get(key) == fresh.get(key):
            continue
        if key == "witness":
            inner = _differ(kept.get(key) or {}, fresh.get(key) or {})
            return f"witness {inner}"
        return f"{key} {kept.get(key)!r} in the file, {fresh.get(key)!r} proved"
    return None


def first_difference(kept: ProvedBounds, fresh: ProvedBounds) -> str | None:
    """The first difference between the file ``kept`` and a fresh proof, as a phrase
    naming the ruleset part or the result and its field; None when they agree."""
    for rid in sorted(kept.rulesets.keys() | fresh.rulesets.keys()):
        if kept.rulesets.get(rid) != fresh.rulesets.get(rid):
            return f"the readings of {rid} differ"
    for old, new in zip(kept.rows, fresh.rows, strict=False):
        if (where := _where(old)) != _where(new):
            return f"{where} is where a fresh proof has {_where(new)}"
        if (field := _differ(old, new)) is not None:
            return f"{where}: {field}"
    if len(kept.rows) != len(fresh.rows):
        return f"{len(kept.rows)} results in the file, {len(fresh.rows)} proved"
    return None


def check_text(
    text: str, where: str = FILE, ruleset_ids: Sequence[str] | None = None
) -> str | None:
    """The first difference between the file's ``text`` and the bounds of ``ruleset_ids``
    (default: every ruleset) freshly proved (see :func:`first_difference`), or None when
    the text is exactly the fresh one. With ``ruleset_ids``, only their part of the file is
    compared."""
    fresh = generate(ruleset_ids)
    if text == fresh:
        return None
    kept = parse_bounds(text, where)
    if ruleset_ids is not None:  # the rest of the file is not this check's business
        return first_difference(kept.only(ruleset_ids), parse_bounds(fresh))
    return first_difference(kept, parse_bounds(fresh)) or "the text differs (layout)"


def _check_problem(
    ruleset: Ruleset[Any], players: int, fresh: Sequence[Result], kept: ProvedBounds
) -> str | None:
    """What in the file ``kept`` differs from the ``fresh`` results of ``ruleset`` at
    ``players`` (or from its readings), or None."""
    if kept.rulesets.get(ruleset.id) != ruleset_part(ruleset.id):
        return f"the readings of {ruleset.id} differ"
    expected = [label(r) for r in readings(ruleset, players)]
    found = kept.readings(ruleset.id, players)
    if found != expected:
        return f"readings {found} in the file, {expected} proved"
    for result in fresh:
        old = kept.row(result.obligation, result.ruleset, result.players, result.reading)
        new = row(result)
        field = "no such result in the file" if old is None else _differ(old, new)
        if field is not None:
            return f"{_where(new)}: {field}"
    return None


def artifact_check(
    ruleset: Ruleset[Any],
    players: int,
    fresh: Sequence[Result],
    kept: ProvedBounds,
) -> Result:
    """``verify``'s check that the bounds it proved (``fresh``, of ``ruleset`` at
    ``players``, every reading or those of its scope) are those of the file ``kept``,
    that the file has every reading of ``ruleset`` at ``players``, and the same readings
    tables."""
    start = time.perf_counter()
    problem = _check_problem(ruleset, players, fresh, kept)
    if problem is not None:
        detail = f"differs from {FILE} (run 'tricklaw bounds'): {problem}"
    else:
        detail = f"{len(fresh)} score bounds agree with {FILE}"
    return Result(
        CHECK,
        ruleset.id,
        str(players),
        "every reading",
        "fail" if problem else "pass",
        time.perf_counter() - start,
        (),
        detail,
    )
