#pragma once
// SqlRunner: runs one SQL API request (sql_request.hpp) on a session, the
// statements one after another as PostgreSQL's protocols do, and reports
// what happens to a SqlSink that encodes it (the HTTP endpoint's JSON
// results, the WebSocket's messages). Statement execution itself goes
// through the same path as pgwire (server/statement_runner.hpp):
//  * a simple body's text may hold several statements; an extended body
//    has one statement per entry, with text parameters;
//  * several statements form one implicit transaction: their writes commit
//    together at the end, none if one fails;
//  * processing stops at the first error;
//  * session-less (POST /api/sql): statements whose results need a session
//    that outlives the request (CLOSE, COPY, DECLARE, FETCH, SUBSCRIBE)
//    are refused with 0A000; COPY is refused everywhere (no sub-protocol);
//  * rows stream: the sink receives them batch by batch as the result's
//    RowStream yields them, so a result is never held whole; a sink that
//    answers false (the client went away) abandons the stream.
//
// Threading: on the session's connection coroutine.

#include <span>
#include <string>
#include <string_view>

#include <boost/asio/awaitable.hpp>

#include "common/row.hpp"
#include "common/status.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/http/sql_request.hpp"
#include "frontend/server/server_context.hpp"
#include "frontend/session/session.hpp"

namespace tandem::frontend::http {

class SqlSink {
 public:
  virtual ~SqlSink() = default;
  // Before a statement executes.
  virtual boost::asio::awaitable<void> command_starting(bool has_rows, bool is_streaming) = 0;
  // A statement returning rows: its columns, then its rows in batches.
  virtual boost::asio::awaitable<void> rows_begin(std::span<const ResultColumn> columns) = 0;
  // False when the client is gone: the runner stops.
  virtual boost::asio::awaitable<bool> rows(std::span<const ResultColumn> columns, std::span<const Row> rows) = 0;
  // The statement completed with `tag` (`returned_rows`: after rows_begin).
  virtual boost::asio::awaitable<void> command_complete(const std::string& tag, bool returned_rows) = 0;
  // The statement failed (after rows_begin when `returned_rows`); nothing follows.
  virtual boost::asio::awaitable<void> error(const Status& status, bool returned_rows) = 0;
  // The statement's notices and changed reported variables, before its
  // completion or error.
  virtual void notice(const ResultNotice& notice) = 0;
  virtual void parameter_status(const std::string& name, const std::string& value) = 0;
};

struct SqlRunOptions {
  // POST /api/sql: no statement may outlive the request.
  bool session_less = true;
};

boost::asio::awaitable<void> run_sql_request(ServerContext& context, Session& session, const SqlRequest& request,
                                             SqlSink& sink, SqlRunOptions options);

// Applies session options (the `options` URL parameter, the WebSocket's
// first message) as a client's startup parameters; 22023/42704 for a bad
// value or an unknown variable.
Status apply_session_options(Session& session, const SessionOptions& options);

}  // namespace tandem::frontend::http
