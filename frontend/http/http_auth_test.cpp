// HTTP Basic parsing, authentication against a password file or trust, and
// the Origin check of the SQL APIs.
#include "frontend/http/http_auth.hpp"

#include <catch2/catch.hpp>

namespace tandem::frontend::http {
namespace {

TEST_CASE("same_origin accepts no Origin and this server and refuses others") {
  CHECK(same_origin("", "127.0.0.1:6876"));
  CHECK(same_origin("http://127.0.0.1:6876", "127.0.0.1:6876"));
  CHECK(same_origin("https://Console.Example:443", "console.example:443"));
  CHECK_FALSE(same_origin("http://evil.example", "127.0.0.1:6876"));
  CHECK_FALSE(same_origin("http://127.0.0.1:6877", "127.0.0.1:6876"));
  CHECK_FALSE(same_origin("http://127.0.0.1", "127.0.0.1:6876"));
  CHECK_FALSE(same_origin("http://127.0.0.1:6876.evil.example", "127.0.0.1:6876"));
  CHECK_FALSE(same_origin("null", "127.0.0.1:6876"));
  CHECK_FALSE(same_origin("ftp://127.0.0.1:6876", "127.0.0.1:6876"));
  CHECK_FALSE(same_origin("http://", ""));
  CHECK_FALSE(same_origin("http://127.0.0.1:6876", ""));
}

TEST_CASE("HTTP Basic credentials parse and trust mode takes any user") {
  auto parsed = parse_basic_authorization("Basic YWxpY2U6c2VjcmV0");  // alice:secret
  REQUIRE(parsed.ok());
  REQUIRE(*parsed);
  CHECK((*parsed)->user == "alice");
  CHECK((*parsed)->password == "secret");
  CHECK_FALSE(parse_basic_authorization("Bearer x").ok());
  auto none = parse_basic_authorization("");
  REQUIRE(none.ok());
  CHECK_FALSE(*none);
  CHECK(*authenticate(nullptr, std::nullopt) == kDefaultUser);
  CHECK(*authenticate(nullptr, *parsed) == "alice");
}

}  // namespace
}  // namespace tandem::frontend::http
