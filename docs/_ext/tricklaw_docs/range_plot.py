"""Range plots as hand-written SVG (no plotting library): one small panel per ruleset of
the score-bounds page, each row a bar from the least to the greatest round score, the rows
grouped by player count, readings with the same range on one row. :func:`range_rows`
groups the proved bounds; :func:`range_svg` draws one panel; both are pure functions."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

WIDTH = 560
"""The panel's width in SVG units (it scales down to a phone's width)."""
LABEL = 200
"""The width of the row labels on the left."""
ROW = 22
FONT = 13


@dataclass(frozen=True, slots=True)
class RangeRow:
    """One bar: the player count, the readings that share the range, and the range."""

    players: str
    readings: tuple[str, ...]
    least: int
    greatest: int


def range_rows(
    cells: Mapping[tuple[str, str, str], Mapping[str, str]], ruleset_id: str, lo: str, hi: str
) -> tuple[list[RangeRow], list[str]]:
    """The bars of ``ruleset_id`` from the bounds table ``cells`` ((ruleset, players,
    reading) -> obligation -> shown value), readings with equal ranges merged, and the
    cells that are not both proved numbers (shown beside the plot, never as a bar)."""
    groups: dict[tuple[str, int, int], list[str]] = {}
    unproved: list[str] = []
    for (rid, players, reading), row in cells.items():
        if rid != ruleset_id:
            continue
        try:
            least, greatest = int(row[lo]), int(row[hi])
        except (KeyError, ValueError):
            unproved.append(f"{players} players, {reading}: {row}")
            continue
        groups.setdefault((players, least, greatest), []).append(reading)
    rows = [
        RangeRow(players, tuple(readings), least, greatest)
        for (players, least, greatest), readings in groups.items()
    ]
    rows.sort(key=lambda r: (int(r.players), "default" not in r.readings, r.least))
    return rows, unproved


def _ticks(lo: int, hi: int) -> list[int]:
    span = max(hi - lo, 1)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000) if span / s <= 6)
    first = -(-lo // step) * step
    return list(range(first, hi + 1, step))


def _label(row: RangeRow) -> str:
    """The row's label: the player count and what its readings share (the tooltip and the
    table under the plot name every reading)."""
    n = len(row.readings)
    more = f" (+{n - 1})" if n > 1 else ""
    if "default" in row.readings:
        return f"{row.players} pl.: default{more}"
    parts = [set(r.split(", ")) for r in row.readings]
    common = ", ".join(sorted(set.intersection(*parts))) or row.readings[0]
    text = common if len(common) <= 20 else common[:19] + "…"
    return f"{row.players} pl.: {text}{more}"


def range_svg(title: str, rows: list[RangeRow], unit: str) -> str:
    """One panel: a bar per row on a shared axis with zero marked; each bar has a tooltip
    naming every reading on it and its range."""
    lo = min([0, *(r.least for r in rows)])
    hi = max([0, *(r.greatest for r in rows)])
    plot = WIDTH - LABEL - 20
    top = 30
    height = top + ROW * len(rows) + 40

    def x(v: int) -> float:
        return LABEL + plot * (v - lo) / max(hi - lo, 1)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label="{escape(title)}" '
        f'font-family="sans-serif" font-size="{FONT}">',
        f"<title>{escape(title)}</title>",
        f'<text x="0" y="18" font-weight="bold">{escape(title)}</text>',
    ]
    bottom = top + ROW * len(rows)
    for t in _ticks(lo, hi):
        colour = "#333" if t == 0 else "#ccc"
        out.append(
            f'<line x1="{x(t):.1f}" y1="{top - 4}" x2="{x(t):.1f}" y2="{bottom}" '
            f'stroke="{colour}" stroke-width="1"/>'
        )
        out.append(f'<text x="{x(t):.1f}" y="{bottom + 16}" text-anchor="middle">{t}</text>')
    out.append(
        f'<text x="{LABEL + plot / 2:.1f}" y="{bottom + 34}" text-anchor="middle" '
        f'fill="#333">{escape(unit)}</text>'
    )
    previous = ""
    for i, r in enumerate(rows):
        y = top + ROW * i
        if r.players != previous and i:
            out.append(
                f'<line x1="0" y1="{y}" x2="{WIDTH}" y2="{y}" stroke="#999" '
                'stroke-dasharray="2 3"/>'
            )
        previous = r.players
        tip = f"{r.players} players: {'; '.join(r.readings)}: {r.least} to {r.greatest}"
        bar = max(x(r.greatest) - x(r.least), 2)
        out += [
            "<g>",
            f"<title>{escape(tip)}</title>",
            f'<text x="0" y="{y + 15}">{escape(_label(r))}</text>',
            f'<rect x="{x(r.least):.1f}" y="{y + 5}" width="{bar:.1f}" '
            f'height="{ROW - 10}" fill="#2471a3"/>',
            f'<text x="{x(r.least) - 3:.1f}" y="{y + 15}" text-anchor="end" font-size="11" '
            f'fill="#333">{r.least}</text>'
            if x(r.least) - LABEL > 24
            else "",
            f'<text x="{x(r.greatest) + 3:.1f}" y="{y + 15}" font-size="11" fill="#333">'
            f"{r.greatest}</text>"
            if LABEL + plot - x(r.greatest) > 24
            else "",
            "</g>",
        ]
    out.append("</svg>")
    return "\n".join(line for line in out if line) + "\n"
