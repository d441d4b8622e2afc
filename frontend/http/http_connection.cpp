// One HTTP connection: the request loop, routing, authentication, and
// POST /api/sql's response, streamed (http_listener.hpp).
#include <sys/socket.h>

#include <filesystem>

#include <spdlog/spdlog.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "frontend/http/http_auth.hpp"
#include "frontend/http/http_listener.hpp"
#include "frontend/http/json_encoding.hpp"
#include "frontend/http/metrics_text.hpp"
#include "frontend/http/sql_request.hpp"
#include "frontend/http/sql_runner.hpp"
#include "frontend/http/static_files.hpp"
#include "frontend/http/websocket_session.hpp"

namespace tandem::frontend::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using asio::awaitable;
using asio::use_awaitable;
using tcp = asio::ip::tcp;
using Request = bhttp::request<bhttp::string_body>;

namespace {

constexpr size_t kHeaderLimit = 16 * 1024;
// A response is sent whole (with Content-Length) up to this size; a larger
// one is sent in chunks of about this size as its rows arrive.
constexpr size_t kChunkBytes = 256 * 1024;
// After refusing a request whose body is still arriving (413), the body is
// read and dropped for at most this long, so the client reads the answer
// instead of a connection reset.
constexpr auto kLingerTime = std::chrono::seconds(2);

class HttpConnection;

std::string_view sv(beast::string_view v) { return std::string_view(v.data(), v.size()); }

const std::string kTextPlain = "text/plain; charset=utf-8";
const std::string kPrometheusText = "text/plain; version=0.0.4; charset=utf-8";
using Headers = std::vector<std::pair<std::string, std::string>>;  // name, value

// The 401's invitation to authenticate with HTTP Basic.
Headers auth_challenge() {
  Headers headers;
  headers.emplace_back("WWW-Authenticate", "Basic realm=\"tandem\", charset=\"UTF-8\"");
  return headers;
}

// POST /api/sql's response: {"results": [...]}, one entry per statement,
// written as the statements run; sent whole when small, else chunked.
class HttpSqlSink final : public SqlSink {
 public:
  HttpSqlSink(HttpConnection& connection, unsigned version, bool keep_alive)
      : connection_(connection), version_(version), keep_alive_(keep_alive) {
    out_ = "{\"results\":[";
  }
  awaitable<void> command_starting(bool, bool) override { co_return; }
  awaitable<void> rows_begin(std::span<const ResultColumn> columns) override {
    begin_entry();
    out_.append("\"desc\":");
    append_description(columns, &out_);
    out_.append(",\"rows\":[");
    first_row_ = true;
    co_return;
  }
  awaitable<bool> rows(std::span<const ResultColumn> columns, std::span<const Row> rows) override {
    for (const Row& row : rows) {
      if (!first_row_) out_.push_back(',');
      first_row_ = false;
      append_row(columns, row, arena_, &out_);
      arena_.clear();
      if (out_.size() >= kChunkBytes && !co_await flush()) co_return false;
    }
    co_return !broken_;
  }
  awaitable<void> command_complete(const std::string& tag, bool returned_rows) override {
    if (returned_rows) {
      out_.append("],\"tag\":");
    } else {
      begin_entry();
      out_.append("\"ok\":");
    }
    append_json_string(tag, &out_);
    end_entry();
    if (out_.size() >= kChunkBytes) co_await flush();
  }
  awaitable<void> error(const Status& status, bool returned_rows) override {
    if (returned_rows) {
      out_.append("],");  // the rows sent before the error (max_result_size) stay
    } else {
      begin_entry();
    }
    out_.append("\"error\":");
    append_error(status, &out_);
    end_entry();
    co_return;
  }
  void notice(const ResultNotice& notice) override { notices_.push_back(notice); }
  void parameter_status(const std::string& name, const std::string& value) override {
    parameters_.emplace_back(name, value);
  }
  // Ends the document and sends what is left; false when the client is gone.
  awaitable<bool> finish();

 private:
  void begin_entry() {
    if (!first_entry_) out_.push_back(',');
    first_entry_ = false;
    out_.push_back('{');
  }
  void end_entry() {
    out_.append(",\"notices\":[");
    for (size_t i = 0; i < notices_.size(); ++i) {
      if (i > 0) out_.push_back(',');
      append_notice(notices_[i], &out_);
    }
    out_.push_back(']');
    if (!parameters_.empty()) {
      out_.append(",\"parameters\":[");
      for (size_t i = 0; i < parameters_.size(); ++i) {
        if (i > 0) out_.push_back(',');
        out_.append("{\"name\":");
        append_json_string(parameters_[i].first, &out_);
        out_.append(",\"value\":");
        append_json_string(parameters_[i].second, &out_);
        out_.push_back('}');
      }
      out_.push_back(']');
    }
    out_.push_back('}');
    notices_.clear();
    parameters_.clear();
  }
  // Sends out_ as a chunk (the header first, the first time).
  awaitable<bool> flush();

  HttpConnection& connection_;
  const unsigned version_;
  const bool keep_alive_;
  std::string out_;
  RowArena arena_;
  bool first_entry_ = true;
  bool first_row_ = true;
  bool chunked_ = false;
  bool broken_ = false;
  std::vector<ResultNotice> notices_;
  std::vector<std::pair<std::string, std::string>> parameters_;
};

class HttpConnection final : public ClientConnection, public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(tcp::socket socket, ServerContext& context)
      : socket_(std::move(socket)), context_(context), fd_(socket_.native_handle()) {}

  awaitable<void> run();
  void shutdown() override {
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
      // The descriptor is still this connection's until done_ (same thread).
      if (!self->done_) ::shutdown(self->fd_, SHUT_RDWR);
    });
  }

  tcp::socket& socket() { return socket_; }

 private:
  // Handles one request; false when the connection is to close.
  awaitable<bool> handle(Request& request);
  awaitable<bool> handle_sql(Request& request);
  // A plain-text response (errors, health, metrics).
  awaitable<bool> respond(const Request& request, bhttp::status status, std::string body,
                          std::string content_type = kTextPlain, Headers extra = Headers());
  awaitable<bool> method_not_allowed(const Request& request, std::string_view path, std::string allowed);
  awaitable<void> refuse_and_linger(unsigned version, bhttp::status status, std::string body);
  // While a request executes: a client that closes its socket cancels it.
  void watch_disconnect(std::shared_ptr<CancelToken> token);

  tcp::socket socket_;
  ServerContext& context_;
  const int fd_;
  bool done_ = false;
  beast::flat_buffer buffer_;
  HttpEndpoint endpoint_ = HttpEndpoint::kOther;
};

awaitable<bool> HttpSqlSink::flush() {
  if (broken_) co_return false;
  boost::system::error_code ec;
  tcp::socket& socket = connection_.socket();
  if (!chunked_) {
    bhttp::response<bhttp::empty_body> head{bhttp::status::ok, version_};
    head.set(bhttp::field::content_type, "application/json");
    head.keep_alive(keep_alive_);
    head.chunked(true);
    bhttp::response_serializer<bhttp::empty_body> serializer{head};
    co_await bhttp::async_write_header(socket, serializer, asio::redirect_error(use_awaitable, ec));
    chunked_ = true;
  }
  if (!ec && !out_.empty()) {
    co_await asio::async_write(socket, bhttp::make_chunk(asio::buffer(out_)), asio::redirect_error(use_awaitable, ec));
  }
  out_.clear();
  if (ec) broken_ = true;
  co_return !broken_;
}

awaitable<bool> HttpSqlSink::finish() {
  out_.append("]}");
  if (broken_) co_return false;
  boost::system::error_code ec;
  if (chunked_) {
    if (!co_await flush()) co_return false;
    co_await asio::async_write(connection_.socket(), bhttp::make_chunk_last(), asio::redirect_error(use_awaitable, ec));
  } else {
    bhttp::response<bhttp::string_body> response{bhttp::status::ok, version_};
    response.set(bhttp::field::content_type, "application/json");
    response.keep_alive(keep_alive_);
    response.body() = std::move(out_);
    response.prepare_payload();
    co_await bhttp::async_write(connection_.socket(), response, asio::redirect_error(use_awaitable, ec));
  }
  co_return !ec;
}

awaitable<void> HttpConnection::run() {
  context_.metrics.http_connections.fetch_add(1, std::memory_order_relaxed);
  for (;;) {
    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(kHeaderLimit);
    parser.body_limit(context_.options.max_message_size);
    boost::system::error_code ec;
    co_await bhttp::async_read_header(socket_, buffer_, parser, asio::redirect_error(use_awaitable, ec));
    if (!ec && parser.get()[bhttp::field::expect] == "100-continue") {
      // curl asks before sending a larger body.
      bhttp::response<bhttp::empty_body> go_on{bhttp::status::continue_, parser.get().version()};
      co_await bhttp::async_write(socket_, go_on, asio::redirect_error(use_awaitable, ec));
    }
    if (!ec) co_await bhttp::async_read(socket_, buffer_, parser, asio::redirect_error(use_awaitable, ec));
    if (ec == bhttp::error::end_of_stream || ec == asio::error::eof || ec == asio::error::connection_reset ||
        ec == asio::error::operation_aborted || ec == asio::error::bad_descriptor) {
      break;
    }
    if (ec == bhttp::error::body_limit) {
      context_.metrics.count_http_request(HttpEndpoint::kOther, 413);
      co_await refuse_and_linger(parser.get().version(), bhttp::status::payload_too_large,
                                 "request body too large: the limit is " +
                                     std::to_string(context_.options.max_message_size) +
                                     " bytes (--max-message-size)\n");
      break;
    }
    if (ec == bhttp::error::header_limit) {
      context_.metrics.count_http_request(HttpEndpoint::kOther, 431);
      co_await refuse_and_linger(11, bhttp::status::request_header_fields_too_large,
                                 "request header too large: the limit is " + std::to_string(kHeaderLimit) + " bytes\n");
      break;
    }
    if (ec) {
      // Not HTTP (or not valid HTTP/1.x): say so and close.
      context_.metrics.count_http_request(HttpEndpoint::kOther, 400);
      co_await refuse_and_linger(11, bhttp::status::bad_request, "malformed HTTP request: " + ec.message() + "\n");
      break;
    }
    Request request = parser.release();
    if (!co_await handle(request)) break;
  }
  boost::system::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  done_ = true;
  context_.metrics.http_connections.fetch_sub(1, std::memory_order_relaxed);
}

awaitable<void> HttpConnection::refuse_and_linger(unsigned version, bhttp::status status, std::string body) {
  bhttp::response<bhttp::string_body> response{status, version};
  response.set(bhttp::field::content_type, "text/plain; charset=utf-8");
  response.keep_alive(false);
  response.body() = std::move(body);
  response.prepare_payload();
  boost::system::error_code ec;
  co_await bhttp::async_write(socket_, response, asio::redirect_error(use_awaitable, ec));
  if (ec) co_return;
  socket_.shutdown(tcp::socket::shutdown_send, ec);
  asio::steady_timer timer(socket_.get_executor(), kLingerTime);
  timer.async_wait([self = shared_from_this()](boost::system::error_code wait_ec) {
    if (wait_ec) return;
    boost::system::error_code cancel_ec;
    self->socket_.cancel(cancel_ec);
  });
  std::array<char, 16 * 1024> discard;
  for (;;) {
    co_await socket_.async_read_some(asio::buffer(discard), asio::redirect_error(use_awaitable, ec));
    if (ec) break;
  }
  timer.cancel();
}

awaitable<bool> HttpConnection::method_not_allowed(const Request& request, std::string_view path,
                                                   std::string allowed) {
  std::string body = std::string(sv(request.method_string())) + " is not allowed on " + std::string(path) +
                     " (allowed: " + allowed + ")\n";
  Headers extra;
  extra.emplace_back("Allow", std::move(allowed));
  co_return co_await respond(request, bhttp::status::method_not_allowed, std::move(body), kTextPlain,
                             std::move(extra));
}

awaitable<bool> HttpConnection::respond(const Request& request, bhttp::status status, std::string body,
                                        std::string content_type, Headers extra) {
  context_.metrics.count_http_request(endpoint_, static_cast<unsigned>(status));
  bhttp::response<bhttp::string_body> response{status, request.version()};
  response.set(bhttp::field::content_type, content_type);
  for (auto& [name, value] : extra) response.set(name, value);
  response.keep_alive(request.keep_alive());
  const bool head = request.method() == bhttp::verb::head;
  const size_t length = body.size();
  if (!head) response.body() = std::move(body);
  response.prepare_payload();
  if (head) response.content_length(length);  // what GET would send
  boost::system::error_code ec;
  co_await bhttp::async_write(socket_, response, asio::redirect_error(use_awaitable, ec));
  co_return !ec && request.keep_alive();
}

awaitable<bool> HttpConnection::handle(Request& request) {
  const std::string target(request.target());
  const std::string_view path = url_path(target);
  const bhttp::verb method = request.method();
  const bool get = method == bhttp::verb::get || method == bhttp::verb::head;
  if ((path == "/api/sql" || path == "/api/experimental/sql") &&
      !same_origin(sv(request[bhttp::field::origin]), sv(request[bhttp::field::host]))) {
    endpoint_ = path == "/api/sql" ? HttpEndpoint::kSql : HttpEndpoint::kWebSocket;
    co_return co_await respond(request, bhttp::status::forbidden,
                               "cross-origin request refused: Origin " + std::string(request[bhttp::field::origin]) +
                                   " is not this server (Host " + std::string(request[bhttp::field::host]) + ")\n");
  }
  if (path == "/api/sql") {
    endpoint_ = HttpEndpoint::kSql;
    if (method != bhttp::verb::post) co_return co_await method_not_allowed(request, path, "POST");
    co_return co_await handle_sql(request);
  }
  if (path == "/api/experimental/sql") {
    endpoint_ = HttpEndpoint::kWebSocket;
    if (method != bhttp::verb::get) co_return co_await method_not_allowed(request, path, "GET");
    if (!beast::websocket::is_upgrade(request)) {
      co_return co_await respond(request, bhttp::status::bad_request,
                                 "/api/experimental/sql is a WebSocket endpoint: send an Upgrade: websocket request\n");
    }
    std::optional<std::string> user;
    auto credentials = parse_basic_authorization(sv(request[bhttp::field::authorization]));
    if (!credentials.ok()) {
      co_return co_await respond(request, bhttp::status::unauthorized, credentials.status().message() + "\n",
                                 kTextPlain, auth_challenge());
    }
    if (*credentials) {
      // Credentials on the upgrade must be right; without any, the first
      // message authenticates.
      auto authenticated = authenticate(context_.passwords, *credentials);
      if (!authenticated.ok()) {
        co_return co_await respond(request, bhttp::status::unauthorized, authenticated.status().message() + "\n",
                                   kTextPlain, auth_challenge());
      }
      user = std::move(*authenticated);
    }
    context_.metrics.count_http_request(endpoint_, 101);
    // The WebSocket takes the socket; whatever it leaves is closed by run().
    auto self = shared_from_this();
    co_await run_websocket(std::move(socket_), request, context_, std::move(user));
    co_return false;
  }
  if (path == "/api/readyz" || path == "/api/livez") {
    endpoint_ = HttpEndpoint::kHealth;
    if (!get) co_return co_await method_not_allowed(request, path, "GET, HEAD");
    if (path == "/api/readyz" && context_.shutting_down.load()) {
      co_return co_await respond(request, bhttp::status::service_unavailable, "shutting down\n");
    }
    co_return co_await respond(request, bhttp::status::ok, path == "/api/readyz" ? "ready\n" : "live\n");
  }
  if (path == "/metrics") {
    endpoint_ = HttpEndpoint::kMetrics;
    if (!get) co_return co_await method_not_allowed(request, path, "GET, HEAD");
    std::string text = render_metrics(context_);
    co_return co_await respond(request, bhttp::status::ok, std::move(text), kPrometheusText);
  }
  if (path.substr(0, 5) != "/api/") {
    if (auto file = find_static_file(path)) {
      // The console's files carry no data: they are served without
      // authentication; the API calls the page makes authenticate.
      endpoint_ = HttpEndpoint::kConsole;
      if (!get) co_return co_await method_not_allowed(request, path, "GET, HEAD");
      Headers extra;
      extra.emplace_back("Cache-Control", file->embedded ? "no-cache" : "max-age=3600");
      extra.emplace_back("X-Content-Type-Options", "nosniff");
      if (file->content_type.starts_with("text/html")) {
        extra.emplace_back("Content-Security-Policy",
                           "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                           "frame-ancestors 'none'");
      }
      co_return co_await respond(request, bhttp::status::ok, std::move(file->body), file->content_type,
                                 std::move(extra));
    }
  }
  endpoint_ = HttpEndpoint::kOther;
  if (path.starts_with(kChartJsPrefix) && !std::filesystem::is_directory(std::string(kChartJsDirectory))) {
    co_return co_await respond(request, bhttp::status::not_found,
                               "Chart.js is not installed (" + std::string(kChartJsDirectory) +
                                   "): install Debian's libjs-chart.js (scripts/install-deps.sh --run)\n");
  }
  co_return co_await respond(request, bhttp::status::not_found,
                             "no such endpoint: " + std::string(path) +
                                 " (endpoints: GET / (the console), POST /api/sql, GET /api/experimental/sql "
                                 "(WebSocket), GET /api/readyz, GET /api/livez, GET /metrics)\n");
}

awaitable<bool> HttpConnection::handle_sql(Request& request) {
  auto credentials = parse_basic_authorization(sv(request[bhttp::field::authorization]));
  Result<std::string> user = credentials.ok() ? authenticate(context_.passwords, *credentials)
                                              : Result<std::string>(credentials.status());
  if (!user.ok()) {
    spdlog::warn("HTTP authentication failed: {}", user.status().message());
    co_return co_await respond(request, bhttp::status::unauthorized, user.status().message() + "\n",
                               kTextPlain, auth_challenge());
  }
  SessionOptions options;
  auto options_text = url_query_parameter(sv(request.target()), "options");
  if (options_text.ok() && *options_text) {
    auto parsed = parse_session_options(**options_text);
    if (!parsed.ok()) options_text = parsed.status();
    else options = std::move(*parsed);
  }
  if (!options_text.ok()) {
    co_return co_await respond(request, bhttp::status::bad_request, options_text.status().message() + "\n");
  }
  auto body = parse_sql_request(request.body());
  if (!body.ok()) co_return co_await respond(request, bhttp::status::bad_request, body.status().message() + "\n");
  if (context_.shutting_down.load()) {
    co_return co_await respond(request, bhttp::status::service_unavailable, "the database system is shutting down\n");
  }
  if (!context_.connections.try_add(context_.options.max_connections)) {
    co_return co_await respond(request, bhttp::status::service_unavailable,
                               "sorry, too many clients already (--max-connections)\n");
  }
  struct Uncount {
    ConnectionCounter& counter;
    ~Uncount() { counter.remove(); }
  } uncount{context_.connections};
  Session session(*user, "materialize");
  if (Status applied = apply_session_options(session, options); !applied.is_ok()) {
    co_return co_await respond(request, bhttp::status::bad_request, "options: " + applied.message() + "\n");
  }
  // Registered so that shutdown cancels the request's statement.
  const CancelRegistry::Key key = context_.cancels.add(session.cancel_token());
  struct Unregister {
    CancelRegistry& cancels;
    int32_t pid;
    ~Unregister() { cancels.remove(pid); }
  } unregister{context_.cancels, key.process_id};

  context_.metrics.count_http_request(endpoint_, 200);
  HttpSqlSink sink(*this, request.version(), request.keep_alive());
  watch_disconnect(session.cancel_token());
  co_await run_sql_request(context_, session, *body, sink, SqlRunOptions{.session_less = true});
  boost::system::error_code ec;
  socket_.cancel(ec);  // ends the watch
  bool sent = co_await sink.finish();
  co_return sent && request.keep_alive();
}

void HttpConnection::watch_disconnect(std::shared_ptr<CancelToken> token) {
  socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this(), token](boost::system::error_code ec) {
    if (ec == asio::error::operation_aborted) return;
    boost::system::error_code available_ec;
    // Readable with nothing to read: the client closed. (A pipelined next
    // request ends the watch; it is read after this one.)
    if (ec || self->socket_.available(available_ec) == 0) token->cancel(CancelToken::Reason::kUserRequest);
  });
}

}  // namespace

std::shared_ptr<ClientConnection> serve_http_connection(tcp::socket socket, ServerContext& context) {
  auto executor = socket.get_executor();
  auto connection = std::make_shared<HttpConnection>(std::move(socket), context);
  asio::co_spawn(
      executor, [connection]() -> awaitable<void> { co_await connection->run(); }, log_connection_exception);
  return connection;
}

}  // namespace tandem::frontend::http
