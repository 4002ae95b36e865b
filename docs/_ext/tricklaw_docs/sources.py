"""The highlighted source pages: one page per Python file of ``model/``, ``proofs/`` and
``tests/``, its lines anchored ``L-n`` (the targets of the clause pages' and the matrix's
citations)."""

from __future__ import annotations

from pathlib import Path

import tricklaw_trace as trace

from .markdown import source_page, write


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
            rel = path.relative_to(trace.ROOT).as_posix()
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
