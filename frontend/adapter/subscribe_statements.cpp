// SUBSCRIBE and cursors in the adapter (issue 6 item 1): starting a
// subscribe (planning its dataflow, picking its as_of like a read, and
// installing it through the coordinator), and DECLARE / FETCH / CLOSE over
// the session's cursors, with Materialize's rules:
//  * DECLARE needs a transaction block; after DECLARE ... SUBSCRIBE the
//    transaction accepts only FETCH, CLOSE, COMMIT and ROLLBACK;
//  * FETCH [n|ALL] without a timeout waits for at least one row, then
//    returns what is ready, at most n; WITH (timeout = '...') (0s to 24h)
//    collects rows until n (ALL: any number) or the timeout, so '0s'
//    returns only what is ready; FETCH 0 returns no rows.
#include <boost/asio/post.hpp>

#include "frontend/adapter/adapter.hpp"
#include "frontend/adapter/catalog_ops.hpp"
#include "frontend/adapter/session_catalog.hpp"
#include "frontend/adapter/subscribe.hpp"
#include "common/value_io.hpp"
#include "planner/read_planner.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;
using asio::awaitable;

namespace {

Status cursor_missing(const std::string& name) {
  return Status::error(sqlstate::kInvalidCursorName, "cursor \"" + name + "\" does not exist");
}

// FETCH's WITH (timeout = '...'); nullopt: wait as long as it takes.
Result<std::optional<std::chrono::microseconds>> fetch_timeout(const sql::Fetch& fetch) {
  std::optional<std::chrono::microseconds> timeout;
  for (const sql::Option& option : fetch.options) {
    if (option.name != "timeout") {
      return Status::error(sqlstate::kSyntaxError, "unrecognized FETCH option: " + option.name);
    }
    RowArena arena;
    auto parsed = parse_datum(option.value.text, ColumnType{TypeId::kInterval}, arena);
    if (!parsed.ok()) return parsed.status();
    Interval iv = parsed->as_interval();
    constexpr int64_t kDay = 24LL * 3600 * 1000000;
    // Months count as 30 days, as PostgreSQL's interval comparison does.
    int64_t micros = (static_cast<int64_t>(iv.months) * 30 + iv.days) * kDay + iv.micros;
    if (micros < 0 || micros > kDay) return Status::error(sqlstate::kInvalidParameterValue, "timeout out of range");
    timeout = std::chrono::microseconds(micros);
  }
  return timeout;
}

bool allowed_after_subscribe(const sql::Statement& s) {
  return s.as<sql::Fetch>() || s.as<sql::Close>() || s.as<sql::Commit>() || s.as<sql::Rollback>();
}

}  // namespace

Status Adapter::check_subscribe_transaction(Session& session, const sql::Statement& s) const {
  if (session.transaction() == TransactionState::kIdle || allowed_after_subscribe(s)) return Status::ok();
  for (const auto& [name, cursor] : session.cursors()) {
    if (cursor.subscribe) {
      return Status::error(sqlstate::kInvalidTransactionState,
                           "only FETCH, CLOSE, COMMIT and ROLLBACK may follow DECLARE ... SUBSCRIBE in a transaction");
    }
  }
  return Status::ok();
}

awaitable<Result<ExecResult>> Adapter::start_subscribe(Session& session, const PreparedStatement& statement) {
  const BoundSubscribe& bound = *statement.subscribe;
  auto snapshot = catalog_->snapshot();
  auto cluster = snapshot->resolve_cluster(session.vars().cluster());
  if (!cluster.ok()) co_return cluster.status();
  catalog::SearchPath path = search_path_of(session.database(), *session.vars().get("search_path"));
  SessionCatalog reader(snapshot, path, (*cluster)->id);
  Coordinator* coord = coordinator_.get();
  planner::PlanContext ctx;
  ctx.allocate_id = [coord] { return coord->allocate_transient_id(); };
  ctx.as_of = coord->read_ts();
  const compute::GlobalId export_id = coord->allocate_transient_id();
  const compute::GlobalId sink_id = coord->allocate_transient_id();
  auto planned = planner::plan_materialized_view(bound.query, export_id, reader, ctx);
  if (!planned.ok()) co_return planned.status();
  // Catalog and controller relations are constants computed per read
  // (catalog/builtin_relations.hpp): a subscribe would never see them change.
  if (Status refused = reader.refuse_builtin_catalog_relations("SUBSCRIBE"); !refused.is_ok()) co_return refused;
  compute::DataflowDescription desc = std::move(*planned);

  // The as_of is chosen like a read's timestamp (AS OF, the inputs' since,
  // the oracle under strict serializable), under a hold on the tables'
  // history and every index's since, kept until the dataflow is installed.
  CollectionFrontiers::TableHold table_hold = coord->frontiers().hold_tables();
  std::vector<planner::TimestampInput> frontiers;
  for (const auto& i : desc.index_imports) {
    if (auto f = coord->frontiers().get(i.index_id)) frontiers.push_back({i.index_id, f->since, f->upper});
  }
  for (const auto& i : desc.source_imports) {
    if (auto f = coord->frontiers().get(i.id)) frontiers.push_back({i.id, f->since, f->upper});
  }
  planner::QueryWhen when;
  if (bound.as_of) {
    auto evaluated = planner::evaluate_as_of(*bound.as_of);
    if (!evaluated.ok()) co_return evaluated.status();
    when = *evaluated;
  }
  auto determined = planner::determine_timestamp(frontiers, planner::isolation_from_name(session.isolation()), when,
                                                 coord->read_ts(), std::nullopt);
  if (!determined.ok()) co_return determined.status();
  const Timestamp as_of = determined->timestamp;
  if (bound.up_to && *bound.up_to < as_of) {
    co_return Status::error(sqlstate::kInvalidParameterValue, "UP TO (" + std::to_string(*bound.up_to) +
                                                                  ") must be greater than or equal to AS OF (" +
                                                                  std::to_string(as_of) + ")");
  }
  desc.as_of = as_of;
  desc.until.reset();
  desc.sink_exports = {compute::SinkExport{sink_id, export_id}};
  desc.debug_name = "subscribe-" + std::to_string(sink_id);

  auto channel = RowChannel::make(SubscribeSink::kBufferRows);
  auto sink = std::make_shared<SubscribeSink>(statement.subscribe, as_of, channel);
  ExecResult r;
  r.columns = bound.columns;
  r.copy_out = statement.copy_out;
  r.returns_rows = !statement.copy_out;
  r.tag = statement.copy_out ? "COPY" : "SUBSCRIBE";
  r.stream = channel;
  if (!sink->start()) co_return r;  // UP TO = AS OF: complete, nothing to run
  auto executor = coord->executor();
  const uint64_t cluster_id = cluster_key((*cluster)->id);
  asio::post(executor, [coord, cluster_id, sink_id, sink, channel, desc = std::move(desc), table_hold]() mutable {
    Status installed = coord->create_subscribe(sink_id, cluster_id, std::move(desc),
                                               [sink](compute::SinkBatch b) { return sink->deliver(std::move(b)); });
    if (!installed.is_ok()) channel->finish(installed);
  });
  // Posted after the install, so the drop always finds it installed.
  channel->set_on_abandon([coord, executor, sink_id] {
    asio::post(executor, [coord, sink_id] { coord->drop_subscribe(sink_id); });
  });
  co_return r;
}

awaitable<Result<ExecResult>> Adapter::declare_cursor(Session& session, const PreparedStatement& statement,
                                                      const Row& params, CancelToken& cancel) {
  const auto& declare = *statement.parsed->statement.as<sql::Declare>();
  if (session.transaction() == TransactionState::kIdle) {
    co_return Status::error(sqlstate::kNoActiveSqlTransaction, "DECLARE CURSOR can only be used in transaction blocks");
  }
  if (session.cursors().count(declare.name) != 0) {
    co_return Status::error(sqlstate::kDuplicateCursor, "cursor \"" + declare.name + "\" already exists");
  }
  const PreparedStatement& inner = *statement.declared;
  if (inner.subscribe && !session.cursors().empty()) {
    co_return Status::error(sqlstate::kInvalidTransactionState,
                            "DECLARE ... SUBSCRIBE must be the only cursor of its transaction");
  }
  Result<ExecResult> result = Status::error(sqlstate::kFeatureNotSupported, "DECLARE supports SELECT and SUBSCRIBE");
  if (inner.subscribe) {
    result = co_await start_subscribe(session, inner);
  } else if (inner.reads_collections) {
    result = co_await read_collections(session, inner, params, cancel);
  } else if (inner.plan) {
    result = execute_constant(inner, params, cancel);
  }
  if (!result.ok()) co_return result.status();
  Cursor cursor;
  cursor.columns = inner.result_columns;
  cursor.rows = std::move(result->rows);
  cursor.stream = std::move(result->stream);
  cursor.subscribe = inner.subscribe != nullptr;
  session.cursors().emplace(declare.name, std::move(cursor));
  ExecResult r;
  r.tag = "DECLARE CURSOR";
  co_return r;
}

awaitable<Result<ExecResult>> Adapter::fetch_cursor(Session& session, const PreparedStatement& statement,
                                                    CancelToken& cancel) {
  const auto& fetch = *statement.parsed->statement.as<sql::Fetch>();
  auto it = session.cursors().find(fetch.cursor);
  if (it == session.cursors().end()) co_return cursor_missing(fetch.cursor);
  auto timeout = fetch_timeout(fetch);
  if (!timeout.ok()) co_return timeout.status();
  Cursor& cursor = it->second;
  ExecResult r;
  r.returns_rows = true;
  r.columns = cursor.columns;
  if (!fetch.all && fetch.count && *fetch.count < 0) {
    co_return Status::error(sqlstate::kFeatureNotSupported, "FETCH BACKWARD is not supported");
  }
  const size_t count = fetch.all ? 0 : static_cast<size_t>(fetch.count.value_or(1));
  auto room = [&] { return fetch.all || r.rows.size() < count; };
  while (room() && cursor.next_row < cursor.rows.size()) r.rows.push_back(std::move(cursor.rows[cursor.next_row++]));
  if (count == 0 && !fetch.all) {
    r.tag = "FETCH 0";
    co_return r;
  }
  auto stream = cursor.stream;
  auto want = [&]() -> size_t { return fetch.all ? 0 : count - r.rows.size(); };
  using Clock = RowStream::Clock;
  if (stream && stream->live()) {
    // A cancel request ends the wait, and the subscribe.
    cancel.set_waker([stream] {
      stream->abandon(Status::error(sqlstate::kQueryCanceled, "canceling statement due to user request"));
    });
  }
  struct ClearWaker {
    CancelToken& cancel;
    bool live;
    ~ClearWaker() {
      if (live) cancel.clear_waker();
    }
  } clear{cancel, stream && stream->live()};
  if (stream && *timeout) {
    // With a timeout: rows until `count` (ALL: any number) or the deadline.
    const Clock::time_point deadline = Clock::now() + **timeout;
    while (room() && !stream->ended()) {
      auto batch = co_await stream->next(want(), deadline);
      if (!batch.ok()) co_return batch.status();
      if (batch->empty() && Clock::now() >= deadline) break;
      for (Row& row : *batch) r.rows.push_back(std::move(row));
    }
  } else if (stream) {
    // Without one: wait for a first row, then take what else is ready.
    if (r.rows.empty() && !stream->ended()) {
      auto batch = co_await stream->next(want());
      if (!batch.ok()) co_return batch.status();
      for (Row& row : *batch) r.rows.push_back(std::move(row));
    }
    while (room() && !stream->ended()) {
      auto batch = co_await stream->next(want(), Clock::now());
      if (!batch.ok()) co_return batch.status();
      if (batch->empty()) break;
      for (Row& row : *batch) r.rows.push_back(std::move(row));
    }
  }
  r.tag = "FETCH " + std::to_string(r.rows.size());
  co_return r;
}

Result<ExecResult> Adapter::close_cursor(Session& session, const sql::Close& close) {
  auto it = session.cursors().find(close.cursor);
  if (it == session.cursors().end()) return cursor_missing(close.cursor);
  session.cursors().erase(it);  // abandons its stream: a subscribe ends
  ExecResult r;
  r.tag = "CLOSE CURSOR";
  return r;
}

Result<std::vector<ResultColumn>> Adapter::fetch_columns(Session& session, const sql::Fetch& fetch) {
  auto it = session.cursors().find(fetch.cursor);
  if (it == session.cursors().end()) return cursor_missing(fetch.cursor);
  return it->second.columns;
}

}  // namespace tandem::frontend
