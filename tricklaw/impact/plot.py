"""The impact report as an SVG figure, drawn with matplotlib (the docs build has it: the
``test`` extra): for each case, the share of pairs whose winner differs, with its 95 %
Wilson interval as an error bar, one row per case, one colour per agent."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from tricklaw.spec.errors import TricklawError
from tricklaw.spec.outputs import write_atomically


def check_plotting() -> None:
    """Raise :class:`TricklawError` unless matplotlib can be imported (``--plot`` is
    refused before the games are played, not after)."""
    import importlib.util

    if importlib.util.find_spec("matplotlib") is None:
        raise TricklawError("--plot needs matplotlib: pip install matplotlib")


def write_svg(report: dict[str, Any], path: Path, measure: str = "winner") -> None:
    """Draw ``measure``'s shares of ``report``'s cases into the SVG file ``path``."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise TricklawError("--plot needs matplotlib: pip install matplotlib") from None
    rows = report["cases"]
    # The same file each time (hashsalt), text as text (fonttype: a tenth of the size).
    with matplotlib.rc_context({"svg.hashsalt": "tricklaw", "svg.fonttype": "none"}):
        _draw(plt, path, measure, report, rows)


def _draw(plt: Any, path: Path, measure: str, report: dict[str, Any], rows: list[Any]) -> None:
    """One horizontal bar per case, its interval as an error bar; a legend of the agents."""
    labels = [f"{r['dispute']}={r['reading']} ({r['players']}p, {r['agent']})" for r in rows]
    shares = [100 * r[measure]["share"] for r in rows]
    low = [100 * (r[measure]["share"] - r[measure]["ci95"][0]) for r in rows]
    high = [100 * (r[measure]["ci95"][1] - r[measure]["share"]) for r in rows]
    agents = list(report["agents"])
    colours = [f"C{agents.index(r['agent'])}" for r in rows]
    fig, ax = plt.subplots(figsize=(8, 0.9 + 0.22 * len(rows)))
    y = list(range(len(rows)))
    ax.barh(y, shares, xerr=[low, high], color=colours, capsize=2)
    ax.set_yticks(y, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    swatches = [plt.Rectangle((0, 0), 1, 1, color=f"C{i}") for i in range(len(agents))]
    ax.legend(swatches, agents, loc="lower right", fontsize=7)
    ax.set_xlabel(f"pairs whose {measure} differs (%), 95% Wilson interval")
    ax.set_title(f"{report['games']} paired games per case, seeds from {report['seed']}")
    fig.tight_layout()
    image = io.BytesIO()
    fig.savefig(image, format="svg", metadata={"Date": None})
    plt.close(fig)
    write_atomically(path, image.getvalue())
