// The protocol state machine, in process: a Connection served on a loopback
// socket by an io_context thread, driven by raw frontend messages. Covers
// the Ready / Drain-until-Sync / Done transitions without a tandemd process.

#include "frontend/protocol/connection.hpp"

#include <catch2/catch.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "frontend/adapter/adapter.hpp"
#include "frontend/pgwire/byte_order.hpp"
#include "frontend/pgwire/frontend_encoder.hpp"
#include "storage/durable_store.hpp"

namespace asio = boost::asio;
using tandem::frontend::Adapter;
using tandem::frontend::CancelRegistry;
using tandem::frontend::Connection;
using tandem::frontend::ConnectionCounter;
using tandem::frontend::ServerContext;
using tandem::frontend::ServerOptions;
using tandem::pgwire::FrontendWriter;

namespace {

std::string be32_of(uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[i] = static_cast<char>(v >> (24 - 8 * i));
  return s;
}

struct Frame {
  char type;
  std::string body;
};

// A server-side Connection on a loopback socket plus a blocking client.
class Harness {
 public:
  Harness()
      : dir_(std::filesystem::temp_directory_path() / ("tandem-conn-test-" + std::to_string(std::random_device{}()))),
        store_(std::move(tandem::storage::DurableStore::open({dir_.string(), false})).value()),
        adapter_(std::move(Adapter::open(*store_)).value()),
        pool_(2),
        context_{options_, *adapter_, cancels_, pool_, nullptr, counter_, shutting_down_, metrics_},
        acceptor_(io_, asio::ip::tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
        client_(io_) {
    client_.connect(acceptor_.local_endpoint());
    asio::ip::tcp::socket server_side = acceptor_.accept();
    auto connection = std::make_shared<Connection>(std::move(server_side), context_);
    asio::co_spawn(io_, [connection]() -> asio::awaitable<void> { co_await connection->run(); }, asio::detached);
    thread_ = std::thread([this] { io_.run(); });
  }
  ~Harness() {
    boost::system::error_code ec;
    client_.close(ec);
    thread_.join();
    pool_.join();
    adapter_.reset();
    store_->close();
    std::filesystem::remove_all(dir_);
  }

  void send(const std::string& bytes) { asio::write(client_, asio::buffer(bytes)); }
  Frame read() {
    char header[5];
    asio::read(client_, asio::buffer(header, 5));
    const uint32_t len = tandem::pgwire::load_be32(reinterpret_cast<const uint8_t*>(header) + 1);
    std::string body(len - 4, '\0');
    asio::read(client_, asio::buffer(body));
    return Frame{header[0], body};
  }
  std::string read_until_ready() { return read_rows_until_ready().first; }
  char last_status() const { return last_status_; }
  std::string startup() {
    std::string out;
    FrontendWriter w(out);
    std::pair<std::string_view, std::string_view> params[] = {{"user", "tester"}, {"application_name", "unit"}};
    w.startup_message(params);
    send(out);
    return read_until_ready();
  }
  // Sends one simple query and reads to ReadyForQuery; the message types.
  std::string run(std::string_view sql) {
    std::string out;
    FrontendWriter w(out);
    w.query(sql);
    send(out);
    return read_until_ready();
  }
  // Reads to ReadyForQuery: the message types and the first column of
  // every DataRow (text format).
  std::pair<std::string, std::vector<std::string>> read_rows_until_ready() {
    std::string types;
    std::vector<std::string> values;
    for (;;) {
      Frame f = read();
      types += f.type;
      if (f.type == 'D') {
        // int16 column count, then the first column's int32 length and bytes
        const uint32_t len = tandem::pgwire::load_be32(reinterpret_cast<const uint8_t*>(f.body.data()) + 2);
        values.push_back(f.body.substr(6, len));
      }
      if (f.type == 'Z') {
        last_status_ = f.body[0];
        return {types, values};
      }
    }
  }
  bool closed_by_server() {
    char c;
    boost::system::error_code ec;
    client_.read_some(asio::buffer(&c, 1), ec);
    return ec == asio::error::eof || ec == asio::error::connection_reset;
  }

 private:
  std::filesystem::path dir_;
  ServerOptions options_;
  std::unique_ptr<tandem::storage::DurableStore> store_;
  std::unique_ptr<Adapter> adapter_;
  CancelRegistry cancels_;
  asio::thread_pool pool_;
  ConnectionCounter counter_;
  std::atomic<bool> shutting_down_{false};
  tandem::frontend::ServerMetrics metrics_;
  ServerContext context_;
  asio::io_context io_;
  asio::ip::tcp::acceptor acceptor_;
  asio::ip::tcp::socket client_;
  std::thread thread_;
  char last_status_ = 0;
};

}  // namespace

TEST_CASE("startup reports parameters, a key and ReadyForQuery idle") {
  Harness h;
  std::string types = h.startup();
  CHECK(types.front() == 'R');
  CHECK(types.find('S') != std::string::npos);
  CHECK(types.find('K') != std::string::npos);
  CHECK(h.last_status() == 'I');
}

TEST_CASE("transaction block status follows BEGIN, errors and ROLLBACK") {
  Harness h;
  h.startup();
  std::string out;
  FrontendWriter w(out);
  w.query("BEGIN");
  h.send(out);
  CHECK(h.read_until_ready() == "CZ");
  CHECK(h.last_status() == 'T');
  out.clear();
  w.query("SELECT 1/0");
  h.send(out);
  CHECK(h.read_until_ready() == "EZ");
  CHECK(h.last_status() == 'E');
  out.clear();
  w.query("SELECT 1");
  h.send(out);
  CHECK(h.read_until_ready() == "EZ");  // 25P02 until the block ends
  out.clear();
  w.query("COMMIT");
  h.send(out);
  CHECK(h.read_until_ready() == "CZ");  // tagged ROLLBACK
  CHECK(h.last_status() == 'I');
}

TEST_CASE("an extended-protocol error skips to Sync, then the session goes on") {
  Harness h;
  h.startup();
  std::string out;
  FrontendWriter w(out);
  w.parse("bad", "SELEC 1");
  w.bind("", "bad", {}, {}, {});
  w.execute("", 0);
  w.sync();
  w.parse("good", "SELECT $1::int4 * 2");
  w.describe('S', "good");
  std::optional<std::string_view> params[] = {std::string_view("21")};
  w.bind("", "good", {}, params, {});
  w.execute("", 0);
  w.sync();
  h.send(out);
  CHECK(h.read_until_ready() == "EZ");
  CHECK(h.read_until_ready() == "1tT2DCZ");
}

TEST_CASE("a NUL byte inside a message is an error, and the session goes on") {
  Harness h;
  h.startup();
  // A simple Query whose text holds a NUL: ErrorResponse, ReadyForQuery.
  std::string body = std::string("SELECT 1") + '\0' + "; DROP TABLE t" + '\0';
  std::string query = std::string("Q") + be32_of(static_cast<uint32_t>(body.size() + 4)) + body;
  h.send(query);
  CHECK(h.read_until_ready() == "EZ");
  CHECK(h.last_status() == 'I');
  // A Parse with a NUL inside its text: an error that skips to Sync.
  std::string parse_body = std::string("") + '\0' + "SELECT 1" + '\0' + "x" + '\0' + std::string(2, '\0');
  std::string out = std::string("P") + be32_of(static_cast<uint32_t>(parse_body.size() + 4)) + parse_body;
  FrontendWriter w(out);
  w.bind("", "", {}, {}, {});
  w.execute("", 0);
  w.sync();
  h.send(out);
  CHECK(h.read_until_ready() == "EZ");
  CHECK(h.run("SELECT 1") == "TDCZ");
}

TEST_CASE("named portals suspend at the row limit and resume") {
  Harness h;
  h.startup();
  std::string out;
  FrontendWriter w(out);
  w.parse("s", "VALUES (1), (2), (3), (4), (5)");
  w.bind("p", "s", {}, {}, {});
  w.execute("p", 2);
  w.execute("p", 2);
  w.execute("p", 2);
  w.close('P', "p");
  w.sync();
  h.send(out);
  CHECK(h.read_until_ready() == "12DDsDDsDC3Z");
}

TEST_CASE("Flush answers without ReadyForQuery, and Terminate closes") {
  Harness h;
  h.startup();
  std::string out;
  FrontendWriter w(out);
  w.parse("", "SELECT 1");
  w.flush();
  h.send(out);
  CHECK(h.read().type == '1');
  out.clear();
  w.terminate();
  h.send(out);
  CHECK(h.closed_by_server());
}

// An INSERT commits on the connection's thread and feeds compute after the
// reply is sent. A read of the table later in the same batch of messages
// (before anything is sent) must not wait for that reply: the connection
// runs the feed before its next statement. Each round's read sees its
// write; without the feed it would wait for the next periodic advance of
// the tables' uppers (up to a second) or longer.
TEST_CASE("a read after an INSERT in the same batch of messages sees it at once") {
  Harness h;
  h.startup();
  CHECK(h.run("CREATE TABLE t (a int)") == "CZ");
  CHECK(h.run("CREATE INDEX t_a ON t (a)") == "CZ");
  const auto start = std::chrono::steady_clock::now();
  for (int i = 1; i <= 10; ++i) {
    // Simple protocol: two statements in one Query message.
    std::string out;
    FrontendWriter w(out);
    w.query("INSERT INTO t VALUES (" + std::to_string(i) + "); SELECT count(*) FROM t");
    h.send(out);
    auto [types, values] = h.read_rows_until_ready();
    CHECK(types == "CTDCZ");
    REQUIRE(values.size() == 1);
    CHECK(values[0] == std::to_string(2 * i - 1));
    // Extended protocol: INSERT and SELECT pipelined up to one Sync.
    out.clear();
    w.parse("", "INSERT INTO t VALUES (" + std::to_string(100 + i) + ")");
    w.bind("", "", {}, {}, {});
    w.execute("", 0);
    w.parse("", "SELECT count(*) FROM t");
    w.bind("", "", {}, {}, {});
    w.execute("", 0);
    w.sync();
    h.send(out);
    auto [types2, values2] = h.read_rows_until_ready();
    CHECK(types2 == "12C12DCZ");
    REQUIRE(values2.size() == 1);
    CHECK(values2[0] == std::to_string(2 * i));
  }
  // 20 writes and reads; a read that waited for the periodic advance of
  // the uppers would take up to a second each.
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
}
