"""The HTTP oracle (tricklaw.http, issue 16 part 1): strict parsing and no smuggling, the
connection limits and timeouts, JSON error bodies, the Host/Origin guard and CORS opt-in,
bearer tokens and per-client unguessable game ids, the cap on the work a batch asks for,
JSON-RPC 2.0 alike on HTTP and stdio, the OpenAPI document, and no traceback on stderr."""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import struct
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tricklaw.http.app import create_app
from tricklaw.http.guards import LOOPBACK, Policy, host_name, hosts_for, is_json
from tricklaw.http.openapi import openapi
from tricklaw.http.run import BACKLOG, Limits, LiveServer
from tricklaw.oracle import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    LIMIT,
    MAX_BATCH,
    METHODS,
    Method,
    Oracle,
)
from tricklaw.serve import serve_stdio

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def oracle() -> Oracle:
    return Oracle(max_games=50)


@pytest.fixture
def live(oracle: Oracle) -> Iterator[LiveServer]:
    with LiveServer(create_app(oracle=oracle)) as server:
        yield server


def raw(live: LiveServer, data: bytes, timeout: float = 10) -> list[tuple[int, bytes]]:
    """Send ``data`` on one connection and read until the server closes it; the
    (status, body) of every response, in order."""
    with socket.create_connection(("127.0.0.1", live.port), timeout=timeout) as sock:
        sock.sendall(data)
        stream = sock.makefile("rb")
        replies = []
        while True:
            line = stream.readline()
            if not line:
                return replies
            status = int(line.split()[1])
            headers: dict[str, str] = {}
            while (header := stream.readline()) not in (b"\r\n", b""):
                name, _, value = header.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            replies.append((status, stream.read(int(headers.get("content-length", "0")))))


def post(path: str, body: bytes, extra: str = "", close: bool = False) -> bytes:
    """A raw POST of JSON ``body`` to ``path`` on 127.0.0.1."""
    closing = "Connection: close\r\n" if close else ""
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n{extra}{closing}\r\n"
    ).encode() + body


def fetch(
    live: LiveServer,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    *,
    refused: bool = False,
) -> tuple[int, dict[str, str], Any]:
    """(status, headers, body) of one request. ``refused``: the server is to refuse the
    body by its length, so it is announced (``Expect: 100-continue``) and never sent, as
    a careful client does: a body sent while the server answers and closes would be
    reset, and the answer lost with it."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", live.port, timeout=10)
    try:
        if refused and body is not None:
            conn.putrequest(method, path)
            for name, value in {**(headers or {}), "Content-Length": str(len(body))}.items():
                conn.putheader(name, value)
            conn.putheader("Expect", "100-continue")
            conn.endheaders()
        else:
            conn.request(method, path, body=body, headers=headers or {})
        reply = conn.getresponse()
        data = reply.read()
    finally:
        conn.close()
    kind = reply.headers.get("Content-Type", "")
    parsed = json.loads(data) if data and kind == "application/json" else data or None
    return reply.status, {k.lower(): v for k, v in reply.headers.items()}, parsed


NEW_GAME = b'{"ruleset":"sticheln","players":3,"seed":2}'


# --- strict parsing, limits, timeouts -------------------------------------------------------


@pytest.mark.slow
def test_a_refused_requests_body_never_runs_as_the_next_request(
    live: LiveServer, oracle: Oracle
) -> None:
    smuggled = post("/v1/new_game", NEW_GAME)
    options = (
        f"OPTIONS /v1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(smuggled)}\r\n\r\n"
    ).encode() + smuggled
    replies = raw(live, options + post("/v1/hello", b"{}", close=True))
    assert [status for status, _ in replies] == [405, 200]
    assert not oracle.games  # the OPTIONS body did not open a game
    get = (
        f"GET /openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(smuggled)}\r\n\r\n"
    ).encode() + smuggled
    replies = raw(live, get + post("/v1/hello", b"{}", close=True))
    assert [status for status, _ in replies] == [200, 200]
    assert not oracle.games


def test_the_socket_listens_with_a_real_backlog(live: LiveServer) -> None:
    if shutil.which("ss") is None:
        pytest.skip("no ss(8) to read the listen backlog")
    shown = subprocess.run(
        ["ss", "-ltnH", f"sport = :{live.port}"], capture_output=True, text=True, check=True
    ).stdout.split()
    assert int(shown[2]) == BACKLOG  # Send-Q of a listening socket: its backlog


@pytest.mark.slow
def test_connections_beyond_the_cap_get_503_and_idle_ones_time_out() -> None:
    limits = Limits(max_connections=3, keep_alive=1, head_timeout=1)
    with LiveServer(create_app(), limits=limits) as live:
        idle = [socket.create_connection(("127.0.0.1", live.port)) for _ in range(3)]
        time.sleep(0.2)
        assert fetch(live, "POST", "/v1/hello", b"{}", JSON)[0] == 503
        for sock in idle:
            sock.settimeout(5)
            assert sock.recv(10) == b""  # closed: no request head in time
            sock.close()
        slow = socket.create_connection(("127.0.0.1", live.port), timeout=5)
        start = time.monotonic()
        try:
            for byte in post("/v1/hello", b"{}")[:40]:  # a head a byte at a time
                slow.sendall(bytes([byte]))
                time.sleep(0.1)
            assert slow.recv(10) == b""
        except (BrokenPipeError, ConnectionResetError):
            pass  # closed while the client was still sending
        assert time.monotonic() - start < 3
        slow.close()
        kept = socket.create_connection(("127.0.0.1", live.port), timeout=5)
        kept.sendall(post("/v1/hello", b"{}"))
        start, data = time.monotonic(), b""
        while chunk := kept.recv(1000):  # the answer, then the close of an idle keep-alive
            data += chunk
        assert data.startswith(b"HTTP/1.1 200") and time.monotonic() - start < 4
        kept.close()
        assert fetch(live, "POST", "/v1/hello", b"{}", JSON)[0] == 200


@pytest.mark.slow
def test_a_body_that_stalls_is_refused_in_time() -> None:
    with LiveServer(create_app(Policy(body_timeout=0.5))) as live:
        start = time.monotonic()
        head = post("/v1/hello", b"{}").replace(b"Length: 2", b"Length: 200")
        replies = raw(live, head[:-1])
        assert time.monotonic() - start < 5
    assert replies[0][0] == 408 and json.loads(replies[0][1])["error"]["code"] == INVALID_REQUEST


# --- JSON errors ------------------------------------------------------------------------


def test_every_error_has_a_json_body(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(oracle: Oracle, params: dict[str, Any]) -> Any:
        raise ZeroDivisionError("planted")

    monkeypatch.setitem(METHODS, "hello", Method("hello", "", METHODS["hello"].params, {}, boom))
    cases = [
        (404, "GET", "/nothing", None, {}),
        (404, "POST", "/v1/nope", b"{}", JSON),
        (405, "DELETE", "/v1/hello", None, {}),
        (405, "PUT", "/rpc", b"{}", JSON),
        (413, "POST", "/rpc", b" " * (2 << 20), JSON),
        (415, "POST", "/v1/rulesets", b"{}", {"Content-Type": "text/plain"}),
        (415, "POST", "/rpc", b"{}", {}),
        (400, "POST", "/v1/rulesets", b"{bad", JSON),
        (400, "POST", "/v1/rulesets", b"", JSON),
        (500, "POST", "/v1/hello", b"{}", JSON),
    ]
    for status, method, path, body, headers in cases:
        got, sent, reply = fetch(live, method, path, body, headers, refused=status == 413)
        assert (got, sent["content-type"]) == (status, "application/json"), (method, path)
        assert isinstance(reply["error"]["code"], int) and reply["error"]["message"]
    assert fetch(live, "POST", "/v1/hello", b"{}", JSON)[2]["error"]["code"] == INTERNAL_ERROR


# --- Host, Origin, CORS, content types ------------------------------------------------------


@pytest.mark.slow
def test_only_served_hosts_and_same_origin_pages_get_in(live: LiveServer) -> None:
    for host in ("127.0.0.1", f"127.0.0.1:{live.port}", "localhost:9", "[::1]:8080", "LOCALHOST"):
        assert fetch(live, "POST", "/v1/hello", b"{}", {**JSON, "Host": host})[0] == 200, host
    for host in ("evil.example", "evil.example:80", "127.0.0.1.evil.example", "[::2]"):
        status, _, reply = fetch(live, "POST", "/v1/hello", b"{}", {**JSON, "Host": host})
        assert status == 400 and "not served" in reply["error"]["message"], host
    own = f"http://127.0.0.1:{live.port}"
    assert fetch(live, "POST", "/v1/hello", b"{}", {**JSON, "Origin": own})[0] == 200
    for origin in ("http://evil.example", "null", f"http://localhost:{live.port + 1}"):
        status, sent, _ = fetch(live, "POST", "/v1/hello", b"{}", {**JSON, "Origin": origin})
        assert status == 403 and "access-control-allow-origin" not in sent, origin
    # A page cannot post without a preflight: text/plain (a "simple" request) is refused.
    assert fetch(live, "POST", "/rpc", b"{}", {"Content-Type": "text/plain"})[0] == 415
    assert hosts_for("0.0.0.0", ("Box.lan",)) == LOOPBACK | {"box.lan"}
    assert hosts_for("192.168.1.5") == LOOPBACK | {"192.168.1.5"}
    assert hosts_for("::1") == LOOPBACK
    assert host_name("[::1]:80") == "[::1]" and host_name("Example.com:1") == "example.com"
    assert is_json("application/json; charset=UTF-8") and not is_json("application/jsonp")
    assert not is_json("application/json; charset=latin-1") and not is_json(None)


def test_allow_origin_opts_in_to_cors_for_that_origin_only() -> None:
    allowed = "http://tool.example:3000"
    with LiveServer(create_app(Policy(origins=(allowed,)))) as live:
        preflight = {
            "Origin": allowed,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        }
        status, sent, _ = fetch(live, "OPTIONS", "/v1/hello", None, preflight)
        assert status == 200 and sent["access-control-allow-origin"] == allowed
        status, sent, _ = fetch(live, "POST", "/v1/hello", b"{}", {**JSON, "Origin": allowed})
        assert status == 200 and sent["access-control-allow-origin"] == allowed
        other = {**preflight, "Origin": "http://evil.example"}
        assert fetch(live, "OPTIONS", "/v1/hello", None, other)[0] == 403


# --- tokens and game ids ------------------------------------------------------------------


@pytest.mark.slow
def test_tokens_scope_games_per_client_and_ids_are_unguessable() -> None:
    a, b = "token-a-123456", "token-b-654321"
    with LiveServer(create_app(Policy(tokens=(a, b)))) as live:
        for headers in ({}, {"Authorization": "Bearer nope-nope"}, {"Authorization": a}):
            status, sent, reply = fetch(live, "POST", "/v1/hello", b"{}", {**JSON, **headers})
            assert status == 401 and sent["www-authenticate"] == "Bearer"
            assert reply["error"]["code"] == INVALID_REQUEST
        assert fetch(live, "GET", "/openapi.json")[0] == 401
        as_a = {**JSON, "Authorization": f"Bearer {a}"}
        as_b = {**JSON, "Authorization": f"bearer {b}"}
        ids = [fetch(live, "POST", "/v1/new_game", NEW_GAME, as_a)[2]["game"] for _ in range(3)]
        assert len(set(ids)) == 3 and all(len(i) >= 20 for i in ids) and "g1" not in ids
        body = json.dumps({"game": ids[0]}).encode()
        assert fetch(live, "POST", "/v1/state", body, as_a)[0] == 200
        assert fetch(live, "POST", "/v1/state", body, as_b)[0] == 404  # A's game, not B's
    with LiveServer(create_app()) as live:  # without a token, ids are unguessable too
        first = fetch(live, "POST", "/v1/new_game", NEW_GAME, JSON)[2]["game"]
        assert first != "g1" and len(first) >= 20
    stdio = io.BytesIO()
    serve_stdio(
        io.BytesIO(b'{"jsonrpc":"2.0","id":1,"method":"new_game","params":' + NEW_GAME + b"}\n"),
        stdio,
    )
    assert json.loads(stdio.getvalue())["result"]["game"] == "g1"  # stdio keeps its ids


# --- the work a request may ask for -----------------------------------------------------------


@pytest.mark.slow
def test_a_batch_asking_for_too_much_is_refused_whole(live: LiveServer, oracle: Oracle) -> None:
    game = oracle.call("new_game", {"ruleset": "lowhigh", "players": 4, "seed": 3})["game"]
    while actions := oracle.call("legal_actions", {"game": game})["actions"]:
        oracle.call("apply", {"game": game, "action": actions[0]})
    one = fetch(live, "POST", "/v1/record", json.dumps({"game": game}).encode(), JSON)
    assert one[0] == 200
    record = {"jsonrpc": "2.0", "id": 1, "method": "record", "params": {"game": game}}
    new = {"jsonrpc": "2.0", "id": 0, "method": "new_game", "params": json.loads(NEW_GAME)}
    batch = json.dumps([new] + [record] * (MAX_BATCH - 1)).encode()
    assert len(batch) < 100_000  # a small request ...
    status, _, reply = fetch(live, "POST", "/rpc", batch, JSON)
    # ... that would answer about 20 MB is one error, and nothing of it was done.
    assert status == 200 and reply["error"]["code"] == LIMIT and reply["id"] is None
    assert list(oracle.games) == [game]
    small = json.dumps([record] * 20).encode()
    assert len(fetch(live, "POST", "/rpc", small, JSON)[2]) == 20


# --- JSON-RPC 2.0, on HTTP and stdio alike --------------------------------------------------

RPC_CASES: list[tuple[Any, Any]] = [
    ({"jsonrpc": "2.0", "id": "a", "method": "hello"}, {"id": "a", "ok": True}),
    ({"jsonrpc": "2.0", "id": 7, "method": "nope"}, {"id": 7, "code": -32601}),
    ({"jsonrpc": "2.0", "id": None, "method": "hello"}, {"id": None, "ok": True}),
    ({"jsonrpc": "2.0", "method": "hello"}, None),  # a notification
    ({"jsonrpc": "2.0", "method": "nope"}, None),  # a notification, even when it fails
    ({"jsonrpc": "2.0", "method": "state", "params": {"game": "x"}}, None),
    ({"jsonrpc": "1.0", "id": 3, "method": "hello"}, {"id": 3, "code": -32600}),
    ({"jsonrpc": "2.0", "id": 1.5, "method": "hello"}, {"id": None, "code": -32600}),
    ([], {"id": None, "code": -32600}),  # an empty batch
    ([{"jsonrpc": "2.0", "method": "hello"}] * 2, None),  # a batch of notifications
    (
        [{"jsonrpc": "2.0", "id": 1, "method": "hello"}, {"jsonrpc": "2.0", "method": "x"}, 5],
        [{"id": 1, "ok": True}, {"id": None, "code": -32600}],
    ),
]


def _shape(answer: Any) -> Any:
    if isinstance(answer, list):
        return [_shape(one) for one in answer]
    if "result" in answer:
        return {"id": answer["id"], "ok": True}
    return {"id": answer["id"], "code": answer["error"]["code"]}


def test_json_rpc_is_the_same_on_http_and_stdio(live: LiveServer) -> None:
    for request, expected in RPC_CASES:
        text = json.dumps(request).encode()
        status, _, reply = fetch(live, "POST", "/rpc", text, JSON)
        sink = io.BytesIO()
        serve_stdio(io.BytesIO(text + b"\n"), sink)
        line = sink.getvalue()
        if expected is None:
            assert (status, reply, line) == (204, None, b""), request
        else:
            assert status == 200 and _shape(reply) == expected, request
            assert _shape(json.loads(line)) == expected, request
            assert all(
                one["jsonrpc"] == "2.0" for one in (reply if isinstance(reply, list) else [reply])
            )


# --- OpenAPI -------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_openapi_document_has_real_results_and_required_bodies(
    live: LiveServer, tricklaw_script: str
) -> None:
    document = openapi()
    assert fetch(live, "GET", "/openapi.json")[2] == document
    printed = subprocess.run(
        [tricklaw_script, "serve", "--openapi"], capture_output=True, check=True, timeout=60
    )
    assert json.loads(printed.stdout) == document
    for path, item in document["paths"].items():
        operation = item["post"]
        assert operation["requestBody"]["required"] is True, path
        result = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert result not in ({"type": "object"}, {"type": "array", "items": {"type": "object"}})
        for status, answer in operation["responses"].items():
            if status.startswith(("4", "5")):
                schema = answer["content"]["application/json"]["schema"]
                assert schema["required"] == ["error"], (path, status)
    record = document["paths"]["/v1/record"]["post"]["responses"]["200"]
    assert record["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/record"
    }


# --- no traceback -----------------------------------------------------------------------


@pytest.mark.slow
def test_no_traceback_for_malformed_headers_or_client_resets(tricklaw_script: str) -> None:
    proc = subprocess.Popen(
        [tricklaw_script, "serve", "--http", "0"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TRICKLAW_TOKEN": ""},
    )
    try:
        assert proc.stderr is not None
        port = int(proc.stderr.readline().split("http://127.0.0.1:")[1].split("/")[0])
        address = ("127.0.0.1", port)
        nasty = [
            b"POST /v1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Bad: a\x00b\r\n\r\n",
            b"POST /v1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n",
            b"POST /v1/hello HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 not http\r\n\r\n",
        ]
        for data in nasty:
            with socket.create_connection(address, timeout=10) as sock:
                sock.sendall(data)
                assert sock.recv(100).startswith(b"HTTP/1.1 400"), data
        for cut in (10, 60, 200):  # resets mid-request, mid-body and mid-answer
            sock = socket.create_connection(address, timeout=10)
            sock.sendall(post("/v1/new_game", NEW_GAME)[:cut])
            if cut == 200:
                time.sleep(0.2)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            sock.close()
        time.sleep(0.3)
        with socket.create_connection(address, timeout=10) as sock:
            sock.sendall(post("/v1/hello", b"{}", close=True))
            assert sock.recv(100).startswith(b"HTTP/1.1 200")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert "Traceback" not in err, err


@pytest.mark.slow
def test_serve_flags(tricklaw_script: str) -> None:
    for args, message in (
        (["serve", "--stdio", "--token", "abcdefgh1"], "--token needs --http"),
        (["serve", "--stdio", "--allow-origin", "http://a.b"], "--allow-origin needs --http"),
        (["serve", "--http", "0", "--allow-origin", "a.b"], "is not an origin"),
        (["serve", "--http", "0", "--token", "short"], "8 or more"),
        (["serve", "--http", "0", "--max-connections", "0"], "--max-connections"),
    ):
        bad = subprocess.run(
            [tricklaw_script, *args], capture_output=True, text=True, timeout=60, check=False
        )
        assert bad.returncode == 2 and message in bad.stderr, (args, bad.stderr)


@pytest.mark.slow
def test_the_token_may_come_from_the_environment(tricklaw_script: str) -> None:
    proc = subprocess.Popen(
        [tricklaw_script, "serve", "--http", "0"],
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TRICKLAW_TOKEN": "from-the-env-1"},
    )
    try:
        assert proc.stderr is not None
        port = int(proc.stderr.readline().split("http://127.0.0.1:")[1].split("/")[0])
        import http.client

        for headers, status in (({}, 401), ({"Authorization": "Bearer from-the-env-1"}, 200)):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("POST", "/v1/hello", b"{}", {**JSON, **headers})
            assert conn.getresponse().status == status
            conn.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_the_oracle_listens_on_this_machine_unless_told_and_then_wants_a_token() -> None:
    from tricklaw.http.guards import bind_refusal, loopback

    assert loopback("127.0.0.1") and loopback("127.8.0.1") and loopback("::1")
    assert loopback("localhost") and loopback("[::1]")
    assert not loopback("0.0.0.0") and not loopback("::") and not loopback("192.168.1.5")
    token = ("abcdefgh",)
    for bind in ("127.0.0.1", "localhost", "::1"):
        assert bind_refusal(bind, False, ()) == ""
    for bind in ("", "  "):  # an unset variable: never, whatever else is said
        assert "empty" in bind_refusal(bind, True, token)
    for bind in ("0.0.0.0", "::", "192.168.1.5"):
        assert "--public" in bind_refusal(bind, False, token)
        assert "--token" in bind_refusal(bind, True, ())
        assert bind_refusal(bind, True, token) == ""


@pytest.mark.slow
@pytest.mark.parametrize(
    ("host", "extra", "says"),
    [
        ("", [], "--host is empty"),
        ("0.0.0.0", [], "add --public"),
        ("::", [], "add --public"),
        ("0.0.0.0", ["--public"], "needs --token"),
    ],
)
def test_serve_refuses_a_host_beyond_this_machine_in_one_line(
    tricklaw_script: str, host: str, extra: list[str], says: str
) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TRICKLAW_TOKEN"}
    proc = subprocess.run(
        [tricklaw_script, "serve", "--http", "0", "--host", host, *extra],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2 and says in proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
