"""The reference pages: the command line (``generated/cli.md``, from the CLI's own
argument parser) and the API (``generated/api.md``, one ``automodule`` per module of the
package)."""

from __future__ import annotations

import os
from pathlib import Path

from .markdown import write


def gen_cli(gen: Path) -> None:
    """Write the CLI reference: the help of ``tricklaw`` and of each subcommand."""
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
                for choice in action._choices_actions:  # each command once, not its aliases
                    name, sub = choice.dest, action.choices[choice.dest]
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
    """Write the API reference: an ``automodule`` of every module of ``tricklaw``."""
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
