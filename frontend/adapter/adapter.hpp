#pragma once
// Adapter: the front half of the coordinator (DESIGN §3). It turns statement
// text into PreparedStatements (parse, bind, describe) and executes them on
// behalf of a session: session statements here; constant queries on the
// session's thread (or the blocking pool if they may wait); catalog changes,
// table writes and reads of collections through the Coordinator's thread,
// which sequences them against the catalog, storage and compute.
//
// Threading: parse/prepare/execute may be called concurrently from many
// connections' threads; each call touches only its own session plus the
// adapter's thread-safe shared state (the published catalog snapshot).

#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/thread_pool.hpp>

#include "catalog/catalog.hpp"
#include "common/row.hpp"
#include "common/status.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/adapter/prepared_statement.hpp"
#include "frontend/coord/coordinator.hpp"
#include "frontend/server/cancel_registry.hpp"
#include "frontend/session/session.hpp"
#include "planner/parser/parser.hpp"
#include "planner/read_plan.hpp"

namespace tandem::storage {
class DurableStore;
}

namespace tandem::frontend {

class Adapter {
 public:
  // Opens the catalog and the coordinator and replays persisted items.
  static Result<std::unique_ptr<Adapter>> open(storage::DurableStore& store, CoordinatorOptions options = {});
  ~Adapter();

  // Splits and parses statement text; an empty vector for an empty query.
  Result<std::vector<sql::ParsedStatement>> parse(std::string_view sql) const;

  // Binds a parsed statement: fixes parameter types (the given OIDs, 0 =
  // infer) and the result columns. nullopt is the empty query.
  Result<std::shared_ptr<const PreparedStatement>> prepare(Session& session,
                                                           std::optional<sql::ParsedStatement> statement,
                                                           std::span<const uint32_t> param_type_oids);

  // Executes with parameter values (one datum per parameter). `cancel` is
  // checked, and waited through, by anything long. Statements that may wait
  // run on `blocking_pool`; the coroutine resumes on the caller's executor.
  boost::asio::awaitable<Result<ExecResult>> execute(Session& session, const PreparedStatement& statement,
                                                     const Row& params, CancelToken& cancel,
                                                     boost::asio::thread_pool& blocking_pool);

  // COPY FROM STDIN, at CopyDone: writes the received data to the table.
  boost::asio::awaitable<Result<ExecResult>> copy_in(const PreparedStatement& statement, std::string data,
                                                     CancelToken& cancel);

  // COMMIT, ROLLBACK and friends: the statements a failed transaction accepts.
  static bool ends_transaction(const sql::ParsedStatement& statement);

  Coordinator& coordinator() { return *coordinator_; }

 private:
  Adapter() = default;
  Result<ExecResult> execute_constant(const PreparedStatement& statement, const Row& params, CancelToken& cancel);
  boost::asio::awaitable<Result<ExecResult>> execute_on_coordinator(Session& session,
                                                                    const PreparedStatement& statement,
                                                                    const Row& params, CancelToken& cancel);
  boost::asio::awaitable<Result<ExecResult>> read_collections(const catalog::SearchPath& path,
                                                              const std::string& cluster,
                                                              const PreparedStatement& statement, const Row& params,
                                                              CancelToken& cancel);
  // Plans `query` at the oracle's read timestamp and peeks its rows (before
  // finishing, which it returns beside them).
  struct PeekedRows {
    std::vector<std::pair<Row, Diff>> rows;
    planner::Finishing finishing;
  };
  // A cancel request or the statement_timeout cancels the peek (57014).
  boost::asio::awaitable<Result<PeekedRows>> peek_query(const catalog::SearchPath& path, const std::string& cluster,
                                                        const sql::Query& query, std::vector<ColumnType> param_types,
                                                        const Row& params, CancelToken& cancel);
  boost::asio::awaitable<Result<ExecResult>> modify_table(const catalog::SearchPath& path, const std::string& cluster,
                                                          const PreparedStatement& statement, const Row& params,
                                                          CancelToken& cancel);

  std::unique_ptr<catalog::Catalog> catalog_;
  std::unique_ptr<Coordinator> coordinator_;
};

}  // namespace tandem::frontend
