"""The page for players without a browser (issue 15): its JSON API answers as the command
line does, presets, the round score from piles, the build and its serving. The browser
tests are tests/test_page_browser.py."""

from __future__ import annotations

import contextlib
import io
import json
import random
import subprocess
import sys
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tricklaw.cli import main
from tricklaw.http.app import create_app
from tricklaw.http.run import LiveServer
from tricklaw.model.agents import play_random_game
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.page import api, build
from tricklaw.page.files import page_file
from tricklaw.spec import load_registry, parse_registry
from tricklaw.spec.errors import SpecError, TricklawError
from tricklaw.spec.outputs import MARKER


def cli_json(*args: str) -> Any:
    """``tricklaw ARGS`` run in process, its standard output parsed as JSON."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(args)) == 0
    return json.loads(out.getvalue())


def answer(method: str, **params: Any) -> Any:
    reply = json.loads(api.call(method, json.dumps(params)))
    assert "error" not in reply, reply
    return reply["result"]


def random_trick(rid: str, rng: random.Random) -> tuple[int, list[str]]:
    ruleset = get_ruleset(rid)
    players = rng.choice(ruleset.player_counts)
    game = ruleset.make_game(players)
    cards = rng.sample(list(ruleset.deck(players, game.options)), game.seats)
    return players, ruleset.palette.format_all(cards)


@pytest.mark.slow
@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_the_page_judges_a_trick_as_trick_json_does(rid: str) -> None:
    rng = random.Random(rid)
    for _ in range(6):
        players, cards = random_trick(rid, rng)
        preset = rng.choice(load_registry(rid).presets).name
        page = answer("judge", ruleset=rid, players=players, options={}, cards=cards, preset=preset)
        cli = cli_json("trick", rid, "-n", str(players), "--preset", preset, "--json", *cards)
        assert page["report"] == cli
        assert [c["id"] for c in page["clauses"]] == cli["clauses"]


def test_hunds_context_reaches_the_report() -> None:
    page = answer(
        "judge", ruleset="hund", players=3, options={}, cards=["R1", "Y2", "B3"],
        context={"powers": "Y", "designation": "3"},
    )
    cli = cli_json("trick", "hund", "-n", "3", "-c", "powers=Y", "-c", "designation=3",
                   "--json", "R1", "Y2", "B3")
    assert page["report"] == cli
    assert page["report"]["winner"] == 1  # yellow holds the first power: trump


def test_the_page_learns_where_each_context_means_something() -> None:
    """Issue 45: the page showed Hund's ``sets`` box in the base game. The ``rulesets``
    answer says under which readings each context applies (``when``)."""
    hund = next(r for r in answer("rulesets") if r["id"] == "hund")
    when = {c["name"]: c["when"] for c in hund["context"]}
    assert when == {
        "powers": {},
        "designation": {"designation-mode": "drawn"},
        "sets": {"designation-mode": "sets"},
    }


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_a_context_given_where_it_means_nothing_is_refused_by_the_model(rid: str) -> None:
    """``Ruleset.trick_context_when`` against the model's own input check: under any other
    value of an option a context names, the model refuses that context, naming the option."""
    ruleset = get_ruleset(rid)
    helps = dict(ruleset.trick_context)
    assert set(ruleset.trick_context_when) <= set(helps)
    specs = {s.name: s for s in ruleset.option_specs}
    players = ruleset.player_counts[0]
    for name, when in ruleset.trick_context_when.items():
        example = helps[name].rsplit("e.g. ", 1)[1]  # each help ends with an example
        ruleset.check_trick_context(ruleset.make_game(players, dict(when)), {name: example})
        for option, value in when:
            for other in (v for v in specs[option].choices if v != value):
                game = ruleset.make_game(players, {**dict(when), option: other})
                with pytest.raises(TricklawError, match=option):
                    ruleset.check_trick_context(game, {name: example})


def test_bad_input_is_an_error_message_not_an_exception() -> None:
    cards = ["B14", "R1", "R2", "R3"]
    reply = json.loads(api.call("judge", json.dumps(
        {"ruleset": "sticheln-1993", "players": 4, "options": {}, "cards": cards}
    )))
    assert "STI93-D-DECK" in reply["error"] and "deck=full" in reply["error"]
    assert "error" in json.loads(api.call("nothing", "{}"))
    assert "error" in json.loads(api.call("judge", json.dumps({"ruleset": "nope"})))


def test_may_i_play_answers_with_the_model_and_names_the_readings_that_differ() -> None:
    reply = answer(
        "may_play", ruleset="sticheln-1993", players=4, options={},
        hand=["B0", "R7", "G3"], trick=["R3", "R2"], card="B0",
    )
    assert reply["legal"] and reply["clause"]["id"] == "STI93-PLAY-2"
    assert {(r["option"], r["value"], r["legal"]) for r in reply["readings"]} == {
        ("follow", "follow-or-trump", False), ("follow", "must-follow", False)
    }
    strict = answer(
        "may_play", ruleset="sticheln-1993", players=4, options={"follow": "must-follow"},
        hand=["B0", "R7", "G3"], trick=["R3", "R2"], card="B0",
    )
    assert not strict["legal"] and strict["playable"] == ["R7"]
    assert "R7" in strict["reason"]


@pytest.mark.parametrize("rid", sorted(RULESETS))
def test_may_i_play_agrees_with_playable_on_random_hands(rid: str) -> None:
    ruleset = get_ruleset(rid)
    rng = random.Random(rid)
    for _ in range(10):
        players = rng.choice(ruleset.player_counts)
        game = ruleset.make_game(players)
        deck = list(ruleset.deck(players, game.options))
        drawn = rng.sample(deck, 6 + game.seats)
        hand, trick = drawn[:6], drawn[6 : 6 + rng.randrange(game.seats)]
        allowed = ruleset.playable(game, tuple(hand), tuple(trick))
        fmt = ruleset.palette.format
        for card in hand:
            reply = answer(
                "may_play", ruleset=rid, players=players, options={},
                hand=[fmt(c) for c in hand], trick=[fmt(c) for c in trick], card=fmt(card),
            )
            assert reply["legal"] == (card in allowed)


def test_every_preset_is_a_table_and_the_cli_flag_equals_its_options() -> None:
    for rid, ruleset in RULESETS.items():
        presets = load_registry(rid).presets
        assert presets and presets[0].name == "default" and not presets[0].options, rid
        for preset in presets:
            players = ruleset.player_counts[-1]
            table = answer("table", ruleset=rid, players=players, options={}, preset=preset.name)
            for name, value in preset.options:
                assert table["options"][name] == value
            assert any(c["cards"] for c in table["deck"])


def test_preset_then_option_on_the_command_line() -> None:
    with_preset = cli_json("trick", "sticheln-1993", "-n", "4", "--preset", "as-written",
                           "--json", "R3", "R2", "B0", "R4")
    assert with_preset["options"]["follow"] == "follow-or-trump"
    over = cli_json("trick", "sticheln-1993", "-n", "4", "--preset", "as-written",
                    "-o", "follow=free", "--json", "R3", "R2", "B0", "R4")
    assert over["options"]["follow"] == "free"


def test_a_preset_chooses_readings_only() -> None:
    base = {
        "ruleset": "x", "source": "000_c546595a30f74efa.txt", "prefix": "X",
        "dispute": [{
            "id": "X-D-A", "option": "a", "title": "t", "question": "q", "kind": "gap",
            "lines": [[1, 1]], "default": "p", "reason": "r",
            "reading": [{"value": "p", "summary": "s"}, {"value": "q", "summary": "s"}],
        }],
    }
    ok = parse_registry({**base, "preset": [
        {"name": "n", "title": "t", "summary": "s", "options": {"a": "q"}}]}, "x.toml")
    assert ok.preset("n").options == (("a", "q"),)
    for options in ({"b": "q"}, {"a": "z"}):
        with pytest.raises(SpecError):
            parse_registry({**base, "preset": [
                {"name": "n", "title": "t", "summary": "s", "options": options}]}, "x.toml")
    with pytest.raises(SpecError, match="no preset"):
        ok.preset("m")


@pytest.mark.parametrize("rid", ["lowhigh", "the-last", "hund", "sticheln-1993", "sticheln"])
def test_the_round_score_from_piles_is_the_models_recount(rid: str) -> None:
    ruleset = get_ruleset(rid)
    for players in ruleset.player_counts:
        game = ruleset.make_game(players)
        log = play_random_game(game, seed=players, max_rounds=1).info.history[0]
        taken = log.taken(game.seats)
        facts = dict(log.facts)
        if rid == "hund":
            context = {"powers": ",".join(facts["powers"])}
        elif rid.startswith("sticheln"):
            context = {"picked": ",".join(facts["picked"])}
        else:
            context = {}
        piles = [ruleset.palette.format_all(p) for p in taken]
        if rid == "the-last":
            piles = [ruleset.palette.format_all(p) for p in _face_down(game, log)]
        scored = answer("score", ruleset=rid, players=players, options={}, piles=piles,
                        context=context)["scores"]
        assert tuple(scored) == ruleset.recount_scores(game, log), (rid, players)


def _face_down(game: Any, log: Any) -> Any:
    from tricklaw.model.rulesets.the_last.rules import face_down

    return face_down(game, log)[0]


def test_a_ruleset_without_pile_scoring_says_so(registered: None) -> None:
    reply = json.loads(api.call("score", json.dumps(
        {"ruleset": "tiny", "players": 2, "options": {}, "piles": [[], []]})))
    assert "cannot score a round from the piles" in reply.get("error", "")


def test_the_page_api_serves_a_plug_in_game(registered: None) -> None:
    ids = [r["id"] for r in answer("rulesets")]
    assert "tiny" in ids
    tiny = get_ruleset("tiny")
    game = tiny.make_game(tiny.player_counts[0])
    cards = tiny.palette.format_all(tiny.deck(game.players, game.options)[: game.seats])
    page = answer("judge", ruleset="tiny", players=game.players, options={}, cards=cards)
    assert page["report"] == cli_json("trick", "tiny", "-n", str(game.players), "--json", *cards)


# --- the build and its serving ----------------------------------------------------------


@pytest.fixture
def fake_pyodide(tmp_path: Path) -> Path:
    folder = tmp_path / "pyodide"
    folder.mkdir()
    for name in build.PYODIDE_FILES:
        (folder / name).write_bytes(b"stand-in for " + name.encode())
    return folder


@pytest.mark.slow
def test_the_build_packs_the_plain_sources_and_lists_every_file_for_offline(
    tmp_path: Path, fake_pyodide: Path
) -> None:
    out = tmp_path / "page"
    summary = build.build_page(out, fake_pyodide, docs_url="../")
    names = zipfile.ZipFile(out / "tricklaw.zip").namelist()
    assert "tricklaw/page/api.py" in names and "tricklaw/trick_report.py" in names
    assert "tricklaw/spec/sticheln-1993.toml" in names and "mypy_extensions.py" in names
    assert any(n.startswith("tricklaw/model/rulesets/hund/") for n in names)
    assert not any(n.startswith("tricklaw/proofs/") or n.endswith(".so") for n in names)
    worker = (out / "sw.js").read_text()
    assert summary["build"] in worker and "__FILES__" not in worker
    listed = json.loads(worker.split("const FILES = ", 1)[1].split(";", 1)[0])
    assert set(listed) == {"./", *(n for n in summary["bytes"] if n != "sw.js")}
    assert json.loads((out / "config.json").read_text())["docs"] == "../"
    again = build.build_page(tmp_path / "again", fake_pyodide, docs_url="../")
    assert again["build"] == summary["build"]  # the same sources, the same build


def test_the_build_command_answers_in_json(
    tmp_path: Path, fake_pyodide: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tricklaw.cli import build_parser

    out = tmp_path / "page"
    args = build_parser().parse_args(
        ["page", "build", str(out), "--pyodide", str(fake_pyodide), "--json"]
    )
    assert args.func(args) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["status"] == "built" and answer["folder"] == str(out)
    page = [p for p in out.rglob("*") if p.is_file() and p.name != MARKER]  # the page's
    assert answer["files"] == len(page)
    assert answer["bytes"] == sum(p.stat().st_size for p in page)
    assert (out / MARKER).is_file()  # what tricklaw wrote (tests/test_nothing_lost.py)


def test_the_build_says_what_is_missing(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="npm ci"):
        build.build_page(tmp_path / "page", tmp_path / "nowhere")


@pytest.mark.slow
def test_the_packed_sources_run_without_z3_or_an_installed_tricklaw(tmp_path: Path) -> None:
    zipfile.ZipFile(io.BytesIO(build.pack_sources())).extractall(tmp_path / "src")
    script = f"""
import sys, json, importlib.abc
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split('.')[0] in ('z3', 'jsonschema', 'rich', 'cvc5'):
            raise ImportError('blocked: ' + name)
sys.meta_path.insert(0, Block())
sys.path.insert(0, {str(tmp_path / "src")!r})
from tricklaw.page import api
assert api.__file__.startswith({str(tmp_path / "src")!r}), api.__file__
print(api.call('judge', json.dumps(dict(ruleset='lowhigh', players=3, options={{}},
      cards=['R1', 'R5', 'B9']))))
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["result"]["report"]["winner"] is not None


def test_page_file_stays_inside_the_folder(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("hi")
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "pyodide.asm.wasm").write_bytes(b"\0asm")
    assert page_file(tmp_path, "/") == (b"hi", "text/html; charset=utf-8")
    assert page_file(tmp_path, "/?x=1#y") is not None
    assert page_file(tmp_path, "/pyodide/pyodide.asm.wasm") == (b"\0asm", "application/wasm")
    assert page_file(tmp_path, "/../" + tmp_path.name + "/index.html") is not None
    assert page_file(tmp_path, "/../etc/passwd") is None
    assert page_file(tmp_path, "/nothing") is None
    # paths the system refuses to look up are missing files, not a server error (500)
    assert page_file(tmp_path, "/a\x00b") is None
    assert page_file(tmp_path, "/" + "a" * 5000) is None
    assert page_file(tmp_path, "/" + "a/" * 300 + "index.html") is None
    assert page_file(tmp_path, "/" + "b" * 300) is None  # one name over the system's limit


@contextlib.contextmanager
def running(page: Path | None) -> Iterator[str]:
    with LiveServer(create_app(page=page)) as live:
        yield f"http://127.0.0.1:{live.port}"


@pytest.mark.slow
def test_serve_answers_the_page_at_root_and_keeps_its_api(
    tmp_path: Path, fake_pyodide: Path
) -> None:
    build.build_page(tmp_path / "page", fake_pyodide)
    with running(tmp_path / "page") as url:
        with urllib.request.urlopen(url + "/") as reply:
            assert reply.headers["Content-Type"].startswith("text/html")
            assert b"tricklaw" in reply.read()
        with urllib.request.urlopen(url + "/pyodide/pyodide.asm.wasm") as reply:
            assert reply.headers["Content-Type"] == "application/wasm"
        with urllib.request.urlopen(url + "/openapi.json") as reply:
            assert json.loads(reply.read())["openapi"] == "3.1.0"
        request = urllib.request.Request(
            url + "/v1/rulesets", data=b"{}", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request) as reply:
            assert reply.status == 200
    with running(None) as url, urllib.request.urlopen(url + "/") as reply:
        assert "npm ci" in json.loads(reply.read())["page"]
