#include "frontend/pgwire/startup_options.hpp"

#include <catch2/catch.hpp>

using tandem::pgwire::parse_startup_options;
using Settings = std::vector<std::pair<std::string, std::string>>;

TEST_CASE("startup options: -c, -cname=value and --name=value", "[pgwire]") {
  auto s = parse_startup_options("-c search_path=a,b  -cstatement_timeout=5s --cluster=c --application-name=x");
  REQUIRE(s.ok());
  CHECK(*s == Settings{{"search_path", "a,b"}, {"statement_timeout", "5s"}, {"cluster", "c"},
                       {"application_name", "x"}});
  CHECK(parse_startup_options("").value().empty());
  CHECK(parse_startup_options("   ").value().empty());
}

TEST_CASE("startup options: a backslash keeps a space in a value", "[pgwire]") {
  auto s = parse_startup_options(R"(-c application_name=my\ app -c x=back\\slash)");
  REQUIRE(s.ok());
  CHECK(*s == Settings{{"application_name", "my app"}, {"x", "back\\slash"}});
}

TEST_CASE("startup options: other switches are 42601", "[pgwire]") {
  for (const char* bad : {"-x", "-c", "-c noequals", "--flag", "plain", "-c =v"}) {
    auto s = parse_startup_options(bad);
    REQUIRE_FALSE(s.ok());
    CHECK(s.status().sqlstate() == std::string("42601"));
    CHECK(s.status().message().starts_with("invalid command-line argument for server process: "));
  }
}
