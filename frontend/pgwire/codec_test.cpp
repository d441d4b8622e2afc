// Decoder tests: encode -> decode round trips of every frontend message (via
// FrontendWriter), streams split at every byte, the size limit enforced on the
// header alone, and malformed input rejected with 08P01.

#include <catch2/catch.hpp>

#include <array>
#include <string>
#include <vector>

#include "frontend/pgwire/codec.hpp"
#include "frontend/pgwire/frontend_encoder.hpp"

using namespace tandem;
using namespace tandem::pgwire;

namespace {

std::span<const uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

FrontendMessage decode_one(const std::string& wire) {
  MessageDecoder d;
  FrontendDecodeResult r = d.try_decode(bytes_of(wire));
  INFO((r.is_error() ? r.status().to_string() : std::string("no error")));
  REQUIRE(r.has_message());
  REQUIRE(r.consumed() == wire.size());
  return r.message();
}

Status decode_error(const std::string& wire, size_t max = kDefaultMaxMessageSize) {
  MessageDecoder d(max);
  FrontendDecodeResult r = d.try_decode(bytes_of(wire));
  REQUIRE(r.is_error());
  CHECK(r.status().sqlstate() == sqlstate::kProtocolViolation);
  return r.status();
}

Status startup_error(const std::string& wire) {
  MessageDecoder d;
  StartupDecodeResult r = d.try_decode_startup(bytes_of(wire));
  REQUIRE(r.is_error());
  CHECK(r.status().sqlstate() == sqlstate::kProtocolViolation);
  return r.status();
}

// A raw normal-phase frame with an arbitrary body and (optionally wrong) length.
std::string frame(char type, const std::string& body) {
  std::string out;
  FrontendWriter w(out);
  w.begin_message(type);
  out += body;
  w.end_message();
  return out;
}

std::string be16(int16_t v) {
  std::string s;
  FrontendWriter(s).put_int16(v);
  return s;
}
std::string be32(int32_t v) {
  std::string s;
  FrontendWriter(s).put_int32(v);
  return s;
}
std::string cstr(std::string_view v) { return std::string(v) + std::string(1, '\0'); }

}  // namespace

TEST_CASE("startup phase messages round trip", "[pgwire][codec]") {
  MessageDecoder d;
  std::string wire;
  FrontendWriter w(wire);
  const std::vector<std::pair<std::string_view, std::string_view>> params = {
      {"user", "alice"}, {"database", "materialize"}, {"options", "--cluster=quickstart"}, {"user", "bob"}};
  w.startup_message(params);
  w.ssl_request();
  w.gssenc_request();
  w.cancel_request(4242, -7);
  w.startup_message({}, (3 << 16) | 2);

  auto input = bytes_of(wire);
  auto r = d.try_decode_startup(input);
  REQUIRE(r.has_message());
  const auto& sm = std::get<StartupMessage>(r.message());
  CHECK(sm.protocol_major() == 3);
  CHECK(sm.protocol_minor() == 0);
  REQUIRE(sm.parameters.size() == 4);
  CHECK(sm.parameters[1].first == "database");
  CHECK(sm.parameters[1].second == "materialize");
  CHECK(sm.parameter("user") == std::optional<std::string_view>("bob"));
  CHECK_FALSE(sm.parameter("application_name").has_value());
  input = input.subspan(r.consumed());

  r = d.try_decode_startup(input);
  REQUIRE(r.has_message());
  CHECK(std::holds_alternative<SslRequest>(r.message()));
  CHECK(r.consumed() == 8);
  input = input.subspan(r.consumed());

  r = d.try_decode_startup(input);
  REQUIRE(r.has_message());
  CHECK(std::holds_alternative<GssEncRequest>(r.message()));
  input = input.subspan(r.consumed());

  r = d.try_decode_startup(input);
  REQUIRE(r.has_message());
  const auto& cancel = std::get<CancelRequest>(r.message());
  CHECK(cancel.process_id == 4242);
  CHECK(cancel.secret_key == -7);
  CHECK(r.consumed() == 16);
  input = input.subspan(r.consumed());

  r = d.try_decode_startup(input);
  REQUIRE(r.has_message());
  CHECK(std::get<StartupMessage>(r.message()).protocol_minor() == 2);
  CHECK(std::get<StartupMessage>(r.message()).parameters.empty());
  CHECK(r.consumed() == input.size());
}

TEST_CASE("startup phase rejects bad packets", "[pgwire][codec]") {
  std::string v2;
  FrontendWriter(v2).startup_message({}, 2 << 16);
  CHECK(startup_error(v2).message() == "unsupported frontend protocol 2.0: server supports 3.0 to 3.0");

  CHECK_THAT(startup_error(be32(7) + be32(kProtocolVersion3)).message(),
             Catch::Contains("invalid length of startup packet"));
  CHECK_THAT(startup_error(be32(20000)).message(), Catch::Contains("invalid length of startup packet"));
  CHECK_THAT(startup_error(be32(-1)).message(), Catch::Contains("invalid length of startup packet"));
  // Missing the terminating empty key.
  CHECK_THAT(startup_error(be32(8 + 7) + be32(kProtocolVersion3) + cstr("user") + cstr("a")).message(),
             Catch::Contains("terminating"));
  // Value without NUL.
  CHECK_THAT(startup_error(be32(8 + 6) + be32(kProtocolVersion3) + cstr("user") + "a").message(),
             Catch::Contains("missing NUL"));
  // Bytes after the terminator.
  CHECK_THAT(startup_error(be32(8 + 3) + be32(kProtocolVersion3) + cstr("") + "xy").message(),
             Catch::Contains("trailing"));
  CHECK_THAT(startup_error(be32(12) + be32(kSslRequestCode) + be32(0)).message(), Catch::Contains("SSLRequest"));
  CHECK_THAT(startup_error(be32(12) + be32(kCancelRequestCode) + be32(0)).message(),
             Catch::Contains("CancelRequest"));
}

TEST_CASE("every normal phase message round trips", "[pgwire][codec]") {
  std::string wire;
  FrontendWriter w(wire);

  SECTION("password message and its helpers") {
    w.password_message("s3cret");
    const auto m = std::get<PasswordMessage>(decode_one(wire));
    REQUIRE(m.as_password().ok());
    CHECK(*m.as_password() == "s3cret");
    CHECK(m.as_sasl_response() == std::string("s3cret") + std::string(1, '\0'));
  }
  SECTION("SASLInitialResponse with and without data") {
    w.sasl_initial_response("SCRAM-SHA-256", std::string_view("n,,n=,r=abc"));
    auto m = std::get<PasswordMessage>(decode_one(wire));
    auto init = m.as_sasl_initial_response();
    REQUIRE(init.ok());
    CHECK(init->mechanism == "SCRAM-SHA-256");
    CHECK(init->data == std::optional<std::string_view>("n,,n=,r=abc"));
    CHECK_FALSE(m.as_password().ok());  // the length word holds no NUL-terminated layout

    wire.clear();
    w.sasl_initial_response("SCRAM-SHA-256", std::nullopt);
    m = std::get<PasswordMessage>(decode_one(wire));
    init = m.as_sasl_initial_response();
    REQUIRE(init.ok());
    CHECK_FALSE(init->data.has_value());
  }
  SECTION("SASLResponse") {
    w.sasl_response("c=biws,r=xyz,p=abc");
    CHECK(std::get<PasswordMessage>(decode_one(wire)).as_sasl_response() == "c=biws,r=xyz,p=abc");
  }
  SECTION("Query") {
    w.query("SELECT 1");
    CHECK(std::get<Query>(decode_one(wire)).sql == "SELECT 1");
  }
  SECTION("Parse") {
    const std::array<Oid, 3> oids = {23, 0, 4294967295u};
    w.parse("stmt1", "SELECT $1, $2, $3", oids);
    const auto m = std::get<Parse>(decode_one(wire));
    CHECK(m.statement == "stmt1");
    CHECK(m.query == "SELECT $1, $2, $3");
    CHECK(m.param_types == std::vector<Oid>(oids.begin(), oids.end()));
  }
  SECTION("Bind") {
    const std::array<int16_t, 3> pf = {0, 1, 0};
    const std::array<std::optional<std::string_view>, 3> params = {std::string_view("42"), std::nullopt,
                                                                    std::string_view("")};
    const std::array<int16_t, 1> rf = {1};
    w.bind("portal", "stmt", pf, params, rf);
    const auto m = std::get<Bind>(decode_one(wire));
    CHECK(m.portal == "portal");
    CHECK(m.statement == "stmt");
    CHECK(m.param_formats == std::vector<int16_t>{0, 1, 0});
    REQUIRE(m.params.size() == 3);
    CHECK(m.params[0] == std::optional<std::string_view>("42"));
    CHECK_FALSE(m.params[1].has_value());
    CHECK(m.params[2] == std::optional<std::string_view>(""));  // empty, not NULL
    CHECK(m.result_formats == std::vector<int16_t>{1});
  }
  SECTION("Describe, Execute, Close") {
    w.describe('P', "p1");
    w.execute("p1", 100);
    w.close('S', "s1");
    MessageDecoder d;
    auto in = bytes_of(wire);
    auto r = d.try_decode(in);
    REQUIRE(r.has_message());
    CHECK(std::get<Describe>(r.message()).kind == 'P');
    CHECK(std::get<Describe>(r.message()).name == "p1");
    in = in.subspan(r.consumed());
    r = d.try_decode(in);
    REQUIRE(r.has_message());
    CHECK(std::get<Execute>(r.message()).portal == "p1");
    CHECK(std::get<Execute>(r.message()).max_rows == 100);
    in = in.subspan(r.consumed());
    r = d.try_decode(in);
    REQUIRE(r.has_message());
    CHECK(std::get<Close>(r.message()).kind == 'S');
    CHECK(std::get<Close>(r.message()).name == "s1");
    CHECK(r.consumed() == in.size());
  }
  SECTION("bodiless messages") {
    w.sync();
    CHECK(std::holds_alternative<Sync>(decode_one(wire)));
    wire.clear();
    w.flush();
    CHECK(std::holds_alternative<Flush>(decode_one(wire)));
    wire.clear();
    w.terminate();
    CHECK(std::holds_alternative<Terminate>(decode_one(wire)));
    wire.clear();
    w.copy_done();
    CHECK(std::holds_alternative<CopyDone>(decode_one(wire)));
  }
  SECTION("COPY data and failure") {
    const std::string binary("a\0b\tc\n", 6);
    w.copy_data(binary);
    CHECK(std::get<CopyData>(decode_one(wire)).data == binary);
    wire.clear();
    w.copy_fail("client gave up");
    CHECK(std::get<CopyFail>(decode_one(wire)).message == "client gave up");
  }
}

TEST_CASE("a stream split at every byte position decodes identically", "[pgwire][codec]") {
  std::string wire;
  FrontendWriter w(wire);
  w.startup_message(std::vector<std::pair<std::string_view, std::string_view>>{{"user", "u"}, {"database", "d"}});
  const size_t startup_size = wire.size();
  const std::array<std::optional<std::string_view>, 2> params = {std::string_view("7"), std::nullopt};
  w.parse("", "SELECT $1::int, $2::text");
  w.bind("", "", {}, params, {});
  w.describe('P', "");
  w.execute("", 0);
  w.sync();
  w.query("SELECT 'x'");
  w.copy_data("1\t2\n");
  w.terminate();
  const std::vector<size_t> expected_types = {2, 3, 4, 5, 7, 1, 10, 9};  // variant indexes

  MessageDecoder d;
  for (size_t split = 0; split <= wire.size(); ++split) {
    // Feed the first `split` bytes, then everything: the decoder must report
    // need-more (with a correct size) rather than a message or an error until
    // a frame is complete.
    std::string buffer = wire.substr(0, split);
    std::vector<size_t> seen;
    bool startup_done = false;
    size_t offset = 0;
    bool appended = false;
    for (;;) {
      auto in = bytes_of(buffer).subspan(offset);
      if (!startup_done) {
        auto r = d.try_decode_startup(in);
        REQUIRE_FALSE(r.is_error());
        if (r.needs_more()) {
          CHECK(r.bytes_needed() > in.size());
          CHECK(r.bytes_needed() <= startup_size);
          if (appended) FAIL("stuck in startup");
          buffer += wire.substr(split);
          appended = true;
          continue;
        }
        REQUIRE(r.consumed() == startup_size);
        offset += r.consumed();
        startup_done = true;
        continue;
      }
      auto r = d.try_decode(in);
      REQUIRE_FALSE(r.is_error());
      if (r.needs_more()) {
        CHECK(r.bytes_needed() > in.size());
        if (appended) break;
        buffer += wire.substr(split);
        appended = true;
        continue;
      }
      seen.push_back(r.message().index());
      offset += r.consumed();
    }
    CHECK(offset == wire.size());
    CHECK(seen == expected_types);
  }
}

TEST_CASE("the message size limit is enforced from the header alone", "[pgwire][codec]") {
  MessageDecoder d(1000);
  CHECK(d.max_message_size() == 1000);
  // Only the 5-byte header of a 1 GiB message: rejected without the body.
  const std::string header = std::string("Q") + be32(1 << 30);
  auto r = d.try_decode(bytes_of(header));
  REQUIRE(r.is_error());
  CHECK(r.status().sqlstate() == sqlstate::kProtocolViolation);
  CHECK_THAT(r.status().message(), Catch::Contains("exceeds the maximum message size of 1000"));

  // At the limit: accepted; one byte over: rejected.
  std::string at_limit;
  FrontendWriter(at_limit).query(std::string(999, 'x'));
  CHECK(d.try_decode(bytes_of(at_limit)).has_message());
  std::string over;
  FrontendWriter(over).query(std::string(1000, 'x'));
  CHECK(d.try_decode(bytes_of(over)).is_error());
  d.set_max_message_size(2000);
  CHECK(d.try_decode(bytes_of(over)).has_message());
  // A partial header only needs the rest of the header.
  r = d.try_decode(bytes_of(header.substr(0, 3)));
  REQUIRE(r.needs_more());
  CHECK(r.bytes_needed() == kMessageHeaderSize);
}

TEST_CASE("malformed frontend messages are protocol violations", "[pgwire][codec]") {
  CHECK_THAT(decode_error("Z").message(), Catch::Contains("invalid frontend message type 90 ('Z')"));
  CHECK_THAT(decode_error(std::string(1, '\0')).message(), Catch::Contains("invalid frontend message type 0"));
  CHECK_THAT(decode_error(std::string("Q") + be32(3)).message(), Catch::Contains("invalid message length 3"));
  CHECK_THAT(decode_error(std::string("S") + be32(-5)).message(), Catch::Contains("invalid message length -5"));
  // Query without its NUL.
  CHECK_THAT(decode_error(frame('Q', "SELECT 1")).message(),
             Catch::Contains("invalid Query message: missing NUL terminator in query string"));
  // Trailing garbage inside a message.
  CHECK_THAT(decode_error(frame('Q', cstr("SELECT 1") + "zz")).message(),
             Catch::Contains("2 bytes of trailing garbage"));
  CHECK_THAT(decode_error(frame('S', "x")).message(), Catch::Contains("invalid Sync message"));
  // Parse whose parameter type count overruns the message.
  CHECK_THAT(decode_error(frame('P', cstr("") + cstr("SELECT $1") + be16(3) + be32(23))).message(),
             Catch::Contains("3 parameter types overrun the message"));
  // Bind: a "negative" (0xffff) count overruns the message.
  CHECK_THAT(decode_error(frame('B', cstr("") + cstr("") + be16(-1))).message(),
             Catch::Contains("overrun the message"));
  // Bind: parameter length below -1.
  CHECK_THAT(decode_error(frame('B', cstr("") + cstr("") + be16(0) + be16(1) + be32(-2) + be16(0))).message(),
             Catch::Contains("parameter 1 has invalid length -2"));
  // Bind: parameter value longer than the message.
  CHECK_THAT(decode_error(frame('B', cstr("") + cstr("") + be16(0) + be16(1) + be32(100) + "abc")).message(),
             Catch::Contains("parameter value of 100 bytes overruns the message"));
  // Bind: 2 format codes for 3 parameters.
  CHECK_THAT(decode_error(frame('B', cstr("") + cstr("") + be16(2) + be16(0) + be16(0) + be16(3))).message(),
             Catch::Contains("2 parameter formats but 3 parameters"));
  // Bind: missing result format count.
  CHECK_THAT(decode_error(frame('B', cstr("") + cstr("") + be16(0) + be16(0))).message(),
             Catch::Contains("truncated before result format codes"));
  // Describe with a bad kind.
  CHECK_THAT(decode_error(frame('D', std::string("X") + cstr("n"))).message(), Catch::Contains("invalid target kind"));
  CHECK_THAT(decode_error(frame('C', "")).message(), Catch::Contains("truncated before target kind"));
  // Execute without the row limit.
  CHECK_THAT(decode_error(frame('E', cstr("p") + be16(1))).message(), Catch::Contains("truncated before row limit"));
  CHECK_THAT(decode_error(frame('f', "no nul")).message(), Catch::Contains("invalid CopyFail message"));
}

TEST_CASE("a malformed body in a sound frame can be skipped; a broken frame cannot", "[pgwire][codec]") {
  MessageDecoder d(kDefaultMaxMessageSize);
  const std::string nul_inside = frame('Q', cstr("SELECT 1") + cstr("x"));
  FrontendDecodeResult body = d.try_decode(bytes_of(nul_inside + frame('S', "")));
  REQUIRE(body.is_error());
  CHECK(body.skippable());
  CHECK(body.consumed() == nul_inside.size());
  FrontendDecodeResult header = d.try_decode(bytes_of(std::string("Q") + be32(3)));
  REQUIRE(header.is_error());
  CHECK_FALSE(header.skippable());
  FrontendDecodeResult type = d.try_decode(bytes_of("Z"));
  REQUIRE(type.is_error());
  CHECK_FALSE(type.skippable());
}

TEST_CASE("malformed 'p' payloads are rejected by the parse helpers", "[pgwire][codec]") {
  auto pm = [](const std::string& body) { return PasswordMessage{body}; };
  const std::string no_nul = "abc";
  CHECK(pm(no_nul).as_password().status().sqlstate() == sqlstate::kProtocolViolation);
  const std::string two = cstr("abc") + "d";
  CHECK_THAT(pm(two).as_password().status().message(), Catch::Contains("trailing garbage"));
  const std::string neg = cstr("SCRAM-SHA-256") + be32(-2);
  CHECK_THAT(pm(neg).as_sasl_initial_response().status().message(), Catch::Contains("invalid data length -2"));
  const std::string overrun = cstr("SCRAM-SHA-256") + be32(10) + "abc";
  CHECK_THAT(pm(overrun).as_sasl_initial_response().status().message(), Catch::Contains("overruns"));
  const std::string trailing = cstr("SCRAM-SHA-256") + be32(1) + "ab";
  CHECK_THAT(pm(trailing).as_sasl_initial_response().status().message(), Catch::Contains("trailing"));
  const std::string no_len = cstr("SCRAM-SHA-256");
  CHECK_THAT(pm(no_len).as_sasl_initial_response().status().message(),
             Catch::Contains("truncated before data length"));
}
