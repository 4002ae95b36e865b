"""The page for players in a real browser (issue 15, part 3): Playwright (PyPI) drives
Debian's Chromium on the page built from the *installed* package and served by
``tricklaw serve``'s HTTP server.

The tests tap the cards of the texts' worked examples (``spec/<id>.examples.toml``) and of
seeded random tricks, and check that the page's answer is ``tricklaw trick --json``'s; they
ask "may I play this card?", score a round, restore a shared URL, reload the page with the
server gone (offline, from the service worker's cache), and take screenshots at phone and
desktop widths into ``tmp/artifacts/page/`` with the timings (``timings.json``).

What they need, and where it comes from (the README's test command on a fresh Debian
machine installs both, as root, the first time): Debian's ``chromium`` (``apt-get install
-y chromium``; no browser is downloaded) and the npm package ``pyodide`` (``npm ci`` in the
repository root, from the committed ``package-lock.json``). Elsewhere they skip, saying
which is missing. ``TRICKLAW_NO_INSTALL=1`` forbids the installs.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import subprocess
import tempfile
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tricklaw.cli import main
from tricklaw.http.app import create_app
from tricklaw.http.run import LiveServer
from tricklaw.model.rulesets import RULESETS, get_ruleset
from tricklaw.page import api, build
from tricklaw.spec import load_registry

pytestmark = [pytest.mark.slow(minutes=4), pytest.mark.xdist_group("page-browser")]

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "tmp" / "artifacts" / "page"
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
RANDOM_TRICKS = 40
"""Seeded random tricks per ruleset (200 in all)."""


def _may_install() -> bool:
    return os.environ.get("TRICKLAW_NO_INSTALL") != "1"


@pytest.fixture(scope="module")
def chromium() -> Path:
    """Debian's Chromium, installed with apt-get when missing and this is root."""
    if not CHROMIUM.exists() and _may_install() and shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        install = ["apt-get", "install", "-y", "-q", "chromium"]
        for command in (["apt-get", "update", "-q"], install):
            subprocess.run(command, env=env, capture_output=True, timeout=1500, check=False)
    if not CHROMIUM.exists():
        pytest.skip(
            "Debian's chromium is missing (/usr/bin/chromium): install it as root with "
            "'apt-get install -y chromium' (these tests do so themselves when run as root)"
        )
    return CHROMIUM


@pytest.fixture(scope="module")
def pyodide() -> Path:
    """The npm package pyodide, installed with ``npm ci`` when missing and npm is here."""
    folder = ROOT / "node_modules" / "pyodide"
    lock = ROOT / "package-lock.json"
    missing = not (folder / "pyodide.mjs").is_file()
    if missing and _may_install() and shutil.which("npm") and lock.is_file():
        # Installed beside the checkout and moved into place in one rename, so that the docs
        # build (which copies Pyodide when node_modules is there) never sees half a folder.
        with tempfile.TemporaryDirectory(dir=ROOT, prefix=".npm-") as tmp:
            for name in ("package.json", "package-lock.json"):
                shutil.copy(ROOT / name, tmp)
            subprocess.run(
                ["npm", "ci", "--no-audit", "--no-fund"],
                cwd=tmp, capture_output=True, timeout=900, check=False,
            )
            built = Path(tmp) / "node_modules"
            if built.is_dir() and not (ROOT / "node_modules").exists():
                os.rename(built, ROOT / "node_modules")
    if not (folder / "pyodide.mjs").is_file():
        pytest.skip(
            "the npm package pyodide is missing: run 'npm ci' in the repository root "
            "(needs npm and the committed package-lock.json)"
        )
    return folder


@pytest.fixture(scope="module")
def playwright_api() -> Any:
    return pytest.importorskip(
        "playwright.sync_api", reason="playwright is missing: pip install '.[test]'"
    )


@contextlib.contextmanager
def serving(page: Path) -> Iterator[tuple[str, LiveServer]]:
    with LiveServer(create_app(page=page)) as live:
        yield live.url, live


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, pyodide: Path) -> Path:
    """The page, built from the installed package (a compiled install packs its .py)."""
    out = tmp_path_factory.mktemp("page")
    build.build_page(out, pyodide)
    return out


@pytest.fixture(scope="module")
def url(built: Path) -> Iterator[str]:
    with serving(built) as (address, _):
        yield address


@pytest.fixture(scope="module")
def browser(
    chromium: Path, playwright_api: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """One Chromium with a fresh profile (a service worker needs a profile)."""
    with playwright_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")),
            executable_path=str(chromium),
            headless=True,
            args=FLAGS,
            viewport=PHONE,
        )
        try:
            yield context
        finally:
            context.close()


TIMINGS: dict[str, Any] = {}


def save_timings() -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / "timings.json").write_text(json.dumps(TIMINGS, indent=1))
    print(f"page timings: {json.dumps(TIMINGS)}")


@pytest.fixture(scope="module")
def page(browser: Any, url: str) -> Any:
    """The page, loaded once; the first-load time is recorded."""
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    start = time.perf_counter()
    tab.goto(url)
    tab.wait_for_selector("body[data-ready='1']", timeout=120_000)
    TIMINGS["first_load_s"] = round(time.perf_counter() - start, 2)
    for key in ("pyodide", "imported", "ready"):
        TIMINGS[f"engine_{key}_ms"] = round(tab.evaluate(f"window.tricklawTimes.{key}"))
    save_timings()
    assert not errors, errors
    return tab


def cli_json(*args: str) -> Any:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(args)) == 0
    return json.loads(out.getvalue())


def choose_table(tab: Any, rid: str, players: int, readings: dict[str, str]) -> None:
    """Choose the game, the player count and the readings on the page, as a player does."""
    if tab.input_value("#ruleset") != rid:
        tab.select_option("#ruleset", rid)
    if tab.input_value("#players") != str(players):
        tab.select_option("#players", str(players))
    tab.click("[data-preset='default']")
    if readings and tab.get_attribute("#readings-box", "open") is None:
        tab.click("#readings-box summary")
    for name, value in readings.items():
        tab.select_option(f"select[data-option='{name}']", value)


def tap_trick(tab: Any, cards: list[str]) -> dict[str, Any]:
    """Tap the cards (colour, then value) and read the page's judgement."""
    tab.click("#clear")
    tab.click("[data-target='trick']")
    for card in cards:
        tab.click(f"#colours [data-colour='{card[0]}']")
        tab.click(f"#values [data-card='{card}']")
    tab.wait_for_selector("#verdict[data-report]")
    report: dict[str, Any] = json.loads(tab.get_attribute("#verdict", "data-report"))
    return report


def check_words(tab: Any) -> None:
    """The verdict reads as words: no empty list after a colon in the headline (The Last
    at 2 players, where nobody takes the cards, once showed "wins: ; out of play"), and
    no raw key (``winning-colour``) in a fact."""
    headline = tab.inner_text("#headline")
    assert headline and ": ;" not in headline and not headline.rstrip().endswith(":"), headline
    for fact in tab.query_selector_all(".fact"):
        key = fact.inner_text().split(":", 1)[0]
        assert "-" not in key, fact.inner_text()


def examples() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Every worked trick of the texts: (ruleset, its sequence, the trick)."""
    found = []
    for rid in sorted(RULESETS):
        path = ROOT / "spec" / f"{rid}.examples.toml"
        if not path.is_file():
            continue
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for sequence in data.get("sequence", []):
            for trick in sequence.get("trick", []):
                found.append((rid, sequence, trick))
    return found


def test_the_worked_examples_tapped_on_the_page(page: Any) -> None:
    cases = examples()
    assert len(cases) >= 10
    for rid, sequence, trick in cases:
        holds = {**sequence.get("holds_under", {}), **trick.get("holds_under", {})}
        readings = {name: values[0] for name, values in holds.items()}
        players = sequence["players"]
        choose_table(page, rid, players, readings)
        report = tap_trick(page, list(map(str, trick["cards"])))
        options = [x for k, v in readings.items() for x in ("-o", f"{k}={v}")]
        cli = cli_json("trick", rid, "-n", str(players), *options, "--json", *trick["cards"])
        assert report == cli, (rid, trick["cards"])
        seats = sequence["seats"]
        if "winner" in trick and "leader" in trick:
            offset = (seats.index(trick["winner"]) - seats.index(trick["leader"])) % len(seats)
            assert report["winner"] == offset, (rid, trick["cards"])
        check_words(page)


def test_random_tricks_tapped_on_the_page_agree_with_trick_json(page: Any) -> None:
    rng = random.Random(15)
    judged = 0
    start = time.perf_counter()
    for rid in sorted(RULESETS):
        ruleset = get_ruleset(rid)
        presets = [p.name for p in load_registry(rid).presets]
        for _ in range(RANDOM_TRICKS):
            players = rng.choice(ruleset.player_counts)
            preset = rng.choice(presets)
            game = ruleset.make_game(players, dict(load_registry(rid).preset(preset).options))
            cards = ruleset.palette.format_all(
                rng.sample(list(ruleset.deck(players, game.options)), game.seats)
            )
            choose_table(page, rid, players, {})
            page.click(f"[data-preset='{preset}']")
            report = tap_trick(page, cards)
            cli = cli_json("trick", rid, "-n", str(players), "--preset", preset, "--json", *cards)
            assert report == cli, (rid, players, preset, cards)
            check_words(page)
            judged += 1
    calls = page.evaluate("window.tricklawTimes.calls.filter(c => c.method === 'judge')")
    per = sorted(c["ms"] for c in calls)
    TIMINGS["random_tricks"] = judged
    TIMINGS["random_tricks_wall_s"] = round(time.perf_counter() - start, 1)
    TIMINGS["judge_ms_median"] = round(per[len(per) // 2], 1)
    TIMINGS["judge_ms_max"] = round(per[-1], 1)
    save_timings()
    assert judged == RANDOM_TRICKS * len(RULESETS)


def test_hunds_context_on_the_page(page: Any) -> None:
    choose_table(page, "hund", 3, {})
    page.fill("input[data-context='powers']", "Y")
    page.dispatch_event("input[data-context='powers']", "change")
    report = tap_trick(page, ["R1", "Y2", "B3"])
    assert report == cli_json("trick", "hund", "-n", "3", "-c", "powers=Y", "--json",
                              "R1", "Y2", "B3")
    assert report["winner"] == 1


def test_what_may_be_played_is_said_once_per_dispute_on_the_page(page: Any) -> None:
    """Issue 45: the readings that disagree on whether a card may be played are shown once
    per trick, the cards that share a verdict together, in the words ``trick`` prints (the
    page once listed the dispute again under every seat)."""
    choose_table(page, "sticheln-1993", 4, {})
    tap_trick(page, ["R1", "B2", "Y3", "R4"])
    [shown] = page.query_selector_all(".legal")
    words = shown.inner_text()
    assert words.count("STI93-D-FOLLOW") == 1, words
    assert "B2 (seat +1) and Y3 (seat +2): each only if its player held no R card" in words


def test_hunds_context_boxes_follow_the_designation_mode(page: Any) -> None:
    """Issue 45: the base game once showed the custom option's "sets" box. A context box
    shows only under the readings where it means something (Ruleset.trick_context_when)."""

    def boxes() -> set[str]:
        return {x.get_attribute("data-context") for x in page.query_selector_all("[data-context]")}

    choose_table(page, "hund", 3, {})
    assert boxes() == {"powers", "designation"}
    choose_table(page, "hund", 3, {"designation-mode": "sets"})
    assert boxes() == {"powers", "sets"}
    page.fill("input[data-context='sets']", "R3,Y5")
    page.dispatch_event("input[data-context='sets']", "change")
    report = tap_trick(page, ["R1", "R3", "Y3"])
    cli = cli_json("trick", "hund", "-n", "3", "-o", "designation-mode=sets", "-c", "sets=R3,Y5",
                   "--json", "R1", "R3", "Y3")
    assert report == cli
    choose_table(page, "hund", 3, {"designation-mode": "drawn"})  # the sets typed are not sent
    assert boxes() == {"powers", "designation"}
    assert tap_trick(page, ["R1", "R3", "Y3"]) == cli_json(
        "trick", "hund", "-n", "3", "--json", "R1", "R3", "Y3"
    )


def test_opened_from_a_file_the_page_says_what_to_do(browser: Any, built: Path) -> None:
    """Issue 45: opened from the file system, the page once stayed on "Loading the rules
    engine..." for ever; it now says in one line how to serve it."""
    tab = browser.new_page()
    try:
        tab.goto((built / "index.html").as_uri())
        tab.wait_for_selector("body[data-ready='file']", timeout=10_000)
        status = tab.inner_text("#status")
        assert "needs a web server" in status and "tricklaw serve --table" in status
        assert "\n" not in status.strip()
    finally:
        tab.close()


def test_may_i_play_and_score_a_round_on_the_page(page: Any) -> None:
    choose_table(page, "sticheln-1993", 4, {})
    page.click("#clear")
    page.click("[data-target='hand']")
    for card in ("B0", "R7", "G3"):
        page.click(f"#colours [data-colour='{card[0]}']")
        page.click(f"#values [data-card='{card}']")
    page.click("[data-target='trick']")
    for card in ("R3", "R2"):
        page.click(f"#colours [data-colour='{card[0]}']")
        page.click(f"#values [data-card='{card}']")
    page.click("#hand [data-card='B0'] button")
    shown = json.loads(page.get_attribute("#may", "data-answer"))
    expected = api.may_play(
        "sticheln-1993", 4, {}, hand=["B0", "R7", "G3"], trick=["R3", "R2"], card="B0"
    )
    assert shown == expected and shown["legal"]
    assert "must-follow" in page.inner_text("#may")

    choose_table(page, "lowhigh", 3, {})
    piles = [["R1", "R5"], ["B9"], []]
    for seat, pile in enumerate(piles):
        page.click(f"[data-target='pile{seat}']")
        for card in pile:
            page.click(f"#colours [data-colour='{card[0]}']")
            page.click(f"#values [data-card='{card}']")
    page.click("#score")
    scores = json.loads(page.get_attribute("#scores", "data-scores"))
    assert scores == api.score("lowhigh", 3, {}, piles=piles)["scores"]


def test_a_shared_url_restores_the_trick_and_the_readings(page: Any, browser: Any) -> None:
    choose_table(page, "sticheln-1993", 4, {"follow": "must-follow", "all-zero": "no-winner"})
    report = tap_trick(page, ["R0", "B0", "G0", "Y0"])
    shared = page.url
    other = browser.new_page()
    other.goto(shared)
    other.wait_for_selector("#verdict[data-report]", timeout=120_000)
    restored = json.loads(other.get_attribute("#verdict", "data-report"))
    assert restored == report
    assert restored["options"]["follow"] == "must-follow" and restored["winner"] is None
    other.close()


def test_the_page_works_offline_after_the_first_visit(
    browser: Any, built: Path, tmp_path: Path
) -> None:
    with serving(built) as (address, _):
        tab = browser.new_page()
        tab.goto(address + "#g=lowhigh&n=3&t=R1+R5+B9")
        tab.wait_for_selector("body[data-ready='1']", timeout=120_000)
        tab.evaluate("navigator.serviceWorker.ready.then(() => true)")
        online = json.loads(tab.get_attribute("#verdict", "data-report"))
    # The server is gone: every file must come from the service worker's cache.
    start = time.perf_counter()
    tab.reload()
    tab.wait_for_selector("body[data-ready]", timeout=120_000)
    assert tab.evaluate("document.body.dataset.ready") == "1"
    TIMINGS["offline_reload_s"] = round(time.perf_counter() - start, 2)
    save_timings()
    assert json.loads(tab.get_attribute("#verdict", "data-report")) == online
    tab.close()


@pytest.mark.parametrize("width", ["phone", "desktop"])
def test_screenshots_without_sideways_scrolling(page: Any, width: str) -> None:
    page.set_viewport_size(PHONE if width == "phone" else DESKTOP)
    choose_table(page, "sticheln-1993", 4, {})
    tap_trick(page, ["Y6", "Y5", "Y2", "R4"])
    page.click("[data-target='hand']")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"trick-{width}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    choose_table(page, "hund", 4, {})
    page.screenshot(path=str(ARTIFACTS / f"hund-{width}.png"))
    page.set_viewport_size(PHONE)
