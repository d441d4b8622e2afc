#include "frontend/http/websocket_session.hpp"

#include <spdlog/spdlog.h>

#include <deque>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/websocket.hpp>

#include "frontend/http/http_auth.hpp"
#include "frontend/http/json_encoding.hpp"
#include "frontend/http/sql_request.hpp"
#include "frontend/http/sql_runner.hpp"

namespace tandem::frontend::http {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = boost::beast::websocket;
using asio::awaitable;
using asio::use_awaitable;
using tcp = asio::ip::tcp;

namespace {

// Client messages read ahead of the statement running; past this the
// reader stops reading until the executor takes one.
constexpr size_t kInboxLimit = 16;
constexpr auto kCloseTimeout = std::chrono::seconds(5);

std::string message(std::string_view type, std::string_view payload_json) {
  std::string out = "{\"type\":\"";
  out.append(type).append("\",\"payload\":").append(payload_json).append("}");
  return out;
}

std::string parameter_status_message(const std::string& name, const std::string& value) {
  std::string payload = "{\"name\":";
  append_json_string(name, &payload);
  payload.append(",\"value\":");
  append_json_string(value, &payload);
  payload.push_back('}');
  return message("ParameterStatus", payload);
}

class WebSocketSession : public std::enable_shared_from_this<WebSocketSession> {
 public:
  WebSocketSession(tcp::socket socket, ServerContext& context)
      : ws_(std::move(socket)), context_(context), wake_(ws_.get_executor()), reader_wake_(ws_.get_executor()) {}

  awaitable<void> run(const beast::http::request<beast::http::string_body>& request,
                      std::optional<std::string> authenticated_user);

  // Sends one message; false when the socket is gone.
  awaitable<bool> send(std::string text) {
    if (closed_) co_return false;
    boost::system::error_code ec;
    co_await ws_.async_write(asio::buffer(text), asio::redirect_error(use_awaitable, ec));
    if (ec) mark_closed();
    co_return !closed_;
  }
  bool closed() const { return closed_; }

 private:
  awaitable<void> read_loop();
  // The next client message; nullopt once the client is gone.
  awaitable<std::optional<std::string>> next_message();
  void mark_closed() {
    if (closed_) return;
    closed_ = true;
    // Ends a running statement (a SUBSCRIBE waiting for updates).
    if (session_) session_->cancel_token()->cancel(CancelToken::Reason::kUserRequest);
    wake_.cancel();
    reader_wake_.cancel();
  }
  awaitable<bool> start_session(std::optional<std::string> authenticated_user);
  awaitable<void> send_error(const Status& status) {
    std::string payload;
    append_error(status, &payload);
    co_await send(message("Error", payload));
  }
  awaitable<void> ready_for_query();

  websocket::stream<tcp::socket> ws_;
  ServerContext& context_;
  asio::steady_timer wake_;         // the executor waits here for a message
  asio::steady_timer reader_wake_;  // the reader waits here while the inbox is full
  std::deque<std::string> inbox_;
  bool closed_ = false;
  bool reader_done_ = false;
  std::unique_ptr<Session> session_;
  std::optional<CancelRegistry::Key> cancel_key_;
  bool counted_ = false;
  std::vector<std::pair<std::string, std::string>> pending_parameters_;

  friend class WebSocketSink;
};

// Encodes a request's events as WebSocket messages.
class WebSocketSink final : public SqlSink {
 public:
  explicit WebSocketSink(WebSocketSession& ws, std::vector<std::pair<std::string, std::string>>& parameters)
      : ws_(ws), parameters_(parameters) {}
  awaitable<void> command_starting(bool has_rows, bool is_streaming) override {
    co_await ws_.send(message("CommandStarting", std::string("{\"has_rows\":") + (has_rows ? "true" : "false") +
                                                     ",\"is_streaming\":" + (is_streaming ? "true" : "false") + "}"));
  }
  awaitable<void> rows_begin(std::span<const ResultColumn> columns) override {
    co_await flush_notices();
    std::string payload;
    append_description(columns, &payload);
    co_await ws_.send(message("Rows", payload));
  }
  awaitable<bool> rows(std::span<const ResultColumn> columns, std::span<const Row> rows) override {
    // One message at a time: the next batch is pulled only after the
    // socket took this one (backpressure).
    for (const Row& row : rows) {
      std::string text = "{\"type\":\"Row\",\"payload\":";
      append_row(columns, row, arena_, &text);
      arena_.clear();
      text.push_back('}');
      if (!co_await ws_.send(std::move(text))) co_return false;
    }
    co_return !ws_.closed();
  }
  awaitable<void> command_complete(const std::string& tag, bool) override {
    co_await flush_notices();
    std::string payload;
    append_json_string(tag, &payload);
    co_await ws_.send(message("CommandComplete", payload));
  }
  awaitable<void> error(const Status& status, bool) override {
    co_await flush_notices();
    std::string payload;
    append_error(status, &payload);
    co_await ws_.send(message("Error", payload));
  }
  void notice(const ResultNotice& notice) override { notices_.push_back(notice); }
  void parameter_status(const std::string& name, const std::string& value) override {
    parameters_.emplace_back(name, value);
  }

 private:
  awaitable<void> flush_notices() {
    for (const ResultNotice& n : notices_) {
      std::string payload;
      append_notice(n, &payload);
      co_await ws_.send(message("Notice", payload));
    }
    notices_.clear();
  }

  WebSocketSession& ws_;
  std::vector<std::pair<std::string, std::string>>& parameters_;
  std::vector<ResultNotice> notices_;
  RowArena arena_;
};

awaitable<void> WebSocketSession::read_loop() {
  auto self = shared_from_this();
  for (;;) {
    while (inbox_.size() >= kInboxLimit && !closed_) {
      boost::system::error_code ec;
      reader_wake_.expires_at(asio::steady_timer::time_point::max());
      co_await reader_wake_.async_wait(asio::redirect_error(use_awaitable, ec));
    }
    if (closed_) break;
    beast::flat_buffer buffer;
    boost::system::error_code ec;
    co_await ws_.async_read(buffer, asio::redirect_error(use_awaitable, ec));
    if (ec) {
      if (ec == websocket::error::buffer_overflow || ec == websocket::error::message_too_big) {
        spdlog::info("WebSocket message over --max-message-size: closing");
      }
      mark_closed();
      break;
    }
    inbox_.push_back(beast::buffers_to_string(buffer.data()));
    wake_.cancel();
  }
  reader_done_ = true;
  wake_.cancel();
}

awaitable<std::optional<std::string>> WebSocketSession::next_message() {
  while (inbox_.empty() && !closed_) {
    boost::system::error_code ec;
    wake_.expires_at(asio::steady_timer::time_point::max());
    co_await wake_.async_wait(asio::redirect_error(use_awaitable, ec));
  }
  if (closed_ || inbox_.empty()) co_return std::nullopt;
  std::string text = std::move(inbox_.front());
  inbox_.pop_front();
  reader_wake_.cancel();
  co_return text;
}

awaitable<bool> WebSocketSession::start_session(std::optional<std::string> authenticated_user) {
  auto first = co_await next_message();
  if (!first) co_return false;
  auto auth = parse_websocket_auth(*first);
  if (!auth.ok()) {
    co_await send_error(auth.status());
    co_return false;
  }
  Result<std::string> user = Status::ok();
  if (auth->user || auth->password || !authenticated_user) {
    std::optional<Credentials> credentials;
    if (auth->user) credentials = Credentials{*auth->user, auth->password};
    user = authenticate(context_.passwords, credentials);
  } else {
    user = *authenticated_user;
  }
  if (!user.ok()) {
    spdlog::warn("WebSocket authentication failed: {}", user.status().message());
    co_await send_error(user.status());
    co_return false;
  }
  if (context_.shutting_down.load()) {
    co_await send_error(Status::error(sqlstate::kAdminShutdown, "the database system is shutting down"));
    co_return false;
  }
  if (!context_.connections.try_add(context_.options.max_connections)) {
    co_await send_error(Status::error(sqlstate::kTooManyConnections, "sorry, too many clients already"));
    co_return false;
  }
  counted_ = true;
  context_.metrics.websocket_sessions.fetch_add(1, std::memory_order_relaxed);
  session_ = std::make_unique<Session>(*user, "materialize");
  if (Status applied = apply_session_options(*session_, auth->options); !applied.is_ok()) {
    co_await send_error(applied);
    co_return false;
  }
  cancel_key_ = context_.cancels.add(session_->cancel_token());
  for (const auto& [name, value] : session_->vars().reported()) {
    co_await send(parameter_status_message(name, value));
  }
  co_await send(message("BackendKeyData", "{\"conn_id\":" + std::to_string(cancel_key_->process_id) +
                                               ",\"secret_key\":" + std::to_string(cancel_key_->secret_key) + "}"));
  co_await ready_for_query();
  spdlog::info("WebSocket session for user {}", session_->user());
  co_return !closed_;
}

awaitable<void> WebSocketSession::ready_for_query() {
  for (const auto& [name, value] : pending_parameters_) co_await send(parameter_status_message(name, value));
  pending_parameters_.clear();
  const char* status = "\"I\"";
  if (session_->transaction() == TransactionState::kInBlock) status = "\"T\"";
  if (session_->transaction() == TransactionState::kFailed) status = "\"E\"";
  co_await send(message("ReadyForQuery", status));
}

awaitable<void> WebSocketSession::run(const beast::http::request<beast::http::string_body>& request,
                                      std::optional<std::string> authenticated_user) {
  boost::system::error_code ec;
  ws_.read_message_max(context_.options.max_message_size);
  ws_.text(true);
  co_await ws_.async_accept(request, asio::redirect_error(use_awaitable, ec));
  if (ec) co_return;
  asio::co_spawn(ws_.get_executor(), read_loop(), asio::detached);
  if (co_await start_session(std::move(authenticated_user))) {
    while (auto text = co_await next_message()) {
      auto body = parse_sql_request(*text);
      if (!body.ok()) {
        co_await send_error(body.status());
      } else {
        WebSocketSink sink(*this, pending_parameters_);
        co_await run_sql_request(context_, *session_, *body, sink, SqlRunOptions{.session_less = false});
      }
      if (closed_) break;
      co_await ready_for_query();
    }
  }
  // Ends the reader: a close handshake if the client is still there, then
  // the socket's pending read is canceled.
  if (!closed_) {
    closed_ = true;
    // A client that never answers the close frame is cut off.
    asio::steady_timer deadline(ws_.get_executor(), kCloseTimeout);
    deadline.async_wait([self = shared_from_this()](boost::system::error_code wait_ec) {
      if (wait_ec) return;
      boost::system::error_code cancel_ec;
      beast::get_lowest_layer(self->ws_).cancel(cancel_ec);
    });
    co_await ws_.async_close(websocket::close_code::normal, asio::redirect_error(use_awaitable, ec));
    deadline.cancel();
  }
  beast::get_lowest_layer(ws_).cancel(ec);
  reader_wake_.cancel();
  while (!reader_done_) {
    wake_.expires_at(asio::steady_timer::time_point::max());
    co_await wake_.async_wait(asio::redirect_error(use_awaitable, ec));
  }
  if (cancel_key_) context_.cancels.remove(cancel_key_->process_id);
  if (counted_) {
    context_.metrics.websocket_sessions.fetch_sub(1, std::memory_order_relaxed);
    context_.connections.remove();
  }
  if (session_) spdlog::info("WebSocket session for user {} closed", session_->user());
  session_.reset();  // drops a transaction's writes and cursors
}

}  // namespace

awaitable<void> run_websocket(tcp::socket socket, const beast::http::request<beast::http::string_body>& request,
                              ServerContext& context, std::optional<std::string> authenticated_user) {
  auto session = std::make_shared<WebSocketSession>(std::move(socket), context);
  co_await session->run(request, std::move(authenticated_user));
}

}  // namespace tandem::frontend::http
