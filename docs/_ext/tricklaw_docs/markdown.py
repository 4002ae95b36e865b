"""Writing the generated pages: a file rewritten only when its text changes, and the
MyST helpers every page uses (escaping, clause links in prose, line ranges, links to the
highlighted source pages)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

import tricklaw_trace as trace

from .links import known


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
    how = f' <span class="tl-how">{cite.how}</span>' if cite.how in {"mention", "hollow"} else ""
    return (
        f'<a class="tl-src" href="{href}"><code>{html.escape(cite.path)}:{cite.line}</code></a>'
        f"{where}{how}"
    )
