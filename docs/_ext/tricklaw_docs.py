"""tricklaw's own Sphinx extension: clause links, rendered tricks, and the generated pages.

Roles and directives
--------------------

``{clause}`STI93-TRICK-3``` (reST: ``:clause:`STI93-TRICK-3```)
    A link to the clause's entry on its ruleset page, or, for a dispute id
    (``STI93-D-ALLZERO``), to its entry in the disputes register. An id that no
    registry knows is a build warning (an error under ``-W``).

``{cards}`sticheln-1993 R0 B0 Y0 G0```
    The cards as coloured glyphs in the ruleset's palette.

``{trick}`` directive
    A complete trick judged at build time by the model (``ruleset.judge_trick``):
    the cards as glyphs with the winner marked, the result, the deciding clauses as
    links, and the result under every other reading of the options that can change
    a trick. Argument: ``RULESET CARD...``; options ``:players:``, ``:option:``
    (``k=v``, comma-separated), ``:context:`` (``k=v``, ``;``-separated).

Generated pages
---------------

On ``builder-inited`` the extension writes ``docs/generated/`` (ignored by git): one
page per ruleset, the disputes register (with a simulation), the traceability
matrix, the CLI reference, the API reference, highlighted source pages with line
anchors, and the score-distribution plot. Files are rewritten only when their
content changes.
"""

from __future__ import annotations

import html
import os
import random
import re
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.addnodes import pending_xref
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tricklaw_trace as trace

from tricklaw.spec import CLAUSE_KIND_ORDER

LOG = logging.getLogger(__name__)
ROOT = trace.ROOT
GEN = "generated"

COLOURS = {
    "red": "#c0392b",
    "orange": "#e67e22",
    "yellow": "#d4ac0d",
    "green": "#27ae60",
    "blue": "#2471a3",
    "purple": "#8e44ad",
    "violet": "#7d3c98",
    "grey": "#717d7e",
}

KIND_ORDER = CLAUSE_KIND_ORDER


# --------------------------------------------------------------------------- ids and labels


def label(cid: str) -> str:
    """The Sphinx label of a clause or dispute id."""
    return ("dispute-" if "-D-" in cid else "clause-") + cid.lower()


def known() -> dict[str, str]:
    """Every clause and dispute id -> its ruleset."""
    return trace.known_ids()


def xref(cid: str, text: str | None = None) -> pending_xref:
    """A link node to the entry of ``cid`` (resolved by the std domain)."""
    node = pending_xref(
        "", refdomain="std", reftype="ref", reftarget=label(cid), refexplicit=True, refwarn=True
    )
    node += nodes.literal(text or cid, text or cid, classes=["tl-clause"])
    return node


def clause_role(  # noqa: PLR0917 (docutils role signature)
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: Mapping[str, Any] | None = None,
    content: Sequence[str] = (),
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``{clause}`ID```: a link to a clause or dispute; unknown ids are a warning."""
    cid = text.strip()
    if cid not in known():
        msg = inliner.reporter.warning(
            f"unknown clause id {cid!r} (no registry in spec/ defines it)", line=lineno
        )
        prb = inliner.problematic(rawtext, rawtext, msg)
        return [prb], [msg]
    return [xref(cid)], []


def card_nodes(ruleset_id: str, texts: Sequence[str], winner: int | None = None) -> nodes.inline:
    """The cards as coloured glyphs (the ``winner``-th marked)."""
    from tricklaw.model.cards import colour_of, value_of
    from tricklaw.model.rulesets import get_ruleset

    palette = get_ruleset(ruleset_id).palette
    box = nodes.inline(classes=["tl-cards"])
    for i, t in enumerate(texts):
        card = palette.parse(t)
        name = palette.name(colour_of(card))
        classes = ["tl-card", f"tl-{name}"]
        if winner is not None and i == winner:
            classes.append("tl-win")
        glyph = nodes.inline(classes=classes)
        glyph += nodes.inline("", palette.letter(colour_of(card)), classes=["tl-letter"])
        glyph += nodes.inline("", str(value_of(card)), classes=["tl-value"])
        box += glyph
        box += nodes.Text(" ")
    return box


def cards_role(  # noqa: PLR0917 (docutils role signature)
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Any,
    options: Mapping[str, Any] | None = None,
    content: Sequence[str] = (),
) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """``{cards}`RULESET CARD ...```: coloured card glyphs."""
    parts = text.split()
    try:
        return [card_nodes(parts[0], parts[1:])], []
    except Exception as exc:
        msg = inliner.reporter.warning(f"bad cards {text!r}: {exc}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]


def _pairs(raw: str, sep: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in raw.split(sep):
        if item.strip():
            k, _, v = item.partition("=")
            out[k.strip()] = v.strip()
    return out


def _describe(ruleset: Any, result: Any) -> str:
    fmt = ruleset.palette.format
    if result.winner is None:
        return "no winner: the cards are set aside"
    who = "the leader" if result.winner == 0 else f"seat +{result.winner}"
    text = f"{who} ({fmt(result.cards[result.winner])}) wins"
    if len(result.taken) > 1 or result.aside:
        takes = "; ".join(
            f"{'the leader' if o == 0 else f'seat +{o}'} takes {' '.join(map(fmt, cs))}"
            for o, cs in result.taken
        )
        text += f" ({takes})"
    return text


class TrickDirective(SphinxDirective):
    """A trick judged by the model at build time and drawn as coloured cards."""

    required_arguments = 2
    final_argument_whitespace = True
    option_spec = {  # noqa: RUF012
        "players": directives.positive_int,
        "option": directives.unchanged,
        "context": directives.unchanged,
        "caption": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        from tricklaw.model.rulesets import get_ruleset

        ruleset_id, *texts = " ".join(self.arguments).split()
        try:
            ruleset = get_ruleset(ruleset_id)
            players = self.options.get("players", len(texts))
            opts = _pairs(self.options.get("option", ""), ",")
            context = _pairs(self.options.get("context", ""), ";")
            game = ruleset.make_game(players, opts)
            cards = ruleset.palette.parse_all(texts)
            result = ruleset.judge_trick(game, cards, context)
        except Exception as exc:
            return [self.state.document.reporter.warning(f"bad trick: {exc}", line=self.lineno)]
        box = nodes.container(classes=["tl-trick"])
        head = nodes.paragraph()
        if "caption" in self.options:
            head += nodes.strong(text=self.options["caption"] + " ")
        setting = ", ".join(f"{k}={v}" for k, v in game.options.as_dict().items() if k in opts)
        ctx = "; ".join(f"{k}={v}" for k, v in context.items())
        head += nodes.emphasis(
            text=f"{ruleset_id}, {players} players"
            + (f", {setting}" if setting else "")
            + (f"; context {ctx}" if ctx else "")
        )
        box += head
        box += nodes.paragraph("", "", card_nodes(ruleset_id, texts, result.winner))
        verdict = nodes.paragraph()
        verdict += nodes.strong(text=_describe(ruleset, result))
        verdict += nodes.Text(". Decided by ")
        for i, cid in enumerate(result.clauses):
            if i:
                verdict += nodes.Text(", ")
            verdict += xref(cid)
        verdict += nodes.Text(".")
        box += verdict
        others = nodes.bullet_list()
        for spec in ruleset.option_specs:
            if not spec.affects_trick:
                continue
            for value in spec.choices:
                if value == game.options[spec.name]:
                    continue
                other = ruleset.make_game(players, {**game.options.as_dict(), spec.name: value})
                alt = ruleset.judge_trick(other, cards, context)
                same = (alt.winner, alt.taken, alt.aside) == (
                    result.winner,
                    result.taken,
                    result.aside,
                )
                item = nodes.paragraph()
                item += nodes.literal(text=f"--option {spec.name}={value}")
                item += nodes.Text(": " + ("same result" if same else _describe(ruleset, alt)))
                others += nodes.list_item("", item)
        if len(others):
            box += nodes.paragraph(text="Other readings:")
            box += others
        return [box]


# --------------------------------------------------------------------------- docstrings


TABLE_BORDER = re.compile(r"^\s*(=+\s+)+=+\s*$|^\s*\+(-+\+)+\s*$")
ID_TOKEN = re.compile(r"(?<![\w`:-])([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)(?![\w`-])")


def link_docstring_ids(  # noqa: PLR0917 (Sphinx autodoc-process-docstring signature)
    app: Sphinx, what: str, name: str, obj: Any, options: Any, lines: list[str]
) -> None:
    """Turn plain clause ids in docstrings into ``:clause:`` links (outside literals)."""
    ids = known()
    in_literal_block = False
    block_indent = 0
    borders = [i for i, line in enumerate(lines) if TABLE_BORDER.match(line)]
    for i, line in enumerate(lines):
        if borders and borders[0] <= i <= borders[-1]:
            continue  # inside a table: a longer cell would break its columns
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if in_literal_block:
            if stripped and indent <= block_indent:
                in_literal_block = False
            else:
                continue
        if stripped.endswith("::"):
            in_literal_block, block_indent = True, indent
        parts = line.split("``")
        for j in range(0, len(parts), 2):  # outside double-backtick literals
            parts[j] = ID_TOKEN.sub(
                lambda m: f":clause:`{m.group(1)}`" if m.group(1) in ids else m.group(1),
                parts[j],
            )
        lines[i] = "``".join(parts)


def resolve_short_py_names(app: Sphinx, env: Any, node: Any, contnode: nodes.Node) -> Any:
    """Resolve a Python reference that names an object by a short or re-exported name
    (``Game`` for ``tricklaw.model.state.Game``) when exactly one documented object of this
    project ends with that name."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~.")
    domain = env.get_domain("py")
    tail = target.rsplit(".", 1)[-1]
    candidates = [
        name
        for name in domain.objects
        if name.startswith("tricklaw.")
        and (
            name.endswith("." + target)
            or (
                name.rsplit(".", 1)[-1] == tail
                and name.startswith(target.rsplit(".", 1)[0] + ".")
                and "." in target
            )
        )
    ]
    if len(candidates) != 1:
        return None
    from sphinx.util.nodes import make_refnode

    entry = domain.objects[candidates[0]]
    return make_refnode(app.builder, node["refdoc"], entry.docname, entry.node_id, contnode)


# --------------------------------------------------------------------------- writing files


def write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` unless it already holds exactly that."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.write_text(text, encoding="utf-8")


def md_escape(text: str) -> str:
    """Text safe inside a MyST paragraph or table cell."""
    out = text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*")
    return out.replace("<", "&lt;").replace("_", "\\_").replace("`", "\\`").replace("$", "\\$")


def linkify(text: str) -> str:
    """Markdown-escaped ``text`` with known clause ids as ``{clause}`` links."""
    ids = known()
    out: list[str] = []
    pos = 0
    for m in trace.TOKEN.finditer(text):
        cid = m.group(1)
        if cid not in ids:
            continue
        out.append(md_escape(text[pos : m.start(1)]))
        out.append(f"{{clause}}`{cid}`")
        pos = m.end(1)
    out.append(md_escape(text[pos:]))
    return "".join(out)


def lines_text(lines: Sequence[tuple[int, int]]) -> str:
    """``line 9`` or ``lines 15-23, 25``."""
    word = "line" if len(lines) == 1 and lines[0][0] == lines[0][1] else "lines"
    return word + " " + ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in lines)


def source_page(path: str) -> str:
    """The docname (under generated/sources) of the highlighted page of ``path``."""
    return path.removesuffix(".py").replace("/", "-")


def code_link(cite: trace.Citation, depth: int) -> str:
    """Inline HTML linking to the cited line of the highlighted source page."""
    up = "../" * depth
    href = f"{up}sources/{source_page(cite.path)}.html#L-{cite.line}"
    where = "" if cite.where == "module" else f" {html.escape(cite.where)}"
    how = f' <span class="tl-how">{cite.how}</span>' if cite.how == "mention" else ""
    return (
        f'<a class="tl-src" href="{href}"><code>{html.escape(cite.path)}:{cite.line}</code></a>'
        f"{where}{how}"
    )


def gen_sources(gen: Path) -> None:
    """One page per Python file of model/, proofs/ and tests/, lines anchored L-n."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    formatter = HtmlFormatter(linenos="inline", lineanchors="L", anchorlinenos=True)
    lexer = PythonLexer()
    index = ["---", "orphan: true", "---", "", "# Source files", ""]
    for folder in ("model", "proofs", "tests"):
        for path in trace.source_files(folder):
            rel = path.relative_to(ROOT).as_posix()
            body = highlight(path.read_text(encoding="utf-8"), lexer, formatter)
            text = "\n".join(
                [
                    "---",
                    "orphan: true",
                    "---",
                    "",
                    f"# {rel}",
                    "",
                    "```{raw} html",
                    f'<div class="tl-source">{body}</div>',
                    "```",
                    "",
                ]
            )
            write(gen / "sources" / f"{source_page(rel)}.md", text)
            index.append(f"- [{rel}]({source_page(rel)}.md)")
    write(gen / "sources" / "index.md", "\n".join(index) + "\n")


# --------------------------------------------------------------------------- ruleset pages


def palette_line(ruleset_id: str) -> str:
    from tricklaw.model.rulesets import get_ruleset

    p = get_ruleset(ruleset_id).palette
    cards = " ".join(f"{letter}0" for letter in p.letters)
    names = ", ".join(f"`{ltr}` {n}" for ltr, n in zip(p.letters, p.names, strict=True))
    return f"{{cards}}`{ruleset_id} {cards}` ({names})"


def option_table(ruleset_id: str) -> list[str]:
    from tricklaw.model.rulesets import get_ruleset

    r = get_ruleset(ruleset_id)
    out = ["| option | default | values | dispute | meaning |", "|---|---|---|---|---|"]
    for s in r.option_specs:
        values = ", ".join(f"`{c}`" for c in s.choices) or f"{s.minimum}..{s.maximum}"
        dispute = f"{{clause}}`{s.dispute}`" if s.dispute else ""
        trick = " (can change a trick)" if s.affects_trick else ""
        out.append(
            f"| `{s.name}` | `{s.default}` | {values} | {dispute} | {md_escape(s.help)}{trick} |"
        )
    return out


def example_blocks(ruleset_id: str) -> list[str]:
    from tricklaw.spec import load_examples

    data = load_examples(ruleset_id)
    out: list[str] = []
    for seq in data.get("sequence", []):
        opts = ",".join(f"{k}={v[0]}" for k, v in seq.get("holds_under", {}).items() if v)
        out += [f"### Worked tricks {seq.get('id', '')}", ""]
        if "seats" in seq:
            out += [f"Seats (clockwise): {', '.join(seq['seats'])}.", ""]
        for t in seq.get("trick", []):
            local = {**seq.get("holds_under", {}), **t.get("holds_under", {})}
            topts = ",".join(f"{k}={v[0]}" for k, v in local.items() if v) or opts
            caption = t.get("clause", "")
            out += [
                f"```{{trick}} {ruleset_id} {' '.join(t['cards'])}",
                f":players: {seq['players']}",
            ]
            if topts:
                out.append(f":option: {topts}")
            if caption:
                out.append(f":caption: {caption}")
            out += ["```", ""]
            if "winner" in t:
                out += [
                    f"The text: {md_escape(str(t.get('leader', '')))} leads; "
                    f"the winner is {md_escape(str(t['winner']))}"
                    + (f" (worth {t['points']} to them)" if "points" in t else "")
                    + (f" ({{clause}}`{caption}`)." if caption else "."),
                    "",
                ]
    return out


def gen_ruleset(gen: Path, ruleset_id: str) -> None:
    from tricklaw.model.rulesets import get_ruleset
    from tricklaw.spec import load_registry

    reg = load_registry(ruleset_id)
    r = get_ruleset(ruleset_id)
    traces = {t.clause_id: t for t in trace.trace(ruleset_id)}
    disputes_of: dict[str, list[str]] = {}
    for d in reg.disputes:
        for cid in d.clauses:
            disputes_of.setdefault(cid, []).append(d.id)
    counts = r.player_counts
    out = [
        f"(ruleset-{ruleset_id})=",
        f"# {md_escape(reg.title)}",
        "",
        f"Ruleset id `{ruleset_id}` · players {counts[0]}-{counts[-1]} · clause prefix "
        f"`{reg.prefix}` · source text `{reg.source.file}` ({reg.source.lines} lines, "
        f"SHA-256 `{reg.source.sha256[:16]}…`).",
        "",
        f"Palette (canonical deck order): {palette_line(ruleset_id)}.",
        "",
        "This page is generated at build time from "
        f"`spec/{ruleset_id}.toml`. For each clause it lists the model code that cites it "
        "(`model/`), the Z3 encodings and checks that name it (`proofs/`; *mention* marks a "
        "citation outside a tracked assertion or text case) and the tests that exercise it "
        "(`@clause` markers in `tests/`). See also the "
        "[traceability matrix](../matrix.md) and the [disputes register](../disputes.md).",
        "",
        "## Options",
        "",
        *option_table(ruleset_id),
        "",
        "## Clauses",
        "",
    ]
    kinds: dict[str, int] = {}
    for c in reg.clauses:
        kinds[c.kind] = kinds.get(c.kind, 0) + 1
    out += [
        f"{len(reg.clauses)} clauses: "
        + ", ".join(f"{kinds[k]} {k}" for k in KIND_ORDER if k in kinds)
        + f"; {len(reg.disputes)} disputes.",
        "",
    ]
    for c in reg.clauses:
        t = traces[c.id]
        src = c.source or reg.source.file
        out += [f"({label(c.id)})=", f"### {c.id}", ""]
        meta = [f"**{c.kind}**", f"`{src}` {lines_text(c.lines)}"]
        if c.players:
            meta.append(f"players {', '.join(map(str, c.players))} only")
        out += [" · ".join(meta), "", f"> {linkify(c.summary)}", ""]
        if c.note:
            out += [f"*Note:* {linkify(c.note)}", ""]
        if c.id in disputes_of:
            out += [
                "Disputed in: " + ", ".join(f"{{clause}}`{d}`" for d in disputes_of[c.id]),
                "",
            ]
        for title, cites, needed in (
            ("Code", t.code, t.needs_code),
            ("Z3", t.proof, t.needs_proof),
            ("Tests", t.test, t.needs_test),
        ):
            if cites:
                links = ", ".join(code_link(x, 1) for x in cites)
                out += [f"{title}: {links}", ""]
            elif needed:
                out += [f'{title}: <span class="tl-gap">missing</span>', ""]
    examples = example_blocks(ruleset_id)
    if examples:
        out += ["## Worked examples, judged by the model", "", *examples]
    write(gen / "rulesets" / f"{ruleset_id}.md", "\n".join(out) + "\n")


# --------------------------------------------------------------------------- disputes


def _reading_value(spec: Any, value: str) -> Any:
    if spec.is_integer:
        try:
            return int(value)
        except ValueError:
            return None
    return value if value in spec.choices else None


def random_trick(rng: random.Random, ruleset: Any, game: Any) -> tuple[list[Any], dict[str, str]]:
    """A uniformly random complete trick (distinct cards of the deck) and, for rules that
    need one, a random context."""
    deck = list(ruleset.deck(game.players, game.options))
    cards = rng.sample(deck, game.seats)
    context: dict[str, str] = {}
    names = dict(ruleset.trick_context)
    if "powers" in names and rng.random() < 0.5:
        context["powers"] = rng.choice(ruleset.palette.letters)
    elif "designation" in names:
        context["designation"] = str(rng.randint(1, 5))
    return cards, context


def simulate_dispute(
    ruleset_id: str, option: str, values: list[str], budget: float
) -> dict[str, Any]:
    """How often each reading's result differs from the default reading's.

    * trick level (options that can change a trick): the same uniformly random complete
      tricks judged under each reading;
    * game level: the same seeded games (same deals, same random agents) played under
      each reading, at every player count; a game differs when its final totals do.
    """
    from tricklaw.model.agents import play_random_game
    from tricklaw.model.rulesets import get_ruleset
    from tricklaw.spec.errors import TricklawError

    r = get_ruleset(ruleset_id)
    spec = next(s for s in r.option_specs if s.name == option)
    default = spec.default
    extra: dict[str, Any] = {}
    if ruleset_id == "hund" and option.startswith("set-"):
        extra = {"designation-mode": "sets"}  # these readings only act on designation sets
    out: dict[str, Any] = {"trick": {}, "game": {}, "games": 0, "tricks": 0, "witness": None}
    start = time.perf_counter()
    if spec.affects_trick:
        rng = random.Random(f"{ruleset_id}/{option}")
        n_tricks = 2000
        for players in r.player_counts:
            base = r.make_game(players, extra)
            games = {
                v: r.make_game(players, {**extra, option: _reading_value(spec, v)}) for v in values
            }
            for _ in range(n_tricks // len(r.player_counts)):
                cards, ctx = random_trick(rng, r, base)
                ref = (
                    r.judge_trick(games[str(default)], cards, ctx)
                    if str(default) in games
                    else None
                )
                for v in values:
                    res = r.judge_trick(games[v], cards, ctx)
                    diff = ref is not None and (res.winner, res.taken, res.aside) != (
                        ref.winner,
                        ref.taken,
                        ref.aside,
                    )
                    out["trick"][v] = out["trick"].get(v, 0) + int(diff)
                    if diff and out["witness"] is None:
                        out["witness"] = (players, r.palette.format_all(cards), ctx)
                out["tricks"] += 1
    n_games = 10
    for players in r.player_counts:
        try:
            games = {
                v: r.make_game(players, {**extra, option: _reading_value(spec, v)}) for v in values
            }
        except TricklawError:
            continue
        for seed in range(n_games):
            if time.perf_counter() - start > budget:
                break
            totals = {
                v: tuple(play_random_game(g, seed, max_rounds=12).returns())
                for v, g in games.items()
            }
            ref = totals.get(str(default))
            for v in values:
                out["game"][v] = out["game"].get(v, 0) + int(ref is not None and totals[v] != ref)
            out["games"] += 1
    out["seconds"] = time.perf_counter() - start
    return out


_EXAMPLE_CHECKS: dict[str, list[Any]] = {}


def _dispute_examples(ruleset_id: str, dispute: Any) -> list[str]:
    """The text's worked examples a dispute cites: under which readings each holds
    (checked against the model by ``tricklaw.proofs.examples``), and its tricks drawn."""
    from tricklaw.proofs.examples import check_examples
    from tricklaw.spec import load_examples

    data = load_examples(ruleset_id)
    cited = set(dispute.clauses)
    related: list[tuple[str, dict[str, Any]]] = []
    for seq in data.get("sequence", []):
        ids = set(seq["clauses"]) | {t["clause"] for t in seq["trick"]}
        if ids & cited:
            related.append((seq["id"], seq))
    related += [(ex["clause"], ex) for ex in data.get("score", []) if ex["clause"] in cited]
    if not related:
        return []
    if ruleset_id not in _EXAMPLE_CHECKS:
        _EXAMPLE_CHECKS[ruleset_id] = check_examples(ruleset_id)
    out = [
        "**The worked examples it concerns** (checked against the model under every "
        "combination of readings):",
        "",
    ]
    for name, ex in related:
        checks = [c for c in _EXAMPLE_CHECKS[ruleset_id] if c.example == name]
        holds = [c for c in checks if c.holds]
        label = f"{{clause}}`{name}`" if name in known() else f"`{name}`"
        where = "; ".join(
            ", ".join(f"{k}={v}" for k, v in c.readings if k == dispute.option) or "any"
            for c in holds[:1]
        )
        line = f"- {label}: holds under {len(holds)} of {len(checks)} combinations"
        if holds and dispute.option:
            line += f" (e.g. {where})"
        failing = [c for c in checks if not c.holds]
        if holds:
            # Prefer a failure that differs from a holding combination only in this
            # dispute's reading: its message is this dispute's reason.
            ref = {k: v for k, v in holds[0].readings if k != dispute.option}
            own = [
                c for c in failing if {k: v for k, v in c.readings if k != dispute.option} == ref
            ]
            failing = own or failing
        if failing:
            shown = ", ".join(f"{k}={v}" for k, v in failing[0].readings if k == dispute.option)
            line += (
                f". Where it fails{f' ({shown})' if shown else ''}, the model says: "
                f"{md_escape(failing[0].failures[0])}"
            )
        out += [line, ""]
        for trick in ex.get("trick", []):
            caption = (
                f"{trick['clause']}: {trick['leader']} leads, "
                f"the text gives it to {trick['winner']}."
            )
            out += [
                f"```{{trick}} {ruleset_id} {' '.join(trick['cards'])}",
                f":players: {ex['players']}",
                f":caption: {caption}",
                "```",
                "",
            ]
    return out


def gen_disputes(gen: Path) -> float:
    from tricklaw.model.rulesets import get_ruleset
    from tricklaw.spec import load_registry

    start = time.perf_counter()
    out = [
        "(disputes)=",
        "# Disputes register",
        "",
        "Every point where a rule text contradicts itself, is silent, or disagrees with "
        "another edition is a named **dispute** in `spec/<ruleset>.toml`: the question, the "
        "competing readings, the default and the reason for it, the verbatim quotes and their "
        "lines, and the `--option` that selects each reading. This page is generated from the "
        "registries at build time.",
        "",
        "**How often does a reading matter?** For each dispute with an option, the build "
        "measures it by simulation:",
        "",
        "- *tricks*: for options that can change who takes a trick, the same uniformly random "
        "complete tricks (about 2000, spread over the player counts) are judged under every "
        "reading with `ruleset.judge_trick`; the column gives the share judged differently "
        "from the default reading;",
        "- *games*: the same seeded games (same deals, same random agents, 10 seeds per player "
        "count, at most 12 rounds) are played under every reading; the column gives the share "
        "whose final totals differ from the default reading's. A reading that changes what "
        "may be played changes the agents' choices, so such games almost always differ.",
        "",
        "Random play is not expert play: the numbers say how often a reading can matter, "
        "not how often it decides a real game.",
        "",
    ]
    for ruleset_id in trace.ruleset_ids():
        reg = load_registry(ruleset_id)
        r = get_ruleset(ruleset_id)
        out += [
            f"## {md_escape(reg.title)}",
            "",
            f"Ruleset `{ruleset_id}`: [clauses](rulesets/{ruleset_id}.md).",
            "",
        ]
        for d in reg.disputes:
            out += [f"({label(d.id)})=", f"### {d.id}: {md_escape(d.title)}", ""]
            out += [f"**{d.kind}** · `{reg.source.file}` {lines_text(d.lines)}", ""]
            out += [f"**Question.** {linkify(d.question)}", ""]
            spec = (
                next((s for s in r.option_specs if s.name == d.option), None) if d.option else None
            )
            sim = None
            if spec is not None:
                values = [
                    rd.value for rd in d.readings if _reading_value(spec, rd.value) is not None
                ]
                if len(values) > 1:
                    sim = simulate_dispute(ruleset_id, d.option, values, budget=1.5)
            head = "| reading | option | meaning |"
            rule = "|---|---|---|"
            if sim:
                if sim["tricks"]:
                    head += " tricks differing |"
                    rule += "---|"
                head += " games differing |"
                rule += "---|"
            out += [head, rule]
            for rd in d.readings:
                mark = " **(default)**" if rd.value == d.default else ""
                opt = f"`--option {d.option}={rd.value}`" if d.option else "(no option)"
                row = f"| `{rd.value}`{mark} | {opt} | {linkify(rd.summary)} |"
                if sim:
                    if sim["tricks"]:
                        n = sim["trick"].get(rd.value)
                        row += f" {100 * n / sim['tricks']:.1f} % |" if n is not None else " - |"
                    n = sim["game"].get(rd.value)
                    row += f" {n} / {sim['games']} |" if n is not None and sim["games"] else " - |"
                out.append(row)
            out.append("")
            if not d.option:
                out += ["No option selects a reading: no rule of the model depends on it.", ""]
            out += [f"**Default: `{d.default}`.** {linkify(d.reason)}", ""]
            if d.quotes:
                out += ["**Quotes** (verbatim, from the lines above):", ""]
                out += [f"- \u201c{md_escape(q)}\u201d" for q in d.quotes]
                out.append("")
            if d.clauses:
                out += [
                    "**Clauses:** " + ", ".join(f"{{clause}}`{c}`" for c in d.clauses),
                    "",
                ]
            out += _dispute_examples(ruleset_id, d)
            if sim and sim["witness"]:
                players, cards, ctx = sim["witness"]
                out += ["**A trick on which the readings differ** (found by the simulation):", ""]
                out += [f"```{{trick}} {ruleset_id} {' '.join(cards)}", f":players: {players}"]
                if ctx:
                    out.append(":context: " + "; ".join(f"{k}={v}" for k, v in ctx.items()))
                out += ["```", ""]
    write(gen / "disputes.md", "\n".join(out) + "\n")
    return time.perf_counter() - start


# --------------------------------------------------------------------------- matrix


def matrix_summary() -> dict[str, dict[str, int]]:
    """Per ruleset: clauses, normative, with code, proof, test, trick clauses with proof."""
    out: dict[str, dict[str, int]] = {}
    for ruleset_id in trace.ruleset_ids():
        ts = trace.trace(ruleset_id)
        out[ruleset_id] = {
            "clauses": len(ts),
            "normative": sum(t.normative for t in ts),
            "code": sum(bool(t.code) for t in ts),
            "proof": sum(bool(t.proof) for t in ts),
            "test": sum(bool(t.test) for t in ts),
            "trick": sum(t.needs_proof for t in ts),
            "trick_proved": sum(t.needs_proof and bool(t.proof) for t in ts),
            "gaps": sum(bool(t.gaps()) for t in ts),
        }
    return out


def _cell(cites: list[trace.Citation], needed: bool, cid: str, ruleset_id: str) -> str:
    if cites:
        files = sorted({c.path.rsplit("/", 1)[-1] for c in cites})
        first = next((c for c in cites if c.how == "assertion"), cites[0])
        href = f"sources/{source_page(first.path)}.html#L-{first.line}"
        shown = ", ".join(files[:2]) + (f" +{len(files) - 2}" if len(files) > 2 else "")
        return f'<a href="{href}">{len(cites)}</a> <small>{html.escape(shown)}</small>'
    if needed:
        return '<span class="tl-gap">✗ missing</span>'
    return '<span class="tl-na">-</span>'


def gen_matrix(gen: Path) -> None:
    summary = matrix_summary()
    out = [
        "(matrix)=",
        "# Traceability matrix",
        "",
        "For every clause: the model code that cites it, the Z3 encodings and checks that "
        "name it, and the tests that exercise it. Generated at build time by scanning the "
        "sources (`docs/_ext/tricklaw_trace.py`); `tests/test_docs.py` fails when a required "
        "cell is empty.",
        "",
        "## The rules",
        "",
        "- **Normative** clauses are all clauses except the kinds `advice` (tips), `info` "
        "(credits, headings) and `example` (worked examples; these are checked against the "
        "model and Z3 by `tricklaw verify` instead).",
        '- Every normative clause needs a **test** (a `@clause("ID")` marker in `tests/`) '
        "and a **code** citation (the id in a docstring, comment or clause table in `model/`).",
        "- **Exemption:** clauses of kind `game` whose id contains `-AIM-` are the texts' "
        "overviews of the aim of the game. They are restated in detail by the deal, trick and "
        "score clauses, so they need a test but no code citation of their own.",
        "- Every clause of kind `trick` (the trick-resolution clauses that the Z3 trick "
        "obligations should cover) needs a **proof** citation in `proofs/`.",
        "- A citation is the id itself; the compact forms `X-1..3` (a range) and `X-5/6` "
        "are expanded. In `proofs/`, a citation on a line with `Tracked(` or `Case(` is a Z3 "
        "assertion or text case; any other citation is a *mention*.",
        "",
        "A cell shows the number of citations (linked to the first) and the files; "
        '<span class="tl-gap">✗ missing</span> is a gap the check fails on, '
        '<span class="tl-na">-</span> means nothing is required.',
        "",
        "## Summary",
        "",
        "| ruleset | clauses | normative | with code | trick clauses with proof | with any proof "
        "| with test | gaps |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for ruleset_id, s in summary.items():
        out.append(
            f"| [{ruleset_id}](rulesets/{ruleset_id}.md) | {s['clauses']} | {s['normative']} "
            f"| {s['code']} | {s['trick_proved']} / {s['trick']} | {s['proof']} | {s['test']} "
            f"| {s['gaps']} |"
        )
    out.append("")
    for ruleset_id in trace.ruleset_ids():
        out += [
            f"## {ruleset_id}",
            "",
            "| clause | kind | code | proof | test |",
            "|---|---|---|---|---|",
        ]
        for t in trace.trace(ruleset_id):
            kind = t.kind + (" (exempt from code)" if t.normative and not t.needs_code else "")
            out.append(
                f"| {{clause}}`{t.clause_id}` | {kind} "
                f"| {_cell(t.code, t.needs_code, t.clause_id, ruleset_id)} "
                f"| {_cell(t.proof, t.needs_proof, t.clause_id, ruleset_id)} "
                f"| {_cell(t.test, t.needs_test, t.clause_id, ruleset_id)} |"
            )
        out.append("")
    write(gen / "matrix.md", "\n".join(out) + "\n")


# --------------------------------------------------------------------------- score bounds


def gen_bounds(gen: Path) -> float:
    """The score bounds of every ruleset, player count and reading, as proved once and
    checked in (``spec/bounds/v1.json``; read without Z3)."""
    from tricklaw.spec.proved_bounds import MAX, MIN, bound_cells, load_bounds

    start = time.perf_counter()
    proved = load_bounds()
    out = [
        "(bounds)=",
        "# Score bounds",
        "",
        "The least and the greatest score one player can make in a round, for every ruleset, "
        "player count and reading of the rules that can change them. Each bound is proved by "
        "Z3 on a sound relaxation of the round and met by a witness (a deal and its actions) "
        "that the model replays under that reading to exactly that score; a bound that is "
        "not both is shown with its status and details, never as a number alone. Read from "
        "`spec/bounds/v1.json`, which `tricklaw bounds` writes and `tricklaw verify` checks "
        "(see {py:mod}`tricklaw.proofs.bounds` and {py:mod}`tricklaw.proofs.bounds.readings`).",
        "",
        "Each option that can change a round's score range is varied on its own, one value at "
        "a time from the defaults, at the player counts where it can matter; the combinations "
        "listed under each ruleset are varied together. The Last scores penalty points (lower "
        "is better).",
        "",
    ]
    rows = bound_cells(proved.rows)
    for ruleset_id in dict.fromkeys(key[0] for key in rows):
        out += [f"## {ruleset_id}", "", "| players | reading | least | greatest |"]
        out.append("|---|---|---|---|")
        for (rid, players, reading), cells in rows.items():
            if rid != ruleset_id:
                continue
            out.append(
                f"| {players} | {md_escape(reading)} | {cells.get(MIN, '')} "
                f"| {cells.get(MAX, '')} |"
            )
        out.append("")
        part = proved.rulesets.get(ruleset_id, {})
        combos = part.get("combinations", [])
        if combos:
            out += ["Varied together:", ""]
            out += [f"- {md_escape(c['reading'])}: {c['why']}" for c in combos]
            out.append("")
        skipped = part.get("not_varied", [])
        if skipped:
            out += ["Not varied:", ""]
            out += [f"- `{s['option']}`: {md_escape(s['why'])}" for s in skipped]
            out.append("")
    write(gen / "bounds.md", "\n".join(out) + "\n")
    return time.perf_counter() - start


# --------------------------------------------------------------------------- CLI and API


def gen_cli(gen: Path) -> None:
    import argparse

    from tricklaw.cli import build_parser

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "88"
    try:
        parser = build_parser()
        out = [
            "(cli)=",
            "# Command-line reference",
            "",
            "Generated at build time from `tricklaw.cli.build_parser()`. Bad input of any kind "
            "prints one line, `tricklaw: error: ...`, and exits with status 2.",
            "",
            "## tricklaw",
            "",
            "```text",
            parser.format_help().rstrip(),
            "```",
            "",
        ]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    out += [
                        f"## tricklaw {name}",
                        "",
                        "```text",
                        sub.format_help().rstrip(),
                        "```",
                        "",
                    ]
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old
    write(gen / "cli.md", "\n".join(out) + "\n")


def gen_api(gen: Path) -> None:
    import pkgutil

    import tricklaw

    names = [
        "tricklaw",
        *sorted(
            m.name
            for m in pkgutil.walk_packages(tricklaw.__path__, "tricklaw.")
            if m.name != "tricklaw.__main__"
        ),
    ]
    out = [
        "(api)=",
        "# API reference",
        "",
        "Generated from the docstrings with `sphinx.ext.autodoc`. Clause ids in docstrings "
        "link to their clauses.",
        "",
    ]
    for name in names:
        out += [
            f"## {name}",
            "",
            "```{eval-rst}",
            f".. automodule:: {name}",
            "   :members:",
            "   :ignore-module-all:",
            "```",
            "",
        ]
    write(gen / "api.md", "\n".join(out) + "\n")


# --------------------------------------------------------------------------- plot


def gen_plot(gen: Path, rounds: int) -> float:
    """Box plots of round scores per ruleset and player count (random agents)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from tricklaw.model.agents import play_random_game
    from tricklaw.model.rulesets import RULESETS

    start = time.perf_counter()
    ids = list(RULESETS)
    fig, axes = plt.subplots(1, len(ids), figsize=(3.2 * len(ids), 3.6), sharey=False)
    stats: list[str] = [
        "| ruleset | players | rounds | mean | median | min | max |",
        "|---|---|---|---|---|---|---|",
    ]
    for ax, ruleset_id in zip(axes, ids, strict=True):
        r = RULESETS[ruleset_id]
        data, labels = [], []
        for players in r.player_counts:
            game = r.make_game(players)
            scores: list[int] = []
            for seed in range(rounds):
                state = play_random_game(game, seed, max_rounds=1)
                scores += list(state.history[0].scores[: game.players])
            data.append(scores)
            labels.append(str(players))
            stats.append(
                f"| {ruleset_id} | {players} | {rounds} | {statistics.mean(scores):.1f} "
                f"| {statistics.median(scores):g} | {min(scores)} | {max(scores)} |"
            )
        ax.boxplot(data, tick_labels=labels, showfliers=False)
        ax.set_title(ruleset_id, fontsize=10)
        ax.set_xlabel("players")
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("round score per player")
    fig.suptitle(f"Round scores of random agents ({rounds} seeded rounds per setting)")
    fig.tight_layout()
    (gen / "img").mkdir(parents=True, exist_ok=True)
    target = gen / "img" / "scores.png"
    tmp = gen / "img" / "scores.tmp.png"
    fig.savefig(tmp, dpi=96, metadata={"Software": None})
    plt.close(fig)
    if target.exists() and target.read_bytes() == tmp.read_bytes():
        tmp.unlink()
    else:
        tmp.replace(target)
    write(gen / "scores.inc", "\n".join(stats) + "\n")
    return time.perf_counter() - start


def gen_palettes(gen: Path) -> None:
    from tricklaw.model.rulesets import RULESETS

    out = [
        "| ruleset | letters | colours (canonical order) | deck by player count |",
        "|---|---|---|---|",
    ]
    for ruleset_id, r in RULESETS.items():
        decks = []
        for players in r.player_counts:
            game = r.make_game(players)
            deck = r.deck(players, game.options)
            first, last = r.palette.format(deck[0]), r.palette.format(deck[-1])
            decks.append(f"{players}: {len(deck)} ({first}..{last})")
        out.append(
            f"| `{ruleset_id}` | {palette_line(ruleset_id)} | "
            f"{', '.join(r.palette.names)} | {'; '.join(decks)} |"
        )
    write(gen / "palettes.inc", "\n".join(out) + "\n")


# --------------------------------------------------------------------------- set-up


def generate(app: Sphinx) -> None:
    """Write every generated page (``builder-inited``)."""
    if not app.config.tricklaw_generate:
        return
    gen = Path(app.srcdir) / GEN
    t0 = time.perf_counter()
    for ruleset_id in trace.ruleset_ids():
        gen_ruleset(gen, ruleset_id)
    gen_matrix(gen)
    gen_cli(gen)
    gen_api(gen)
    gen_palettes(gen)
    gen_sources(gen)
    t_disputes = gen_disputes(gen)
    t_bounds = gen_bounds(gen)
    t_plot = gen_plot(gen, app.config.tricklaw_plot_rounds)
    LOG.info(
        f"tricklaw: generated pages in {time.perf_counter() - t0:.1f} s "
        f"(disputes simulation {t_disputes:.1f} s, score bounds {t_bounds:.1f} s, "
        f"score plot {t_plot:.1f} s)"
    )


def setup(app: Sphinx) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.autodoc")
    app.add_config_value("tricklaw_plot_rounds", 200, "env")
    app.add_config_value("tricklaw_generate", True, "env")
    app.add_role("clause", clause_role)
    app.add_role("cards", cards_role)
    app.add_directive("trick", TrickDirective)
    app.connect("builder-inited", generate)
    app.connect("autodoc-process-docstring", link_docstring_ids)
    app.connect("missing-reference", resolve_short_py_names)
    app.add_css_file("tricklaw.css")
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
