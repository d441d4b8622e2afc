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
#include "common/eval_context.hpp"
#include "common/row.hpp"
#include "common/status.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/adapter/prepared_statement.hpp"
#include "frontend/adapter/table_copy.hpp"
#include "frontend/coord/coordinator.hpp"
#include "frontend/server/cancel_registry.hpp"
#include "frontend/session/session.hpp"
#include "planner/parser/parser.hpp"
#include "planner/read_plan.hpp"
#include "planner/timestamp_selection.hpp"
#include "storage/peek_stash.hpp"

namespace tandem::storage {
class DurableStore;
}

namespace tandem::frontend {

// How a read picks its timestamp (planner/timestamp_selection.hpp).
struct ReadTiming {
  planner::IsolationLevel isolation = planner::IsolationLevel::kStrictSerializable;
  planner::QueryWhen when;
  std::optional<Timestamp> transaction_ts;
  // The transaction's uncommitted writes, which the read sees (the
  // session's PendingWrites, consolidated); null when it has none.
  const std::map<compute::GlobalId, PendingWrites::Updates>* pending_writes = nullptr;
  // current_user, current_database() and current_schema for the read
  // (absent: those calls are 0A000). Set by the caller that plans a read or
  // a constant query, not by read_timing: a prepared lookup never needs it.
  std::optional<SessionValues> session;
};

// A statement's evaluation context: now(), and cancellation through `cancel`.
void init_eval_context(EvalContext& ctx, CancelToken& cancel);
// now() for a statement starting now: microseconds since 2000-01-01 UTC.
int64_t statement_time_now();
// What current_user, current_database() and current_schema return, for a
// session whose search path resolves to `path`.
SessionValues session_values_of(const Session& session, const catalog::SearchPath& path);

// 0A000 when a read of `inputs` in a transaction would miss its `pending`
// writes: an input computed from a written table (a materialized view, an
// index on a view) rather than the table itself.
Status check_reads_see_pending(const catalog::CatalogSnapshot& snapshot, const std::vector<compute::GlobalId>& inputs,
                               const std::map<compute::GlobalId, PendingWrites::Updates>& pending);

// tandemd's boot-time settings (Materialize's flags of the same names).
struct BootOptions {
  // The default cluster's size when the catalog is first created.
  std::string default_cluster_size;
  // Applied as ALTER SYSTEM SET at boot, each unless already set.
  std::vector<std::pair<std::string, std::string>> system_parameter_defaults;
};

class Adapter {
 public:
  // Opens the catalog and the coordinator and replays persisted items.
  static Result<std::unique_ptr<Adapter>> open(storage::DurableStore& store, CoordinatorOptions options = {},
                                                BootOptions boot = {});
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

  // COPY FROM STDIN: at CopyInResponse, the builder the connection feeds
  // each CopyData to; at CopyDone, writes its rows to the table.
  // In a transaction the rows join its pending writes at CopyDone.
  Result<std::unique_ptr<CopyInBuilder>> begin_copy_in(Session& session, const PreparedStatement& statement,
                                                       CancelToken& cancel);
  boost::asio::awaitable<Result<ExecResult>> finish_copy_in(Session& session, std::unique_ptr<CopyInBuilder> builder);

  // COMMIT, ROLLBACK and ROLLBACK TO: the statements a failed transaction accepts.
  static bool ends_transaction(const sql::ParsedStatement& statement);

  // Commits the session's pending writes (COMMIT, the end of an implicit
  // transaction), taking them from it, at one timestamp; nullopt on success
  // or when there were none (transaction.cpp).
  boost::asio::awaitable<std::optional<Status>> commit_pending(Session& session);

  Coordinator& coordinator() { return *coordinator_; }

 private:
  Adapter() = default;
  Result<ExecResult> execute_constant(const PreparedStatement& statement, const Row& params, CancelToken& cancel,
                                      std::optional<Timestamp> mz_now = std::nullopt,
                                      const SessionValues* session = nullptr);
  // Creates the session's role on its first statement, then checks the
  // statement's privileges (privileges.hpp).
  boost::asio::awaitable<Status> check_session_privileges(Session& session, const PreparedStatement& statement);
  boost::asio::awaitable<Result<ExecResult>> execute_on_coordinator(Session& session,
                                                                    const PreparedStatement& statement,
                                                                    const Row& params, CancelToken& cancel);
  // ---- the read path (read_path.cpp), on the session's thread: planning
  // and timestamp selection read shared snapshots; a sealed fast-path peek
  // is answered on this thread; other peeks are submitted through the
  // coordinator, which owns their cancellation and dataflow cleanup.

  // A SELECT over collections (the reads of an explicit transaction share
  // the first one's timestamp).
  boost::asio::awaitable<Result<ExecResult>> read_collections(Session& session, const PreparedStatement& statement,
                                                              const Row& params, CancelToken& cancel);
  // EXPLAIN TIMESTAMP FOR a query: the fields of materialize.md §4.
  Result<ExecResult> explain_timestamp(Session& session, const sql::Explain& explain,
                                       const PreparedStatement& statement);
  using ReadTiming = frontend::ReadTiming;
  // With the transaction's timestamp and pending writes, if any.
  Result<ReadTiming> read_timing(Session& session, const std::optional<sql::AsOf>& as_of) const;
  // A plan for `query` and the timestamp it reads at.
  struct TimedPlan {
    planner::ReadPlan plan;
    planner::TimestampDetermination determination;
    std::vector<compute::GlobalId> inputs;
    catalog::ClusterId cluster_id;
    // compute_index_peek_inline_budget, when already known (else read from
    // the catalog).
    std::optional<int64_t> inline_budget;
    // enable_compute_index_peek_offload, likewise.
    std::optional<bool> offload;
    // A peek dataflow's hold on the tables' history, taken before its
    // timestamp was chosen and kept until it is answered (its inputs exist).
    CollectionFrontiers::TableHold table_hold;
    // The read's holds on the indexes and views it reads, taken before its
    // timestamp was chosen (determine_timestamp) and kept until it has read.
    CollectionFrontiers::ReadHold read_hold;
  };
  // A hold keeping every table readable at `ts` for the rest of an explicit
  // transaction (Session::set_transaction_ts).
  std::shared_ptr<const void> transaction_hold(Timestamp ts) const;
  Result<TimedPlan> plan_timed(const catalog::SearchPath& path, const std::string& cluster, const sql::Query& query,
                               std::vector<ColumnType> param_types, const Row& params, const ReadTiming& timing);
  // The timestamp a read of `inputs` on `cluster` (cluster_key) picks
  // (planner/timestamp_selection.hpp), after holding the inputs in `hold`
  // at a time no later than the one it picks.
  Result<planner::TimestampDetermination> determine_timestamp(const std::vector<compute::GlobalId>& inputs,
                                                              uint64_t cluster, const ReadTiming& timing,
                                                              Timestamp oracle,
                                                              CollectionFrontiers::ReadHold* hold) const;
  // Plans `query` (by default strict serializable: at the oracle's read
  // timestamp) and peeks its rows (before finishing, which it returns
  // beside them). Runs on any thread.
  struct PeekedRows {
    std::vector<std::pair<Row, Diff>> rows;
    planner::Finishing finishing;
    Timestamp timestamp = kMinTimestamp;
    // With `may_stream` and a finishing that needs no other row: a full
    // scan (sealed and too large to answer inline, or answered by compute
    // with its sealed snapshots: a parked peek, a peek dataflow's result),
    // left to be read piecewise (instead of `rows`).
    std::unique_ptr<compute::IndexScan> scan;
    // `scan` reads a peek dataflow's result, which only this read holds
    // (not a maintained index): it goes through the peek stash when large.
    bool scan_owned = false;
    // The read's holds (TimedPlan::read_hold), kept by the caller until it
    // has noted the read's timestamp (an explicit transaction holds it then).
    CollectionFrontiers::ReadHold read_hold;
  };
  // A cancel request or the statement_timeout cancels the peek (57014).
  boost::asio::awaitable<Result<PeekedRows>> peek_query(const catalog::SearchPath& path, const std::string& cluster,
                                                        const sql::Query& query, std::vector<ColumnType> param_types,
                                                        const Row& params, CancelToken& cancel,
                                                        const ReadTiming& timing = {}, bool may_stream = false);
  // Peeks a planned read at its timestamp (peek_query's second half).
  boost::asio::awaitable<Result<PeekedRows>> peek_timed(TimedPlan timed, CancelToken& cancel,
                                                        bool may_stream = false);
  // Waits, without blocking this thread, for a fast-path walk that moved to
  // the offload pool; a cancel request or statement_timeout cancels it
  // (offloaded_read.cpp).
  boost::asio::awaitable<compute::PeekResponse> await_offloaded(std::shared_ptr<compute::OffloadedPeek> walk,
                                                                CancelToken& cancel);
  // Waits for a slot for a peek dataflow on `cluster` (admission control,
  // coord/interactive_admission.hpp); false when the statement was
  // canceled first (read_waits.cpp). A true answer holds a slot: release it
  // with an InteractiveAdmission::Slot.
  boost::asio::awaitable<bool> await_admission(uint64_t cluster, CancelToken& cancel);
  // ---- prepared lookups (prepared_read.cpp)
  // The statement's cached read plan for the session's catalog, database,
  // search_path and cluster, planned now if the cache is stale; nullptr when
  // planning fails (the per-execution planning then reports why).
  std::shared_ptr<const CachedRead> cached_read(const Session& session, const PreparedStatement& statement,
                                                const sql::Query& query);
  // Peeks a prepared lookup with the keys of `params`.
  boost::asio::awaitable<Result<PeekedRows>> peek_lookup(const CachedRead& cached, const Row& params,
                                                         CancelToken& cancel, const ReadTiming& timing);
  // The rows of `query` as a result (SELECT, COPY TO): collected, or
  // streamed from a large fast-path scan; bounded by max_result_size.
  boost::asio::awaitable<Result<ExecResult>> read_result(Session& session, const PreparedStatement& statement,
                                                         const sql::Query& query, const Row& params,
                                                         CancelToken& cancel);
  boost::asio::awaitable<Result<ExecResult>> modify_table(const catalog::SearchPath& path, const std::string& cluster,
                                                          const PreparedStatement& statement, const Row& params,
                                                          CancelToken& cancel);

  // ---- transactions (transaction.cpp)

  // A statement in a transaction (Session::in_transaction): COMMIT of
  // pending writes, a write (its updates join the pending writes), DDL
  // (refused in a block; in an implicit transaction, commits the writes
  // before it). nullopt: execute the statement as usual.
  boost::asio::awaitable<std::optional<Result<ExecResult>>> execute_in_transaction(
      Session& session, const PreparedStatement& statement, const Row& params, CancelToken& cancel);
  boost::asio::awaitable<Result<ExecResult>> write_in_transaction(Session& session, const PreparedStatement& statement,
                                                                  const Row& params, CancelToken& cancel);
  // Adds a statement's write to the transaction's pending writes, after
  // checking its unique keys (23505: nothing added).
  Status add_to_transaction(Session& session, TableWrite write);
  // The first read of a transaction fixes the timestamp of the rest.
  void note_transaction_read(Session& session, const ReadTiming& timing, Timestamp ts);

  // ---- PREPARE, EXECUTE, DEALLOCATE (prepared_sql.cpp)

  // At prepare: EXECUTE's result columns are its statement's.
  Status prepare_sql_statement(Session& session, const sql::Statement& s, PreparedStatement& prepared);
  boost::asio::awaitable<Result<ExecResult>> execute_sql_prepared(Session& session, const PreparedStatement& statement,
                                                                  CancelToken& cancel,
                                                                  boost::asio::thread_pool& blocking_pool);

  // ---- SUBSCRIBE and cursors (subscribe_statements.cpp)

  // After DECLARE ... SUBSCRIBE a transaction accepts only FETCH, CLOSE,
  // COMMIT and ROLLBACK.
  Status check_subscribe_transaction(Session& session, const sql::Statement& s) const;
  // Plans the subscribe's dataflow at its as_of and installs it; the result
  // streams its rows (statement.subscribe; COPY TO if statement.copy_out).
  boost::asio::awaitable<Result<ExecResult>> start_subscribe(Session& session, const PreparedStatement& statement);
  boost::asio::awaitable<Result<ExecResult>> declare_cursor(Session& session, const PreparedStatement& statement,
                                                            const Row& params, CancelToken& cancel);
  boost::asio::awaitable<Result<ExecResult>> fetch_cursor(Session& session, const PreparedStatement& statement,
                                                          CancelToken& cancel);
  Result<ExecResult> close_cursor(Session& session, const sql::Close& close);
  // FETCH's result columns: its cursor's.
  Result<std::vector<ResultColumn>> fetch_columns(Session& session, const sql::Fetch& fetch);

  std::unique_ptr<catalog::Catalog> catalog_;
  std::unique_ptr<Coordinator> coordinator_;
  // Large results being read by clients (stash_stream.hpp).
  std::shared_ptr<storage::PeekStash> stash_;
};

}  // namespace tandem::frontend
