"""Clients for the HTTP tests, with only Python's standard library:
starting a tandemd on free loopback ports, POST /api/sql through
http.client, and a minimal WebSocket client (RFC 6455) over a socket."""

import base64
import http.client
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.parse


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A tandemd with its own data directory on free ports; stop() ends it."""

    def __init__(self, tandemd, *args, passwords=None):
        self.dir = tempfile.mkdtemp(prefix="tandem-http-test-")
        self.pg_port = free_port()
        self.http_port = free_port()
        cmd = [tandemd, "--listen", f"127.0.0.1:{self.pg_port}", "--http-listen",
               f"127.0.0.1:{self.http_port}", "--data-dir", os.path.join(self.dir, "data")]
        if passwords:
            path = os.path.join(self.dir, "passwords")
            with open(path, "w") as f:
                for user, password in passwords.items():
                    f.write(f"{user}:{password}\n")
            cmd += ["--password-file", path]
        cmd += list(args)
        self.log_path = os.path.join(self.dir, "log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("tandemd exited: " + self.log_tail())
            try:
                status, _, _ = self.get("/api/readyz")
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("tandemd did not become ready: " + self.log_tail())

    def log_tail(self, lines=30):
        with open(self.log_path) as f:
            return "".join(f.readlines()[-lines:])

    def alive(self):
        return self.proc.poll() is None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.http_port, timeout=30)

    def request(self, method, path, body=None, headers=None):
        """(status, headers, body bytes) of one request on a new connection."""
        conn = self.connection()
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return response.status, response.headers, response.read()
        finally:
            conn.close()

    def get(self, path, headers=None):
        return self.request("GET", path, headers=headers)

    def sql(self, body, options=None, auth=None, raw=False):
        """POST /api/sql: (status, decoded JSON or text, headers)."""
        path = "/api/sql"
        if options is not None:
            path += "?options=" + urllib.parse.quote(json.dumps(options))
        headers = {"Content-Type": "application/json"}
        if auth is not None:
            headers["Authorization"] = basic(*auth)
        data = body if raw else json.dumps(body)
        status, response_headers, payload = self.request("POST", path, data, headers)
        text = payload.decode()
        if response_headers.get("Content-Type", "").startswith("application/json"):
            return status, json.loads(text), response_headers
        return status, text, response_headers

    def query(self, sql, **kwargs):
        """The results of a simple query that must answer 200."""
        status, body, _ = self.sql({"query": sql}, **kwargs)
        if status != 200:
            raise AssertionError(f"status {status}: {body}")
        return body["results"]


def basic(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


class WebSocketClosed(Exception):
    pass


class WebSocket:
    """A blocking WebSocket client: text messages, close, ping answered."""

    def __init__(self, port, path="/api/experimental/sql", headers=None, timeout=30):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Upgrade: websocket",
                 "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise WebSocketClosed("closed during the handshake")
            head += chunk
        head, self.pending = head.split(b"\r\n\r\n", 1)
        self.status_line = head.split(b"\r\n")[0].decode()
        self.status = int(self.status_line.split()[1])

    def _recv_exact(self, n):
        while len(self.pending) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise WebSocketClosed("connection closed")
            self.pending += chunk
        data, self.pending = self.pending[:n], self.pending[n:]
        return data

    def _send_frame(self, opcode, payload):
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, obj):
        self._send_frame(0x1, json.dumps(obj).encode() if not isinstance(obj, (str, bytes)) else
                         (obj.encode() if isinstance(obj, str) else obj))

    def recv(self):
        """The next message, decoded from JSON; WebSocketClosed at a close."""
        message = b""
        while True:
            b0, b1 = self._recv_exact(2)
            opcode = b0 & 0x0F
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._recv_exact(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._recv_exact(8))[0]
            if b1 & 0x80:
                self._recv_exact(4)  # servers do not mask, but tolerate it
            payload = self._recv_exact(n)
            if opcode == 0x8:
                raise WebSocketClosed("close frame")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if b0 & 0x80:
                return json.loads(message.decode())

    def recv_until(self, kind):
        """Messages up to and including the first of type `kind`."""
        out = []
        while True:
            m = self.recv()
            out.append(m)
            if m["type"] == kind:
                return out

    def close(self):
        try:
            self._send_frame(0x8, struct.pack("!H", 1000))
            while True:
                self.recv()
        except (WebSocketClosed, OSError):
            pass
        self.sock.close()

    def abort(self):
        """Closes the socket without a close frame."""
        self.sock.close()


def pg_cancel(port, conn_id, secret_key):
    """A PostgreSQL CancelRequest for the session with these keys."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(struct.pack("!iiii", 16, 80877102, conn_id, secret_key))
        s.recv(1)
