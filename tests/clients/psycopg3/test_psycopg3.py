"""psycopg 3 against tandemd (or PostgreSQL, with CLIENTS_TARGET=postgres),
in psycopg 3's idioms: server-side parameter binding (extended protocol),
binary cursors, `conn.transaction()` blocks, prepared statements
(prepare=True), `cursor.copy()` in text and binary formats, TypeInfo
introspection and the conninfo's `options`. Connection settings come
from PG* variables."""
import os
import unittest
from decimal import Decimal

import psycopg
from psycopg import errors, sql
from psycopg.types import TypeInfo

TANDEM = os.environ.get("CLIENTS_TARGET", "tandem") == "tandem"
T = "py3_items"
DB = os.environ.get("PGDATABASE", "materialize")


class Psycopg3Test(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with psycopg.connect(dbname=DB, autocommit=True) as conn:
            conn.execute(f"DROP TABLE IF EXISTS {T}")
            conn.execute(f"CREATE TABLE {T} (id int PRIMARY KEY, name text NOT NULL,"
                         " price numeric(10,2), qty bigint, ok boolean, ratio float8, raw bytea)")

    def setUp(self):
        self.conn = psycopg.connect(dbname=DB)
        with self.conn.transaction():
            self.conn.execute(f"DELETE FROM {T}")

    def tearDown(self):
        self.conn.close()

    def test_parameterised_dml_text_and_binary(self):
        with self.conn.transaction(), self.conn.cursor() as cur:
            cur.executemany(f"INSERT INTO {T} (id, name, price, qty, ok, ratio, raw) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                            [(1, "apple", Decimal("1.50"), 10, True, 0.5, b"\x00\x01"),
                             (2, "pear", None, -3, False, None, None)])
            cur.execute(f"UPDATE {T} SET qty = qty * %s WHERE id = %s", (2, 1))
            self.assertEqual(cur.rowcount, 1)
        query = f"SELECT id, name, price, qty, ok, ratio, raw FROM {T} WHERE id >= %s ORDER BY id"
        expected = [(1, "apple", Decimal("1.50"), 20, True, 0.5, b"\x00\x01"),
                    (2, "pear", None, -3, False, None, None)]
        for binary in (False, True):
            with self.conn.cursor(binary=binary) as cur:
                cur.execute(query, (1,))
                self.assertEqual(cur.pgresult.fformat(0), 1 if binary else 0)
                self.assertEqual(cur.fetchall(), expected)
        # Binary parameters (%b) as well as binary results.
        with self.conn.cursor(binary=True) as cur:
            cur.execute("SELECT %b::int8 + 1, %b::text, %b::bytea", (41, "é", b"\xff"))
            self.assertEqual(cur.fetchone(), (42, "é", b"\xff"))
        self.conn.commit()

    def test_prepared(self):
        with self.conn.transaction():
            self.conn.execute(f"INSERT INTO {T} (id, name) VALUES (1, 'a'), (2, 'b')")
        for i in (1, 2, 1):
            cur = self.conn.execute(f"SELECT name FROM {T} WHERE id = %s", (i,), prepare=True)
            self.assertEqual(cur.fetchone(), ("a" if i == 1 else "b",))
        self.conn.commit()
        # psycopg prepares statements run prepare_threshold times on its own.
        self.conn.prepare_threshold = 0
        for i in range(3):
            self.assertEqual(self.conn.execute("SELECT %s::int * 2", (i,)).fetchone(), (i * 2,))
        self.conn.commit()

    def test_transactions(self):
        with self.conn.transaction():
            self.conn.execute(f"INSERT INTO {T} (id, name) VALUES (1, 'kept')")
        with self.assertRaises(ZeroDivisionError):
            with self.conn.transaction():
                self.conn.execute(f"INSERT INTO {T} (id, name) VALUES (2, 'lost')")
                1 / 0
        with self.conn.transaction():
            with self.conn.transaction():  # a savepoint
                self.conn.execute(f"INSERT INTO {T} (id, name) VALUES (3, 'inner')")
            try:
                with self.conn.transaction():
                    self.conn.execute(f"INSERT INTO {T} (id, name) VALUES (4, 'rolled back')")
                    raise psycopg.Rollback()
            finally:
                pass
        with psycopg.connect(dbname=DB, autocommit=True) as other:
            self.assertEqual(other.execute(f"SELECT id FROM {T} ORDER BY id").fetchall(), [(1,), (3,)])

    def test_error_and_recovery(self):
        self.conn.autocommit = True
        self.conn.execute(f"INSERT INTO {T} (id, name) VALUES (1, 'a')")
        with self.assertRaises(errors.UniqueViolation) as e:
            self.conn.execute(f"INSERT INTO {T} (id, name) VALUES (%s, %s)", (1, "dup"))
        self.assertEqual(e.exception.diag.sqlstate, "23505")
        with self.assertRaises(errors.NotNullViolation):
            self.conn.execute(f"INSERT INTO {T} (id, name) VALUES (%s, %s)", (2, None))
        with self.assertRaises(errors.SyntaxError) as e:
            self.conn.execute("SELEC 1")
        self.assertIsNotNone(e.exception.diag.statement_position)
        self.assertEqual(self.conn.execute("SELECT 1").fetchone(), (1,))
        self.conn.autocommit = False
        with self.assertRaises(errors.UndefinedColumn):
            self.conn.execute(f"SELECT nope FROM {T}")
        self.assertEqual(self.conn.info.transaction_status, psycopg.pq.TransactionStatus.INERROR)
        self.conn.rollback()
        self.assertEqual(self.conn.execute("SELECT 'ok'").fetchone(), ("ok",))
        self.conn.rollback()

    def test_metadata_and_type_introspection(self):
        info = self.conn.info
        self.assertGreaterEqual(info.server_version, 90000)
        self.assertEqual(info.parameter_status("client_encoding"), "UTF8")
        self.assertEqual(info.encoding, "utf-8")
        for name, oid, array_oid in (("int4", 23, 1007), ("text", 25, 1009), ("numeric", 1700, 1231)):
            t = TypeInfo.fetch(self.conn, name)
            self.assertEqual((t.oid, t.array_oid), (oid, array_oid))
        self.assertIsNone(TypeInfo.fetch(self.conn, "no_such_type"))
        cur = self.conn.execute(f"SELECT * FROM {T} LIMIT 0")
        self.assertEqual([(c.name, c.type_code) for c in cur.description][:4],
                         [("id", 23), ("name", 25), ("price", 1700), ("qty", 20)])
        self.assertEqual(cur.description[2].precision, 10)
        self.assertEqual(cur.description[2].scale, 2)
        q = sql.SQL("SELECT {} FROM {} WHERE {} = %s").format(
            sql.Identifier("name"), sql.Identifier(T), sql.Identifier("id"))
        self.assertEqual(self.conn.execute(q, (99,)).fetchall(), [])
        self.conn.rollback()

    def test_copy_text_and_binary(self):
        with self.conn.cursor() as cur:
            with cur.copy(f"COPY {T} (id, name, price, raw) FROM STDIN") as copy:
                copy.write_row((1, "one", Decimal("1.00"), b"\x01"))
                copy.write_row((2, "tab\there", None, None))
            with cur.copy(f"COPY {T} (id, name, qty) FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(["int4", "text", "int8"])
                copy.write_row((3, "binary", 2**40))
            self.conn.commit()
            with cur.copy(f"COPY (SELECT id, name, price, raw FROM {T} ORDER BY id) TO STDOUT") as copy:
                rows = list(copy.rows())
            self.assertEqual(rows, [("1", "one", "1.00", "\\x01"), ("2", "tab\there", None, None),
                                    ("3", "binary", None, None)])
            with cur.copy(f"COPY (SELECT id, qty, name FROM {T} ORDER BY id) TO STDOUT (FORMAT BINARY)") as copy:
                copy.set_types(["int4", "int8", "text"])
                rows = list(copy.rows())
            self.assertEqual(rows, [(1, None, "one"), (2, None, "tab\there"), (3, 2**40, "binary")])
        self.conn.commit()

    def test_startup_options(self):
        with psycopg.connect(dbname=DB, options="-c search_path=py3_nowhere,public -c statement_timeout=12345") as c:
            self.assertEqual(c.execute("SHOW search_path").fetchone(), ("py3_nowhere,public",))
            self.assertEqual(c.execute("SHOW statement_timeout").fetchone()[0], "12345ms")

    @unittest.skipUnless(TANDEM, "SUBSCRIBE is tandem's")
    def test_subscribe_through_server_side_cursor(self):
        self.conn.autocommit = True
        self.conn.execute(f"INSERT INTO {T} (id, name) VALUES (1, 'a')")
        self.conn.autocommit = False
        with self.conn.transaction():
            self.conn.execute(f"DECLARE sub CURSOR FOR SUBSCRIBE (SELECT id, name FROM {T})")
            first = self.conn.execute("FETCH 1 sub WITH (timeout = '10s')").fetchall()
            self.assertEqual([r[1:] for r in first], [(1, 1, "a")])
            with psycopg.connect(dbname=DB, autocommit=True) as w:
                w.execute(f"DELETE FROM {T} WHERE id = 1")
            second = self.conn.execute("FETCH 1 sub WITH (timeout = '10s')").fetchall()
            self.assertEqual([r[1:] for r in second], [(-1, 1, "a")])
            self.assertGreater(second[0][0], first[0][0])


if __name__ == "__main__":
    unittest.main(verbosity=2)
