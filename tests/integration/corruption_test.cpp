// Integration: a damaged data directory is reported, never read around.
// Each case damages a scratch data directory the way a disk or an operator
// might (a flipped SST block, a corrupt WAL record, a deleted WAL, a corrupt
// MANIFEST) and checks that tandemd refuses to start with a message naming
// the damage, or answers the read that reaches it with XX001, but never
// answers with fewer rows; and that `tandemd --verify` reports it.

#include <libpq-fe.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "tests/support/file_damage.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::testing::flip_bytes;
using tandem::testing::largest_file;
using tandem::testing::TandemdProcess;
namespace fs = std::filesystem;

namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/tandem-corruption-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

void exec_ok(PGconn* c, const std::string& sql) {
  PGresult* r = PQexec(c, sql.c_str());
  INFO(sql << ": " << PQresultErrorMessage(r));
  REQUIRE(PQresultStatus(r) == PGRES_COMMAND_OK);
  PQclear(r);
}

// `tandemd --verify dir`: its exit status and output.
std::pair<int, std::string> verify(const std::string& data_dir) {
  const std::string out_path = data_dir + ".verify";
  int status = std::system(("timeout 120 " + std::string(TANDEMD_PATH) + " --verify " + data_dir + " > " +
                            out_path + " 2>&1")
                               .c_str());
  std::ifstream in(out_path);
  std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// Starts tandemd on `data_dir`, expecting it to refuse; returns its log.
std::string refused_start(const std::string& data_dir, std::vector<std::string> args = {}) {
  try {
    TandemdProcess server(std::move(args), data_dir);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  FAIL("tandemd started on a damaged data directory");
  return "";
}

// Inserts rows 1..n into a new table t in `batches` statements, and lets the
// server die by SIGKILL (the writes only in the WAL) or stop cleanly.
void fill(const std::string& data, int n, int batches, bool kill) {
  TandemdProcess server({}, data);
  PGconn* c = PQconnectdb(server.conninfo().c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  exec_ok(c, "CREATE TABLE t (a int)");
  const int per = n / batches;
  for (int b = 0; b < batches; ++b) {
    exec_ok(c, "INSERT INTO t SELECT g FROM generate_series(" + std::to_string(b * per + 1) + ", " +
                   std::to_string((b + 1) * per) + ") g");
  }
  PQfinish(c);
  if (kill) ::kill(server.pid(), SIGKILL);
}

}  // namespace

TEST_CASE("a flipped SST block is an error at open or at read, never fewer rows") {
  const std::string dir = temp_dir();
  const std::string data = dir + "/data";
  {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    exec_ok(c, "CREATE TABLE t (a int, b text)");
    exec_ok(c, "CREATE TABLE gone (a int)");
    exec_ok(c, "INSERT INTO gone SELECT g FROM generate_series(1, 1000) g");
    for (int b = 0; b < 10; ++b) {
      exec_ok(c, "INSERT INTO t SELECT g, repeat('x', 40) FROM generate_series(" + std::to_string(b * 30000 + 1) +
                     ", " + std::to_string((b + 1) * 30000) + ") g");
    }
    exec_ok(c, "DELETE FROM t WHERE a % 1000 = 0");
    exec_ok(c, "DROP TABLE gone");
    PQfinish(c);
    REQUIRE(server.stop() == 0);  // a clean stop flushes every family to SSTs
  }
  REQUIRE(verify(data).first == 0);
  const std::string sst = largest_file(data, ".sst");
  flip_bytes(sst, fs::file_size(sst) / 2, 64);

  auto [status, out] = verify(data);
  CHECK(status == 1);
  CHECK(out.find("damaged") != std::string::npos);
  CHECK(out.find("Corruption") != std::string::npos);

  std::string failure;
  try {
    TandemdProcess server({}, data);
    PGconn* c = PQconnectdb(server.conninfo().c_str());
    REQUIRE(PQstatus(c) == CONNECTION_OK);
    PGresult* r = PQexec(c, "SELECT count(*) FROM t");
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
      FAIL("read " << PQgetvalue(r, 0, 0) << " rows of 299700 from a corrupt table");
    }
    const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    failure = std::string(state == nullptr ? "" : state) + " " + PQresultErrorMessage(r);
    CHECK(failure.rfind("XX001", 0) == 0);
    PQclear(r);
    PQfinish(c);
    // Logged as an error, with the shard and the key range.
    CHECK(server.log().find("error error XX001") != std::string::npos);
    CHECK(server.log().find("reading shard") != std::string::npos);
  } catch (const std::runtime_error& e) {
    failure = e.what();  // refused to start: the boot read the damage
  }
  INFO(failure);
  CHECK(failure.find("Corruption") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("a corrupt WAL record stops tandemd unless --recover-torn-wal drops the tail") {
  const std::string dir = temp_dir();
  const std::string data = dir + "/data";
  fill(data, 20000, 20, /*kill=*/true);
  const std::string wal = largest_file(data, ".log");
  flip_bytes(wal, 40000, 16);

  const std::string log = refused_start(data);
  CHECK(log.find(fs::path(wal).filename().string()) != std::string::npos);
  CHECK(log.find("--recover-torn-wal") != std::string::npos);
  auto [status, out] = verify(data);
  CHECK(status == 1);

  {
    TandemdProcess server({"--recover-torn-wal"}, data);
    CHECK(server.log().find("recovery: write-ahead log damaged") != std::string::npos);
    REQUIRE(server.stop() == 0);
  }
  CHECK(verify(data).first == 0);
  fs::remove_all(dir);
}

TEST_CASE("a deleted WAL after acknowledged writes stops tandemd") {
  const std::string dir = temp_dir();
  const std::string data = dir + "/data";
  fill(data, 2000, 4, /*kill=*/true);
  const std::string wal = largest_file(data, ".log");
  fs::remove(wal);
  const std::string log = refused_start(data);
  CHECK(log.find(fs::path(wal).filename().string()) != std::string::npos);
  CHECK(log.find("missing") != std::string::npos);
  CHECK(verify(data).first == 1);
  fs::remove_all(dir);
}

TEST_CASE("a corrupt MANIFEST stops tandemd and --verify reports it") {
  const std::string dir = temp_dir();
  const std::string data = dir + "/data";
  fill(data, 2000, 4, /*kill=*/false);
  CHECK(verify(data).first == 0);
  const std::string manifest = largest_file(data, "MANIFEST-");
  flip_bytes(manifest, fs::file_size(manifest) / 2, 16);
  const std::string log = refused_start(data);
  CHECK(log.find("Corruption") != std::string::npos);
  auto [status, out] = verify(data);
  CHECK(status == 1);
  CHECK(out.find("damaged") != std::string::npos);
  fs::remove_all(dir);
}
