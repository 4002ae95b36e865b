"""The page route of the HTTP oracle (``serve --http --page DIR``), fuzzed through the real
server (issue 43, item 3: "the HTTP page route").

Hypothesis writes request targets from the pieces that path attacks are made of (dot
segments plain and percent-encoded, encoded NUL, slash and backslash, lone surrogates
in UTF-8, over-long names, queries and fragments) and sends each as a raw ``GET`` to a
live uvicorn server (:class:`~tricklaw.http.run.LiveServer`) whose page folder sits next
to a secret file and holds a link to it. Whatever the target:

* the server answers, and never with a 5xx;
* a 200 carries one of the page's own files, never the secret;
* anything else is refused with a JSON error body (the framing layer's 400 aside,
  which carries no body of the page);
* the server goes on answering the page afterwards.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricklaw.http.app import create_app
from tricklaw.http.run import LiveServer

SECRET = b"the secret next to the page"
FILES = {
    "index.html": b"<!doctype html><title>the page</title>",
    "sub/app.js": b"console.log('the page')",
    "pyodide/pyodide.asm.wasm": b"\0asm",
}
PIECES = [
    "",
    ".",
    "..",
    "%2e%2e",
    "%2E.",
    ".%2e",
    "%252e%252e",
    "index.html",
    "sub",
    "app.js",
    "pyodide",
    "secret.txt",
    "link.txt",
    "%2f",
    "%5c",
    "\\",
    "%00",
    "%ff",
    "%ED%A0%80",
    "%C0%AE",
    "~",
    "a" * 300,
    "?x=../secret.txt",
    "#frag",
    ";",
    "%",
]
"""The parts of a target: segments that name the page's files, its parent and the secret,
and the encodings that path-traversal attacks use."""

TARGETS = st.builds(
    lambda parts, lead: lead + "/".join(parts),
    st.lists(st.sampled_from(PIECES) | st.text("abc./%2e", max_size=6), max_size=8),
    st.sampled_from(["/", "//", "/./", "/../"]),
)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("site")
    (root / "secret.txt").write_bytes(SECRET)
    page = root / "page"
    for name, data in FILES.items():
        (page / name).parent.mkdir(parents=True, exist_ok=True)
        (page / name).write_bytes(data)
    (page / "link.txt").symlink_to(root / "secret.txt")
    with LiveServer(create_app(page=page)) as server:
        yield server


def get(live: LiveServer, target: str) -> tuple[int, bytes, str]:
    """(status, body, content type) of one raw ``GET target`` on its own connection."""
    request = (f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n").encode(
        "utf-8", "surrogatepass"
    )
    with socket.create_connection(("127.0.0.1", live.port), timeout=30) as sock:
        sock.sendall(request)
        reply = b""
        while chunk := sock.recv(65536):
            reply += chunk
    head, _, body = reply.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
    return int(lines[0].split()[1]), body, headers.get("content-type", "")


@pytest.mark.slow
@settings(max_examples=300)
@given(target=TARGETS)
def test_any_target_gets_a_page_file_or_a_json_refusal(live: LiveServer, target: str) -> None:
    status, body, kind = get(live, target)
    assert status < 500, (target, status, body[:200])
    assert SECRET not in body, target
    if status == 200:
        assert body in FILES.values(), (target, body[:200])
    elif status != 400 or kind.startswith("application/json"):
        assert "error" in json.loads(body), (target, status, body[:200])
    assert get(live, "/")[:2] == (200, FILES["index.html"])


def test_the_fuzzer_reaches_the_files_and_the_refusals(live: LiveServer) -> None:
    """Not vacuous: targets built from :data:`PIECES` reach every page file, and the
    ways out of the folder are refused (by the route, or before it)."""
    assert get(live, "/")[:2] == (200, FILES["index.html"])
    assert get(live, "//sub/app.js")[:2] == (200, FILES["sub/app.js"])
    assert get(live, "/pyodide/pyodide.asm.wasm")[:2] == (200, FILES["pyodide/pyodide.asm.wasm"])
    for target in ("/../secret.txt", "/%2e%2e/secret.txt", "/link.txt", "/sub/../../secret.txt"):
        status, body, _ = get(live, target)
        assert status == 404 and SECRET not in body, target


@pytest.mark.slow
def test_a_planted_route_that_serves_outside_the_folder_is_caught(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No test that cannot fail: with the folder check taken out of the page's file
    lookup, the secret is served for a target made of :data:`PIECES`."""
    from tricklaw.page import files

    def careless(root: Path, path: str) -> tuple[bytes, str] | None:
        target = root / path.split("?", 1)[0].lstrip("/")
        return (target.read_bytes(), "text/plain") if target.is_file() else None

    monkeypatch.setattr(files, "page_file", careless)
    (tmp_path / "secret.txt").write_bytes(SECRET)
    (tmp_path / "page").mkdir()
    (tmp_path / "page" / "index.html").write_bytes(FILES["index.html"])
    with LiveServer(create_app(page=tmp_path / "page")) as server:
        assert get(server, "/%2e%2e/secret.txt")[:2] == (200, SECRET)
