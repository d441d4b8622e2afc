// LoadDriver against a real tandemd: every scheduled arrival is issued once,
// failures are counted (never dropped), cleanup statements still run, and
// closed-loop streams keep their connections busy.
#include <catch2/catch.hpp>

#include <algorithm>

#include "bench/tandem_bench/load_driver.hpp"
#include "tests/support/tandemd_process.hpp"

using namespace tandem::bench;
using namespace std::chrono_literals;

TEST_CASE("open loop issues every arrival once and counts failures", "[bench][driver]") {
  tandem::testing::TandemdProcess server({"--log-level", "warn"});
  StreamSpec ok;
  ok.name = "ok";
  ok.connections = 2;
  ok.iteration = [](uint64_t i) { return Iteration{{"SELECT $1::int", {std::to_string(i)}}}; };
  ok.schedule = Schedule::fixed_rate(200);
  ok.observe = [](const PGresult* r) -> std::optional<double> { return std::stod(PQgetvalue(r, 0, 0)); };
  ok.timeline = true;
  StreamSpec bad;
  bad.name = "bad";
  bad.iteration = [](uint64_t) {
    return Iteration{{"SELECT * FROM no_such_table", {}}, {"SELECT 2", {}}, {"CREATE TABLE IF NOT EXISTS cleanup (a int)", {}, false, true}};
  };
  bad.schedule = Schedule::fixed_rate(40);
  StreamSpec closed;
  closed.name = "closed";
  closed.iteration = [](uint64_t) { return Iteration{{"SELECT 1", {}}}; };

  LoadDriver driver(server.conninfo());
  auto out = driver.run({ok, bad, closed}, 500ms, 10s);

  REQUIRE(out.size() == 3);
  CHECK(out[0].errors == 0);
  CHECK(out[0].latency_us.size() == 100);
  CHECK(out[0].queue_us.size() == 100);
  CHECK(out[0].timeline.size() == 100);
  auto seen = out[0].observed;
  std::sort(seen.begin(), seen.end());
  std::vector<double> expected(100);
  for (int i = 0; i < 100; ++i) expected[i] = i;
  CHECK(seen == expected);  // arrival i ran iteration i, once

  CHECK(out[1].errors == 20);
  CHECK(out[1].latency_us.empty());
  CHECK(out[1].first_error.find("no_such_table") != std::string::npos);
  CHECK(out[1].queue_us.size() == 20);

  CHECK(out[2].errors == 0);
  CHECK(!out[2].latency_us.empty());
  CHECK(out[2].queue_us.empty());  // closed loop: no schedule, no queue

  // The always-run cleanup ran although the statement before it failed.
  PGconn* conn = PQconnectdb(server.conninfo().c_str());
  PGresult* r = PQexec(conn, "SELECT count(*) FROM cleanup");
  CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
  PQclear(r);
  PQfinish(conn);
}

TEST_CASE("connections that cannot be set up throw before anything is timed", "[bench][driver]") {
  tandem::testing::TandemdProcess server({"--log-level", "warn"});
  StreamSpec s;
  s.name = "s";
  s.session_setup = {"SET no_such_parameter = 1"};
  s.iteration = [](uint64_t) { return Iteration{{"SELECT 1", {}}}; };
  LoadDriver driver(server.conninfo());
  CHECK_THROWS_WITH(driver.run({s}, 100ms, 1s), Catch::Contains("no_such_parameter"));
}
