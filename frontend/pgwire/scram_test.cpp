// SCRAM-SHA-256 tests: the RFC 7677 test vector on both sides, full
// client<->server exchanges, and rejection of malformed or forged messages.

#include <catch2/catch.hpp>

#include <string>

#include "frontend/pgwire/scram.hpp"
#include "frontend/pgwire/scram_client.hpp"

using namespace tandem;
using namespace tandem::pgwire;

namespace {

// RFC 7677 section 3.
constexpr std::string_view kClientNonce = "rOprNGfwEbeRWgbNEkqO";
constexpr std::string_view kServerNonce = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
constexpr std::string_view kSalt = "W22ZaJ0SNY7soEsUEjb6gQ==";
constexpr std::string_view kClientFirst = "n,,n=user,r=rOprNGfwEbeRWgbNEkqO";
constexpr std::string_view kServerFirst =
    "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
constexpr std::string_view kClientFinal =
    "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
constexpr std::string_view kServerFinal = "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=";

ScramServer rfc_server(std::string password = "pencil") {
  return ScramServer("user", std::move(password), std::string(kServerNonce), *scram::base64_decode(kSalt));
}

// Runs a whole exchange; returns the first error, or OK.
Status exchange(ScramClient& client, ScramServer& server) {
  TANDEM_ASSIGN_OR_RETURN(std::string first, client.client_first());
  TANDEM_ASSIGN_OR_RETURN(std::string server_first, server.handle_client_first(first));
  TANDEM_ASSIGN_OR_RETURN(std::string final_msg, client.handle_server_first(server_first));
  TANDEM_ASSIGN_OR_RETURN(std::string server_final, server.handle_client_final(final_msg));
  return client.handle_server_final(server_final);
}

}  // namespace

TEST_CASE("base64 is strict and round trips", "[pgwire][scram]") {
  for (std::string raw : {"", "a", "ab", "abc", "abcd", "\xff\x00\x10"}) {
    CHECK(scram::base64_decode(scram::base64_encode(raw)) == raw);
  }
  CHECK(scram::base64_encode("n,,") == "biws");
  CHECK_FALSE(scram::base64_decode("abc").has_value());
  CHECK_FALSE(scram::base64_decode("ab=c").has_value());
  CHECK_FALSE(scram::base64_decode("a===").has_value());
  CHECK_FALSE(scram::base64_decode(" abc").has_value());
  CHECK(scram::base64_decode(kSalt)->size() == 16);
}

TEST_CASE("RFC 7677 test vector, server side", "[pgwire][scram]") {
  ScramServer server = rfc_server();
  auto first = server.handle_client_first(kClientFirst);
  REQUIRE(first.ok());
  CHECK(*first == kServerFirst);
  auto final_msg = server.handle_client_final(kClientFinal);
  INFO((final_msg.ok() ? std::string() : final_msg.status().to_string()));
  REQUIRE(final_msg.ok());
  CHECK(*final_msg == kServerFinal);
  CHECK(server.authenticated());
}

TEST_CASE("RFC 7677 test vector, client side", "[pgwire][scram]") {
  ScramClient client("user", "pencil", std::string(kClientNonce));
  auto first = client.client_first();
  REQUIRE(first.ok());
  CHECK(*first == kClientFirst);
  auto final_msg = client.handle_server_first(kServerFirst);
  REQUIRE(final_msg.ok());
  CHECK(*final_msg == kClientFinal);
  CHECK(client.handle_server_final(kServerFinal).is_ok());
}

TEST_CASE("the RFC 7677 proof is rejected for another password", "[pgwire][scram]") {
  ScramServer server = rfc_server("pencil2");
  REQUIRE(server.handle_client_first(kClientFirst).ok());
  auto r = server.handle_client_final(kClientFinal);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().sqlstate() == sqlstate::kInvalidPassword);
  CHECK(r.status().message() == "password authentication failed for user \"user\"");
  CHECK_FALSE(server.authenticated());
}

TEST_CASE("full exchange between ScramClient and ScramServer", "[pgwire][scram]") {
  SECTION("right password") {
    ScramClient client("alice", "correct horse");
    ScramServer server("alice", "correct horse");
    CHECK(exchange(client, server).is_ok());
    CHECK(server.authenticated());
  }
  SECTION("wrong password") {
    ScramClient client("alice", "wrong");
    ScramServer server("alice", "correct horse");
    Status s = exchange(client, server);
    REQUIRE_FALSE(s.is_ok());
    CHECK(s.sqlstate() == sqlstate::kInvalidPassword);
    CHECK(s.message() == "password authentication failed for user \"alice\"");
  }
  SECTION("unknown user fails like a wrong password") {
    ScramClient client("mallory", "anything");
    ScramServer server = ScramServer::for_unknown_user("mallory");
    Status s = exchange(client, server);
    REQUIRE_FALSE(s.is_ok());
    CHECK(s.sqlstate() == sqlstate::kInvalidPassword);
  }
  SECTION("the client rejects a server that does not know the password") {
    ScramClient client("alice", "pw");
    ScramServer server("alice", "pw");
    auto first = client.client_first();
    auto server_first = server.handle_client_first(*first);
    REQUIRE(client.handle_server_first(*server_first).ok());
    Status s = client.handle_server_final(std::string("v=") + scram::base64_encode(std::string(32, 'x')));
    CHECK(s.sqlstate() == sqlstate::kInvalidPassword);
  }
  SECTION("two servers pick different salts and nonces") {
    ScramServer a("u", "p"), b("u", "p");
    CHECK(*a.handle_client_first("n,,n=,r=abc") != *b.handle_client_first("n,,n=,r=abc"));
  }
}

TEST_CASE("malformed client-first-messages", "[pgwire][scram]") {
  auto first_error = [](std::string_view msg) {
    ScramServer server("u", "p");
    auto r = server.handle_client_first(msg);
    REQUIRE_FALSE(r.ok());
    return r.status();
  };
  CHECK(first_error("").sqlstate() == sqlstate::kProtocolViolation);
  CHECK_THAT(first_error("p=tls-server-end-point,,n=,r=abc").message(), Catch::Contains("channel binding"));
  CHECK(first_error("x,,n=,r=abc").sqlstate() == sqlstate::kProtocolViolation);
  CHECK(first_error("n,a=admin,n=,r=abc").sqlstate() == sqlstate::kFeatureNotSupported);
  CHECK(first_error("n,,m=ext,n=,r=abc").sqlstate() == sqlstate::kFeatureNotSupported);
  CHECK(first_error("n,,r=abc").sqlstate() == sqlstate::kProtocolViolation);    // no username
  CHECK(first_error("n,,n=u").sqlstate() == sqlstate::kProtocolViolation);      // no nonce
  CHECK(first_error("n,,n=u,r=").sqlstate() == sqlstate::kProtocolViolation);   // empty nonce
  CHECK(first_error("n,,n=u,r=a b").sqlstate() == sqlstate::kProtocolViolation);  // unprintable nonce
  CHECK(first_error("n,,n=u,r=abc,").sqlstate() == sqlstate::kProtocolViolation);  // dangling comma
  // 'y' (client supports channel binding, thinks we do not) is accepted.
  ScramServer server("u", "p");
  CHECK(server.handle_client_first("y,,n=,r=abc").ok());
  // A second client-first is out of order.
  CHECK(server.handle_client_first("n,,n=,r=abc").status().sqlstate() == sqlstate::kProtocolViolation);
}

TEST_CASE("malformed or inconsistent client-final-messages", "[pgwire][scram]") {
  const std::string nonce = std::string(kClientNonce) + std::string(kServerNonce);
  const std::string proof = ",p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
  auto final_error = [&](std::string_view first, const std::string& final_msg) {
    ScramServer server = rfc_server();
    REQUIRE(server.handle_client_first(first).ok());
    auto r = server.handle_client_final(final_msg);
    REQUIRE_FALSE(r.ok());
    CHECK_FALSE(server.authenticated());
    return r.status();
  };
  // The channel binding must echo the gs2 header of client-first.
  CHECK_THAT(final_error(kClientFirst, "c=eSws,r=" + nonce + proof).message(), Catch::Contains("channel-binding"));
  CHECK_THAT(final_error("y,,n=user,r=rOprNGfwEbeRWgbNEkqO", "c=biws,r=" + nonce + proof).message(),
             Catch::Contains("channel-binding"));
  CHECK_THAT(final_error(kClientFirst, "c=biws,r=" + nonce + "x" + proof).message(), Catch::Contains("nonce"));
  CHECK_THAT(final_error(kClientFirst, "c=biws,r=" + nonce).message(), Catch::Contains("proof"));
  CHECK_THAT(final_error(kClientFirst, "c=biws,r=" + nonce + ",p=abcd").message(), Catch::Contains("ClientProof"));
  CHECK_THAT(final_error(kClientFirst, "c=biws,r=" + nonce + proof + ",x=1").message(), Catch::Contains("garbage"));
  CHECK(final_error(kClientFirst, "r=" + nonce + proof).sqlstate() == sqlstate::kProtocolViolation);
  // A final message before any first one.
  ScramServer fresh = rfc_server();
  CHECK(fresh.handle_client_final(kClientFinal).status().sqlstate() == sqlstate::kProtocolViolation);
}

TEST_CASE("the client validates server-first-message", "[pgwire][scram]") {
  auto server_first_error = [](const std::string& msg) {
    ScramClient client("user", "pencil", std::string(kClientNonce));
    REQUIRE(client.client_first().ok());
    auto r = client.handle_server_first(msg);
    REQUIRE_FALSE(r.ok());
    return r.status();
  };
  CHECK(server_first_error("r=otherNonce,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096").sqlstate() ==
        sqlstate::kProtocolViolation);
  CHECK(server_first_error("r=rOprNGfwEbeRWgbNEkqO,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096").sqlstate() ==
        sqlstate::kProtocolViolation);  // no server part in the nonce
  CHECK_THAT(server_first_error("r=rOprNGfwEbeRWgbNEkqOxx,s=###,i=4096").message(), Catch::Contains("salt"));
  CHECK_THAT(server_first_error("r=rOprNGfwEbeRWgbNEkqOxx,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=0").message(),
             Catch::Contains("iteration"));
  CHECK_THAT(server_first_error("r=rOprNGfwEbeRWgbNEkqOxx,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=99999999999").message(),
             Catch::Contains("iteration"));
  CHECK_THAT(server_first_error("r=rOprNGfwEbeRWgbNEkqOxx,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=12a").message(),
             Catch::Contains("iteration"));
}
