#include "frontend/protocol/connection.hpp"

#include <spdlog/spdlog.h>

#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <cstring>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "frontend/adapter/adapter.hpp"
#include "frontend/adapter/copy_binary.hpp"
#include "frontend/adapter/table_copy.hpp"
#include "frontend/pgwire/scram.hpp"
#include "frontend/pgwire/startup_options.hpp"
#include "frontend/protocol/result_encoder.hpp"
#include "frontend/server/server_metrics.hpp"
#include "frontend/server/statement_runner.hpp"
#include "common/value_io.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;

namespace {

constexpr size_t kReadChunk = 16 * 1024;
// Flush mid-result once this much output is buffered.
constexpr size_t kFlushThreshold = 256 * 1024;

pgwire::TransactionStatus wire_status(TransactionState t) {
  switch (t) {
    case TransactionState::kIdle:
      return pgwire::TransactionStatus::kIdle;
    case TransactionState::kInBlock:
      return pgwire::TransactionStatus::kInTransaction;
    case TransactionState::kFailed:
      return pgwire::TransactionStatus::kFailed;
  }
  return pgwire::TransactionStatus::kIdle;
}

Status protocol_violation(std::string message) {
  return Status::error(sqlstate::kProtocolViolation, std::move(message));
}

}  // namespace

Connection::Connection(asio::ip::tcp::socket socket, ServerContext& context)
    : socket_(std::move(socket)),
      context_(context),
      decoder_(context.options.max_message_size),
      startup_deadline_(socket_.get_executor()) {
  in_.resize(kReadChunk);
  out_.reserve(kReadChunk);
}

Connection::~Connection() {
  if (cancel_key_) context_.cancels.remove(cancel_key_->process_id);
  if (counted_) {
    context_.metrics.pgwire_connections.fetch_sub(1, std::memory_order_relaxed);
    context_.connections.remove();
  }
  if (startup_counted_) context_.connections.remove_startup();
}

void Connection::shutdown() {
  auto self = shared_from_this();
  asio::post(socket_.get_executor(), [self] {
    if (self->phase_ == Phase::kDone) return;
    self->fatal(Status::error(sqlstate::kAdminShutdown, "terminating connection due to administrator command"));
    boost::system::error_code ec;
    asio::write(self->socket_, asio::buffer(self->out_), ec);
    self->out_.clear();
    self->socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
    self->socket_.close(ec);
  });
}

std::span<const uint8_t> Connection::pending() const {
  return std::span<const uint8_t>(in_.data() + in_begin_, in_end_ - in_begin_);
}

void Connection::consume(size_t n) { in_begin_ += n; }

// Ensures at least `needed` unconsumed bytes are buffered. Returns false when
// the peer closed the connection.
awaitable<bool> Connection::fill(size_t needed) {
  while (in_end_ - in_begin_ < needed) {
    // Move the unconsumed bytes to the front, then read into the free tail.
    // The buffer only grows (never zero-filled per read: it is on the path
    // of every query).
    if (in_begin_ > 0) {
      std::memmove(in_.data(), in_.data() + in_begin_, in_end_ - in_begin_);
      in_end_ -= in_begin_;
      in_begin_ = 0;
    }
    if (in_.size() < needed || in_.size() - in_end_ < kReadChunk / 4) {
      in_.resize(std::max(in_.size() * 2, needed + kReadChunk));
    }
    // Read at once, but through the event loop every so often: a client
    // that keeps sending would otherwise hold this thread from the other
    // connections on it.
    if (eager_reads_ < kEagerReads) {
      if (std::optional<bool> read = recv_now()) {
        if (!*read) co_return false;
        ++eager_reads_;
        continue;
      }
    }
    eager_reads_ = 0;
    boost::system::error_code ec;
    size_t n = co_await socket_.async_read_some(asio::buffer(in_.data() + in_end_, in_.size() - in_end_),
                                                asio::redirect_error(use_awaitable, ec));
    in_end_ += n;
    if (ec || n == 0) co_return false;
  }
  co_return true;
}

// One non-blocking recv(2) into the free tail of in_: true when it read
// something, false when the peer closed the connection or it failed,
// nullopt when nothing has arrived yet. A client that sends its next
// statement as soon as it has the reply has usually done so by the time
// the connection wants it: then it is read here, without a trip through
// the event loop (which costs a handler round and an epoll_wait), as
// send_now sends. Reads outside asio lose no wake-up: the reactor's
// descriptor is edge-triggered and its next read tries the socket first
// whenever an event came in meanwhile.
std::optional<bool> Connection::recv_now() {
  while (true) {
    ssize_t n = ::recv(socket_.native_handle(), in_.data() + in_end_, in_.size() - in_end_, MSG_DONTWAIT);
    if (n > 0) {
      in_end_ += static_cast<size_t>(n);
      return true;
    }
    if (n == 0) return false;
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return std::nullopt;
    return false;
  }
}

// Non-blocking send(2)s of out_ from `offset` while the socket takes them;
// returns how much of out_ is sent. A reply usually fits the socket's
// buffer whole: then no write is queued on the reactor, and the coroutine
// goes on without a trip through the event loop.
size_t Connection::send_now(size_t offset) {
  while (offset < out_.size()) {
    ssize_t n = ::send(socket_.native_handle(), out_.data() + offset, out_.size() - offset, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n > 0) {
      offset += static_cast<size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      break;  // full, or failed: the asynchronous write waits, or reports the error
    }
  }
  return offset;
}

awaitable<void> Connection::flush() {
  if (!out_.empty()) {
    size_t sent = send_now(0);
    boost::system::error_code ec;
    if (sent < out_.size()) {
      co_await asio::async_write(socket_, asio::buffer(out_.data() + sent, out_.size() - sent),
                                 asio::redirect_error(use_awaitable, ec));
    }
    out_.clear();
    if (ec) phase_ = Phase::kDone;
  }
  if (session_) session_->run_after_reply();
}

void Connection::fatal(const Status& status) {
  Status s = status;
  writer_.error_response(std::move(s).fatal());
  phase_ = Phase::kDone;
}

awaitable<void> Connection::run() {
  boost::system::error_code ec;
  auto endpoint = socket_.remote_endpoint(ec);
  socket_.set_option(asio::ip::tcp::no_delay(true), ec);
  std::string peer = ec ? std::string("?") : endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  startup_counted_ = context_.connections.try_add_startup(context_.options.max_startup_connections);
  if (!startup_counted_) {
    spdlog::warn("connection from {} refused: {} connections are in startup", peer,
                 context_.options.max_startup_connections);
    fatal(Status::error(sqlstate::kTooManyConnections, "sorry, too many clients already"));
    co_await flush();
    socket_.close(ec);
    co_return;
  }
  startup_deadline_.expires_after(context_.options.auth_timeout);
  startup_deadline_.async_wait([weak = weak_from_this(), peer](const boost::system::error_code& e) {
    auto self = weak.lock();
    if (e || !self || self->phase_ != Phase::kStartup) return;
    spdlog::warn("connection from {} closed: startup and authentication took longer than {} ms", peer,
                 self->context_.options.auth_timeout.count());
    boost::system::error_code ignored;
    self->socket_.close(ignored);
  });
  const bool started = co_await startup();
  startup_deadline_.cancel();
  context_.connections.remove_startup();
  startup_counted_ = false;
  if (started) {
    spdlog::info("connection from {} user={} database={}", peer, session_->user(), session_->database());
    co_await serve();
  }
  co_await flush();
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  if (session_) spdlog::info("connection from {} closed", peer);
}

// ---- startup and authentication ----

awaitable<bool> Connection::startup() {
  for (;;) {
    auto r = decoder_.try_decode_startup(pending());
    if (r.needs_more()) {
      if (!co_await fill(r.bytes_needed())) co_return false;
      continue;
    }
    if (r.is_error()) {
      spdlog::warn("startup protocol error: {}", r.status().message());
      fatal(r.status());
      co_return false;
    }
    size_t consumed = r.consumed();
    auto message = std::move(r.message());
    if (std::holds_alternative<pgwire::SslRequest>(message) ||
        std::holds_alternative<pgwire::GssEncRequest>(message)) {
      consume(consumed);
      out_.push_back('N');  // no TLS, no GSSAPI encryption: the client goes on in the clear
      co_await flush();
      continue;
    }
    if (auto* cancel = std::get_if<pgwire::CancelRequest>(&message)) {
      bool hit = context_.cancels.cancel({cancel->process_id, cancel->secret_key});
      spdlog::debug("cancel request for pid {}: {}", cancel->process_id, hit ? "delivered" : "no match");
      consume(consumed);
      co_return false;  // PostgreSQL closes a cancel connection without a reply
    }
    auto& startup = std::get<pgwire::StartupMessage>(message);
    auto user = startup.parameter("user");
    if (!user || user->empty()) {
      fatal(Status::error(sqlstate::kInvalidAuthorizationSpecification,
                          "no PostgreSQL user name specified in startup packet"));
      co_return false;
    }
    std::string database(startup.parameter("database").value_or("materialize"));
    if (database.empty()) database = "materialize";
    session_ = std::make_unique<Session>(std::string(*user), database);
    session_->set_runs_after_reply(true);  // flush() and execute() run it
    // The settings in `options` come first, so a parameter also given on
    // its own in the startup packet wins, as in PostgreSQL.
    std::vector<std::pair<std::string, std::string>> startup_vars;
    if (auto options = startup.parameter("options")) {
      auto settings = pgwire::parse_startup_options(*options);
      if (!settings.ok()) {
        fatal(settings.status());
        co_return false;
      }
      startup_vars = std::move(*settings);
    }
    for (auto [key, value] : startup.parameters) {
      if (key == "user" || key == "database" || key == "options" || key == "replication" ||
          key.substr(0, 5) == "_pq_.")
        continue;
      startup_vars.emplace_back(std::string(key), std::string(value));
    }
    consume(consumed);

    if (context_.shutting_down.load()) {
      fatal(Status::error(sqlstate::kAdminShutdown, "the database system is shutting down"));
      co_return false;
    }
    if (!co_await authenticate()) co_return false;
    if (!context_.connections.try_add(context_.options.max_connections)) {
      fatal(Status::error(sqlstate::kTooManyConnections, "sorry, too many clients already"));
      co_return false;
    }
    counted_ = true;
    context_.metrics.pgwire_connections.fetch_add(1, std::memory_order_relaxed);

    writer_.authentication_ok();
    for (auto& [key, value] : startup_vars) {
      Status s = session_->vars().set_startup(key, value);
      if (!s.is_ok()) {
        if (s.sqlstate() == sqlstate::kUndefinedObject) continue;  // unknown parameters are ignored
        fatal(s);
        co_return false;
      }
    }
    if (database != "materialize") {
      pgwire::Notice notice;
      std::string text = "session database \"" + database + "\" does not exist";
      notice.message = text;
      notice.sqlstate = sqlstate::kUndefinedObject;
      writer_.notice_response(notice);
    }
    for (auto& [name, value] : session_->vars().reported()) writer_.parameter_status(name, value);
    cancel_key_ = context_.cancels.add(session_->cancel_token());
    session_->cancel_token()->set_on_wait([weak = weak_from_this(), executor = socket_.get_executor()] {
      asio::post(executor, [weak] {
        if (auto self = weak.lock()) self->watch_while_executing();
      });
    });
    writer_.backend_key_data(cancel_key_->process_id, cancel_key_->secret_key);
    writer_.ready_for_query(pgwire::TransactionStatus::kIdle);
    phase_ = Phase::kReady;
    co_await flush();
    co_return phase_ != Phase::kDone;
  }
}

awaitable<std::optional<pgwire::PasswordMessage>> Connection::read_password_message() {
  for (;;) {
    auto r = decoder_.try_decode(pending());
    if (r.needs_more()) {
      if (!co_await fill(r.bytes_needed())) co_return std::nullopt;
      continue;
    }
    if (r.is_error()) {
      fatal(r.status());
      co_return std::nullopt;
    }
    auto* p = std::get_if<pgwire::PasswordMessage>(&r.message());
    if (p == nullptr) {
      fatal(protocol_violation("expected password response"));
      co_return std::nullopt;
    }
    // The payload views stay valid: nothing is read until the caller is done.
    pgwire::PasswordMessage message = *p;
    consume(r.consumed());
    co_return message;
  }
}

awaitable<bool> Connection::authenticate() {
  if (context_.passwords == nullptr) co_return true;  // trust
  const std::string& user = session_->user();
  auto auth_failed = [&] {
    return Status::error(sqlstate::kInvalidPassword, "password authentication failed for user \"" + user + "\"");
  };
  auto password = context_.passwords->lookup(user);
  // An unknown user goes through the same exchange and fails at the end, so
  // the replies do not reveal which users exist.
  pgwire::ScramServer scram = password ? pgwire::ScramServer(user, std::string(*password))
                                       : pgwire::ScramServer::for_unknown_user(user);
  std::string_view mechanisms[] = {"SCRAM-SHA-256"};
  writer_.authentication_sasl(mechanisms);
  co_await flush();

  auto first = co_await read_password_message();
  if (!first) co_return false;
  auto initial = first->as_sasl_initial_response();
  if (!initial.ok()) {
    fatal(initial.status());
    co_return false;
  }
  if (initial->mechanism != "SCRAM-SHA-256" || !initial->data) {
    fatal(protocol_violation("client selected an invalid SASL authentication mechanism"));
    co_return false;
  }
  auto server_first = scram.handle_client_first(*initial->data);
  if (!server_first.ok()) {
    fatal(server_first.status());
    co_return false;
  }
  writer_.authentication_sasl_continue(*server_first);
  co_await flush();

  auto final_message = co_await read_password_message();
  if (!final_message) co_return false;
  auto server_final = scram.handle_client_final(final_message->as_sasl_response());
  if (!server_final.ok() || !password) {
    spdlog::warn("password authentication failed for user \"{}\"", user);
    if (context_.options.auth_failure_delay.count() > 0) {
      asio::steady_timer delay(socket_.get_executor(), context_.options.auth_failure_delay);
      boost::system::error_code ignored;
      co_await delay.async_wait(asio::redirect_error(use_awaitable, ignored));
    }
    fatal(server_final.ok() ? auth_failed() : server_final.status());
    co_return false;
  }
  writer_.authentication_sasl_final(*server_final);
  co_return true;
}

// ---- the Ready phase ----

awaitable<void> Connection::serve() {
  while (phase_ != Phase::kDone) {
    auto r = decoder_.try_decode(pending());
    if (r.needs_more()) {
      // Everything received so far is handled: answer before waiting.
      co_await flush();
      if (phase_ == Phase::kDone) break;
      if (!co_await fill(r.bytes_needed())) break;
      continue;
    }
    if (r.is_error() && r.skippable()) {
      // PostgreSQL's "invalid message format": an error, not the end of the
      // session. A malformed Query ends its query cycle; any other message
      // skips to the next Sync, as extended-protocol errors do.
      const bool query = pending()[0] == 'Q';
      consume(r.consumed());
      if (phase_ == Phase::kDrainUntilSync) continue;
      report_error(r.status(), !query);
      if (query) ready_for_query();
      continue;
    }
    if (r.is_error()) {
      spdlog::warn("protocol error from user {}: {}", session_->user(), r.status().message());
      fatal(r.status());
      break;
    }
    size_t consumed = r.consumed();
    auto& message = r.message();
    if (std::holds_alternative<pgwire::Terminate>(message)) break;
    if (phase_ == Phase::kDrainUntilSync) {
      if (std::holds_alternative<pgwire::Sync>(message)) {
        phase_ = Phase::kReady;
        consume(consumed);
        if (session_->implicit()) co_await end_extended_implicit(/*failed=*/true);
        on_sync();
        continue;
      }
      consume(consumed);
      continue;
    }
    if (auto* m = std::get_if<pgwire::Query>(&message)) {
      // Consumed first: a COPY FROM inside reads further messages.
      std::string sql(m->sql);
      consume(consumed);
      co_await on_query(sql);
      if (out_.size() >= kFlushThreshold) co_await flush();
      continue;
    } else if (auto* m = std::get_if<pgwire::Parse>(&message)) {
      on_parse(*m);
    } else if (auto* m = std::get_if<pgwire::Bind>(&message)) {
      on_bind(*m);
    } else if (auto* m = std::get_if<pgwire::Describe>(&message)) {
      on_describe(*m);
    } else if (auto* m = std::get_if<pgwire::Execute>(&message)) {
      pgwire::Execute execute{"", m->max_rows};
      std::string portal(m->portal);
      execute.portal = portal;
      consume(consumed);
      co_await on_execute(execute);
      if (out_.size() >= kFlushThreshold) co_await flush();
      continue;
    } else if (auto* m = std::get_if<pgwire::Close>(&message)) {
      on_close(*m);
    } else if (std::holds_alternative<pgwire::Sync>(message)) {
      if (session_->implicit()) {
        consume(consumed);
        co_await end_extended_implicit(/*failed=*/false);
        on_sync();
        if (out_.size() >= kFlushThreshold) co_await flush();
        continue;
      }
      on_sync();
    } else if (std::holds_alternative<pgwire::Flush>(message)) {
      consume(consumed);
      co_await flush();
      continue;
    } else if (std::holds_alternative<pgwire::PasswordMessage>(message)) {
      fatal(protocol_violation("unexpected password message"));
    }
    // CopyData/CopyDone/CopyFail outside COPY IN are ignored, as in PostgreSQL.
    consume(consumed);
    if (out_.size() >= kFlushThreshold) co_await flush();
  }
}

void Connection::report_error(const Status& status, bool extended) {
  // Damaged data is the operator's business, not only the client's.
  const auto level = status.sqlstate() == sqlstate::kDataCorrupted ? spdlog::level::err : spdlog::level::info;
  spdlog::log(level, "error {} for user {}: {}", status.sqlstate(), session_->user(), status.message());
  writer_.error_response(status);
  fail_transaction(*session_);
  if (extended) phase_ = Phase::kDrainUntilSync;
}

void Connection::send_notices_and_parameters(const ExecResult& result) {
  for (const ResultNotice& n : result.notices) {
    pgwire::Notice notice;
    notice.severity = n.severity == ResultNotice::Severity::kWarning ? pgwire::NoticeSeverity::kWarning
                                                                      : pgwire::NoticeSeverity::kNotice;
    notice.sqlstate = n.status.sqlstate();
    notice.message = n.status.message();
    notice.detail = n.status.detail();
    notice.hint = n.status.hint();
    writer_.notice_response(notice);
  }
  // Reported like PostgreSQL: once, just before the next ReadyForQuery.
  for (const auto& change : result.parameter_changes) pending_parameters_.push_back(change);
}

awaitable<Result<ExecResult>> Connection::execute(const PreparedStatement& statement, const Row& params) {
  executing_ = true;
  auto result = co_await run_statement(context_, *session_, statement, params);
  executing_ = false;
  if (watching_) {
    watching_ = false;
    boost::system::error_code ec;
    socket_.cancel(ec);
  }
  co_return result;
}

namespace {

// Whether the peer closed or reset the connection (whatever input of it is
// still unread).
bool peer_hung_up(int fd) {
  pollfd p{fd, POLLIN | POLLRDHUP, 0};
  return ::poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
}

// Whether the unread input on `fd` (peeked, not consumed) holds a
// Terminate message among its first complete messages: the client is
// leaving (its close may still be on the way).
bool sends_terminate(int fd) {
  std::array<uint8_t, 4096> buf;
  const ssize_t n = ::recv(fd, buf.data(), buf.size(), MSG_PEEK | MSG_DONTWAIT);
  size_t pos = 0;
  while (n > 0 && pos + 5 <= static_cast<size_t>(n)) {
    if (buf[pos] == 'X') return true;
    const uint32_t length = (uint32_t{buf[pos + 1]} << 24) | (uint32_t{buf[pos + 2]} << 16) |
                            (uint32_t{buf[pos + 3]} << 8) | uint32_t{buf[pos + 4]};
    if (length < 4) return false;
    pos += 1 + length;
  }
  return false;
}

}  // namespace

void Connection::watch_while_executing() {
  if (!executing_ || watching_ || phase_ == Phase::kDone) return;
  watching_ = true;
  socket_.async_wait(asio::ip::tcp::socket::wait_read, [this, self = shared_from_this()](
                                                           const boost::system::error_code& ec) {
    if (ec == asio::error::operation_aborted || !executing_) return;
    // The peer closed (or reset) the connection, or is closing it (its
    // Terminate has arrived): cancel the statement.
    const int fd = socket_.native_handle();
    if (ec || peer_hung_up(fd) || sends_terminate(fd)) {
      spdlog::info("client went away during a statement: canceling it");
      session_->cancel_token()->cancel(CancelToken::Reason::kClientGone);
      return;
    }
    // Woken with nothing to read (an edge the last read consumed): watch
    // on. Input that arrived (pipelined messages) stays unread for after
    // the statement, and the watch ends: the client is there.
    boost::system::error_code available_ec;
    if (socket_.available(available_ec) == 0 && !available_ec) {
      watching_ = false;
      watch_while_executing();
    }
  });
}

awaitable<void> Connection::on_query(std::string_view sql) {
  // The views into the input buffer must not outlive this message; the
  // statements keep their own copies of the text.
  auto parsed = context_.adapter.parse(sql);
  if (!parsed.ok()) {
    report_error(parsed.status(), false);
    ready_for_query();
    co_return;
  }
  if (parsed->empty()) writer_.empty_query_response();
  // Several statements form one implicit transaction (PostgreSQL's rule):
  // their writes commit together once all succeed, and none if one fails.
  const bool implicit = parsed->size() > 1;
  if (implicit) session_->begin_implicit();
  bool failed = false;
  for (auto& statement : *parsed) {
    failed = true;
    if (Status aborted = check_not_aborted(*session_, statement); !aborted.is_ok()) {
      report_error(aborted, false);
      break;
    }
    auto prepared = context_.adapter.prepare(*session_, std::move(statement), {});
    if (!prepared.ok()) {
      report_error(prepared.status(), false);
      break;
    }
    auto result = co_await execute(**prepared, Row());
    if (!result.ok()) {
      report_error(result.status(), false);
      break;
    }
    send_notices_and_parameters(*result);
    if (result->empty_query) {
      writer_.empty_query_response();
      failed = false;
      continue;
    }
    if (result->copy_in || result->copy_out) {
      Status copied = co_await run_copy(**prepared, *result);
      if (!copied.is_ok()) {
        report_error(copied, false);
        break;
      }
      failed = false;
      continue;
    }
    std::string tag = result->tag;
    if (result->returns_rows) {
      write_row_description(writer_, result->columns, {});
      write_data_rows(writer_, *result, 0, result->rows.size(), {});
    }
    if (result->stream) {
      auto sent = co_await send_stream(*result, {}, 0);
      if (!sent.ok()) {
        report_error(sent.status(), false);
        break;
      }
      tag += " " + std::to_string(result->rows.size() + *sent);
    }
    writer_.command_complete(tag);
    if (out_.size() >= kFlushThreshold) co_await flush();
    failed = false;
  }
  if (implicit) {
    if (auto committed = co_await end_implicit_transaction(context_, *session_, failed)) report_error(*committed, false);
  }
  ready_for_query();
}

void Connection::on_parse(const pgwire::Parse& m) {
  auto& statements = session_->statements();
  if (!m.statement.empty() && statements.count(m.statement) != 0) {
    report_error(Status::error(sqlstate::kDuplicatePreparedStatement,
                               "prepared statement \"" + std::string(m.statement) + "\" already exists"),
                 true);
    return;
  }
  auto parsed = context_.adapter.parse(m.query);
  if (!parsed.ok()) {
    report_error(parsed.status(), true);
    return;
  }
  if (parsed->size() > 1) {
    report_error(Status::error(sqlstate::kSyntaxError, "cannot insert multiple commands into a prepared statement"),
                 true);
    return;
  }
  std::optional<sql::ParsedStatement> statement;
  if (!parsed->empty()) statement = std::move(parsed->front());
  auto prepared = context_.adapter.prepare(*session_, std::move(statement), m.param_types);
  if (!prepared.ok()) {
    report_error(prepared.status(), true);
    return;
  }
  statements[std::string(m.statement)] = std::move(*prepared);
  writer_.parse_complete();
}

void Connection::on_bind(const pgwire::Bind& m) {
  auto& statements = session_->statements();
  auto it = statements.find(m.statement);
  if (it == statements.end()) {
    report_error(Status::error(sqlstate::kUndefinedPreparedStatement,
                               "prepared statement \"" + std::string(m.statement) + "\" does not exist"),
                 true);
    return;
  }
  auto& portals = session_->portals();
  if (!m.portal.empty() && portals.count(m.portal) != 0) {
    report_error(Status::error(sqlstate::kDuplicateCursor, "portal \"" + std::string(m.portal) + "\" already exists"),
                 true);
    return;
  }
  const auto& statement = it->second;
  if (session_->transaction() == TransactionState::kFailed &&
      !(statement->parsed && Adapter::ends_transaction(*statement->parsed))) {
    report_error(Status::error(sqlstate::kInFailedSqlTransaction,
                               "current transaction is aborted, commands ignored until end of transaction block"),
                 true);
    return;
  }
  auto params = decode_parameters(*statement, m);
  if (!params.ok()) {
    report_error(params.status(), true);
    return;
  }
  auto formats = normalize_result_formats(m.result_formats, statement->result_columns.size());
  if (!formats.ok()) {
    report_error(formats.status(), true);
    return;
  }
  Portal portal;
  portal.statement = statement;
  portal.params = std::move(*params);
  portal.result_formats = std::move(*formats);
  portals[std::string(m.portal)] = std::move(portal);
  writer_.bind_complete();
}

void Connection::on_describe(const pgwire::Describe& m) {
  if (m.kind == 'S') {
    auto& statements = session_->statements();
    auto it = statements.find(m.name);
    if (it == statements.end()) {
      report_error(Status::error(sqlstate::kUndefinedPreparedStatement,
                                 "prepared statement \"" + std::string(m.name) + "\" does not exist"),
                   true);
      return;
    }
    std::vector<pgwire::Oid> oids;
    for (const ColumnType& t : it->second->param_types) oids.push_back(type_oid(t.id));
    writer_.parameter_description(oids);
    if (it->second->returns_rows) {
      write_row_description(writer_, it->second->result_columns, {});
    } else {
      writer_.no_data();
    }
    return;
  }
  auto& portals = session_->portals();
  auto it = portals.find(m.name);
  if (it == portals.end()) {
    report_error(Status::error(sqlstate::kInvalidCursorName, "portal \"" + std::string(m.name) + "\" does not exist"),
                 true);
    return;
  }
  const Portal& portal = it->second;
  if (portal.statement->returns_rows) {
    write_row_description(writer_, portal.statement->result_columns, portal.result_formats);
  } else {
    writer_.no_data();
  }
}

awaitable<void> Connection::on_execute(const pgwire::Execute& m) {
  auto& portals = session_->portals();
  auto it = portals.find(m.portal);
  if (it == portals.end()) {
    report_error(Status::error(sqlstate::kInvalidCursorName, "portal \"" + std::string(m.portal) + "\" does not exist"),
                 true);
    co_return;
  }
  std::string portal_name(m.portal);
  if (!it->second.result) {
    const PreparedStatement& statement = *it->second.statement;
    if (!statement.parsed) {
      writer_.empty_query_response();
      co_return;
    }
    // The Executes up to Sync form one implicit transaction (PostgreSQL's
    // rule). An Execute whose Sync has arrived right behind it is the whole
    // transaction: it commits on its own, as a single statement does.
    if (session_->transaction() == TransactionState::kIdle && !session_->implicit()) {
      std::span<const uint8_t> next = pending();
      const bool sync_next = next.size() >= 5 && next[0] == 'S';
      if (!sync_next) session_->begin_implicit();
    }
    auto result = co_await execute(statement, it->second.params);
    // The session's portals may have changed while the statement ran (it
    // cannot: this coroutine is the only user), but look the portal up again
    // rather than trusting the iterator across a suspension.
    it = portals.find(portal_name);
    if (!result.ok()) {
      report_error(result.status(), true);
      co_return;
    }
    send_notices_and_parameters(*result);
    if (result->copy_in || result->copy_out) {
      Status copied = co_await run_copy(statement, *result);
      if (!copied.is_ok()) report_error(copied, true);
      co_return;
    }
    it->second.result = std::move(*result);
  }
  Portal& portal = it->second;
  ExecResult& result = *portal.result;
  if (!result.returns_rows) {
    if (portal.next_row == 0) {
      writer_.command_complete(result.tag);
      portal.next_row = 1;  // a command completes once; re-executing is a no-op
    } else {
      writer_.command_complete(result.tag);
    }
    co_return;
  }
  size_t begin = portal.next_row;
  size_t end = result.rows.size();
  if (m.max_rows > 0 && end - begin > static_cast<size_t>(m.max_rows)) end = begin + static_cast<size_t>(m.max_rows);
  write_data_rows(writer_, result, begin, end, portal.result_formats);
  portal.next_row = end;
  size_t sent = end - begin;
  bool more = end < result.rows.size();
  if (!more && result.stream && (m.max_rows <= 0 || sent < static_cast<size_t>(m.max_rows))) {
    // The rows still to come are pulled from the stream, up to the limit.
    auto streamed = co_await send_stream(result, portal.result_formats,
                                         m.max_rows > 0 ? static_cast<size_t>(m.max_rows) - sent : 0);
    if (!streamed.ok()) {
      report_error(streamed.status(), true);
      co_return;
    }
    sent += *streamed;
    more = !result.stream->ended();
  } else if (!more && result.stream) {
    more = !result.stream->ended();
  }
  if (more) {
    writer_.portal_suspended();
  } else if (result.stream || result.tag.rfind("SELECT ", 0) == 0) {
    // After suspensions PostgreSQL counts the rows of this Execute only.
    writer_.command_complete((result.stream ? result.tag : std::string("SELECT")) + " " + std::to_string(sent));
  } else {
    writer_.command_complete(result.tag);
  }
}

awaitable<Result<size_t>> Connection::send_stream(const ExecResult& result, std::span<const int16_t> formats,
                                                  size_t max_rows) {
  RowStream& stream = *result.stream;
  // A live stream waits for rows that may never come: if the client closes
  // its socket meanwhile, the stream is abandoned (and its producer told).
  bool watching = stream.live();
  if (watching) watch_client(result.stream);
  size_t sent = 0;
  Status failed;
  while (phase_ != Phase::kDone && (max_rows == 0 || sent < max_rows) && !stream.ended()) {
    auto batch = co_await stream.next(max_rows == 0 ? 0 : max_rows - sent);
    if (!batch.ok()) {
      failed = batch.status();
      break;
    }
    if (batch->empty()) continue;  // the end is reported by ended()
    if (result.copy_out) {
      write_copy_rows(writer_, result.columns, *batch, *result.copy_out, &copy_binary_header_);
    } else {
      write_data_rows(writer_, result.columns, *batch, formats);
    }
    sent += batch->size();
    if (stream.live() || out_.size() >= kFlushThreshold) co_await flush();
  }
  if (watching) {
    boost::system::error_code ec;
    socket_.cancel(ec);
  }
  if (phase_ == Phase::kDone) {
    stream.abandon(Status::error(sqlstate::kConnectionException, "connection closed by the client"));
  }
  if (!failed.is_ok()) co_return failed;
  co_return sent;
}

awaitable<Status> Connection::read_copy_data(CopyInBuilder* builder) {
  // After a bad record the rest of the data is read and dropped up to
  // CopyDone, then the error is reported: nothing is written. Without a
  // builder the data is only drained.
  // No limit on the total: a large COPY is staged in storage as it
  // arrives (CopyInBuilder), held a piece at a time.
  Status failed;
  for (;;) {
    auto r = decoder_.try_decode(pending());
    if (r.needs_more()) {
      if (!co_await fill(r.bytes_needed())) {
        phase_ = Phase::kDone;
        co_return Status::error(sqlstate::kConnectionException, "connection lost during COPY");
      }
      continue;
    }
    if (r.is_error()) {
      fatal(r.status());
      co_return r.status();
    }
    size_t consumed = r.consumed();
    auto& message = r.message();
    if (auto* d = std::get_if<pgwire::CopyData>(&message)) {
      if (failed.is_ok() && builder != nullptr) failed = builder->feed(d->data);
    } else if (std::holds_alternative<pgwire::CopyDone>(message)) {
      consume(consumed);
      co_return failed;
    } else if (auto* f = std::get_if<pgwire::CopyFail>(&message)) {
      std::string reason(f->message);
      consume(consumed);
      co_return Status::error(sqlstate::kQueryCanceled, "COPY from stdin failed: " + reason);
    } else if (std::holds_alternative<pgwire::Terminate>(message)) {
      phase_ = Phase::kDone;
      co_return Status::error(sqlstate::kConnectionException, "connection terminated during COPY");
    } else if (!std::holds_alternative<pgwire::Flush>(message) && !std::holds_alternative<pgwire::Sync>(message)) {
      consume(consumed);
      co_return Status::error(sqlstate::kProtocolViolation, "unexpected message type during COPY from stdin");
    }
    consume(consumed);
  }
}

awaitable<Status> Connection::run_copy(const PreparedStatement& statement, const ExecResult& result) {
  const bool binary = result.copy_out ? result.copy_out->binary : statement.copy_in && statement.copy_in->format.binary;
  std::vector<int16_t> formats(result.columns.size(), binary ? 1 : 0);
  if (result.copy_out) {
    writer_.copy_out_response(binary ? 1 : 0, formats);
    copy_binary_header_.clear();
    if (binary) append_binary_copy_header(&copy_binary_header_);
    if (result.copy_out->header) write_copy_header(writer_, result.columns, *result.copy_out);
    constexpr size_t kRowsPerFlushCheck = 1024;
    for (size_t begin = 0; begin < result.rows.size(); begin += kRowsPerFlushCheck) {
      size_t n = std::min(kRowsPerFlushCheck, result.rows.size() - begin);
      write_copy_rows(writer_, result.columns, std::span<const Row>(result.rows).subspan(begin, n), *result.copy_out,
                      &copy_binary_header_);
      if (out_.size() >= kFlushThreshold) co_await flush();
    }
    std::string tag = result.tag;
    if (result.stream) {
      auto sent = co_await send_stream(result, {}, 0);
      // An error ends the copy without CopyDone: the ErrorResponse follows.
      if (!sent.ok()) co_return sent.status();
      tag += " " + std::to_string(result.rows.size() + *sent);
    }
    if (binary) {
      std::string trailer = std::move(copy_binary_header_);  // no rows: the header goes with the trailer
      copy_binary_header_.clear();
      append_binary_copy_trailer(&trailer);
      writer_.copy_data(trailer);
    }
    writer_.copy_done();
    writer_.command_complete(tag);
    co_return Status::ok();
  }
  writer_.copy_in_response(binary ? 1 : 0, formats);
  co_await flush();
  auto builder = context_.adapter.begin_copy_in(*session_, statement, *session_->cancel_token());
  if (!builder.ok()) {
    co_await read_copy_data(nullptr);  // the client still sends its data
    co_return builder.status();
  }
  Status received = co_await read_copy_data(builder->get());
  if (!received.is_ok()) co_return received;
  auto done = co_await context_.adapter.finish_copy_in(*session_, std::move(*builder));
  if (!done.ok()) co_return done.status();
  writer_.command_complete(done->tag);
  co_return Status::ok();
}

void Connection::watch_client(std::shared_ptr<RowStream> stream) {
  socket_.async_wait(asio::ip::tcp::socket::wait_read, [this, stream, self = shared_from_this()](
                                                           const boost::system::error_code& ec) {
    if (ec == asio::error::operation_aborted) return;
    auto gone = [&] {
      stream->abandon(Status::error(sqlstate::kConnectionException, "connection closed by the client"));
    };
    const bool hung_up = ec || peer_hung_up(socket_.native_handle());
    boost::system::error_code read_ec;
    size_t available = socket_.available(read_ec);
    if (read_ec) return gone();
    if (available == 0) {
      // Closed, or woken by an edge an earlier read consumed: watch on.
      if (hung_up) return gone();
      return watch_client(stream);
    }
    // Keep what arrived for after the stream (the coroutine is suspended in
    // send_stream and does not touch the input buffer meanwhile).
    if (in_.size() - in_end_ < available) in_.resize(in_end_ + available + kReadChunk);
    size_t n = socket_.read_some(asio::buffer(in_.data() + in_end_, available), read_ec);
    in_end_ += n;
    if (read_ec || hung_up) return gone();
    auto next = decoder_.try_decode(pending());
    if (!next.needs_more() && !next.is_error() && std::holds_alternative<pgwire::Terminate>(next.message())) {
      return gone();
    }
    watch_client(stream);
  });
}

void Connection::on_close(const pgwire::Close& m) {
  if (m.kind == 'S') {
    session_->statements().erase(std::string(m.name));
  } else {
    session_->portals().erase(std::string(m.name));
  }
  writer_.close_complete();
}

awaitable<void> Connection::end_extended_implicit(bool failed) {
  if (auto committed = co_await end_implicit_transaction(context_, *session_, failed)) {
    spdlog::info("error {} for user {}: {}", committed->sqlstate(), session_->user(), committed->message());
    writer_.error_response(*committed);
  }
}

void Connection::on_sync() {
  // The unnamed portal lives until the end of the implicit transaction.
  if (session_->transaction() == TransactionState::kIdle) session_->portals().erase(std::string());
  ready_for_query();
}

void Connection::ready_for_query() {
  for (const auto& [name, value] : pending_parameters_) writer_.parameter_status(name, value);
  pending_parameters_.clear();
  writer_.ready_for_query(wire_status(session_->transaction()));
}

}  // namespace tandem::frontend
