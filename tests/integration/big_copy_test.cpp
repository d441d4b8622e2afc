// Integration: one COPY of several times the memory budget (scaled
// down). A COPY larger than a piece
// (StagedWrite::kPieceBytes) is staged in storage as it arrives and
// committed at one timestamp (frontend/coord/staged_write.hpp, "Staged
// appends" in storage/shard_store.hpp), and compute reads it back in
// bounded pieces. With an index on the table, the server's peak resident
// set (VmHWM) during the COPY and until the index answers for its last row
// stays within the idle server's RSS plus the budget plus the fixed
// overhead of spill_rss_test.cpp, and every row is there exactly once. A
// staged COPY that fails at its last line (a bad value, a duplicate key
// within it or against the table) or whose client disconnects midway
// writes nothing.
#include <libpq-fe.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "tests/support/pg_conn.hpp"
#include "tests/support/proc_memory.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::PgConn;
using tandem::testing::reset_peak;
using tandem::testing::status_kib;
using tandem::testing::TandemdProcess;

namespace {

constexpr long kBudget = 16L << 20;
constexpr long kLoadFactor = 3;
constexpr long kOverheadBytes = 160L << 20;  // as spill_rss_test.cpp states it
constexpr int kPad = 80;
constexpr long kRowBytes = kPad + 12;
constexpr long kRows = kLoadFactor * kBudget / kRowBytes;

std::string pad_of(long a) {
  std::string s(kPad, 'a');
  for (int i = 0; i < 8; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>('a' + (a >> (3 * i)) % 8);
  return s;
}

std::string scalar(PgConn& conn, const std::string& sql) { return query_scalar(conn, sql); }

// Sends rows [0, rows) of (a, pad) as one COPY, then `last` (a line, or
// nothing) and CopyDone; the command's result (error message or "").
std::string copy(PgConn& conn, const std::string& table, long rows, const std::string& last = "") {
  PGresult* r = PQexec(conn.c, ("COPY " + table + " FROM STDIN").c_str());
  REQUIRE(PQresultStatus(r) == PGRES_COPY_IN);
  PQclear(r);
  std::string buffer;
  for (long a = 0; a < rows; ++a) {
    buffer += std::to_string(a) + '\t' + pad_of(a) + '\n';
    if (buffer.size() > (1 << 20)) {
      REQUIRE(PQputCopyData(conn.c, buffer.data(), static_cast<int>(buffer.size())) == 1);
      buffer.clear();
    }
  }
  buffer += last;
  REQUIRE(PQputCopyData(conn.c, buffer.data(), static_cast<int>(buffer.size())) == 1);
  REQUIRE(PQputCopyEnd(conn.c, nullptr) == 1);
  r = PQgetResult(conn.c);
  std::string error = PQresultStatus(r) == PGRES_COMMAND_OK ? "" : PQresultErrorMessage(r);
  if (error.empty()) CHECK(std::string(PQcmdStatus(r)) == "COPY " + std::to_string(rows));
  PQclear(r);
  while ((r = PQgetResult(conn.c)) != nullptr) PQclear(r);
  return error;
}

}  // namespace

TEST_CASE("one COPY of several times the memory budget into an indexed table stays within it", "[spill]") {
  TandemdProcess server({"--memory-limit", std::to_string(kBudget >> 20) + "MB"});
  PgConn conn(server.conninfo());
  conn.exec_ok("CREATE TABLE t (a bigint, b text)");
  conn.exec_ok("CREATE INDEX t_a ON t (a)");
  CHECK(scalar(conn, "SELECT count(*) FROM t") == "0");
  const long idle_kib = status_kib(server.pid(), "VmRSS");
  REQUIRE(idle_kib > 0);
  reset_peak(server.pid());

  const auto start = std::chrono::steady_clock::now();
  CHECK(copy(conn, "t", kRows).empty());
  const double copy_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The index has the whole COPY once it answers for its last row.
  CHECK(scalar(conn, "SELECT b FROM t WHERE a = " + std::to_string(kRows - 1)) == pad_of(kRows - 1));
  const double indexed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const long peak_kib = status_kib(server.pid(), "VmHWM");
  const long bound_kib = idle_kib + (kBudget + kOverheadBytes) / 1024;
  std::printf("big_copy: one COPY of %ld rows (%ld MB as text), budget %ld MB: idle RSS %ld MB, COPY %.1f s, "
              "indexed %.1f s, peak %ld MB (bound %ld MB)\n",
              kRows, kRows * kRowBytes >> 20, kBudget >> 20, idle_kib >> 10, copy_s, indexed_s, peak_kib >> 10,
              bound_kib >> 10);
  CHECK(peak_kib <= bound_kib);

  // Every row exactly once, through the index and in the table.
  for (const long a : {0L, 1L, kRows / 2}) {
    CHECK(scalar(conn, "SELECT count(*), min(b) FROM t WHERE a = " + std::to_string(a)) == "1|" + pad_of(a));
  }
  CHECK(scalar(conn, "SELECT count(*), sum(a), count(DISTINCT a) FROM t") ==
        std::to_string(kRows) + "|" + std::to_string(kRows * (kRows - 1) / 2) + "|" + std::to_string(kRows));
}

TEST_CASE("a staged COPY that fails at its last line, or whose client leaves, writes nothing") {
  TandemdProcess server;
  PgConn conn(server.conninfo());
  conn.exec_ok("CREATE TABLE k (a bigint PRIMARY KEY, b text NOT NULL)");
  conn.exec_ok("CREATE INDEX k_b ON k (b)");
  // Enough rows for several staged pieces.
  const long rows = 3 * (4L << 20) / kRowBytes;
  const std::string n = std::to_string(rows);

  std::string bad = copy(conn, "k", rows, "x\t" + pad_of(0) + "\n");
  CHECK(bad.find("invalid input syntax") != std::string::npos);
  CHECK(bad.find("line " + std::to_string(rows + 1)) != std::string::npos);
  CHECK(scalar(conn, "SELECT count(*) FROM k") == "0");

  std::string null = copy(conn, "k", rows, n + "\t\\N\n");
  CHECK(null.find("violates not-null constraint") != std::string::npos);
  CHECK(scalar(conn, "SELECT count(*) FROM k") == "0");

  std::string twice = copy(conn, "k", rows, "0\tagain\n");
  CHECK(twice.find("duplicate key value violates unique constraint \"k_pkey\"") != std::string::npos);
  CHECK(twice.find("line " + std::to_string(rows + 1)) != std::string::npos);
  CHECK(scalar(conn, "SELECT count(*) FROM k") == "0");

  // A key committed by another writer meanwhile: checked at the commit.
  conn.exec_ok("INSERT INTO k VALUES (" + std::to_string(rows / 2) + ", 'first')");
  std::string taken = copy(conn, "k", rows);
  CHECK(taken.find("duplicate key value violates unique constraint \"k_pkey\"") != std::string::npos);
  CHECK(scalar(conn, "SELECT count(*), min(b) FROM k") == "1|first");

  {
    // The client goes away mid-COPY.
    PgConn leaving(server.conninfo());
    PGresult* r = PQexec(leaving.c, "COPY k FROM STDIN");
    REQUIRE(PQresultStatus(r) == PGRES_COPY_IN);
    PQclear(r);
    std::string buffer;
    for (long a = rows; a < 2 * rows; ++a) buffer += std::to_string(a) + '\t' + pad_of(a) + '\n';
    REQUIRE(PQputCopyData(leaving.c, buffer.data(), static_cast<int>(buffer.size())) == 1);
    REQUIRE(PQflush(leaving.c) == 0);
  }
  CHECK(scalar(conn, "SELECT count(*) FROM k") == "1");

  // The same COPY without the conflict commits every row once.
  conn.exec_ok("DELETE FROM k");
  CHECK(copy(conn, "k", rows).empty());
  CHECK(scalar(conn, "SELECT count(*), count(DISTINCT a), max(a) FROM k") ==
        n + "|" + n + "|" + std::to_string(rows - 1));
  CHECK(scalar(conn, "SELECT a FROM k WHERE b = '" + pad_of(rows - 1) + "'") == std::to_string(rows - 1));
}
