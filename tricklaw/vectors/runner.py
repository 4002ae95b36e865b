"""Reading the vector files and running their cases: :func:`run_case` is the reference
runner of the contract in :mod:`tricklaw.vectors`. It computes a case's outputs from its
inputs along other paths through the model than the generator took (the deal cut from the
shuffle, not the game's own; the rules' scoring functions, not the state's bookkeeping; a
depth-first perft against the generator's breadth-first one; the games replayed)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from tricklaw.model.record import record_schema
from tricklaw.model.replay.records import replay
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.state import Game
from tricklaw.spec import json_text
from tricklaw.spec.json_text import JsonTextError
from tricklaw.vectors.cases import Json, VectorError
from tricklaw.vectors.deals import run_deal
from tricklaw.vectors.files import FOLDER
from tricklaw.vectors.games import run_game
from tricklaw.vectors.legal import run_legal
from tricklaw.vectors.perft import run_perft
from tricklaw.vectors.rng import run_rng
from tricklaw.vectors.scores import run_score
from tricklaw.vectors.tricks import run_trick


def load(out: Path | None = None) -> dict[str, Json]:
    """The vector files of ``out/v1`` (default: the copy installed with the package), by
    file name, parsed."""
    folder: Any = (
        out / FOLDER
        if out is not None
        else resources.files("tricklaw.spec").joinpath("vectors").joinpath(FOLDER)
    )
    if not folder.is_dir():
        raise VectorError(f"no vectors folder {folder}")
    docs: dict[str, Json] = {}
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".json"):
            try:
                docs[item.name] = json_text.loads(item.read_bytes())
            except JsonTextError as exc:
                raise VectorError(f"{item.name}: {exc}") from None
    return docs


RUNNERS: Mapping[str, Callable[[Game, Mapping[str, Any]], Json]] = {
    "deals": run_deal,
    "tricks": run_trick,
    "legal": run_legal,
    "scores": run_score,
    "games": run_game,
    "perft": run_perft,
}
"""The runner of each kind with a ruleset."""


def run_case(kind: str, case: Mapping[str, Any]) -> Json:
    """The reference runner: the outputs of one case computed from its inputs alone (the
    ruleset, players, options and ``input``), to compare with ``case["expected"]``."""
    if kind == "rng":
        return run_rng(case["input"])
    if kind not in RUNNERS:
        raise VectorError(f"unknown vector kind {kind!r}")
    game = get_ruleset(case["ruleset"]).make_game(case["players"], case["options"])
    result = RUNNERS[kind](game, case["input"])
    if kind == "games":
        replay(result["record"])  # the record also replays, every result checked
    return result


def schema() -> Json:
    """The JSON Schema of the vector files (``spec/vectors.schema.json``)."""
    text = resources.files("tricklaw.spec").joinpath("vectors.schema.json").read_text("utf-8")
    loaded: Json = json.loads(text)
    return loaded


def validate(document: Any, name: str = "vector file") -> None:
    """Raise VectorError naming the first field of ``document`` that breaks the schema
    (a game case's record is checked against ``spec/record.schema.json``)."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match
    from referencing import Registry, Resource

    record = record_schema()
    registry: Registry[Any] = Registry().with_resource(
        record["$id"], Resource.from_contents(record)
    )
    validator = Draft202012Validator(schema(), registry=registry)
    error = best_match(validator.iter_errors(document))
    if error is not None:
        where = "/".join(map(str, error.absolute_path)) or "(top level)"
        raise VectorError(f"{name}: field {where}: {error.message[:200]}")
