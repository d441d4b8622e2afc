#pragma once
// What every front end (pgwire's Connection, the HTTP and WebSocket SQL
// endpoints of frontend/http) does around the Adapter to run a session's
// statements, so that the rules hold the same on each:
//  * a statement starts the session's CancelToken with its
//    statement_timeout, so cancel requests and the timeout end it;
//  * a failed transaction block accepts only the statements that end it;
//  * an error fails an open block;
//  * the implicit transaction of several statements (a multi-statement
//    query, the extended protocol's Executes up to Sync, a multi-query
//    HTTP body) commits at its end unless a statement failed;
//  * each executed statement is counted by kind and outcome (ServerMetrics).
//
// Threading: on the session's thread (its connection's coroutine).

#include <optional>

#include <boost/asio/awaitable.hpp>

#include "common/row.hpp"
#include "common/status.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/adapter/prepared_statement.hpp"
#include "frontend/server/server_context.hpp"
#include "frontend/session/session.hpp"

namespace tandem::frontend {

// 25P02 when the session's block has failed and `statement` does not end it.
Status check_not_aborted(const Session& session, const sql::ParsedStatement& statement);

// Executes `statement` with `params` (one datum per parameter) for `session`.
boost::asio::awaitable<Result<ExecResult>> run_statement(ServerContext& context, Session& session,
                                                         const PreparedStatement& statement, const Row& params);

// After an error: an open transaction block goes to the failed state.
void fail_transaction(Session& session);

// Ends the session's implicit transaction: unless `failed` (or a BEGIN made
// it a block), commits its pending writes; the commit's error, if any.
boost::asio::awaitable<std::optional<Status>> end_implicit_transaction(ServerContext& context, Session& session,
                                                                       bool failed);

}  // namespace tandem::frontend
