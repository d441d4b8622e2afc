#include "frontend/session/session_vars.hpp"

#include <catch2/catch.hpp>

using tandem::frontend::SessionVars;

TEST_CASE("session variables have PostgreSQL defaults and canonical names") {
  SessionVars v;
  CHECK(*v.get("application_name") == "");
  CHECK(*v.get("DATESTYLE") == "ISO, MDY");
  CHECK(*v.get("timezone") == "UTC");
  CHECK(*v.get("cluster") == "quickstart");
  CHECK(*v.get("transaction_isolation") == "strict serializable");
  CHECK(*v.get("server_version") == "15.0 (tandem 0.1)");
  auto missing = v.get("nope");
  REQUIRE(!missing.ok());
  CHECK(missing.status().sqlstate() == "42704");
}

TEST_CASE("SET validates and normalizes values") {
  SessionVars v;
  CHECK(*v.set("application_name", "app") == true);  // reported to the client
  CHECK(*v.get("application_name") == "app");
  CHECK(*v.set("statement_timeout", "2s") == false);
  CHECK(v.statement_timeout_ms() == 2000);
  CHECK(*v.get("statement_timeout") == "2s");
  CHECK(*v.set("statement_timeout", "250") == false);
  CHECK(*v.get("statement_timeout") == "250ms");
  CHECK(v.set("statement_timeout", "soon").status().sqlstate() == "22023");
  CHECK(v.set("extra_float_digits", "9").status().sqlstate() == "22023");
  CHECK(*v.set("extra_float_digits", "-3") == false);
  CHECK(v.extra_float_digits() == -3);
  CHECK(*v.set("client_encoding", "utf-8"));
  CHECK(*v.get("client_encoding") == "UTF8");
  CHECK(v.set("client_encoding", "LATIN1").status().sqlstate() == "0A000");
  CHECK(v.set("TimeZone", "America/New_York").status().sqlstate() == "22023");
  CHECK(*v.set("transaction_isolation", "READ COMMITTED") == false);
  CHECK(*v.get("transaction_isolation") == "serializable");
  CHECK(v.set("server_version", "1").status().sqlstate() == "55P02");
}

TEST_CASE("RESET returns to the startup value") {
  SessionVars v;
  REQUIRE(v.set_startup("application_name", "from-startup").is_ok());
  REQUIRE(v.set("application_name", "changed").ok());
  REQUIRE(v.reset("application_name").ok());
  CHECK(*v.get("application_name") == "from-startup");
  auto all = v.all();
  CHECK(all.size() > 10);
  CHECK(std::is_sorted(all.begin(), all.end(), [](const auto& a, const auto& b) {
    std::string x = std::get<0>(a), y = std::get<0>(b);
    for (auto& c : x) c = static_cast<char>(std::tolower(c));
    for (auto& c : y) c = static_cast<char>(std::tolower(c));
    return x < y;
  }));
}
