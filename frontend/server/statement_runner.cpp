#include "frontend/server/statement_runner.hpp"

#include <spdlog/spdlog.h>

#include "frontend/adapter/adapter.hpp"
#include "frontend/server/server_metrics.hpp"

namespace tandem::frontend {

Status check_not_aborted(const Session& session, const sql::ParsedStatement& statement) {
  if (session.transaction() == TransactionState::kFailed && !Adapter::ends_transaction(statement)) {
    return Status::error(sqlstate::kInFailedSqlTransaction,
                         "current transaction is aborted, commands ignored until end of transaction block");
  }
  return Status::ok();
}

boost::asio::awaitable<Result<ExecResult>> run_statement(ServerContext& context, Session& session,
                                                         const PreparedStatement& statement, const Row& params) {
  session.run_after_reply();
  auto& token = *session.cancel_token();
  int64_t timeout_ms = session.vars().statement_timeout_ms();
  token.begin_statement(timeout_ms > 0 ? CancelToken::Clock::now() + std::chrono::milliseconds(timeout_ms)
                                       : CancelToken::Clock::time_point::max());
  if (spdlog::should_log(spdlog::level::debug)) {
    spdlog::debug("user {} executes: {}", session.user(), statement.sql);
  }
  auto result = co_await context.adapter.execute(session, statement, params, token, context.blocking_pool);
  if (statement.parsed) {
    StatementOutcome outcome = result.ok() ? StatementOutcome::kSuccess
                               : result.status().sqlstate() == sqlstate::kQueryCanceled ? StatementOutcome::kCanceled
                                                                                        : StatementOutcome::kError;
    context.metrics.count_statement(statement_kind(statement.parsed->statement), outcome);
  }
  co_return result;
}

void fail_transaction(Session& session) {
  if (session.transaction() == TransactionState::kInBlock) session.set_transaction(TransactionState::kFailed);
}

boost::asio::awaitable<std::optional<Status>> end_implicit_transaction(ServerContext& context, Session& session,
                                                                       bool failed) {
  std::optional<Status> error;
  if (!failed && session.transaction() == TransactionState::kIdle) {
    error = co_await context.adapter.commit_pending(session);
  }
  session.end_implicit();
  co_return error;
}

}  // namespace tandem::frontend
