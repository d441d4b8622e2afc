#!/usr/bin/env python3
"""Protocol tests of tandemd's HTTP listener from a real client (Python's
standard library): POST /api/sql, the WebSocket API, health and metrics,
authentication, and bad input answered with clear errors while the server
keeps serving. Each test starts from the servers this file starts (trust
mode, and one with a password file). Prints PASS/FAIL per test and ends
with "N passed, N failed"; exits non-zero when a test failed.

Usage: run_tests.py PATH_TO_TANDEMD [TEST_NAME_SUBSTRING]
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

from client import Server, WebSocket, WebSocketClosed, basic, pg_cancel
from harness import Suite, expect, expect_eq

suite = Suite()
test = suite.test


def metric(server, name):
    """The value of an unlabelled metric (or the sum of a labelled one)."""
    status, _, body = server.get("/metrics")
    expect_eq(status, 200, "GET /metrics")
    total = None
    for line in body.decode().splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            total = (total or 0) + float(line.rsplit(" ", 1)[1])
    return total


def wait_for(cond, what, timeout=10):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting for " + what)


# ---- POST /api/sql


@test
def simple_query_values(s, a):
    r = s.query("SELECT 1 AS i, 5::int8 AS big, true AS b, 1.5::float8 AS f, 'x' AS t, NULL::int AS n, "
                "2.5::numeric AS num, 12345678901234567890.5::numeric AS wide, ARRAY[1, NULL] AS arr, "
                "'2024-01-02'::date AS d, 'NaN'::float8 AS nan")
    expect_eq(len(r), 1, "results")
    expect_eq(r[0]["tag"], "SELECT 1", "tag")
    expect_eq(r[0]["rows"], [[1, 5, True, 1.5, "x", None, 2.5, "12345678901234567890.5", [1, None],
                              "2024-01-02", "NaN"]], "rows")
    cols = r[0]["desc"]["columns"]
    expect_eq([c["name"] for c in cols][:3], ["i", "big", "b"], "column names")
    expect_eq(cols[0], {"name": "i", "type_oid": 23, "type_len": 4, "type_mod": -1}, "int4 column")
    expect_eq(cols[1]["type_oid"], 20, "int8 oid")
    expect_eq(cols[6]["type_oid"], 1700, "numeric oid")
    expect_eq(r[0]["notices"], [], "notices")


@test
def multi_statement_and_ok(s, a):
    r = s.query("CREATE TABLE ms (a int); INSERT INTO ms VALUES (1), (2); SELECT a FROM ms ORDER BY a")
    expect_eq([list(x.keys())[0] if "ok" in x else x.get("tag") for x in r], ["ok", "ok", "SELECT 2"], "entries")
    expect_eq(r[0]["ok"], "CREATE TABLE", "ok tag")
    expect_eq(r[1]["ok"], "INSERT 0 2", "insert tag")
    expect_eq(r[2]["rows"], [[1], [2]], "rows")


@test
def multi_statement_is_one_transaction(s, a):
    s.query("CREATE TABLE tx (a int)")
    r = s.query("INSERT INTO tx VALUES (1); SELECT 1/0; INSERT INTO tx VALUES (2)")
    expect_eq(len(r), 2, "stops at the first error")
    expect_eq(r[1]["error"]["code"], "22012", "error code")
    expect_eq(s.query("SELECT count(*) FROM tx")[0]["rows"], [[0]], "the failed request wrote nothing")
    r = s.query("BEGIN; INSERT INTO tx VALUES (3); COMMIT; SELECT count(*) FROM tx")
    expect_eq([x.get("ok") for x in r[:3]], ["BEGIN", "INSERT 0 1", "COMMIT"], "block")
    expect_eq(r[3]["rows"], [[1]], "after the block")


@test
def extended_queries(s, a):
    s.query("CREATE TABLE ext (a int, b text)")
    status, body, _ = s.sql({"queries": [
        {"query": "INSERT INTO ext VALUES ($1, $2)", "params": ["1", "one"]},
        {"query": "INSERT INTO ext VALUES ($1, $2)", "params": ["2", None]},
        {"query": "SELECT a, b FROM ext ORDER BY a"},
        {"query": "SELECT $1::int + 1 AS x", "params": ["41"]},
    ]})
    expect_eq(status, 200, "status")
    r = body["results"]
    expect_eq(r[0]["ok"], "INSERT 0 1", "first insert")
    expect_eq(r[2]["rows"], [[1, "one"], [2, None]], "rows")
    expect_eq(r[3]["rows"], [[42]], "parameter")
    status, body, _ = s.sql({"queries": [{"query": "SELECT $1::int", "params": []}]})
    expect_eq(body["results"][0]["error"]["code"], "08P01", "missing parameter")
    expect("requires 1" in body["results"][0]["error"]["message"], body)
    status, body, _ = s.sql({"queries": [{"query": "SELECT 1; SELECT 2"}]})
    expect("exactly one statement" in body["results"][0]["error"]["message"], body)
    status, body, _ = s.sql({"queries": [{"query": "SELECT $1::int", "params": ["x"]}]})
    expect_eq(body["results"][0]["error"]["code"], "22P02", "bad parameter value")


@test
def errors_and_position(s, a):
    r = s.query("SELECT 1; SELECT * FROM nope; SELECT 2")
    expect_eq(len(r), 2, "stops at the first error")
    e = r[1]["error"]
    expect_eq(e["code"], "42P01", "code")
    expect_eq(e["message"], 'relation "nope" does not exist', "message")
    expect("position" in e, e)
    r = s.query("SELEC 1")
    expect_eq(r[0]["error"]["code"], "42601", "syntax error")


@test
def notices(s, a):
    r = s.query("DROP TABLE IF EXISTS never_was")
    expect_eq(r[0]["ok"], "DROP TABLE", "tag")
    expect_eq(r[0]["notices"][0]["severity"], "notice", "severity")
    expect('"never_was" does not exist' in r[0]["notices"][0]["message"], r)


@test
def options_parameter(s, a):
    r = s.query("SHOW application_name", options={"application_name": "console"})
    expect_eq(r[0]["rows"], [["console"]], "option applied")
    r = s.query("SET application_name = 'x'")
    expect_eq(r[0]["parameters"], [{"name": "application_name", "value": "x"}], "parameter change")
    r = s.query("SHOW application_name")
    expect(r[0]["rows"] != [["x"]], "each request is its own session")
    status, body, _ = s.sql({"query": "SELECT 1"}, options={"no_such_variable": "1"})
    expect_eq(status, 400, "unknown variable")
    expect("no_such_variable" in body, body)
    status, body, _ = s.request("POST", "/api/sql?options=%7Bnot-json", b'{"query":"SELECT 1"}')[0:3:2] + (None,)
    expect_eq(status, 400, "malformed options")
    status, body, _ = s.sql({"query": "SELECT 1"}, options=["a"])
    expect_eq(status, 400, "options must be an object")


@test
def statement_timeout_option(s, a):
    start = time.time()
    r = s.query("SELECT pg_sleep(5)", options={"statement_timeout": "200ms"})
    expect_eq(r[0]["error"]["code"], "57014", "canceled by statement_timeout")
    expect(time.time() - start < 4, "the timeout ended the statement early")


@test
def session_statements_refused(s, a):
    s.query("CREATE TABLE sub_refused (a int)")
    for sql in ["SUBSCRIBE sub_refused", "COPY sub_refused TO STDOUT", "COPY sub_refused FROM STDIN",
                "DECLARE c CURSOR FOR SELECT 1", "FETCH c", "CLOSE c"]:
        r = s.query(sql)
        expect_eq(r[0]["error"]["code"], "0A000", sql)
        expect("not supported by POST /api/sql" in r[0]["error"]["message"], r)


@test
def large_result_streams_chunked(s, a):
    n = 200000
    status, body, headers = s.sql({"query": f"SELECT g FROM generate_series(1, {n}) AS g"})
    expect_eq(status, 200, "status")
    expect_eq(headers.get("Transfer-Encoding"), "chunked", "large results are chunked")
    r = body["results"][0]
    expect_eq(len(r["rows"]), n, "row count")
    expect_eq(r["rows"][-1], [n], "last row")
    expect_eq(r["tag"], f"SELECT {n}", "tag")
    status, _, headers = s.sql({"query": "SELECT 1"})
    expect(headers.get("Content-Length") is not None, "a small result is sent whole")


@test
def max_result_size_enforced(s, a):
    s.query("CREATE TABLE big (a int)")
    s.query("INSERT INTO big SELECT g FROM generate_series(1, 100000) AS g")
    s.query("CREATE DEFAULT INDEX ON big")
    system = ("mz_system", "")
    try:
        s.query("ALTER SYSTEM SET max_result_size = '64kB'", auth=system)
        r = s.query("SELECT a FROM big")
        expect("error" in r[-1], "max_result_size ends the result with an error")
        expect_eq(r[-1]["error"]["code"], "54000", "max_result_size exceeded")
        expect("exceeds max size of 64kB" in r[-1]["error"]["message"], r[-1]["error"])
    finally:
        s.query("ALTER SYSTEM RESET max_result_size", auth=system)
    expect_eq(s.query("SELECT count(*) FROM big")[0]["rows"], [[100000]], "after the reset")


@test
def bad_input(s, a):
    cases = [
        ("malformed JSON", b"{not json", 400, "not valid JSON"),
        ("not an object", b"[1]", 400, "must be a JSON object"),
        ("query not a string", b'{"query": 1}', 400, '"query" must be a string'),
        ("both shapes", b'{"query": "SELECT 1", "queries": []}', 400, "exactly one of"),
        ("neither shape", b"{}", 400, "exactly one of"),
        ("unknown field", b'{"query": "SELECT 1", "x": 1}', 400, 'unknown field "x"'),
        ("params not strings", b'{"queries": [{"query": "SELECT $1", "params": [1]}]}', 400,
         "must be a string or null"),
        ("queries not an array", b'{"queries": {}}', 400, '"queries" must be an array'),
    ]
    for what, body, want_status, want_text in cases:
        status, headers, payload = s.request("POST", "/api/sql", body, {"Content-Type": "application/json"})
        expect_eq(status, want_status, what)
        expect(want_text in payload.decode(), f"{what}: {payload!r}")
    status, _, payload = s.request("GET", "/api/sql")
    expect_eq(status, 405, "GET /api/sql")
    status, headers, _ = s.request("DELETE", "/metrics")
    expect_eq(status, 405, "DELETE /metrics")
    expect_eq(headers.get("Allow"), "GET, HEAD", "Allow header")
    status, _, payload = s.request("GET", "/no/such/path")
    expect_eq(status, 404, "unknown path")
    expect(b"no such endpoint" in payload, payload)
    status, _, payload = s.request("GET", "/api/experimental/sql")
    expect_eq(status, 400, "WebSocket endpoint without an upgrade")
    # Not HTTP at all.
    with socket.create_connection(("127.0.0.1", s.http_port), timeout=10) as raw:
        raw.sendall(b"\x00\x00\x00\x08\x04\xd2\x16\x2f garbage\r\n\r\n")
        answer = raw.recv(4096)
        expect(answer.startswith(b"HTTP/1.1 400"), answer)
    expect_eq(s.query("SELECT 1")[0]["rows"], [[1]], "still serving")


@test
def huge_body_413(s, a):
    # The auth server runs with --max-message-size 65536.
    body = json.dumps({"query": "SELECT '" + "x" * 200000 + "'"}).encode()
    status, _, payload = a.request("POST", "/api/sql", body,
                                   {"Content-Type": "application/json", "Authorization": basic("alice", "secret")})
    expect_eq(status, 413, "huge body")
    expect(b"--max-message-size" in payload, payload)
    expect_eq(a.query("SELECT 1", auth=("alice", "secret"))[0]["rows"], [[1]], "still serving")


@test
def keep_alive(s, a):
    conn = s.connection()
    try:
        for i in range(3):
            conn.request("POST", "/api/sql", json.dumps({"query": f"SELECT {i}"}),
                         {"Content-Type": "application/json"})
            response = conn.getresponse()
            expect_eq(json.loads(response.read())["results"][0]["rows"], [[i]], "request on a kept connection")
    finally:
        conn.close()


# ---- authentication


@test
def auth_basic(s, a):
    status, body, headers = a.sql({"query": "SELECT 1"})
    expect_eq(status, 401, "no credentials")
    expect(headers.get("WWW-Authenticate", "").startswith("Basic"), headers)
    status, body, _ = a.sql({"query": "SELECT 1"}, auth=("alice", "wrong"))
    expect_eq(status, 401, "wrong password")
    expect('password authentication failed for user "alice"' in body, body)
    status, body, _ = a.sql({"query": "SELECT 1"}, auth=("mallory", "secret"))
    expect_eq(status, 401, "unknown user")
    status, _, _ = a.request("POST", "/api/sql", b'{"query":"SELECT 1"}', {"Authorization": "Bearer x"})
    expect_eq(status, 401, "another scheme")
    # The session's user shows in the log line of its error.
    r = a.query("SELECT 1/0 AS alice_query", auth=("alice", "secret"))
    expect_eq(r[0]["error"]["code"], "22012", "authenticated")
    wait_for(lambda: "error 22012 for user alice" in a.log_tail(50), "the error logged for alice")
    # Trust mode: any user, materialize by default; mz_system may ALTER SYSTEM.
    r = s.query("ALTER SYSTEM SET max_result_size = '1GB'")
    expect_eq(r[0]["error"]["code"], "42501", "default user materialize")
    r = s.query("ALTER SYSTEM SET max_result_size = '1GB'", auth=("mz_system", ""))
    expect_eq(r[0]["ok"], "ALTER SYSTEM", "trusted user mz_system")
    # Health and metrics need no credentials.
    expect_eq(a.get("/api/livez")[0], 200, "livez")


@test
def websocket_auth(s, a):
    ws = WebSocket(a.http_port, headers={"Authorization": basic("alice", "nope")})
    expect_eq(ws.status, 401, "upgrade with wrong Basic credentials")
    ws.abort()
    ws = WebSocket(a.http_port)
    expect_eq(ws.status, 101, "upgrade")
    ws.send({"user": "alice", "password": "nope"})
    m = ws.recv()
    expect_eq(m["type"], "Error", "wrong password")
    expect_eq(m["payload"]["code"], "28P01", "code")
    ws.abort()
    ws = WebSocket(a.http_port)
    ws.send({"user": "alice", "password": "secret"})
    msgs = ws.recv_until("ReadyForQuery")
    expect(any(m["type"] == "BackendKeyData" for m in msgs), msgs)
    ws.close()
    ws = WebSocket(a.http_port, headers={"Authorization": basic("alice", "secret")})
    ws.send({"options": {}})
    ws.recv_until("ReadyForQuery")
    ws.send({"query": "SELECT 1/0 AS ws_alice"})
    ws.recv_until("ReadyForQuery")
    ws.close()
    wait_for(lambda: "WebSocket session for user alice closed" in a.log_tail(50), "alice's session")


@test
def privileges_over_http(s, a):
    # Trust mode: each Basic user is a role, created on its first statement;
    # the HTTP sessions are checked as pgwire's are.
    r = s.query("CREATE TABLE http_owned (x int); INSERT INTO http_owned VALUES (1)", auth=("http_owner", ""))
    expect(all("ok" in x for x in r), r)
    r = s.query("SELECT * FROM http_owned", auth=("http_other", ""))
    expect_eq(r[0]["error"]["code"], "42501", "another user's table")
    expect('permission denied for TABLE "materialize.public.http_owned"' in r[0]["error"]["message"], r)
    r = s.query("DROP TABLE http_owned", auth=("http_other", ""))
    expect_eq(r[0]["error"]["code"], "42501", "drop by a non-owner")
    r = s.query("GRANT SELECT ON http_owned TO http_other", auth=("http_owner", ""))
    expect_eq(r[0]["ok"], "GRANT", "grant by the owner")
    expect_eq(s.query("SELECT x FROM http_owned", auth=("http_other", ""))[0]["rows"], [[1]], "granted read")
    # The same over a WebSocket session, SUBSCRIBE included.
    ws = WebSocket(s.http_port, headers={"Authorization": basic("http_third", "")})
    ws.send({"options": {}})
    ws.recv_until("ReadyForQuery")
    ws.send({"query": "SUBSCRIBE http_owned"})
    msgs = ws.recv_until("ReadyForQuery")
    errors = [m for m in msgs if m["type"] == "Error"]
    expect(errors and errors[0]["payload"]["code"] == "42501", msgs)
    ws.close()
    r = s.query("DROP TABLE http_owned", auth=("http_owner", ""))
    expect_eq(r[0]["ok"], "DROP TABLE", "drop by the owner")


@test
def max_connections(s, a):
    # The auth server allows 3 sessions.
    sockets = []
    try:
        for _ in range(3):
            ws = WebSocket(a.http_port)
            ws.send({"user": "alice", "password": "secret"})
            ws.recv_until("ReadyForQuery")
            sockets.append(ws)
        status, body, _ = a.sql({"query": "SELECT 1"}, auth=("alice", "secret"))
        expect_eq(status, 503, "over --max-connections")
        expect("too many clients" in body, body)
    finally:
        for ws in sockets:
            ws.close()
    wait_for(lambda: a.sql({"query": "SELECT 1"}, auth=("alice", "secret"))[0] == 200, "a free session slot")


# ---- WebSocket


def ws_session(s, options=None):
    ws = WebSocket(s.http_port)
    expect_eq(ws.status, 101, "upgrade")
    ws.send({"options": options or {}})
    return ws, ws.recv_until("ReadyForQuery")


@test
def websocket_query(s, a):
    ws, startup = ws_session(s)
    kinds = [m["type"] for m in startup]
    expect("ParameterStatus" in kinds and "BackendKeyData" in kinds, kinds)
    expect_eq(startup[-1]["payload"], "I", "idle")
    ws.send({"query": "SELECT 1 AS a, 'x' AS b"})
    msgs = ws.recv_until("ReadyForQuery")
    expect_eq([m["type"] for m in msgs], ["CommandStarting", "Rows", "Row", "CommandComplete", "ReadyForQuery"],
              "message types")
    expect_eq(msgs[0]["payload"], {"has_rows": True, "is_streaming": False}, "CommandStarting")
    expect_eq([c["name"] for c in msgs[1]["payload"]["columns"]], ["a", "b"], "Rows")
    expect_eq(msgs[2]["payload"], [1, "x"], "Row")
    expect_eq(msgs[3]["payload"], "SELECT 1", "CommandComplete")
    # A session: variables and transactions last across requests.
    ws.send({"query": "SET application_name = 'wstest'; BEGIN"})
    msgs = ws.recv_until("ReadyForQuery")
    expect({"name": "application_name", "value": "wstest"} in [m["payload"] for m in msgs
                                                               if m["type"] == "ParameterStatus"], msgs)
    expect_eq(msgs[-1]["payload"], "T", "in a transaction")
    ws.send({"queries": [{"query": "SELECT $1::int * 2", "params": ["21"]}]})
    msgs = ws.recv_until("ReadyForQuery")
    expect_eq([m["payload"] for m in msgs if m["type"] == "Row"], [[42]], "extended")
    ws.send({"query": "SELECT 1/0"})
    msgs = ws.recv_until("ReadyForQuery")
    expect_eq([m["type"] for m in msgs][-2:], ["Error", "ReadyForQuery"], "error")
    expect_eq(msgs[-1]["payload"], "E", "failed transaction")
    ws.send({"query": "ROLLBACK; SHOW application_name"})
    msgs = ws.recv_until("ReadyForQuery")
    expect_eq([m["payload"] for m in msgs if m["type"] == "Row"], [["wstest"]], "variable kept")
    ws.send({"query": "DROP TABLE IF EXISTS never_was"})
    msgs = ws.recv_until("ReadyForQuery")
    expect("Notice" in [m["type"] for m in msgs], msgs)
    ws.send("{malformed")
    msgs = ws.recv_until("ReadyForQuery")
    expect_eq(msgs[0]["type"], "Error", "malformed request")
    expect("not valid JSON" in msgs[0]["payload"]["message"], msgs)
    ws.send({"query": "SELECT 2"})
    expect_eq([m["payload"] for m in ws.recv_until("ReadyForQuery") if m["type"] == "Row"], [[2]], "still serving")
    ws.close()


def insert_from_another_connection(s, sql):
    psql = shutil.which("psql")
    if psql:
        subprocess.run([psql, "-X", "-q", "-h", "127.0.0.1", "-p", str(s.pg_port), "-U", "materialize",
                        "-d", "materialize", "-c", sql], check=True, timeout=30)
    else:
        s.query(sql)


@test
def websocket_subscribe(s, a):
    s.query("CREATE TABLE ws_sub (a int); INSERT INTO ws_sub VALUES (1)")
    ws, _ = ws_session(s)
    ws.send({"query": "SUBSCRIBE ws_sub"})
    expect_eq(ws.recv(), {"type": "CommandStarting", "payload": {"has_rows": True, "is_streaming": True}},
              "CommandStarting")
    rows = ws.recv()
    expect_eq(rows["type"], "Rows", "Rows")
    expect_eq([c["name"] for c in rows["payload"]["columns"]], ["mz_timestamp", "mz_diff", "a"], "columns")
    first = ws.recv()
    expect_eq(first["type"], "Row", "snapshot row")
    expect_eq(first["payload"][1:], [1, 1], "snapshot")
    insert_from_another_connection(s, "INSERT INTO ws_sub VALUES (2)")
    update = ws.recv()
    expect_eq(update["type"], "Row", "update row")
    expect_eq(update["payload"][1:], [1, 2], "update")
    expect(int(update["payload"][0]) >= int(first["payload"][0]), "timestamps advance")
    subscribes = "SELECT count(*) FROM mz_introspection.mz_dataflows WHERE name LIKE 'subscribe-%'"
    expect_eq(s.query(subscribes)[0]["rows"], [[1]], "the subscribe's dataflow")
    ws.abort()  # closed mid-SUBSCRIBE
    wait_for(lambda: s.query(subscribes)[0]["rows"] == [[0]], "the subscribe's dataflow to be dropped")
    wait_for(lambda: metric(s, "tandem_websocket_sessions") == 0, "the session to end")
    wait_for(lambda: metric(s, "tandem_sessions") == 0, "the session slot to be released")
    expect_eq(s.query("SELECT count(*) FROM ws_sub")[0]["rows"], [[2]], "still serving")


@test
def websocket_subscribe_cancel(s, a):
    s.query("CREATE TABLE ws_cancel (a int); INSERT INTO ws_cancel VALUES (1)")
    ws, startup = ws_session(s)
    key = [m["payload"] for m in startup if m["type"] == "BackendKeyData"][0]
    ws.send({"query": "SUBSCRIBE ws_cancel"})
    ws.recv(), ws.recv(), ws.recv()  # CommandStarting, Rows, the snapshot's Row
    pg_cancel(s.pg_port, key["conn_id"], key["secret_key"])
    msgs = ws.recv_until("ReadyForQuery")
    errors = [m["payload"] for m in msgs if m["type"] == "Error"]
    expect(errors and errors[0]["code"] == "57014", msgs)
    ws.send({"query": "SELECT 3"})
    expect_eq([m["payload"] for m in ws.recv_until("ReadyForQuery") if m["type"] == "Row"], [[3]],
              "the session goes on")
    ws.close()


@test
def websocket_slow_reader(s, a):
    # A client that reads nothing while a large result streams: the server
    # writes as the socket takes it and serves others meanwhile.
    ws, _ = ws_session(s)
    ws.send({"query": "SELECT g FROM generate_series(1, 100000) AS g"})
    time.sleep(0.5)
    expect_eq(s.query("SELECT 7")[0]["rows"], [[7]], "others are served")
    msgs = ws.recv_until("ReadyForQuery")
    expect_eq(sum(1 for m in msgs if m["type"] == "Row"), 100000, "every row arrives")
    expect_eq([m for m in msgs if m["type"] == "CommandComplete"][0]["payload"], "SELECT 100000", "tag")
    ws.close()


# ---- the web console's files


@test
def console_static_files(s, a):
    status, headers, body = s.get("/")
    expect_eq(status, 200, "GET /")
    expect_eq(headers["Content-Type"], "text/html; charset=utf-8", "index content type")
    expect(b"<title>tandem console</title>" in body, body[:200])
    expect("default-src 'self'" in headers.get("Content-Security-Policy", ""), headers)
    expect_eq(s.get("/index.html")[2], body, "/index.html is /")
    for path, kind in [("/console.css", "text/css"), ("/js/app.js", "text/javascript"),
                       ("/js/api.js", "text/javascript"), ("/favicon.svg", "image/svg+xml")]:
        status, headers, body = s.get(path)
        expect_eq(status, 200, path)
        expect(headers["Content-Type"].startswith(kind), (path, headers["Content-Type"]))
        expect_eq(headers["X-Content-Type-Options"], "nosniff", path)
        expect(len(body) > 0, path)
    status, headers, body = s.request("HEAD", "/js/app.js")
    expect_eq((status, body), (200, b""), "HEAD")
    expect(int(headers["Content-Length"]) > 0, headers)
    status, headers, body = s.get("/vendor/chart.js/chart.min.js")
    if os.path.exists("/usr/share/javascript/chart.js/chart.min.js"):
        expect_eq(status, 200, "Chart.js from Debian's libjs-chart.js")
        expect_eq(headers["Content-Type"], "text/javascript; charset=utf-8", "chart content type")
        with open("/usr/share/javascript/chart.js/chart.min.js", "rb") as f:
            expect_eq(body, f.read(), "the installed file")
    else:
        expect_eq(status, 404, "no Chart.js installed")
        expect(b"libjs-chart.js" in body, body)
    for method in ["POST", "PUT", "DELETE"]:
        status, headers, _ = s.request(method, "/index.html", b"x")
        expect_eq(status, 405, method)
        expect_eq(headers["Allow"], "GET, HEAD", "Allow")
    for path in ["/nope.html", "/js/", "/js", "/api/nope", "/index.html/"]:
        expect_eq(s.get(path)[0], 404, path)


@test
def console_path_traversal(s, a):
    secret = os.path.join(s.dir, "secret.txt")
    with open(secret, "w") as f:
        f.write("do not serve")
    up = "/.." * 12
    paths = [f"/vendor/chart.js{up}{secret}", f"/vendor/chart.js/..{up}/etc/passwd", "/../../../../etc/passwd",
             "/js/../index.html", "/./index.html", "//index.html", "/vendor/chart.js/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
             "/vendor/chart.js/..%2f..%2f..%2fetc%2fpasswd", "/vendor/chart.js/..\\..\\etc\\passwd",
             "/vendor/chart.js/", "/vendor/chart.js/chunks", "/vendor/chart.js//etc/passwd", "/vendor/chart.js/.",
             "/%2e%2e/%2e%2e/etc/passwd", f"/..{secret}"]
    for path in paths:
        # Raw bytes on a socket: no client normalizes the path first.
        with socket.create_connection(("127.0.0.1", s.http_port), timeout=10) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        expect(data.startswith(b"HTTP/1.1 404"), (path, data[:100]))
        expect(b"do not serve" not in data and b"root:" not in data, path)
    expect_eq(s.get("/")[0], 200, "still serving")


@test
def console_auth(s, a):
    # The page carries no data and loads without credentials; the API
    # calls it makes must authenticate.
    status, _, body = a.get("/")
    expect_eq(status, 200, "the console without credentials")
    expect_eq(a.get("/js/api.js")[0], 200, "its scripts")
    status, body, _ = a.sql({"query": "SELECT 1"})
    expect_eq(status, 401, "the API without credentials")
    status, body, _ = a.sql({"query": "SELECT current_user"}, auth=("alice", "secret"))
    expect_eq(body["results"][0]["rows"], [["alice"]], "the API with them")


@test
def cross_origin_refused(s, a):
    # A page on another site must not reach the SQL APIs through a browser.
    host = f"127.0.0.1:{s.http_port}"
    body = json.dumps({"query": "SELECT 1"})
    for origin in ["http://evil.example", f"http://127.0.0.1:{s.http_port + 1}", "null"]:
        status, _, text = s.request("POST", "/api/sql", body, {"Origin": origin, "Content-Type": "text/plain"})
        expect_eq(status, 403, origin)
        expect(b"cross-origin request refused" in text, text)
    status, _, text = s.request("POST", "/api/sql", body, {"Origin": f"http://{host}"})
    expect_eq(status, 200, "the console's own origin")
    with socket.create_connection(("127.0.0.1", s.http_port), timeout=10) as sock:
        sock.sendall((f"GET /api/experimental/sql HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\nOrigin: http://evil.example\r\n\r\n").encode())
        expect(sock.recv(4096).startswith(b"HTTP/1.1 403"), "a WebSocket from another site")
    expect_eq(s.query("SELECT 2")[0]["rows"], [[2]], "without an Origin (curl, drivers)")


# ---- operations


@test
def health_and_metrics(s, a):
    status, _, body = s.get("/api/readyz")
    expect_eq((status, body), (200, b"ready\n"), "readyz")
    status, _, body = s.get("/api/livez")
    expect_eq((status, body), (200, b"live\n"), "livez")
    s.query("CREATE TABLE metered (a int); CREATE DEFAULT INDEX ON metered")
    s.query("INSERT INTO metered VALUES (1)")
    s.query("SELECT a FROM metered")
    status, headers, body = s.get("/metrics")
    expect_eq(status, 200, "metrics")
    expect(headers["Content-Type"].startswith("text/plain; version=0.0.4"), headers)
    text = body.decode()
    for name in ["tandem_statements_total{kind=\"select\",outcome=\"success\"}", "tandem_pgwire_connections",
                 "tandem_http_requests_total", "tandem_process_resident_memory_bytes", "# TYPE",
                 "tandem_read_duration_seconds_count{", 'le="+Inf"', "tandem_compute_export_hydrated{"]:
        expect(name in text, name)
    for line in text.splitlines():
        if line and not line.startswith("#"):
            float(line.rsplit(" ", 1)[1])  # every sample has a number


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tandemd = sys.argv[1]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    trust = Server(tandemd)
    auth = Server(tandemd, "--max-message-size", "65536", "--max-connections", "3",
                  passwords={"alice": "secret"})
    passed = failed = 0
    try:
        passed, failed = suite.run(only, lambda fn: fn(trust, auth), (trust, auth))
    finally:
        if failed:
            print("--- tandemd log (trust server), last lines:\n" + trust.log_tail())
        trust.stop()
        auth.stop()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
