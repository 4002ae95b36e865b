"""The page for players (issue 15): a static page that judges a trick at the table, with
the project's own model running in the browser (Pyodide, self-hosted).

* :mod:`.api`: the page's JSON API, run inside Pyodide; it answers from the application
  functions the command line uses (:mod:`tricklaw.trick_report`, :mod:`tricklaw.judging`),
  so the page and ``tricklaw trick --json`` agree by construction;
* :mod:`.build`: ``tricklaw page build OUT`` assembles the page (the static files of
  ``static/``, Pyodide's files from the npm ``pyodide`` package, and the plain-Python
  sources of the package packed into one zip);
* :mod:`.files`: the small piece that serves a built page over HTTP
  (``tricklaw serve --http`` at ``/``).

No rule is written in JavaScript: ``static/app.js`` draws and asks; the model decides.
"""
