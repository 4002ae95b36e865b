"""``tricklaw serve --table`` (issue 45, item 1): one link for the whole table.

The command binds this machine's network address, serves the built page and nothing
else, and prints the page's address with a QR code. The QR code is read back here by a
real decoder (zxing-cpp) from the very characters the command printed, so a code that
encodes another address, or none, fails."""

from __future__ import annotations

import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tricklaw.http.run import LiveServer
from tricklaw.http.table import create_page_app, lan_address, page_url, table_policy

numpy = pytest.importorskip("numpy")
zxingcpp = pytest.importorskip("zxingcpp", reason="pip install '.[test]'")


@pytest.fixture
def page(tmp_path: Path) -> Path:
    """A page folder: an index and a script, beside a file that is not the page's."""
    folder = tmp_path / "page"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html><title>tricklaw</title>", "utf-8")
    (folder / "app.js").write_text("console.log(1);", "utf-8")
    (tmp_path / "secret.txt").write_text("not the page's", "utf-8")
    return folder


@pytest.mark.slow
def test_the_table_gets_the_page_and_nothing_of_the_oracle(page: Path) -> None:
    app = create_page_app(page, table_policy("127.0.0.1"))
    with LiveServer(app) as live, httpx.Client(base_url=live.url) as client:
        assert client.get("/").text.startswith("<!doctype html>")
        assert client.get("/app.js").headers["content-type"].startswith("text/javascript")
        assert client.head("/").status_code == 200
        # The oracle's routes are not there: its methods are refused, its document absent.
        for path in ("/rpc", "/v1/new_game", "/"):
            refused = client.post(path, json={"jsonrpc": "2.0", "method": "new_game", "id": 1})
            assert refused.status_code == 405 and refused.headers["allow"] == "GET, HEAD"
            assert "only the page is served" in refused.json()["error"]["message"]
        assert client.get("/openapi.json").status_code == 404
        assert client.get("/v1/new_game").status_code == 404
        # Nothing outside the page's folder, and no other Host.
        assert client.get("/%2e%2e/secret.txt").status_code == 404
        other = client.get("/", headers={"Host": "evil.example"})
        assert other.status_code == 400 and "evil.example" in other.json()["error"]["message"]


def read_qr(text: str) -> list[str]:
    """The texts of the QR codes drawn in ``text`` (segno's compact terminal drawing: each
    character two modules, a full block light over light, a space dark over dark)."""
    rows: list[list[bool]] = []
    for line in text.splitlines():
        rows.append([c in "█▀" for c in line])
        rows.append([c in "█▄" for c in line])
    width = max(map(len, rows))
    light = numpy.array([r + [True] * (width - len(r)) for r in rows], dtype=bool)
    image = numpy.kron(numpy.where(light, 255, 0).astype(numpy.uint8), numpy.ones((6, 6), "uint8"))
    image = numpy.pad(image, 24, constant_values=255)
    return [found.text for found in zxingcpp.read_barcodes(image)]


@pytest.fixture
def serving(tricklaw_script: str, page: Path) -> Iterator[tuple[str, list[str]]]:
    """``tricklaw serve --table 0 --page PAGE`` on this machine's network address (its
    loopback address where it has none): the URL it printed and the QR code's lines."""
    host = [] if lan_address() else ["--host", "127.0.0.1"]
    proc = subprocess.Popen(
        [tricklaw_script, "serve", "--table", "0", "--page", str(page), *host],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("The page for the table: http://"), first + proc.stderr.read()
        url = first.split()[5]
        drawing = []
        while not (line := proc.stdout.readline()).startswith("Scan the code"):
            assert line, "the QR code never ended"
            drawing.append(line)
        yield url, drawing
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=30)
        assert "Traceback" not in err, err


@pytest.mark.slow
def test_serve_table_prints_the_address_and_a_qr_code_of_it(
    serving: tuple[str, list[str]],
) -> None:
    url, drawing = serving
    address = lan_address()
    if address is not None:
        assert url.startswith(page_url(address, 1).rsplit(":", 1)[0] + ":")
    assert read_qr("".join(drawing)) == [url]
    with urllib.request.urlopen(url, timeout=10) as answer:
        assert answer.read().startswith(b"<!doctype html>")
    request = urllib.request.Request(url + "rpc", data=b"{}", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 405


def test_a_planted_wrong_address_in_the_code_is_caught() -> None:
    """No test that cannot fail: a code drawn for another address reads back as that."""
    from tricklaw.http.table import qr_text

    assert read_qr(qr_text("http://192.0.2.7:8080/")) == ["http://192.0.2.7:8080/"]
    assert read_qr(qr_text("http://192.0.2.8:8080/")) != ["http://192.0.2.7:8080/"]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--table", "70000"], "--table 70000 is not a port"),
        (["--table", "--token", "abcdefgh12"], "--token needs --http PORT"),
        (["--table", "--page", "nowhere"], "--page nowhere holds no index.html"),
        (["--table", "--host", "203.0.113.1"], "cannot listen on 203.0.113.1"),
    ],
)
def test_serve_table_refuses_in_one_line(
    tricklaw_script: str, page: Path, args: list[str], words: str
) -> None:
    extra = [] if "--page" in args else ["--page", str(page)]
    done = subprocess.run(
        [tricklaw_script, "serve", *args, *extra],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr, done.stderr
