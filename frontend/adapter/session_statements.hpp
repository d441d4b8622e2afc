#pragma once
// Execution of the statements that only touch the session: SET / RESET /
// SHOW, transaction control (BEGIN, COMMIT, ROLLBACK, SET TRANSACTION) and
// DISCARD. They never reach the planner or the engine.

#include "common/status.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/session/session.hpp"
#include "planner/parser/ast.hpp"

namespace tandem::frontend {

// Returns nullopt when `statement` is not a session statement.
std::optional<Result<ExecResult>> execute_session_statement(Session& session, const sql::Statement& statement);

// The result columns of a session statement, for Describe (nullopt when it is
// not one). SHOW returns one text column; the others return no rows.
std::optional<std::vector<ResultColumn>> describe_session_statement(const sql::Statement& statement, bool* returns_rows);

}  // namespace tandem::frontend
