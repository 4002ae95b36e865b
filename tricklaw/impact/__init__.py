"""``tricklaw impact``: how often a dispute's reading changes a game (issue 17 part 4).

* :mod:`tricklaw.impact.study`: the cases (dispute, reading, player count, agents) and
  the paired games of one chunk of seeds;
* :mod:`tricklaw.impact.stats`: Wilson's 95 % interval;
* :mod:`tricklaw.impact.run`: the chunks on local processes or on Ray, combined in seed
  order, with a progress bar; the JSON report;
* :mod:`tricklaw.impact.plot`: the report as an SVG figure for the docs;
* :mod:`tricklaw.impact.command`: the command's arguments and output.
"""
