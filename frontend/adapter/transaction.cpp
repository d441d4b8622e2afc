// Transactions: the writes of a BEGIN ... COMMIT block or of a
// multi-statement Query's implicit transaction wait in the session
// (PendingWrites) and reach the coordinator only at COMMIT, as one write at
// one timestamp (Coordinator::write, write_validated).
//
//  * INSERT, UPDATE, DELETE, TRUNCATE and COPY FROM add their updates to the
//    session's pending writes; UPDATE, DELETE and TRUNCATE read their
//    target at the transaction's timestamp, through the pending writes (an
//    UPDATE sees the rows the transaction inserted), and name it a read
//    table: COMMIT fails with 40001 if another commit wrote it since.
//    Each statement's updates are checked against the unique keys as they
//    join (Coordinator::check_pending_keys), and again at COMMIT.
//  * Reads see the pending writes (ReadTiming::pending_writes; the planner
//    unions each written table with its pending updates). A materialized
//    view computed from a written table is read as a view over its
//    defining query (SessionCatalog::set_pending_writes); anything else
//    whose stored contents would miss the writes is refused (0A000).
//  * DDL is refused in a block (25001), as PostgreSQL refuses statements that
//    cannot be rolled back; in an implicit transaction it first commits the
//    writes before it and starts a new transaction.
//  * SUBSCRIBE and DECLARE ... SUBSCRIBE after writes: 0A000.
//  * A READ ONLY block refuses writes (25006).
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "catalog/global_id.hpp"
#include "frontend/adapter/adapter.hpp"
#include "frontend/adapter/await_callback.hpp"
#include "frontend/adapter/catalog_ops.hpp"
#include "frontend/adapter/session_catalog.hpp"
#include "frontend/adapter/session_commit.hpp"
#include "frontend/adapter/table_insert.hpp"
#include "frontend/adapter/table_modify.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;
using asio::awaitable;

namespace {

bool is_ddl(const sql::Statement& s) {
  return s.as<sql::CreateTable>() || s.as<sql::CreateIndex>() || s.as<sql::CreateView>() ||
         s.as<sql::CreateCluster>() || s.as<sql::CreateMaterializedView>() || s.as<sql::AlterRename>() ||
         s.as<sql::AlterTableAddConstraint>() || s.as<sql::DropObjects>() || s.as<sql::AlterSystemSet>() || s.as<sql::AlterSystemReset>();
}

const char* ddl_kind(const sql::Statement& s) {
  if (s.as<sql::CreateTable>()) return "CREATE TABLE";
  if (s.as<sql::CreateIndex>()) return "CREATE INDEX";
  if (s.as<sql::CreateView>()) return "CREATE VIEW";
  if (s.as<sql::CreateCluster>()) return "CREATE CLUSTER";
  if (s.as<sql::CreateMaterializedView>()) return "CREATE MATERIALIZED VIEW";
  if (s.as<sql::AlterRename>()) return "ALTER ... RENAME";
  if (s.as<sql::AlterTableAddConstraint>()) return "ALTER TABLE";
  if (s.as<sql::DropObjects>()) return "DROP";
  return "ALTER SYSTEM";
}

const char* write_kind(const sql::Statement& s) {
  if (s.as<sql::Insert>()) return "INSERT";
  if (s.as<sql::Update>()) return "UPDATE";
  if (s.as<sql::Delete>()) return "DELETE";
  if (s.as<sql::Truncate>()) return "TRUNCATE TABLE";
  return "COPY FROM";
}

ExecResult command(std::string tag) {
  ExecResult r;
  r.tag = std::move(tag);
  return r;
}

}  // namespace

Status check_reads_see_pending(const catalog::CatalogSnapshot& snapshot, const std::vector<compute::GlobalId>& inputs,
                               const std::map<compute::GlobalId, PendingWrites::Updates>& pending) {
  for (compute::GlobalId input : inputs) {
    const catalog::Item* item = snapshot.item(catalog::item_id_from_compute(input));
    if (item == nullptr) continue;
    if (const catalog::IndexDetails* index = item->index()) {
      const catalog::Item* on = snapshot.item(index->on);
      if (on == nullptr) continue;
      item = on;
    }
    if (item->table() != nullptr) continue;  // read through its pending writes
    if (reads_pending_writes(snapshot, item->id, pending)) {
      return Status::error(sqlstate::kFeatureNotSupported,
                           "reading " + item->name.to_string() +
                               " in a transaction that wrote to a table it is computed from is not supported")
          .with_hint("Read the tables themselves, or COMMIT the writes first.");
    }
  }
  return Status::ok();
}

awaitable<std::optional<Result<ExecResult>>> Adapter::execute_in_transaction(Session& session,
                                                                             const PreparedStatement& statement,
                                                                             const Row& params, CancelToken& cancel) {
  const sql::Statement& s = statement.parsed->statement;
  const bool in_block = session.transaction() == TransactionState::kInBlock;
  if (s.as<sql::Commit>()) {
    if (!session.pending_writes()) co_return std::nullopt;
    auto committed = co_await commit_pending(session);
    session.set_transaction(TransactionState::kIdle);
    if (committed) co_return Result<ExecResult>(*committed);
    ExecResult r = command("COMMIT");
    if (!in_block) {
      r.notices.push_back(ResultNotice{ResultNotice::Severity::kWarning,
                                       Status::error(sqlstate::kNoActiveSqlTransaction,
                                                     "there is no transaction in progress")});
    }
    co_return Result<ExecResult>(std::move(r));
  }
  if (is_ddl(s)) {
    if (in_block) {
      co_return Result<ExecResult>(Status::error(
          sqlstate::kActiveSqlTransaction, std::string(ddl_kind(s)) + " cannot run inside a transaction block"));
    }
    // An implicit transaction ends before DDL: its writes commit first.
    if (auto committed = co_await commit_pending(session)) co_return Result<ExecResult>(*committed);
    session.set_transaction(TransactionState::kIdle);
    co_return std::nullopt;
  }
  if ((statement.subscribe || (statement.declared && statement.declared->subscribe)) && session.pending_writes()) {
    co_return Result<ExecResult>(Status::error(
        sqlstate::kFeatureNotSupported, "SUBSCRIBE in a transaction with uncommitted writes is not supported"));
  }
  if (statement.insert || statement.modify || statement.copy_in) {
    if (in_block && session.transaction_read_only()) {
      co_return Result<ExecResult>(Status::error(sqlstate::kReadOnlySqlTransaction,
                                                 "cannot execute " + std::string(write_kind(s)) +
                                                     " in a read-only transaction"));
    }
    if (statement.copy_in) co_return std::nullopt;  // its rows join at CopyDone
    co_return co_await write_in_transaction(session, statement, params, cancel);
  }
  co_return std::nullopt;
}

Status Adapter::add_to_transaction(Session& session, TableWrite write) {
  PendingWrites& pending = session.pending_writes_for_update();
  TANDEM_RETURN_IF_ERROR(coordinator_->check_pending_keys(write.table, write.updates, pending.key_counts(write.table)));
  pending.add(write.table, std::move(write.updates));
  return Status::ok();
}

void Adapter::note_transaction_read(Session& session, const ReadTiming& timing, Timestamp ts) {
  if (session.in_transaction() && !session.transaction_ts() &&
      timing.when.kind == planner::QueryWhen::Kind::kImmediately) {
    session.set_transaction_ts(ts, transaction_hold(ts));
  }
}

awaitable<Result<ExecResult>> Adapter::write_in_transaction(Session& session, const PreparedStatement& statement,
                                                            const Row& params, CancelToken& cancel) {
  catalog::SearchPath path = search_path_of(session.database(), session.vars().search_path());
  const std::string& cluster = session.vars().cluster();
  EvalContext ctx;
  init_eval_context(ctx, cancel);
  if (statement.insert) {
    Result<TableWrite> write = Status::ok();
    if (statement.insert->source) {
      auto timing = read_timing(session, std::nullopt);
      if (!timing.ok()) co_return timing.status();
      auto peeked = co_await peek_query(path, cluster, *statement.insert->source, statement.param_types, params,
                                        cancel, *timing);
      if (!peeked.ok()) co_return peeked.status();
      note_transaction_read(session, *timing, peeked->timestamp);
      auto rows = peeked->finishing.apply(peeked->rows);
      if (!rows.ok()) co_return rows.status();
      write = evaluate_insert_select(*statement.insert, *rows, params, ctx);
    } else {
      write = evaluate_insert(*statement.insert, params, ctx);
    }
    if (!write.ok()) co_return write.status();
    auto result = returning_result(statement.insert->returning, *write, 1, params, ctx,
                                   "INSERT 0 " + std::to_string(write->updates.size()));
    if (!result.ok()) co_return result.status();
    if (Status added = add_to_transaction(session, std::move(*write)); !added.is_ok()) co_return added;
    co_return std::move(*result);
  }
  // UPDATE, DELETE, TRUNCATE: each target read at the transaction's
  // timestamp, through the writes so far.
  int64_t affected = 0;
  std::vector<TableWrite> writes;
  std::vector<const BoundModify*> targets{statement.modify.get()};
  for (const auto& more : statement.also_truncate) targets.push_back(more.get());
  for (const BoundModify* target : targets) {
    auto timing = read_timing(session, std::nullopt);
    if (!timing.ok()) co_return timing.status();
    auto peeked = co_await peek_query(path, cluster, target->read, statement.param_types, params, cancel, *timing);
    if (!peeked.ok()) co_return peeked.status();
    note_transaction_read(session, *timing, peeked->timestamp);
    int64_t n = 0;
    auto write = apply_modify(*target, peeked->rows, params, ctx, &n);
    if (!write.ok()) co_return write.status();
    affected += n;
    writes.push_back(std::move(*write));
  }
  auto result = modify_result(statement.parsed->statement, *statement.modify, writes.front(), affected, params, ctx);
  if (!result.ok()) co_return result.status();
  for (TableWrite& w : writes) {
    session.pending_writes_for_update().add_read_table(w.table);
    if (Status added = add_to_transaction(session, std::move(w)); !added.is_ok()) co_return added;
  }
  co_return std::move(*result);
}

awaitable<std::optional<Status>> Adapter::commit_pending(Session& session) {
  std::unique_ptr<PendingWrites> pending = session.take_pending_writes();
  if (!pending) co_return std::nullopt;
  std::vector<TableWrite> writes;
  for (auto& [table, updates] : pending->take_consolidated()) {
    if (!updates.empty()) writes.push_back(TableWrite{table, std::move(updates)});
  }
  if (writes.empty()) co_return std::nullopt;
  if (pending->read_tables().empty() || !session.transaction_ts()) {
    // Blind writes: nothing read can have changed under them.
    co_return co_await commit_from_session(coordinator_.get(), session, std::move(writes));
  }
  // Read-then-write: under the modification lock (no UPDATE or DELETE
  // interleaves), and only if no commit wrote what was read since.
  Coordinator* coord = coordinator_.get();
  Timestamp read_ts = *session.transaction_ts();
  std::vector<compute::GlobalId> read_tables = pending->read_tables();
  std::optional<std::optional<Status>> result;
  co_await asio::co_spawn(
      coord->executor(),
      [&]() -> awaitable<void> {
        co_await await_callback<bool>(
            [coord](auto granted) { coord->lock_modifications([granted]() mutable { granted(true); }); });
        struct Unlock {
          Coordinator* coord;
          ~Unlock() { coord->unlock_modifications(); }
        } unlock{coord};
        auto start = [coord, &writes, read_ts, &read_tables](auto done) {
          coord->write_validated(std::move(writes), read_ts, read_tables, [done](Result<Timestamp> ts) mutable {
            done(ts.ok() ? std::optional<Status>() : std::optional<Status>(ts.status()));
          });
        };
        auto committed = await_callback<std::optional<Status>>(std::move(start));
        result.emplace(co_await std::move(committed));
      },
      asio::use_awaitable);
  co_return std::move(*result);
}

}  // namespace tandem::frontend
