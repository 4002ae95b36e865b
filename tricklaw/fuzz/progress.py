"""A progress bar on standard error for a long run, shown only on a terminal: a
``rich`` bar (a dependency already) when stderr is a TTY, nothing otherwise (a pipe, a
file, CI, ``--json``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(
    total: int, label: str, show: bool | None = None
) -> Iterator[Callable[[int], None]]:
    """A function to call with the count done so far; draws a bar of ``total`` on
    stderr when ``show`` (default: stderr is a terminal), else does nothing."""
    if show is None:
        show = sys.stderr.isatty()
    if not show:
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)
