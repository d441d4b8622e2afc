#include "frontend/http/sql_runner.hpp"

#include <spdlog/spdlog.h>

#include "frontend/adapter/adapter.hpp"
#include "frontend/pgwire/messages.hpp"
#include "frontend/protocol/result_encoder.hpp"
#include "frontend/server/statement_runner.hpp"

namespace tandem::frontend::http {

namespace asio = boost::asio;
using asio::awaitable;

namespace {

// A statement of the request: parsed, with its text parameters (extended).
struct Unit {
  std::optional<sql::ParsedStatement> statement;  // nullopt: an empty query
  const std::vector<std::optional<std::string>>* params = nullptr;
};

// The statement kinds POST /api/sql refuses: their results live in the session.
const char* needs_session(const sql::Statement& s) {
  if (s.as<sql::Close>()) return "CLOSE";
  if (s.as<sql::Declare>()) return "DECLARE";
  if (s.as<sql::Fetch>()) return "FETCH";
  if (s.as<sql::Subscribe>()) return "SUBSCRIBE";
  return nullptr;
}

Status refused(const char* what, bool session_less) {
  std::string message = std::string(what) + " is not supported by " +
                        (session_less ? "POST /api/sql" : "the WebSocket API");
  Status s = Status::error(sqlstate::kFeatureNotSupported, message);
  if (session_less && std::string_view(what) != "COPY") {
    s = std::move(s).with_hint("it needs a session: use the WebSocket API at /api/experimental/sql");
  }
  return s;
}

Result<Row> bind_parameters(const PreparedStatement& statement, const std::vector<std::optional<std::string>>* params) {
  size_t given = params ? params->size() : 0;
  if (given != statement.param_types.size()) {
    return Status::error(sqlstate::kProtocolViolation,
                         "request supplied " + std::to_string(given) + " parameters, but the statement requires " +
                             std::to_string(statement.param_types.size()));
  }
  if (given == 0) return Row();
  pgwire::Bind bind;
  for (const auto& p : *params) {
    bind.params.emplace_back(p ? std::optional<std::string_view>(*p) : std::nullopt);
  }
  return decode_parameters(statement, bind);
}

// Runs one statement; false when it failed (reported) or the client left.
awaitable<bool> run_unit(ServerContext& context, Session& session, Unit unit, SqlSink& sink,
                         const SqlRunOptions& options) {
  auto fail = [&](const Status& status, bool returned_rows) -> awaitable<bool> {
    spdlog::info("error {} for user {}: {}", status.sqlstate(), session.user(), status.message());
    fail_transaction(session);
    co_await sink.error(status, returned_rows);
    co_return false;
  };
  if (!unit.statement) {
    co_await sink.command_complete("", false);  // an empty query
    co_return true;
  }
  const sql::Statement& s = unit.statement->statement;
  if (s.as<sql::Copy>()) co_return co_await fail(refused("COPY", options.session_less), false);
  if (const char* what = needs_session(s); what && options.session_less) {
    co_return co_await fail(refused(what, true), false);
  }
  if (Status aborted = check_not_aborted(session, *unit.statement); !aborted.is_ok()) {
    co_return co_await fail(aborted, false);
  }
  auto prepared = context.adapter.prepare(session, std::move(unit.statement), {});
  if (!prepared.ok()) co_return co_await fail(prepared.status(), false);
  const PreparedStatement& statement = **prepared;
  auto params = bind_parameters(statement, unit.params);
  if (!params.ok()) co_return co_await fail(params.status(), false);

  co_await sink.command_starting(statement.returns_rows, statement.subscribe != nullptr);
  auto result = co_await run_statement(context, session, statement, *params);
  if (!result.ok()) co_return co_await fail(result.status(), false);
  for (const ResultNotice& n : result->notices) sink.notice(n);
  for (const auto& [name, value] : result->parameter_changes) sink.parameter_status(name, value);
  // A prepared COPY or SUBSCRIBE reached through EXECUTE.
  if (result->copy_in || result->copy_out || (options.session_less && result->stream && result->stream->live())) {
    if (result->stream) {
      result->stream->abandon(Status::error(sqlstate::kFeatureNotSupported, "refused"));
    }
    co_return co_await fail(refused(result->copy_in || result->copy_out ? "COPY" : "SUBSCRIBE", options.session_less),
                            false);
  }
  if (result->empty_query) {
    co_await sink.command_complete("", false);
    co_return true;
  }
  if (!result->returns_rows) {
    co_await sink.command_complete(result->tag, false);
    co_return true;
  }
  co_await sink.rows_begin(result->columns);
  if (!co_await sink.rows(result->columns, result->rows)) {
    if (result->stream) result->stream->abandon(Status::error(sqlstate::kConnectionException, "client gone"));
    co_return false;
  }
  size_t count = result->rows.size();
  if (result->stream) {
    RowStream& stream = *result->stream;
    while (!stream.ended()) {
      auto batch = co_await stream.next();
      if (!batch.ok()) co_return co_await fail(batch.status(), true);
      if (batch->empty()) continue;  // the end is reported by ended()
      count += batch->size();
      if (!co_await sink.rows(result->columns, *batch)) {
        stream.abandon(Status::error(sqlstate::kConnectionException, "connection closed by the client"));
        co_return false;
      }
    }
  }
  std::string tag = result->stream ? result->tag + " " + std::to_string(count) : result->tag;
  co_await sink.command_complete(tag, true);
  co_return true;
}

}  // namespace

awaitable<void> run_sql_request(ServerContext& context, Session& session, const SqlRequest& request, SqlSink& sink,
                                SqlRunOptions options) {
  std::vector<Unit> units;
  if (!request.extended) {
    auto parsed = context.adapter.parse(request.queries.front().sql);
    if (!parsed.ok()) {
      fail_transaction(session);
      co_await sink.error(parsed.status(), false);
      co_return;
    }
    for (auto& statement : *parsed) units.push_back(Unit{std::move(statement), nullptr});
  }
  const size_t count = request.extended ? request.queries.size() : units.size();
  // Several statements form one implicit transaction (PostgreSQL's rule).
  const bool implicit = count > 1 && !session.implicit();
  if (implicit) session.begin_implicit();
  bool failed = false;
  for (size_t i = 0; i < count && !failed; ++i) {
    Unit unit;
    if (request.extended) {
      const SqlQuery& query = request.queries[i];
      auto parsed = context.adapter.parse(query.sql);
      if (!parsed.ok() || parsed->size() > 1) {
        Status error = parsed.ok() ? Status::error(sqlstate::kSyntaxError,
                                                   "each query must contain exactly one statement, but \"" +
                                                       query.sql + "\" contains " + std::to_string(parsed->size()))
                                   : parsed.status();
        fail_transaction(session);
        co_await sink.error(error, false);
        failed = true;
        break;
      }
      if (!parsed->empty()) unit.statement = std::move(parsed->front());
      unit.params = &query.params;
    } else {
      unit = std::move(units[i]);
    }
    failed = !co_await run_unit(context, session, std::move(unit), sink, options);
  }
  if (implicit) {
    if (auto committed = co_await end_implicit_transaction(context, session, failed)) {
      fail_transaction(session);
      co_await sink.error(*committed, false);
    }
  }
}

Status apply_session_options(Session& session, const SessionOptions& options) {
  for (const auto& [name, value] : options) {
    Status s = session.vars().set_startup(name, value);
    if (!s.is_ok()) return s;
  }
  return Status::ok();
}

}  // namespace tandem::frontend::http
