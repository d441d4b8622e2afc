// Integration: protocol details below what libpq exposes, over a raw socket:
// SSLRequest, protocol versions, row limits with PortalSuspended, error
// recovery until Sync, malformed and oversized messages, cancel keys, the
// connection limit, SCRAM authentication and shutdown.

#include <libpq-fe.h>

#include <catch2/catch.hpp>

#include <fstream>
#include <thread>

#include "frontend/pgwire/frontend_encoder.hpp"
#include "tests/support/raw_client.hpp"
#include "tests/support/tandemd_process.hpp"

using tandem::pgwire::FrontendWriter;
using tandem::testing::BackendFrame;
using tandem::testing::error_field;
using tandem::testing::RawClient;
using tandem::testing::TandemdProcess;

namespace {

TandemdProcess& server() {
  static TandemdProcess process({"--max-message-size", "4096"});
  return process;
}

// A password file (lines user:password) for one test, removed after it.
struct PasswordFile {
  explicit PasswordFile(const std::string& contents) {
    char name[] = "/tmp/tandem-passwords-XXXXXX";
    const int fd = mkstemp(name);
    REQUIRE(fd >= 0);
    close(fd);
    path = name;
    std::ofstream(path) << contents;
  }
  ~PasswordFile() { std::remove(path.c_str()); }
  std::string path;
};

std::string types_of(const std::vector<BackendFrame>& frames) {
  std::string s;
  for (const auto& f : frames) s += f.type;
  return s;
}

}  // namespace

TEST_CASE("SSLRequest is answered N and startup continues in the clear") {
  RawClient client(server().port());
  std::string out;
  FrontendWriter w(out);
  w.ssl_request();
  client.send(out);
  CHECK(client.read_byte() == 'N');
  auto frames = client.startup();
  REQUIRE(!frames.empty());
  CHECK(frames.front().type == 'R');
  CHECK(frames.back().type == 'Z');
  CHECK(frames.back().body == "I");
  // AuthenticationOk, ParameterStatus..., BackendKeyData, ReadyForQuery.
  CHECK(types_of(frames).find('K') != std::string::npos);
}

TEST_CASE("an unsupported protocol version is rejected") {
  RawClient client(server().port());
  // Length 8, version 2.0.
  client.send(std::string("\x00\x00\x00\x08\x00\x02\x00\x00", 8));
  auto f = client.read();
  REQUIRE(f);
  CHECK(f->type == 'E');
  CHECK(error_field(*f, 'C') == "08P01");
  CHECK(error_field(*f, 'M').find("unsupported frontend protocol 2.0") != std::string::npos);
  CHECK(client.closed());
}

TEST_CASE("Execute with a row limit suspends and resumes the portal") {
  RawClient client(server().port());
  client.startup();
  std::string out;
  FrontendWriter w(out);
  w.parse("", "VALUES (1), (2), (3)");
  w.bind("", "", {}, {}, {});
  w.describe('P', "");
  w.execute("", 2);
  w.execute("", 2);
  w.sync();
  client.send(out);
  auto frames = client.read_until_ready();
  // ParseComplete, BindComplete, RowDescription, 2 DataRows, PortalSuspended,
  // 1 DataRow, CommandComplete, ReadyForQuery.
  CHECK(types_of(frames) == "12TDDsDCZ");
  CHECK(frames[7].body == std::string("SELECT 1\0", 9));
}

TEST_CASE("after an error the extended protocol skips to Sync") {
  RawClient client(server().port());
  client.startup();
  std::string out;
  FrontendWriter w(out);
  w.parse("", "SELECT 1/0");
  w.bind("", "", {}, {}, {});
  w.execute("", 0);
  w.parse("s2", "SELECT 1");  // skipped: still draining until Sync
  w.sync();
  w.parse("s3", "SELECT 2");
  w.bind("", "s3", {}, {}, {});
  w.execute("", 0);
  w.sync();
  client.send(out);
  auto first = client.read_until_ready();
  CHECK(types_of(first) == "12EZ");
  CHECK(error_field(first[2], 'C') == "22012");
  auto second = client.read_until_ready();
  CHECK(types_of(second) == "12DCZ");
}

TEST_CASE("a simple query with several statements answers each") {
  RawClient client(server().port());
  client.startup();
  std::string out;
  FrontendWriter w(out);
  w.query("SELECT 1; SELECT 'a', 'b'; ; SET application_name = 'x'");
  w.query("");
  client.send(out);
  auto frames = client.read_until_ready();
  CHECK(types_of(frames) == "TDCTDCCSZ");
  auto empty = client.read_until_ready();
  CHECK(types_of(empty) == "IZ");
}

TEST_CASE("a malformed message body is an error; a broken frame closes only that connection") {
  RawClient bystander(server().port());
  bystander.startup();
  RawClient client(server().port());
  client.startup();
  // Bind whose parameter count overruns the message: an ERROR, skipped to Sync.
  std::string bad_bind = std::string("B\x00\x00\x00\x0a\x00\x00\x00\x00\x7f", 10) + std::string("\x7f", 1);
  std::string sync;
  FrontendWriter(sync).sync();
  client.send(bad_bind + sync);
  auto bind_reply = client.read_until_ready();
  REQUIRE(bind_reply.size() == 2);
  CHECK(error_field(bind_reply[0], 'C') == "08P01");
  CHECK(error_field(bind_reply[0], 'S') == "ERROR");
  // A NUL byte inside a query's text: an ERROR, and the session goes on.
  const std::string text = std::string("SELECT 1") + '\0' + "; SELECT 2" + '\0';
  const uint32_t len = static_cast<uint32_t>(text.size() + 4);
  std::string query = "Q";
  for (int i = 3; i >= 0; --i) query += static_cast<char>(len >> (8 * i));
  client.send(query + text);
  auto nul_reply = client.read_until_ready();
  REQUIRE(nul_reply.size() == 2);
  CHECK(error_field(nul_reply[0], 'C') == "08P01");
  CHECK(error_field(nul_reply[0], 'S') == "ERROR");
  std::string again;
  FrontendWriter(again).query("SELECT 7");
  client.send(again);
  CHECK(types_of(client.read_until_ready()) == "TDCZ");
  // An unknown message type: the frame cannot be trusted, FATAL.
  RawClient other(server().port());
  other.startup();
  other.send(std::string("!\x00\x00\x00\x04", 5));
  auto g = other.read();
  REQUIRE(g);
  CHECK(error_field(*g, 'C') == "08P01");
  CHECK(error_field(*g, 'S') == "FATAL");
  CHECK(other.closed());
  // The bystander is unaffected.
  std::string out;
  FrontendWriter w(out);
  w.query("SELECT 42");
  bystander.send(out);
  auto frames = bystander.read_until_ready();
  CHECK(types_of(frames) == "TDCZ");
}

TEST_CASE("a message over the size limit is rejected from its header") {
  RawClient client(server().port());
  client.startup();
  // Announce 1 MB but send only the header: the server must not wait for it.
  client.send(std::string("Q\x00\x10\x00\x00", 5));
  auto f = client.read();
  REQUIRE(f);
  CHECK(error_field(*f, 'C') == "08P01");
  CHECK(client.closed());
}

TEST_CASE("a cancel request with a wrong key does nothing") {
  PGconn* c = PQconnectdb(server().conninfo().c_str());
  REQUIRE(PQstatus(c) == CONNECTION_OK);
  int pid = PQbackendPID(c);
  std::thread wrong([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    RawClient canceller(server().port());
    std::string out;
    FrontendWriter w(out);
    w.cancel_request(pid, 12345);
    canceller.send(out);
    canceller.closed();
  });
  PGresult* r = PQexec(c, "SELECT pg_sleep(0.5)");
  wrong.join();
  CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
  PQclear(r);
  PQfinish(c);
}

TEST_CASE("the connection limit is enforced") {
  TandemdProcess limited({"--max-connections", "2"});
  PGconn* a = PQconnectdb(limited.conninfo().c_str());
  PGconn* b = PQconnectdb(limited.conninfo().c_str());
  PGconn* c = PQconnectdb(limited.conninfo().c_str());
  CHECK(PQstatus(a) == CONNECTION_OK);
  CHECK(PQstatus(b) == CONNECTION_OK);
  CHECK(PQstatus(c) == CONNECTION_BAD);
  CHECK(std::string(PQerrorMessage(c)).find("too many clients") != std::string::npos);
  PQfinish(a);
  PQfinish(b);
  PQfinish(c);
}

TEST_CASE("SCRAM-SHA-256 authentication with a password file") {
  PasswordFile passwords("# users\nalice:secret\nmz_system:root-pw\n");
  TandemdProcess secured({"--password-file", passwords.path});
  auto connect = [&](const std::string& user, const std::string& password) {
    std::string conninfo = secured.conninfo(user) + " password=" + password;
    PGconn* c = PQconnectdb(conninfo.c_str());
    bool ok = PQstatus(c) == CONNECTION_OK;
    std::string err = PQerrorMessage(c);
    PQfinish(c);
    return std::make_pair(ok, err);
  };
  auto good = connect("alice", "secret");
  CHECK(good.first);
  auto bad = connect("alice", "wrong");
  CHECK(!bad.first);
  CHECK(bad.second.find("password authentication failed for user \"alice\"") != std::string::npos);
  auto unknown = connect("mallory", "secret");
  CHECK(!unknown.first);
  CHECK(unknown.second.find("password authentication failed") != std::string::npos);
}

TEST_CASE("failed logins are answered late; stalled startups neither hold sessions nor stay") {
  PasswordFile passwords("alice:secret\n");
  TandemdProcess secured({"--password-file", passwords.path, "--max-connections", "1", "--max-startup-connections", "3",
                          "--auth-timeout", "1500", "--auth-failure-delay", "300"});
  auto connect = [&](const std::string& user, const std::string& password) {
    std::string conninfo = secured.conninfo(user) + " password=" + password + " connect_timeout=10";
    return PQconnectdb(conninfo.c_str());
  };
  // A wrong password and an unknown user both wait out the delay.
  for (const char* user : {"alice", "mallory"}) {
    const auto start = std::chrono::steady_clock::now();
    PGconn* c = connect(user, "wrong");
    CHECK(PQstatus(c) == CONNECTION_BAD);
    CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(300));
    PQfinish(c);
  }
  // Clients that stall inside SCRAM (startup sent, never answered); each is
  // counted once its AuthenticationSASL arrives.
  auto stall = [&](RawClient& r) {
    std::string out;
    std::pair<std::string_view, std::string_view> params[] = {{"user", "alice"}};
    FrontendWriter(out).startup_message(params);
    r.send(out);
    auto sasl = r.read();
    REQUIRE(sasl);
    CHECK(sasl->type == 'R');
  };
  RawClient stalled_a(secured.port()), stalled_b(secured.port());
  stall(stalled_a);
  stall(stalled_b);
  // They hold no session slot: the one session goes to a real user.
  PGconn* real = connect("alice", "secret");
  CHECK(PQstatus(real) == CONNECTION_OK);
  // A third fills the startup slots: the next connection is refused.
  RawClient stalled_c(secured.port());
  stall(stalled_c);
  RawClient refused(secured.port());
  auto f = refused.read();
  REQUIRE(f);
  CHECK(error_field(*f, 'C') == "53300");
  CHECK(refused.closed());
  // Past --auth-timeout the stalled connections are closed, and so is one
  // that never sends a startup packet.
  CHECK(stalled_a.closed(5000));
  CHECK(stalled_b.closed(5000));
  CHECK(stalled_c.closed(5000));
  RawClient silent(secured.port());
  CHECK(silent.closed(5000));
  // The session is unaffected.
  PGresult* r = PQexec(real, "SELECT 1");
  CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
  PQclear(r);
  PQfinish(real);
}

TEST_CASE("SIGTERM closes sessions with 57P01 and exits 0") {
  TandemdProcess doomed;
  RawClient client(doomed.port());
  client.startup();
  CHECK(doomed.stop() == 0);
  auto f = client.read();
  REQUIRE(f);
  CHECK(f->type == 'E');
  CHECK(error_field(*f, 'C') == "57P01");
  CHECK(client.closed());
}
