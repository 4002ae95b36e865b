"""Engines declare what they implement (issue 17, part 2): the declaration read and
validated, the fuzzer kept inside it and its declared departures reported apart, and the
same divergence cited alike (clauses and dispute) by ``fuzz`` and ``check``."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tricklaw.fuzz import fuzz, new_case
from tricklaw.model.replay.citation import cite
from tricklaw.model.replay.declaration import (
    declaration_schema,
    declared_options,
    everything,
    parse_declaration,
)
from tricklaw.model.replay.records import check_record
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.spec.errors import TricklawError

MUTANT = Path(__file__).parent / "engines" / "mutant_engine.py"
OWN_TIE = {
    "rulesets": {
        "sticheln": {
            "players": [3, 4],
            "options": {"rounds": [1]},
            "disputes": {
                "STI-D-GAMETIE": {
                    "reading": "own",
                    "rule": "a tie for the best total goes to the tied player in the lowest seat",
                }
            },
        }
    }
}
"""An own tie rule whose answers are the ``first-seat`` reading's (the ``first-seat``
engine): the only kind of own rule a departure can be (issue 43)."""


SAME_GAMES = {"rulesets": {"sticheln": {"players": [3, 4], "options": {"rounds": [1]}}}}
""":data:`OWN_TIE` without the dispute: the same games."""


def engine(name: str, declaration: dict[str, Any] | None, tmp_path: Path) -> str:
    if declaration is None:
        return f"{sys.executable} {MUTANT} {name}"
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(declaration), "utf-8")
    return f"{sys.executable} {MUTANT} {name} {path}"


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"rulesets": {"nope": {}}}, "rulesets.nope: unknown ruleset"),
        ({"rulesets": {"sticheln": {"players": [9]}}}, "rulesets.sticheln.players: 9"),
        ({"rulesets": {"sticheln": {"options": {"roundz": [1]}}}}, "options.roundz: unknown"),
        ({"rulesets": {"sticheln": {"options": {"rounds": [-1]}}}}, "options.rounds: -1"),
        (
            {"rulesets": {"sticheln": {"disputes": {"STI-D-GAMETIE": "last"}}}},
            "disputes.STI-D-GAMETIE: 'last' is not a reading",
        ),
        ({"rulesets": {"sticheln": {"disputes": {"STI-D-NONE": "x"}}}}, "unknown dispute"),
        (
            {"rulesets": {"sticheln": {"disputes": {"STI-D-GAMETIE": {"reading": "own"}}}}},
            "disputes.STI-D-GAMETIE: expected a reading",
        ),
        ({"rulesets": {"sticheln": {"colour": 1}}}, "rulesets.sticheln.colour: unknown field"),
        ({"implements": {}}, "a declaration is an object"),
    ],
)
def test_a_bad_declaration_is_one_line_naming_the_field(raw: Any, field: str) -> None:
    with pytest.raises(TricklawError) as caught:
        parse_declaration(raw, "hello.implements")
    assert field in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize("declared", [[0, 4], ["0", "4"]])
def test_an_options_values_are_typed_as_the_ruleset_types_them(declared: list[Any]) -> None:
    """Issue 43, item 6: one declaration serves ``fuzz -o rounds=0`` (the command line's
    text "0") and ``check --declare`` (a header's integer 0), whether it lists the values
    as integers or as text; a value that is neither (1.5, true) is refused."""
    raw = {"rulesets": {"sticheln": {"options": {"rounds": declared}}}}
    sticheln = parse_declaration(raw, "x").of("sticheln")
    assert sticheln is not None and sticheln.values("rounds") == (0, 4)
    for value in ("0", 0, "4", 4):
        assert sticheln.allows(4, {"rounds": value}) is None
    assert sticheln.allows(4, {"rounds": "1"}) == "sticheln with rounds=1"
    assert declared_options(parse_declaration(raw, "x"), "sticheln", 4, {"rounds": 0})
    for wrong in (1.5, True, 0.0):
        with pytest.raises(TricklawError, match=r"options\.rounds: .* is not a value of rounds"):
            parse_declaration({"rulesets": {"sticheln": {"options": {"rounds": [wrong]}}}}, "x")


def test_the_schema_accepts_what_the_parser_accepts() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.validate(OWN_TIE, declaration_schema())
    parse_declaration(OWN_TIE, "x")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"rulesets": {"sticheln": {"colour": 1}}}, declaration_schema())


def test_games_keep_inside_the_declaration() -> None:
    declared = parse_declaration(
        {"rulesets": {"sticheln": {"players": [4], "disputes": {"STI-D-GAMETIE": "nobody"}}}},
        "x",
    )
    seen = set()
    for i in range(40):
        case = new_case(i, 3, ["sticheln"], None, {}, declaration=declared)
        assert case.players == 4 and case.options["game-tie"] == "nobody"
        seen.add(case.options["rounds"])
    assert len(seen) > 1  # rounds is not restricted: still drawn
    # the declaration of everything draws exactly today's games
    for i in range(10):
        assert new_case(i, 3, list(RULESETS), None, {}, declaration=everything()) == new_case(
            i, 3, list(RULESETS), None, {}
        )


def test_winners_cite_the_tie_dispute_and_the_reading_followed() -> None:
    ruleset = get_ruleset("sticheln")
    game = ruleset.make_game(3, {"game-tie": "shared"})
    totals = (-9, -9, -9)

    def answer(g: Any) -> list[int]:
        return list(g.ruleset.winners(g, totals))

    cited = cite(game, "winners", answer=answer, got=[0])
    assert cited.clauses == ("STI-GAME-2",) and cited.disputes == ("STI-D-GAMETIE",)
    assert cited.established and cited.readings == (("STI-D-GAMETIE", "first-seat"),)
    one = cite(game, "winners", answer=lambda g: list(g.ruleset.winners(g, (1, 5, 9))), got=[1])
    assert one.disputes == () and one.established  # no tie: no reading changes the winner


@pytest.mark.slow
@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_a_game_played_under_another_reading_is_checked_as_that_dispute(rid: str) -> None:
    """Every reading of every dispute: a seeded game played under it, checked as if under
    the default. Where it diverges (a total, a round's scores, the seat to act, a card the
    default forbids, a trick, the winners, the end), replaying the game under each
    reading names the dispute, as established; only a wrong deal or a round's facts
    (the deal's own readings: deck, values, designation; the facts a reading records)
    are cited by their clauses alone."""
    from tricklaw.model.agents import play_random_game
    from tricklaw.model.record import to_record

    ruleset = get_ruleset(rid)
    diverged = 0
    for n in ruleset.player_counts:
        for spec in ruleset.option_specs:
            for value in [v for v in spec.choices if v != spec.default] if spec.dispute else []:
                game = ruleset.make_game(n, {spec.name: value})
                for seed in (1, 2, 3):
                    record = to_record(play_random_game(game, seed, max_rounds=3))
                    record["options"] = {**record["options"], spec.name: spec.default}
                    verdict = check_record(record)
                    if verdict.status != "diverges":
                        continue
                    diverged += 1
                    where = f"{n}p {spec.name}={value} seed {seed}: {verdict.problem[:90]}"
                    if verdict.established:
                        assert spec.dispute in verdict.disputes, where
                    else:
                        assert "deal" in verdict.problem or "facts" in verdict.problem, where
                    break
    assert diverged > 0


@pytest.mark.slow
def test_an_own_tie_break_is_a_departure_not_a_failure(tmp_path: Path) -> None:
    """The engine's tie rule gives the ``first-seat`` reading's winners: a departure. The
    same rule declared for an engine whose winners no reading gives (the tied player in
    the highest seat) excuses nothing (issue 43)."""
    declared = fuzz(
        engine("first-seat", OWN_TIE, tmp_path), rulesets=list(RULESETS), players=None,
        fixed={}, games=30, seed=1,
    )  # fmt: skip
    assert declared.declared and declared.failures == [] and declared.departures
    found = declared.departures[0]
    assert found["ruleset"] == "sticheln" and found["rule"].startswith("STI-D-GAMETIE: ")
    assert found["disagreement"]["disputes"] == ["STI-D-GAMETIE"]
    assert found["readings"] == {"STI-D-GAMETIE": "first-seat"}
    # the same games, the dispute not declared: the same game is a failure
    plain = fuzz(
        engine("first-seat", None, tmp_path), rulesets=list(RULESETS), players=None,
        fixed={}, games=30, seed=1, declaration=parse_declaration(SAME_GAMES, "x"),
    )  # fmt: skip
    assert plain.declared and plain.departures == [] and len(plain.failures) == 1
    assert plain.failures[0]["game_index"] == found["game_index"]
    # an own rule that is no reading: a failure, naming each reading's winners
    last = fuzz(
        engine("last-seat", OWN_TIE, tmp_path), rulesets=list(RULESETS), players=None,
        fixed={}, games=30, seed=1,
    )  # fmt: skip
    assert last.departures == [] and len(last.failures) == 1
    message = last.failures[0]["disagreement"]["message"]
    assert "not a declared departure" in message and "first-seat gives" in message


@pytest.mark.slow
def test_a_departure_is_written_to_out_and_the_run_exits_0(tmp_path: Path) -> None:
    out = tmp_path / "cases"
    done = subprocess.run(
        [sys.executable, "-m", "tricklaw", "fuzz", "--games", "30", "--seed", "1", "--json",
         "--out", str(out), "--engine", engine("first-seat", OWN_TIE, tmp_path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    answer = json.loads(done.stdout)
    assert answer["disagreements"] == [] and answer["departures"]
    first = answer["departures"][0]
    written = json.loads(Path(first["case"]).read_text("utf-8"))
    assert Path(first["case"]).name.startswith("departure-")
    assert written["departure"] == first["rule"] and written["game_index"] == first["game"]
    assert written["disagreement"]["disputes"] == ["STI-D-GAMETIE"]
    assert sorted(p.name for p in out.iterdir()) == sorted(
        Path(d["case"]).name for d in answer["departures"]
    )


@pytest.mark.slow
def test_a_wrong_trick_is_not_excused_by_an_own_rule_for_another_dispute(tmp_path: Path) -> None:
    own = copy.deepcopy(OWN_TIE)
    own["rulesets"]["sticheln"]["disputes"]["STI-D-ZEROLEAD"] = {"reading": "own", "rule": "x"}
    run = fuzz(
        engine("tie-last", own, tmp_path), rulesets=["sticheln"], players=None, fixed={},
        games=60, seed=2,
    )  # fmt: skip
    assert len(run.failures) == 1 and run.failures[0]["disagreement"]["kind"] == "trick"


@pytest.mark.slow
def test_fuzz_and_check_cite_the_same_clause_and_dispute(tmp_path: Path) -> None:
    out = tmp_path / "cases"
    same = tmp_path / "same.json"
    same.write_text(json.dumps(SAME_GAMES), "utf-8")
    code = subprocess.run(
        [sys.executable, "-m", "tricklaw", "fuzz", "--games", "30", "--out", str(out),
         "--engine", engine("last-seat", None, tmp_path), "--declare", str(same)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert code.returncode == 1, code.stdout + code.stderr
    assert "(dispute STI-D-GAMETIE)" in code.stdout
    report = json.loads(next(out.iterdir()).read_text("utf-8"))
    found = report["disagreement"]
    record = dict(report["record"], winners=found["got"])
    verdict = check_record(record, own_shuffle=True)  # the fuzzer deals styled decks
    assert verdict.status == "diverges"
    assert list(verdict.clauses) == found["clauses"] == ["STI-GAME-2"]
    assert list(verdict.disputes) == found["disputes"] == ["STI-D-GAMETIE"]
    # check --declare: the engine's own rule gives no reading's winners (the tied
    # player in the highest seat): still a divergence (issue 43) ...
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), "utf-8")
    declare = tmp_path / "own.json"
    declare.write_text(json.dumps(OWN_TIE), "utf-8")
    base = [sys.executable, "-m", "tricklaw", "check", "--own-shuffle", str(path)]
    plain = subprocess.run(base, capture_output=True, text=True, check=False)
    assert plain.returncode == 1 and "(dispute STI-D-GAMETIE)" in plain.stdout
    wrong = subprocess.run(
        [*base, "--declare", str(declare)], capture_output=True, text=True, check=False
    )
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    assert (
        wrong.stdout.startswith("diverges (")
        and "no reading of STI-D-GAMETIE gives" in wrong.stdout
    )
    # ... and the first tied seat, the first-seat reading's winner, a departure (exit 0)
    path.write_text(json.dumps(dict(record, winners=found["expected"][:1])), "utf-8")
    departs = subprocess.run(
        [*base, "--declare", str(declare)], capture_output=True, text=True, check=False
    )
    assert departs.returncode == 0, departs.stdout + departs.stderr
    assert departs.stdout.startswith("departs (") and "lowest seat" in departs.stdout
    follows = tmp_path / "follows.json"
    follows.write_text(
        json.dumps({"rulesets": {"sticheln": {"disputes": {"STI-D-GAMETIE": "nobody"}}}})
    )
    clash = subprocess.run(
        [*base, "--declare", str(follows)], capture_output=True, text=True, check=False
    )
    assert clash.returncode == 2 and "options.game-tie" in clash.stderr + clash.stdout


@pytest.mark.slow
def test_engine_io_times_out_and_sees_the_end_without_select() -> None:
    from tricklaw.fuzz import Engine, EngineError

    silent = Engine(f'{sys.executable} -c "import time; time.sleep(20)"', timeout=0.3)
    try:
        with pytest.raises(EngineError, match=r"no answer within 0\.3 s"):
            silent.request("hello", {})
    finally:
        silent.process.kill()
        silent.close()
    gone = Engine(f'{sys.executable} -c "pass"', timeout=5)
    with pytest.raises(EngineError, match="exited"):
        gone.request("hello", {})
    with pytest.raises(EngineError, match="exited"):  # and again: the end stays seen
        gone.request("hello", {})
    gone.close()


def test_the_progress_bar_draws_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from tricklaw.fuzz.progress import progress_bar

    with progress_bar(3, "fuzz") as advance:  # stderr is not a terminal here
        advance(1)
    assert capsys.readouterr().err == ""
    with progress_bar(3, "fuzz", show=True) as advance:
        for n in range(1, 4):
            advance(n)
    assert capsys.readouterr().out == ""  # never on stdout


@pytest.mark.slow
def test_a_tie_broken_another_way_shrinks_with_few_engine_requests(tmp_path: Path) -> None:
    """A game-level disagreement is shrunk on the model and confirmed by the engine: a
    handful of replays, not hundreds, and the two-round game becomes one round."""
    from tricklaw.fuzz import Engine, play_case, shrink

    run = Engine(engine("last-seat", None, tmp_path), 10)
    try:
        two_rounds = parse_declaration(
            {"rulesets": {"sticheln": {"players": [3], "options": {"rounds": [2]}}}}, "x"
        )
        for index in range(200):
            case = new_case(index, 1, ["sticheln"], None, {}, declaration=two_rounds)
            outcome = play_case(run, case)
            if outcome.disagreement is not None:
                break
        assert outcome.disagreement is not None and outcome.disagreement.established
        before = run.requests
        small = shrink(run, outcome)
        assert run.requests - before < 3 * (outcome.actions + 10)
        assert small.disagreement is not None and small.disagreement.kind == "end"
        assert small.actions < outcome.actions and small.case.options["rounds"] == 1
        again = play_case(run, small.case, limit=len(small.case.steps))  # the engine agrees
        assert again.disagreement is not None and again.disagreement.kind == "end"
    finally:
        run.close()


def _bare(node: Any, path: str) -> list[str]:
    """The places in a schema of an object or array that says nothing of its contents."""
    found = []
    if isinstance(node, dict):
        if node.get("type") == "object" and not {"properties", "additionalProperties"} & set(node):
            found.append(path)
        if node.get("type") == "array" and "items" not in node:
            found.append(path)
        for key, value in node.items():
            found += _bare(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _bare(value, f"{path}[{i}]")
    return found


def test_every_result_schema_says_what_it_holds() -> None:
    from tricklaw.oracle.methods import METHODS
    from tricklaw.oracle.schemas import definitions

    places = [p for m in METHODS.values() for p in _bare(m.result, m.name)]
    places += [p for name, d in definitions().items() for p in _bare(d, f"$defs.{name}")]
    assert places == []
    assert "implements" in METHODS["hello"].result["properties"]


def test_the_protocol_docs_are_generated_from_the_schemas() -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "docs" / "_ext"))
    docs = pytest.importorskip("tricklaw_docs.protocol")
    from tricklaw.oracle.methods import METHODS

    text = docs.protocol_text()
    for name, method in METHODS.items():
        assert f"#### `{name}`" in text
        assert json.dumps(method.result, indent=1, ensure_ascii=False) in text


@pytest.mark.slow
def test_a_wrong_trick_cites_the_same_clauses_and_dispute_in_fuzz_and_check(
    tmp_path: Path,
) -> None:
    """The all-zero trick given away: both tools cite the 1993 text's all-zero dispute,
    established (its other reading gives the trick a winner); the follow dispute, whose
    other reading would forbid the play, is not cited."""
    run = fuzz(
        engine("all-zero-missed", None, tmp_path), rulesets=["sticheln-1993"], players=None,
        fixed={}, games=200, seed=3,
    )  # fmt: skip
    report = run.failures[0]
    found = report["disagreement"]
    assert found["kind"] == "trick" and found["established"]
    assert found["disputes"] == ["STI93-D-ALLZERO"]
    record = copy.deepcopy(report["record"])
    record["rounds"][-1]["tricks"][-1]["winner"] = found["got"]
    verdict = check_record(record, own_shuffle=True)
    assert verdict.status == "diverges" and verdict.established
    assert list(verdict.clauses) == found["clauses"]
    assert list(verdict.disputes) == found["disputes"]
