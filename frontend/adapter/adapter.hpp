#pragma once
// Adapter: the front half of the coordinator (DESIGN §3). It turns statement
// text into PreparedStatements (parse, bind, describe) and executes them on
// behalf of a session: session statements (SET/SHOW/BEGIN...) here, queries
// through the planner and, later, the compute controller and storage.
//
// Threading: parse/prepare/execute may be called concurrently from many
// connections' threads; each call touches only its own session plus the
// adapter's thread-safe shared state.

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "common/row.hpp"
#include "common/status.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/adapter/prepared_statement.hpp"
#include "frontend/server/cancel_registry.hpp"
#include "frontend/session/session.hpp"
#include "planner/parser/parser.hpp"

namespace tandem::storage {
class DurableStore;
}

namespace tandem::frontend {

class Adapter {
 public:
  explicit Adapter(storage::DurableStore& store);

  // Splits and parses statement text; an empty vector for an empty query.
  Result<std::vector<sql::ParsedStatement>> parse(std::string_view sql) const;

  // Binds a parsed statement: fixes parameter types (the given OIDs, 0 =
  // infer) and the result columns. nullopt is the empty query.
  Result<std::shared_ptr<const PreparedStatement>> prepare(Session& session,
                                                           std::optional<sql::ParsedStatement> statement,
                                                           std::span<const uint32_t> param_type_oids);

  // True when executing may wait (pg_sleep, later parked reads): the
  // connection then runs it off its I/O thread.
  bool may_block(const PreparedStatement& statement) const;

  // Executes with parameter values (one datum per parameter). `cancel` is
  // checked, and waited through, by anything long.
  Result<ExecResult> execute(Session& session, const PreparedStatement& statement, const Row& params,
                             CancelToken& cancel);

  // COMMIT, ROLLBACK and friends: the statements a failed transaction accepts.
  static bool ends_transaction(const sql::ParsedStatement& statement);

 private:
  storage::DurableStore& store_;
};

}  // namespace tandem::frontend
