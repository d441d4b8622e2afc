// Integration: transactions are atomic. Concurrent readers never see part of
// a transaction (an invariant sum holds at every read while writers move
// value between rows and tables in transactions); a disconnect discards
// the writes; a SIGKILL between the writes and COMMIT leaves none of them,
// and an acknowledged COMMIT survives it.

#include <libpq-fe.h>
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/tandemd_process.hpp"

using tandem::testing::TandemdProcess;

namespace {

PGconn* connect(const TandemdProcess& server) {
  PGconn* c = PQconnectdb(server.conninfo().c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  return c;
}

void exec_ok(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  REQUIRE((PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK));
  PQclear(r);
}

// The single value of a one-row, one-column query.
std::string value_of(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  REQUIRE(PQntuples(r) == 1);
  std::string v = PQgetisnull(r, 0, 0) ? "NULL" : PQgetvalue(r, 0, 0);
  PQclear(r);
  return v;
}

// value_of for threads other than the test's (Catch2's assertions are not
// thread-safe): the error text instead of a value on failure.
std::string value_or_error(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  std::string v;
  if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
    v = std::string("error: ") + PQresultErrorMessage(r);
  } else {
    v = PQgetisnull(r, 0, 0) ? "NULL" : PQgetvalue(r, 0, 0);
  }
  PQclear(r);
  return v;
}

// Runs the statements as one transaction; false if any failed (the
// transaction is then rolled back). `sqlstate` gets the failure's code.
bool run_transaction(PGconn* c, const std::vector<std::string>& statements, std::string* sqlstate) {
  auto run = [&](const std::string& sql) {
    PGresult* r = PQexec(c, sql.c_str());
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok) {
      const char* code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
      *sqlstate = code ? code : "";
    }
    PQclear(r);
    return ok;
  };
  if (!run("BEGIN")) return false;
  for (const auto& s : statements) {
    if (!run(s)) {
      PQclear(PQexec(c, "ROLLBACK"));
      return false;
    }
  }
  return run("COMMIT");
}

std::string temp_dir() {
  char tmpl[] = "/tmp/tandem-txn-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

}  // namespace

TEST_CASE("concurrent readers never see part of a transaction") {
  TandemdProcess server;
  PGconn* setup = connect(server);
  constexpr int kRows = 4;
  exec_ok(setup, "CREATE TABLE acct (id int PRIMARY KEY, bal bigint NOT NULL)");
  exec_ok(setup, "CREATE TABLE a (v bigint)");
  exec_ok(setup, "CREATE TABLE b (v bigint)");
  exec_ok(setup, "CREATE TABLE ledger (k bigint, v bigint)");
  exec_ok(setup, "CREATE DEFAULT INDEX ON acct");
  exec_ok(setup, "INSERT INTO acct VALUES (1, 100), (2, 100), (3, 100), (4, 100)");
  exec_ok(setup, "INSERT INTO a VALUES (1000)");
  PQfinish(setup);

  std::atomic<bool> stop{false};
  std::atomic<int> commits{0}, conflicts{0}, reads{0}, violations{0}, errors{0};
  std::vector<std::thread> threads;
  // Two writers move value between rows of acct (UPDATE, UPDATE) and from a
  // to b (DELETE the whole row and INSERT it back smaller, INSERT into b);
  // a third inserts pairs of ledger rows that cancel out.
  for (int w = 0; w < 2; ++w) {
    threads.emplace_back([&, w] {
      PGconn* c = connect(server);
      std::mt19937 rng(w + 1);
      for (int i = 0; !stop.load(); ++i) {
        int from = 1 + static_cast<int>(rng() % kRows);
        int to = 1 + static_cast<int>(rng() % kRows);
        int amount = 1 + static_cast<int>(rng() % 10);
        std::string code;
        std::vector<std::string> statements;
        if (i % 2 == 0) {
          statements = {"UPDATE acct SET bal = bal - " + std::to_string(amount) + " WHERE id = " + std::to_string(from),
                        "UPDATE acct SET bal = bal + " + std::to_string(amount) + " WHERE id = " + std::to_string(to)};
        } else {
          statements = {"UPDATE a SET v = v - " + std::to_string(amount),
                        "INSERT INTO b VALUES (" + std::to_string(amount) + ")"};
        }
        if (run_transaction(c, statements, &code)) {
          ++commits;
        } else if (code == "40001") {
          ++conflicts;  // a conflict with the other writer
        } else {
          ++errors;
        }
      }
      PQfinish(c);
    });
  }
  threads.emplace_back([&] {
    PGconn* c = connect(server);
    for (int64_t k = 0; !stop.load(); ++k) {
      std::string code;
      std::string ks = std::to_string(k);
      if (!run_transaction(c, {"INSERT INTO ledger VALUES (" + ks + ", 5)", "INSERT INTO ledger VALUES (" + ks + ", -5)"},
                           &code)) {
        ++errors;
      }
      // One Query message is one implicit transaction too.
      PGresult* r = PQexec(c, ("INSERT INTO ledger VALUES (-" + ks + ", 7); INSERT INTO ledger VALUES (-" + ks +
                               ", -7)").c_str());
      if (PQresultStatus(r) != PGRES_COMMAND_OK) ++errors;
      PQclear(r);
    }
    PQfinish(c);
  });
  for (int reader = 0; reader < 2; ++reader) {
    threads.emplace_back([&] {
      PGconn* c = connect(server);
      while (!stop.load()) {
        if (value_or_error(c, "SELECT sum(bal) FROM acct") != "400") ++violations;
        if (value_or_error(c, "SELECT (SELECT sum(v) FROM a) + (SELECT coalesce(sum(v), 0) FROM b)") != "1000") {
          ++violations;
        }
        if (value_or_error(c, "SELECT coalesce(sum(v), 0) FROM ledger") != "0") ++violations;
        if (value_or_error(c, "SELECT count(*) % 2 FROM ledger") != "0") ++violations;
        ++reads;
      }
      PQfinish(c);
    });
  }
  std::this_thread::sleep_for(std::chrono::seconds(4));
  stop = true;
  for (auto& t : threads) t.join();
  INFO("commits " << commits << ", conflicts " << conflicts << ", reads " << reads << ", errors " << errors);
  CHECK(commits > 10);
  CHECK(reads > 10);
  CHECK(violations == 0);
  CHECK(errors == 0);
  PGconn* c = connect(server);
  CHECK(value_of(c, "SELECT sum(bal) FROM acct") == "400");
  CHECK(value_of(c, "SELECT (SELECT sum(v) FROM a) + (SELECT coalesce(sum(v), 0) FROM b)") == "1000");
  CHECK(value_of(c, "SELECT count(*) FROM a") == "1");
  PQfinish(c);
}

TEST_CASE("a disconnect discards the transaction's writes") {
  TandemdProcess server;
  PGconn* c = connect(server);
  exec_ok(c, "CREATE TABLE t (a int)");
  PGconn* writer = connect(server);
  exec_ok(writer, "BEGIN");
  exec_ok(writer, "INSERT INTO t VALUES (1), (2)");
  CHECK(value_of(writer, "SELECT count(*) FROM t") == "2");
  CHECK(value_of(c, "SELECT count(*) FROM t") == "0");
  PQfinish(writer);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(value_of(c, "SELECT count(*) FROM t") == "0");
  PQfinish(c);
}

TEST_CASE("SIGKILL before COMMIT leaves none of the transaction's writes") {
  std::string dir = temp_dir();
  std::string data = dir + "/data";
  {
    TandemdProcess server({}, data);
    PGconn* c = connect(server);
    exec_ok(c, "CREATE TABLE t (id int PRIMARY KEY, v int)");
    exec_ok(c, "INSERT INTO t VALUES (1, 1), (2, 2)");
    // Committed and acknowledged: survives.
    exec_ok(c, "BEGIN");
    exec_ok(c, "INSERT INTO t VALUES (3, 3)");
    exec_ok(c, "UPDATE t SET v = 10 WHERE id = 1");
    exec_ok(c, "COMMIT");
    // Not committed: lost.
    exec_ok(c, "BEGIN");
    for (int i = 100; i < 200; ++i) exec_ok(c, "INSERT INTO t VALUES (" + std::to_string(i) + ", 0)");
    exec_ok(c, "UPDATE t SET v = 99");
    exec_ok(c, "DELETE FROM t WHERE id = 2");
    CHECK(value_of(c, "SELECT count(*) FROM t") == "102");
    kill(server.pid(), SIGKILL);
    PQfinish(c);
  }
  {
    TandemdProcess server({}, data);
    PGconn* c = connect(server);
    CHECK(value_of(c, "SELECT count(*) FROM t") == "3");
    CHECK(value_of(c, "SELECT sum(v) FROM t") == "15");
    CHECK(value_of(c, "SELECT v FROM t WHERE id = 1") == "10");
    PQfinish(c);
  }
  std::filesystem::remove_all(dir);
}

namespace {

// Sends `statements` in pipeline mode (Parse/Bind/Describe/Execute each,
// then one Sync) and reads every result; the count of statements that
// succeeded.
int run_pipeline(PGconn* c, const std::vector<std::string>& statements) {
  REQUIRE(PQenterPipelineMode(c) == 1);
  for (const auto& sql : statements) {
    REQUIRE(PQsendQueryParams(c, sql.c_str(), 0, nullptr, nullptr, nullptr, nullptr, 0) == 1);
  }
  REQUIRE(PQpipelineSync(c) == 1);
  int ok = 0;
  for (;;) {
    PGresult* r = PQgetResult(c);
    if (r == nullptr) continue;  // the end of one statement's results
    ExecStatusType status = PQresultStatus(r);
    PQclear(r);
    if (status == PGRES_PIPELINE_SYNC) break;
    if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) ++ok;
  }
  REQUIRE(PQexitPipelineMode(c) == 1);
  return ok;
}

}  // namespace

TEST_CASE("the Executes up to a Sync form one implicit transaction") {
  TandemdProcess server;
  PGconn* c = connect(server);
  exec_ok(c, "CREATE TABLE p (a int PRIMARY KEY)");
  // The third statement fails: the first two are discarded with it.
  CHECK(run_pipeline(c, {"INSERT INTO p VALUES (1)", "INSERT INTO p VALUES (2)", "SELECT 1/0",
                         "INSERT INTO p VALUES (3)"}) == 2);
  CHECK(value_of(c, "SELECT count(*) FROM p") == "0");
  // All succeed: committed together, and visible to a read in the pipeline.
  CHECK(run_pipeline(c, {"INSERT INTO p VALUES (1)", "INSERT INTO p VALUES (2)", "SELECT count(*) FROM p"}) == 3);
  CHECK(value_of(c, "SELECT count(*) FROM p") == "2");
  // A duplicate key fails the transaction.
  CHECK(run_pipeline(c, {"INSERT INTO p VALUES (3)", "INSERT INTO p VALUES (1)"}) == 1);
  CHECK(value_of(c, "SELECT count(*) FROM p") == "2");
  // One statement per Sync commits on its own, as before.
  PGresult* r = PQexecParams(c, "INSERT INTO p VALUES ($1::int)", 1, nullptr, std::vector<const char*>{"4"}.data(),
                             nullptr, nullptr, 0);
  CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
  PQclear(r);
  CHECK(value_of(c, "SELECT count(*) FROM p") == "3");
  PQfinish(c);
}

namespace {

// COPY t FROM STDIN with `data`; true if it succeeded.
bool copy_in(PGconn* c, const std::string& table, const std::string& data) {
  PGresult* r = PQexec(c, ("COPY " + table + " FROM STDIN").c_str());
  REQUIRE(PQresultStatus(r) == PGRES_COPY_IN);
  PQclear(r);
  REQUIRE(PQputCopyData(c, data.data(), static_cast<int>(data.size())) == 1);
  REQUIRE(PQputCopyEnd(c, nullptr) == 1);
  r = PQgetResult(c);
  bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  PQclear(r);
  while ((r = PQgetResult(c)) != nullptr) PQclear(r);
  return ok;
}

}  // namespace

TEST_CASE("COPY FROM inside a transaction commits with it") {
  TandemdProcess server;
  PGconn* c = connect(server);
  PGconn* other = connect(server);
  exec_ok(c, "CREATE TABLE cp (a int PRIMARY KEY, b text)");
  exec_ok(c, "BEGIN");
  CHECK(copy_in(c, "cp", "1\tone\n2\ttwo\n"));
  CHECK(value_of(c, "SELECT count(*) FROM cp") == "2");
  CHECK(value_of(other, "SELECT count(*) FROM cp") == "0");
  exec_ok(c, "ROLLBACK");
  CHECK(value_of(c, "SELECT count(*) FROM cp") == "0");
  exec_ok(c, "BEGIN");
  CHECK(copy_in(c, "cp", "1\tone\n2\ttwo\n"));
  exec_ok(c, "UPDATE cp SET b = 'uno' WHERE a = 1");
  CHECK(value_of(other, "SELECT count(*) FROM cp") == "0");
  exec_ok(c, "COMMIT");
  CHECK(value_of(other, "SELECT b FROM cp WHERE a = 1") == "uno");
  CHECK(value_of(other, "SELECT count(*) FROM cp") == "2");
  // A key the transaction already wrote: the COPY fails, and the block.
  exec_ok(c, "BEGIN");
  CHECK(copy_in(c, "cp", "3\tthree\n"));
  CHECK_FALSE(copy_in(c, "cp", "3\tagain\n"));
  PGresult* r = PQexec(c, "COMMIT");
  CHECK(std::string(PQcmdStatus(r)) == "ROLLBACK");
  PQclear(r);
  CHECK(value_of(other, "SELECT count(*) FROM cp") == "2");
  PQfinish(other);
  PQfinish(c);
}

TEST_CASE("SQL prepared statements share the protocol's namespace") {
  TandemdProcess server;
  PGconn* c = connect(server);
  exec_ok(c, "CREATE TABLE ps (a int, b text)");
  exec_ok(c, "INSERT INTO ps VALUES (1, 'one'), (2, 'two')");
  // PREPARE in SQL, Bind/Execute through the protocol.
  exec_ok(c, "PREPARE byid (int) AS SELECT b FROM ps WHERE a = $1");
  const char* two[] = {"2"};
  PGresult* r = PQexecPrepared(c, "byid", 1, two, nullptr, nullptr, 0);
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  CHECK(std::string(PQgetvalue(r, 0, 0)) == "two");
  PQclear(r);
  // EXECUTE through the protocol: described with the statement's columns.
  r = PQprepare(c, "ex", "EXECUTE byid (1)", 0, nullptr);
  REQUIRE(PQresultStatus(r) == PGRES_COMMAND_OK);
  PQclear(r);
  r = PQdescribePrepared(c, "ex");
  REQUIRE(PQresultStatus(r) == PGRES_COMMAND_OK);
  CHECK(PQnfields(r) == 1);
  CHECK(std::string(PQfname(r, 0)) == "b");
  PQclear(r);
  r = PQexecPrepared(c, "ex", 0, nullptr, nullptr, nullptr, 0);
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  CHECK(std::string(PQgetvalue(r, 0, 0)) == "one");
  PQclear(r);
  // Parse in the protocol, DEALLOCATE in SQL (as psycopg does).
  r = PQprepare(c, "proto", "SELECT count(*) FROM ps", 0, nullptr);
  REQUIRE(PQresultStatus(r) == PGRES_COMMAND_OK);
  PQclear(r);
  exec_ok(c, "DEALLOCATE proto");
  r = PQexecPrepared(c, "proto", 0, nullptr, nullptr, nullptr, 0);
  CHECK(std::string(PQresultErrorField(r, PG_DIAG_SQLSTATE)) == "26000");
  PQclear(r);
  exec_ok(c, "DEALLOCATE ALL");
  r = PQexecPrepared(c, "byid", 1, two, nullptr, nullptr, 0);
  CHECK(std::string(PQresultErrorField(r, PG_DIAG_SQLSTATE)) == "26000");
  PQclear(r);
  PQfinish(c);
}
