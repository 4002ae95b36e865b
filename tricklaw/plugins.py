"""Games from other packages: plug-ins found by their entry points.

A package that adds a game declares an entry point in the group ``tricklaw.plugins``
whose object is a function of no arguments that registers the game's part in every layer
(see ``docs/adding-a-ruleset.md``; the tests' example game ``tests/tiny`` has one)::

    [project.entry-points."tricklaw.plugins"]
    tiny = "tiny:register"

The command line calls :func:`load_plugins` before it reads its arguments, so a plug-in's
ruleset id is known to every command.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from tricklaw.spec.errors import TricklawError

GROUP = "tricklaw.plugins"
"""The entry-point group of game plug-ins."""


@cache
def load_plugins() -> tuple[str, ...]:
    """Call every plug-in's registration function once; returns their names. A plug-in
    that cannot be loaded is an error naming it (never a half-registered game)."""
    names = []
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            point.load()()
        except TricklawError:
            raise
        except Exception as exc:
            raise TricklawError(
                f"plug-in {point.name!r} ({point.value}) failed to load: "
                f"{type(exc).__name__}: {exc}"
            ) from None
        names.append(point.name)
    return tuple(names)
