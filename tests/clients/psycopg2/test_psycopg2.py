"""psycopg2 against tandemd (or PostgreSQL, with CLIENTS_TARGET=postgres),
written the way psycopg2 code is: a connection per test, `with conn:`
blocks for transactions, %s parameters, copy_expert, server-side (named)
cursors for DECLARE/FETCH. Connection settings come from PG* variables."""
import io
import os
import unittest
from decimal import Decimal

import psycopg2
import psycopg2.errors
import psycopg2.extras

TANDEM = os.environ.get("CLIENTS_TARGET", "tandem") == "tandem"
T = "py2_items"


def connect(**kw):
    return psycopg2.connect(dbname=os.environ.get("PGDATABASE", "materialize"), **kw)


class Psycopg2Test(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        conn = connect()
        conn.autocommit = True
        with conn.cursor() as cur:
            cur.execute(f"DROP TABLE IF EXISTS {T}")
            cur.execute(f"CREATE TABLE {T} (id int PRIMARY KEY, name text NOT NULL,"
                        " price numeric(10,2), qty bigint, ok boolean, ratio float8)")
        conn.close()

    def setUp(self):
        self.conn = connect()
        with self.conn, self.conn.cursor() as cur:
            cur.execute(f"DELETE FROM {T}")

    def tearDown(self):
        self.conn.close()

    def insert(self, rows):
        with self.conn, self.conn.cursor() as cur:
            cur.executemany(f"INSERT INTO {T} VALUES (%s, %s, %s, %s, %s, %s)", rows)

    def test_parameterised_dml_and_select(self):
        self.insert([(1, "apple", Decimal("1.50"), 10, True, 0.5),
                     (2, "pear", None, 20, False, None),
                     (3, "it's", Decimal("-2.25"), 2**40, None, 1e-3)])
        with self.conn, self.conn.cursor() as cur:
            cur.execute(f"UPDATE {T} SET qty = qty + %(d)s WHERE id = %(id)s", {"d": 5, "id": 1})
            self.assertEqual(cur.rowcount, 1)
            cur.execute(f"DELETE FROM {T} WHERE name = %s", ("pear",))
            self.assertEqual(cur.rowcount, 1)
            cur.execute(f"SELECT id, name, price, qty, ok, ratio FROM {T} ORDER BY id")
            self.assertEqual(cur.fetchall(), [(1, "apple", Decimal("1.50"), 15, True, 0.5),
                                              (3, "it's", Decimal("-2.25"), 2**40, None, 1e-3)])
            self.assertEqual([d.name for d in cur.description],
                             ["id", "name", "price", "qty", "ok", "ratio"])
            self.assertEqual(cur.description[0].type_code, 23)
            cur.execute("SELECT %s::text, %s::int + 1, %s IS NULL", ("x", 41, None))
            self.assertEqual(cur.fetchone(), ("x", 42, True))

    def test_dict_cursor_and_returning(self):
        with self.conn, self.conn.cursor(cursor_factory=psycopg2.extras.RealDictCursor) as cur:
            cur.execute(f"INSERT INTO {T} (id, name) VALUES (%s, %s) RETURNING id, name", (7, "seven"))
            self.assertEqual(cur.fetchone(), {"id": 7, "name": "seven"})
        with self.conn, self.conn.cursor() as cur:
            psycopg2.extras.execute_values(cur, f"INSERT INTO {T} (id, name) VALUES %s",
                                           [(8, "a"), (9, "b")])
            cur.execute(f"SELECT count(*) FROM {T}")
            self.assertEqual(cur.fetchone()[0], 3)

    def test_prepared_statement(self):
        self.insert([(1, "a", None, 1, None, None), (2, "b", None, 2, None, None)])
        with self.conn, self.conn.cursor() as cur:
            cur.execute(f"PREPARE by_id (int) AS SELECT name FROM {T} WHERE id = $1")
            cur.execute("EXECUTE by_id (%s)", (2,))
            self.assertEqual(cur.fetchall(), [("b",)])
            cur.execute("EXECUTE by_id (%s)", (1,))
            self.assertEqual(cur.fetchall(), [("a",)])
            cur.execute("DEALLOCATE by_id")

    def test_commit_and_rollback(self):
        with self.conn:
            with self.conn.cursor() as cur:
                cur.execute(f"INSERT INTO {T} (id, name) VALUES (1, 'kept')")
        try:
            with self.conn:
                with self.conn.cursor() as cur:
                    cur.execute(f"INSERT INTO {T} (id, name) VALUES (2, 'lost')")
                    raise RuntimeError("abort")
        except RuntimeError:
            pass
        other = connect()
        with other, other.cursor() as cur:
            cur.execute(f"SELECT name FROM {T} ORDER BY id")
            self.assertEqual(cur.fetchall(), [("kept",)])
        other.close()

    def test_error_and_recovery(self):
        self.insert([(1, "a", None, None, None, None)])
        cur = self.conn.cursor()
        with self.assertRaises(psycopg2.errors.UniqueViolation) as e:
            cur.execute(f"INSERT INTO {T} (id, name) VALUES (1, 'dup')")
        self.assertEqual(e.exception.pgcode, "23505")
        with self.assertRaises(psycopg2.errors.InFailedSqlTransaction):
            cur.execute("SELECT 1")
        self.conn.rollback()
        with self.assertRaises(psycopg2.errors.UndefinedTable):
            cur.execute("SELECT * FROM py2_no_such_table")
        self.conn.rollback()
        with self.assertRaises(psycopg2.errors.DivisionByZero):
            cur.execute("SELECT 1 / %s", (0,))
        self.conn.rollback()
        cur.execute("SELECT 2")
        self.assertEqual(cur.fetchone(), (2,))
        self.conn.commit()

    def test_metadata(self):
        self.assertGreaterEqual(self.conn.server_version, 90000)
        self.assertEqual(self.conn.encoding, "UTF8")
        self.assertIn(self.conn.get_parameter_status("standard_conforming_strings"), ("on",))
        with self.conn, self.conn.cursor() as cur:
            cur.execute("SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                        " WHERE table_name = %s ORDER BY ordinal_position", (T,))
            self.assertEqual(cur.fetchall()[:3], [("id", "integer", "NO"), ("name", "text", "NO"),
                                                  ("price", "numeric", "YES")])
            # What psycopg2.extras.register_composite and friends run: a type by name.
            cur.execute("SELECT t.oid, typarray FROM pg_type t JOIN pg_namespace ns"
                        " ON typnamespace = ns.oid WHERE typname = %s AND nspname = 'pg_catalog'",
                        ("int4",))
            self.assertEqual(cur.fetchone(), (23, 1007))
            cur.execute("SELECT %s::regclass::oid = c.oid FROM pg_class c WHERE relname = %s", (T, T))
            self.assertEqual(cur.fetchone(), (True,))

    def test_copy(self):
        with self.conn, self.conn.cursor() as cur:
            cur.copy_expert(f"COPY {T} (id, name, price) FROM STDIN",
                            io.StringIO("1\tone\t1.00\n2\ttwo\t\\N\n"))
            cur.copy_expert(f"COPY {T} (id, name) FROM STDIN WITH (FORMAT csv, HEADER)",
                            io.StringIO('id,name\n3,"three, with comma"\n'))
            out = io.StringIO()
            cur.copy_expert(f"COPY (SELECT id, name, price FROM {T} ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)", out)
            self.assertEqual(out.getvalue(),
                             'id,name,price\n1,one,1.00\n2,two,\n3,"three, with comma",\n')
            out = io.StringIO()
            cur.copy_to(out, T, columns=("id", "name"))
            self.assertEqual(sorted(out.getvalue().splitlines()),
                             ["1\tone", "2\ttwo", "3\tthree, with comma"])

    @unittest.skipUnless(TANDEM, "SUBSCRIBE is tandem's")
    def test_subscribe_through_cursor(self):
        self.insert([(1, "a", None, None, None, None)])
        with self.conn, self.conn.cursor() as cur:
            cur.execute(f"DECLARE c CURSOR FOR SUBSCRIBE (SELECT id, name FROM {T})")
            cur.execute("FETCH 1 c WITH (timeout = '10s')")
            rows = cur.fetchall()
            self.assertEqual([(r[1], r[2], r[3]) for r in rows], [(1, 1, "a")])
            writer = connect()
            writer.autocommit = True
            writer.cursor().execute(f"INSERT INTO {T} (id, name) VALUES (2, 'b')")
            writer.close()
            cur.execute("FETCH 1 c WITH (timeout = '10s')")
            self.assertEqual([(r[1], r[2], r[3]) for r in cur.fetchall()], [(1, 2, "b")])
            self.assertGreater(rows[0][0], 0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
