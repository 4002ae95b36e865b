"""The roles and the directive pages use: ``{clause}`` links, ``{cards}`` glyphs, and the
``{trick}`` directive, a trick judged by the model at build time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

from tricklaw.model.cards import colour_of, value_of
from tricklaw.model.ruleset import Ruleset
from tricklaw.model.rulesets import get_ruleset
from tricklaw.model.trick import TrickResult

from .links import known, xref


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


def _describe(ruleset: Ruleset[Any], result: TrickResult) -> str:
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
        "compact": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        """The trick's glyphs, its result and deciding clauses, and its other readings."""
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
        if len(others) and "compact" not in self.options:
            box += nodes.paragraph(text="Other readings:")
            box += others
        return [box]
