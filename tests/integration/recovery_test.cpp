// Integration: crash recovery. Acknowledged writes survive SIGKILL exactly
// once; a damaged data directory is a clear startup error, never a crash or
// a silent re-initialisation.

#include <libpq-fe.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "tests/support/tandemd_process.hpp"

using tandem::testing::TandemdProcess;

namespace {

std::string temp_dir() {
  char tmpl[] = "/tmp/tandem-recovery-XXXXXX";
  REQUIRE(mkdtemp(tmpl) != nullptr);
  return tmpl;
}

// Runs tandemd on `data_dir` to completion and returns its exit status and output.
std::pair<int, std::string> run_to_exit(const std::string& data_dir) {
  std::string log = data_dir + ".log";
  std::string cmd = std::string(TANDEMD_PATH) + " --listen 127.0.0.1:" + std::to_string(tandem::testing::free_port()) +
                    " --data-dir " + data_dir + " > " + log + " 2>&1";
  int status = std::system(("timeout 20 " + cmd).c_str());
  std::ifstream in(log);
  std::string out((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace

TEST_CASE("acknowledged inserts survive SIGKILL exactly once") {
  std::string dir = temp_dir();
  std::string data = dir + "/data";
  std::mt19937 rng(std::random_device{}());
  std::set<int64_t> acked_all, attempted_all;
  for (int round = 0; round < 5; ++round) {
    TandemdProcess server({}, data);
    if (round == 0) {
      PGconn* c = PQconnectdb(server.conninfo().c_str());
      PQclear(PQexec(c, "CREATE TABLE r (id bigint, payload text)"));
      PQfinish(c);
    }
    std::mutex mu;
    std::atomic<bool> stop{false};
    std::vector<std::thread> writers;
    for (int w = 0; w < 4; ++w) {
      writers.emplace_back([&, w] {
        PGconn* c = PQconnectdb(server.conninfo().c_str());
        for (int64_t i = 0; !stop.load(); ++i) {
          int64_t id = (int64_t(round) << 40) | (int64_t(w) << 32) | i;
          std::string sql = "INSERT INTO r VALUES (" + std::to_string(id) + ", 'p')";
          {
            std::lock_guard lock(mu);
            attempted_all.insert(id);
          }
          PGresult* r = PQexec(c, sql.c_str());
          bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
          PQclear(r);
          if (!ok) break;
          std::lock_guard lock(mu);
          acked_all.insert(id);
        }
        PQfinish(c);
      });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100 + rng() % 400));
    kill(server.pid(), SIGKILL);
    stop = true;
    for (auto& t : writers) t.join();
  }
  TandemdProcess server({}, data);
  PGconn* c = PQconnectdb(server.conninfo().c_str());
  PGresult* r = PQexec(c, "SELECT id FROM r");
  REQUIRE(PQresultStatus(r) == PGRES_TUPLES_OK);
  std::multiset<int64_t> present;
  for (int i = 0; i < PQntuples(r); ++i) present.insert(std::stoll(PQgetvalue(r, i, 0)));
  PQclear(r);
  PQfinish(c);
  INFO("acknowledged " << acked_all.size() << ", present " << present.size());
  CHECK(acked_all.size() > 0);
  for (int64_t id : acked_all) CHECK(present.count(id) == 1);
  for (int64_t id : present) {
    CHECK(present.count(id) == 1);
    CHECK(attempted_all.count(id) == 1);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a damaged data directory is a clear startup error") {
  std::string dir = temp_dir();
  // Not a directory at all.
  std::string file = dir + "/plain-file";
  std::ofstream(file) << "not a database";
  auto [status, out] = run_to_exit(file);
  CHECK(status == 1);
  CHECK(out.find("could not") != std::string::npos);

  // A real data directory whose RocksDB metadata is garbage.
  std::string data = dir + "/data";
  { TandemdProcess first({}, data); }
  std::ofstream(data + "/CURRENT", std::ios::trunc) << "MANIFEST-999999\n";
  auto [status2, out2] = run_to_exit(data);
  CHECK(status2 == 1);
  CHECK(out2.find("could not open data directory") != std::string::npos);
  // Nothing was re-initialised behind the user's back.
  std::ifstream current(data + "/CURRENT");
  std::string line;
  std::getline(current, line);
  CHECK(line == "MANIFEST-999999");
  std::filesystem::remove_all(dir);
}
