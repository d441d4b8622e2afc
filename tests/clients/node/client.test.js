// node-postgres (pg) against tandemd, or PostgreSQL with
// CLIENTS_TARGET=postgres: a Pool and Clients, $n parameters, named
// prepared statements ({name, text, values}), binary results ({binary:
// true}), BEGIN/COMMIT/ROLLBACK on one pooled client, COPY through
// pg-copy-streams, and DECLARE/FETCH of a SUBSCRIBE. Connection settings
// come from the PG* variables.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { pipeline } = require('node:stream/promises');
const { Readable } = require('node:stream');
const { Pool, Client } = require('pg');
const copy = require('pg-copy-streams');

const TANDEM = (process.env.CLIENTS_TARGET || 'tandem') === 'tandem';
const T = 'node_items';
const pool = new Pool({ max: 3 });

test.before(async () => {
  await pool.query(`DROP TABLE IF EXISTS ${T}`);
  await pool.query(`CREATE TABLE ${T} (id int PRIMARY KEY, name text NOT NULL, qty bigint, ok boolean, ratio float8, at timestamp)`);
});
test.beforeEach(async () => { await pool.query(`DELETE FROM ${T}`); });
test.after(async () => { await pool.end(); });

test('parameterised DML and SELECT in text and binary', async () => {

  await pool.query(`INSERT INTO ${T} VALUES ($1, $2, $3, $4, $5, $6), ($7, $8, $9, $10, $11, $12)`,
    [1, 'one', '9007199254740993', true, 0.25, '2024-01-02 03:04:05', 2, 'two', null, false, null, null]);
  const upd = await pool.query(`UPDATE ${T} SET name = $1 WHERE id = $2`, ['uno', 1]);
  assert.equal(upd.rowCount, 1);
  assert.equal(upd.command, 'UPDATE');
  const text = await pool.query(`SELECT id, name, qty, ok, ratio FROM ${T} WHERE id = ANY($1) ORDER BY id`, [[1, 2]]);
  assert.deepEqual(text.rows, [
    { id: 1, name: 'uno', qty: '9007199254740993', ok: true, ratio: 0.25 },
    { id: 2, name: 'two', qty: null, ok: false, ratio: null },
  ]);
  assert.deepEqual(text.fields.map((f) => [f.name, f.dataTypeID, f.format]),
    [['id', 23, 'text'], ['name', 25, 'text'], ['qty', 20, 'text'], ['ok', 16, 'text'], ['ratio', 701, 'text']]);
  const bin = await pool.query({ text: `SELECT id, ok, name FROM ${T} WHERE id = $1`, values: [1], binary: true });
  assert.equal(bin.fields[0].format, 'binary');
  assert.equal(bin.rows[0].id, 1);
  assert.equal(bin.rows[0].ok, true);
  assert.equal(bin.rows[0].name, 'uno');
  const ts = await pool.query(`SELECT at FROM ${T} WHERE id = 1`);
  assert.equal(ts.rows[0].at.getTime(), new Date(2024, 0, 2, 3, 4, 5).getTime());

});

test('named prepared statements', async () => {
  await pool.query(`INSERT INTO ${T} (id, name) VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
  const client = await pool.connect();
  try {
    for (const [id, name] of [[3, 'c'], [1, 'a'], [2, 'b']]) {
      const r = await client.query({ name: 'by_id', text: `SELECT name FROM ${T} WHERE id = $1`, values: [id] });
      assert.deepEqual(r.rows, [{ name }]);
    }
    const r = await client.query({ name: 'count_ge', text: `SELECT count(*)::int AS n FROM ${T} WHERE id >= $1`, values: [2], rowMode: 'array' });
    assert.deepEqual(r.rows, [[2]]);
  } finally {
    client.release();
  }
});

test('a transaction that commits and one that rolls back', async () => {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`INSERT INTO ${T} (id, name) VALUES ($1, $2)`, [1, 'kept']);
    await client.query('COMMIT');
    await client.query('BEGIN');
    await client.query(`INSERT INTO ${T} (id, name) VALUES ($1, $2)`, [2, 'lost']);
    const inside = await client.query(`SELECT count(*)::int AS n FROM ${T}`);
    assert.equal(inside.rows[0].n, 2);
    await client.query('ROLLBACK');
  } finally {
    client.release();
  }
  const r = await pool.query(`SELECT id, name FROM ${T} ORDER BY id`);
  assert.deepEqual(r.rows, [{ id: 1, name: 'kept' }]);
});

test('an error and recovery', async () => {
  await pool.query(`INSERT INTO ${T} (id, name) VALUES (1, 'a')`);
  await assert.rejects(pool.query(`INSERT INTO ${T} (id, name) VALUES ($1, $2)`, [1, 'dup']),
    (e) => e.code === '23505');
  await assert.rejects(pool.query('SELECT * FROM node_no_such_table'),
    (e) => e.code === '42P01' && Number(e.position) === 15);
  const client = new Client();
  await client.connect();
  try {
    await client.query('BEGIN');
    await assert.rejects(client.query('SELECT 1/0'), (e) => e.code === '22012');
    await assert.rejects(client.query('SELECT 1'), (e) => e.code === '25P02');
    await client.query('ROLLBACK');
    const r = await client.query('SELECT $1::text AS v', ['fine']);
    assert.deepEqual(r.rows, [{ v: 'fine' }]);
  } finally {
    await client.end();
  }
});

test('metadata: parameters, columns and type introspection', async () => {
  const client = new Client();
  await client.connect();
  try {
    assert.equal(client.connection.parameters?.client_encoding ?? 'UTF8', 'UTF8');
    const cols = await client.query(
      `SELECT a.attname, a.atttypid, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull
         FROM pg_attribute a JOIN pg_class c ON a.attrelid = c.oid
        WHERE c.relname = $1 AND a.attnum > 0 ORDER BY a.attnum`, [T]);
    assert.deepEqual(cols.rows.slice(0, 3), [
      { attname: 'id', atttypid: 23, type: 'integer', attnotnull: true },
      { attname: 'name', atttypid: 25, type: 'text', attnotnull: true },
      { attname: 'qty', atttypid: 20, type: 'bigint', attnotnull: false },
    ]);
    // What code that registers a type parser by name asks.
    const t = await client.query('SELECT oid, typname, typarray FROM pg_type WHERE typname = ANY($1) ORDER BY oid', [['bool', 'int8']]);
    assert.deepEqual(t.rows, [{ oid: 16, typname: 'bool', typarray: 1000 }, { oid: 20, typname: 'int8', typarray: 1016 }]);
    const pk = await client.query(
      `SELECT conname, contype FROM pg_constraint WHERE conrelid = $1::regclass`, [T]);
    assert.deepEqual(pk.rows, [{ conname: `${T}_pkey`, contype: 'p' }]);
  } finally {
    await client.end();
  }
});

test('COPY FROM STDIN and TO STDOUT', async () => {
  const client = await pool.connect();
  try {
    await pipeline(Readable.from(['1\tone\t10\n2\ttwo\t\\N\n']),
      client.query(copy.from(`COPY ${T} (id, name, qty) FROM STDIN`)));
    await pipeline(Readable.from(['id,name\n3,"th,ree"\n']),
      client.query(copy.from(`COPY ${T} (id, name) FROM STDIN WITH (FORMAT csv, HEADER)`)));
    const chunks = [];
    const out = client.query(copy.to(`COPY (SELECT id, name, qty FROM ${T} ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)`));
    for await (const chunk of out) chunks.push(chunk);
    assert.equal(Buffer.concat(chunks).toString(), 'id,name,qty\n1,one,10\n2,two,\n3,"th,ree",\n');
  } finally {
    client.release();
  }
});

test('SUBSCRIBE through DECLARE and FETCH', { skip: !TANDEM && 'SUBSCRIBE is tandem\'s' }, async () => {
  await pool.query(`INSERT INTO ${T} (id, name) VALUES (1, 'a')`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`DECLARE c CURSOR FOR SUBSCRIBE (SELECT id, name FROM ${T})`);
    const first = await client.query({ text: "FETCH 1 c WITH (timeout = '10s')", rowMode: 'array' });
    assert.deepEqual(first.rows.map((r) => r.slice(1)), [['1', 1, 'a']]);
    await pool.query(`UPDATE ${T} SET name = 'b' WHERE id = 1`);
    const second = await client.query({ text: "FETCH 2 c WITH (timeout = '10s')", rowMode: 'array' });
    assert.deepEqual(second.rows.map((r) => r.slice(1)).sort(), [['-1', 1, 'a'], ['1', 1, 'b']]);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
});
