#!/usr/bin/env python3
"""Seed corpora for the fuzz targets, made from sqllogic/tests/*.slt.

    python3 scripts/fuzz_corpus.py OUT_DIR

writes one file per seed (named by its content's hash, so reruns add
nothing twice) into
  OUT_DIR/parser   every statement and query of the slt files (parser_fuzz);
  OUT_DIR/planner  every query, behind the CREATE TABLE/VIEW/INDEX statements
                   its file ran before it (planner_fuzz runs them in order,
                   so the query finds its tables);
  OUT_DIR/eval     the queries without FROM (eval_fuzz plans constant
                   queries only);
  OUT_DIR/codec    pgwire input as codec_fuzz reads it (a first byte
                   choosing the message size limit, a startup message, then
                   frontend messages): the statements as simple Query
                   messages and as Parse/Bind/Describe/Execute/Sync, plus
                   COPY, SASL and cancel seeds.
The fuzzers add what they find to the same directories.
"""

import glob
import hashlib
import os
import re
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORD = re.compile(r"^(statement|query)\b")
DDL = re.compile(r"^\s*create\s+(table|(or\s+replace\s+)?(materialized\s+)?view|(default\s+|unique\s+)?index)\b", re.I)
FROM = re.compile(r"\bfrom\b", re.I)
MAX_SEED = 4096  # bytes; the fuzzers run with a -max_len of this size


def slt_records(path):
    """The SQL text of each statement/query record of one slt file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        if not RECORD.match(lines[i]):
            i += 1
            continue
        kind = lines[i].split()[0]
        i += 1
        sql = []
        while i < len(lines) and lines[i].strip() and lines[i] != "----":
            sql.append(lines[i])
            i += 1
        if sql:
            yield kind, "\n".join(sql)


def write(out, data):
    if isinstance(data, str):
        data = data.encode()
    if not data or len(data) > MAX_SEED:
        return
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def frame(kind, body):
    return kind + struct.pack("!I", len(body) + 4) + body


def cstr(s):
    return s.encode() + b"\0"


# codec_fuzz's first byte picks the limit from {0, 1, 16, 64, 1024, default}.
DEFAULT_LIMIT = b"\x05"
STARTUP_PARAMS = cstr("user") + cstr("materialize") + cstr("database") + cstr("x") + b"\0"
STARTUP = struct.pack("!II", 8 + len(STARTUP_PARAMS), 196608) + STARTUP_PARAMS


def codec_seeds(statements):
    yield DEFAULT_LIMIT + struct.pack("!II", 8, 80877103) + STARTUP  # SSLRequest first
    yield DEFAULT_LIMIT + struct.pack("!IIII", 16, 80877102, 7, 42)  # CancelRequest
    client_first = b"n,,n=,r=rOprNGfwEbeRWgbNEkqO"
    sasl = cstr("SCRAM-SHA-256") + struct.pack("!I", len(client_first)) + client_first
    yield DEFAULT_LIMIT + STARTUP + frame(b"p", sasl) + frame(b"p", b"c=biws,r=x,p=AAAA")
    yield DEFAULT_LIMIT + STARTUP + frame(b"p", cstr("secret")) + frame(b"X", b"")
    copy = frame(b"Q", cstr("COPY t FROM STDIN")) + frame(b"d", b"1\t2\n") + frame(b"c", b"")
    yield DEFAULT_LIMIT + STARTUP + copy + frame(b"f", cstr("bad")) + frame(b"H", b"")
    yield b"\x03" + STARTUP + frame(b"Q", cstr("SELECT 1"))  # over the 64-byte limit
    for sql in statements:
        yield DEFAULT_LIMIT + STARTUP + frame(b"Q", cstr(sql))
        parse = cstr("s") + cstr(sql) + struct.pack("!HI", 1, 23)
        bind = cstr("") + cstr("s") + struct.pack("!HH", 1, 0) + struct.pack("!HI", 1, 1) + b"7" + struct.pack("!HH", 1, 1)
        describe = b"P" + cstr("")
        execute = cstr("") + struct.pack("!I", 10)
        close = b"S" + cstr("s")
        yield (DEFAULT_LIMIT + STARTUP + frame(b"P", parse) + frame(b"B", bind) + frame(b"D", describe) +
               frame(b"E", execute) + frame(b"C", close) + frame(b"S", b""))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    codec_statements = []
    for path in sorted(glob.glob(os.path.join(ROOT, "sqllogic", "tests", "*.slt"))):
        ddl = []
        for kind, sql in slt_records(path):
            write(os.path.join(out, "parser"), sql)
            if DDL.match(sql):
                ddl.append(sql)
            if kind == "query":
                write(os.path.join(out, "planner"), ";\n".join(ddl[-8:] + [sql]))
                if not FROM.search(sql):
                    write(os.path.join(out, "eval"), sql)
            if len(codec_statements) < 200 and len(sql) < 200:
                codec_statements.append(sql)
    for seed in codec_seeds(codec_statements):
        write(os.path.join(out, "codec"), seed)


if __name__ == "__main__":
    main()
