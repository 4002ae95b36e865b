"""The HTTP oracle (``tricklaw serve --http``): the protocol of :mod:`tricklaw.oracle` on
Starlette, served by uvicorn. The modules, one job each: :mod:`~tricklaw.http.guards`
(Host and Origin checks, the bearer token, request bodies read within limits),
:mod:`~tricklaw.http.app` (the Starlette application: routes, error handlers, middleware),
:mod:`~tricklaw.http.openapi` (the OpenAPI 3.1 document), :mod:`~tricklaw.http.run` (the
uvicorn server, in the foreground or in a thread) and :mod:`~tricklaw.http.load` (a
bounded load test, ``python -m tricklaw.http.load``)."""
