// The read path (issue 5 items 6 and 10): SELECT over collections, its
// timestamp, and EXPLAIN TIMESTAMP.
//
// Everything here runs on the session's thread. Planning reads the
// published catalog snapshot; timestamp selection reads the oracle (a
// lock-free load) and the coordinator's frontier map. A fast-path peek of an
// index whose time is already sealed is answered right here from the
// published arrangements, with no thread hand-off (DESIGN §9). Every other
// peek (parked ones and peek dataflows) is submitted on the coordinator's
// thread, which owns pending peeks: it cancels them and drops their
// one-shot dataflows. A full scan with no ORDER BY/LIMIT/OFFSET streams to
// the client (IndexScanStream) while it is read: a sealed one too large to
// answer inline, and a parked one or a peek dataflow's result, which the
// worker answers with the sealed snapshots instead of rows.
#include <algorithm>
#include <chrono>

#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "frontend/adapter/adapter.hpp"
#include "frontend/adapter/await_callback.hpp"
#include "frontend/adapter/catalog_ops.hpp"
#include "frontend/adapter/index_scan_stream.hpp"
#include "frontend/adapter/session_catalog.hpp"
#include "frontend/adapter/stash_stream.hpp"
#include "planner/read_planner.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;

namespace {

// The collections a plan reads: what its timestamp must be valid for.
std::vector<compute::GlobalId> inputs_of(const planner::ReadPlan& plan) {
  std::vector<compute::GlobalId> ids;
  if (auto* existing = std::get_if<planner::PeekExisting>(&plan.plan)) ids.push_back(existing->index_id);
  if (auto* df = std::get_if<planner::PeekDataflow>(&plan.plan)) {
    for (const auto& i : df->desc.index_imports) ids.push_back(i.index_id);
    for (const auto& s : df->desc.source_imports) ids.push_back(s.id);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

// A result's rows, in memory (tagged with their count) or streamed.
ExecResult with_stashed(ExecResult r, StashedResult stashed) {
  if (stashed.stream) {
    r.stream = std::move(stashed.stream);
    return r;
  }
  r.tag += " " + std::to_string(stashed.rows.size());
  r.rows = std::move(stashed.rows);
  return r;
}

// Why a peek answered Canceled: the statement's cancellation.
Status canceled_status(const CancelToken& cancel) {
  Status why = cancel.check();
  return why.is_ok() ? Status::error(sqlstate::kQueryCanceled, "canceling statement due to user request") : why;
}

}  // namespace

std::shared_ptr<const void> Adapter::transaction_hold(Timestamp ts) const {
  return std::make_shared<CollectionFrontiers::TableHold>(coordinator_->frontiers().hold_tables_at(ts));
}

Result<Adapter::ReadTiming> Adapter::read_timing(Session& session, const std::optional<sql::AsOf>& as_of) const {
  ReadTiming timing;
  timing.isolation = planner::isolation_from_name(session.isolation());
  PendingWrites* pending = session.pending_writes();
  if (pending != nullptr && !pending->empty()) {
    if (as_of) {
      return Status::error(sqlstate::kFeatureNotSupported,
                           "AS OF in a transaction with uncommitted writes is not supported");
    }
    timing.pending_writes = &pending->consolidated();
  }
  if (as_of) {
    TANDEM_ASSIGN_OR_RETURN(timing.when, planner::evaluate_as_of(*as_of));
  } else if (session.in_transaction()) {
    timing.transaction_ts = session.transaction_ts();
  }
  return timing;
}

Result<planner::TimestampDetermination> Adapter::determine_timestamp(const std::vector<compute::GlobalId>& inputs,
                                                                     uint64_t cluster, const ReadTiming& timing,
                                                                     Timestamp oracle,
                                                                     CollectionFrontiers::ReadHold* hold) const {
  // Held before the frontiers are read, at a time the read cannot pick
  // below: its AS OF, its transaction's timestamp, or (strict serializable)
  // the oracle's read timestamp; else each input's since.
  Timestamp floor = kMinTimestamp;
  if (timing.when.kind == planner::QueryWhen::Kind::kAtTimestamp) {
    floor = timing.when.ts;
  } else if (timing.transaction_ts) {
    floor = *timing.transaction_ts;
  } else if (timing.when.kind == planner::QueryWhen::Kind::kImmediately &&
             timing.isolation == planner::IsolationLevel::kStrictSerializable) {
    floor = oracle;
  }
  *hold = coordinator_->frontiers().hold(inputs, floor);
  // A serializable read moves up to the inputs' uppers. An index's upper in
  // frontiers() trails what compute has published (FrontierUpper responses
  // wait for the coordinator thread), and a read answered from the
  // publication, by this session too, may be past it already: a serializable
  // read after it must not pick an earlier time and miss writes that read
  // saw. So it reads the published upper.
  const bool to_upper = timing.isolation == planner::IsolationLevel::kSerializable && !timing.transaction_ts &&
                        timing.when.kind == planner::QueryWhen::Kind::kImmediately;
  std::vector<planner::TimestampInput> frontiers;
  for (compute::GlobalId id : inputs) {
    // An index whose dataflow is still being created has no entry yet: a
    // strict serializable read waits for it in compute.
    auto f = coordinator_->frontiers().get(id);
    if (!f) continue;
    if (to_upper && !f->is_table) {
      if (auto published = coordinator_->published_upper(cluster, id)) f->upper = std::max(f->upper, *published);
    }
    frontiers.push_back({id, f->since, f->upper});
  }
  return planner::determine_timestamp(frontiers, timing.isolation, timing.when, oracle, timing.transaction_ts);
}

Result<Adapter::TimedPlan> Adapter::plan_timed(const catalog::SearchPath& path, const std::string& cluster,
                                               const sql::Query& query, std::vector<ColumnType> param_types,
                                               const Row& params, const ReadTiming& timing) {
  auto snapshot = catalog_->snapshot();
  TANDEM_ASSIGN_OR_RETURN(const catalog::Cluster* resolved, snapshot->resolve_cluster(cluster));
  TimedPlan out;
  out.cluster_id = resolved->id;
  SessionCatalog reader(snapshot, path, out.cluster_id);
  Coordinator* coord = coordinator_.get();
  reader.set_controller([coord] { return coord->controller_status(); });
  reader.set_pending_writes(timing.pending_writes);
  planner::PlanContext ctx;
  ctx.allocate_id = [coord] { return coord->allocate_transient_id(); };
  // Plan at the likely timestamp; only mz_now() makes the plan depend on it.
  const Timestamp oracle = coordinator_->read_ts();
  Timestamp guess = timing.when.kind == planner::QueryWhen::Kind::kAtTimestamp ? timing.when.ts
                                                                              : timing.transaction_ts.value_or(oracle);
  ctx.as_of = guess;
  ctx.mz_now = guess;
  ctx.statement_time = statement_time_now();
  ctx.session = timing.session ? &*timing.session : nullptr;
  ctx.pending_writes = timing.pending_writes;
  RowArena arena;
  std::vector<Datum> datums = unpack(params.ref(), &arena);
  std::vector<ColumnType> types = param_types;
  TANDEM_ASSIGN_OR_RETURN(out.plan, planner::plan_read(query, reader, types, datums, ctx));

  out.inputs = inputs_of(out.plan);
  if (timing.pending_writes != nullptr) {
    TANDEM_RETURN_IF_ERROR(check_reads_see_pending(*snapshot, out.inputs, *timing.pending_writes));
  }
  // Before the frontiers are read: the since they give then stays readable.
  if (std::holds_alternative<planner::PeekDataflow>(out.plan.plan)) {
    out.table_hold = coordinator_->frontiers().hold_tables();
  }
  TANDEM_ASSIGN_OR_RETURN(out.determination,
                          determine_timestamp(out.inputs, cluster_key(out.cluster_id), timing, oracle, &out.read_hold));
  const Timestamp ts = out.determination.timestamp;
  if (ts != guess && out.plan.uses_mz_now) {
    ctx.as_of = ts;
    ctx.mz_now = ts;
    types = param_types;
    TANDEM_ASSIGN_OR_RETURN(out.plan, planner::plan_read(query, reader, types, datums, ctx));
  } else if (auto* df = std::get_if<planner::PeekDataflow>(&out.plan.plan)) {
    df->desc.as_of = ts;
    df->desc.until = ts + 1;
  }
  return out;
}

awaitable<Result<Adapter::PeekedRows>> Adapter::peek_query(const catalog::SearchPath& path, const std::string& cluster,
                                                            const sql::Query& query, std::vector<ColumnType> param_types,
                                                            const Row& params, CancelToken& cancel,
                                                            const ReadTiming& timing, bool may_stream) {
  auto timed = plan_timed(path, cluster, query, std::move(param_types), params, timing);
  if (!timed.ok()) co_return timed.status();
  co_return co_await peek_timed(std::move(*timed), cancel, may_stream);
}

awaitable<Result<Adapter::PeekedRows>> Adapter::peek_timed(TimedPlan timed, CancelToken& cancel, bool may_stream) {
  planner::ReadPlan& plan = timed.plan;
  PeekedRows out;
  out.read_hold = std::move(timed.read_hold);
  out.finishing = std::move(plan.finishing);
  out.timestamp = timed.determination.timestamp;
  if (auto* constant = std::get_if<planner::FastPathConstant>(&plan.plan)) {
    out.rows = constant->rows;
    co_return out;
  }
  std::optional<compute::DataflowDescription> dataflow;
  compute::Peek peek;
  peek.time = out.timestamp;
  const bool stream = may_stream && IndexScanStream::streamable(out.finishing);
  const uint64_t cluster_id = cluster_key(timed.cluster_id);
  const bool is_dataflow = std::holds_alternative<planner::PeekDataflow>(plan.plan);
  if (auto* df = std::get_if<planner::PeekDataflow>(&plan.plan)) {
    dataflow = std::move(df->desc);
    // A runaway temporary dataflow (a cross join) ends with 53200.
    dataflow->heap_limit_bytes = static_cast<std::uint64_t>(
        std::max<int64_t>(0, catalog_->snapshot()->system_vars().get_bytes(catalog::kMaxQueryHeapSize)));
    peek.target = df->index_id;
    peek.mfp = compute::MapFilterProject::identity(df->arity);
  } else {
    auto& existing = std::get<planner::PeekExisting>(plan.plan);
    peek.target = existing.index_id;
    peek.literal_keys = std::move(existing.literal_keys);
    peek.mfp = std::move(existing.mfp);
    // Sealed already: walked on this thread for the inline budget, no
    // hand-off; a longer walk continues on the offload pool (a full scan
    // that may stream streams instead).
    if (!timed.inline_budget || !timed.offload) {
      auto snapshot = catalog_->snapshot();
      if (!timed.inline_budget) timed.inline_budget = snapshot->system_vars().get_int(catalog::kComputeIndexPeekInlineBudget);
      if (!timed.offload) timed.offload = snapshot->system_vars().get_bool(catalog::kEnableComputeIndexPeekOffload);
    }
    const bool offload = *timed.offload && (peek.literal_keys || !stream);
    if (auto ready = coordinator_->walk_if_ready(cluster_id, peek,
                                                 static_cast<size_t>(std::max<int64_t>(0, *timed.inline_budget)),
                                                 offload)) {
      // (Not a conditional expression: g++ 12 miscompiles co_await in one.)
      compute::PeekResponse response;
      if (ready->response) {
        response = std::move(*ready->response);
      } else {
        response = co_await await_offloaded(std::move(ready->offloaded), cancel);
      }
      if (response.kind == compute::PeekResponse::Kind::kError) co_return response.error;
      if (response.kind == compute::PeekResponse::Kind::kCanceled) co_return canceled_status(cancel);
      out.rows = std::move(response.rows);
      co_return out;
    }
    // Too large to answer inline: streamed, when the finishing allows it.
    if (stream) {
      if (auto scan = coordinator_->scan_if_ready(cluster_id, peek)) {
        if (!scan->ok()) co_return scan->status();
        out.scan = std::move(scan->value());
        co_return out;
      }
    }
  }
  // A full scan that may stream is answered with the index's sealed
  // snapshots (a peek dataflow's too: they outlive its dropped dataflow),
  // walked here as the client reads; the worker never walks it.
  peek.stream = stream && !peek.literal_keys;
  std::optional<compute::Peek> scan_peek;
  if (peek.stream) scan_peek.emplace(compute::Peek{0, peek.target, peek.time, std::nullopt, peek.mfp, true});
  // A peek dataflow runs once its cluster admits it (admission control);
  // its slot is released when the read ends.
  std::optional<InteractiveAdmission::Slot> slot;
  if (dataflow) {
    if (!co_await await_admission(cluster_id, cancel)) co_return canceled_status(cancel);
    slot.emplace(&coordinator_->admission(), cluster_id);
  }
  // Submitted on the coordinator's thread, which keeps it until answered.
  // While it is outstanding, a cancel request or the statement's deadline
  // cancels it in compute (the response then says Canceled).
  Coordinator* coord = coordinator_.get();
  auto executor = coordinator_->executor();
  compute::PeekResponse response = co_await await_callback<compute::PeekResponse>([&](auto done) {
    asio::post(executor, [coord, executor, cluster_id, &cancel, done, dataflow = std::move(dataflow),
                          peek = std::move(peek)]() mutable {
      auto timer = std::make_shared<asio::steady_timer>(executor);
      compute::PeekId id = coord->peek(cluster_id, std::move(dataflow), std::move(peek),
                                       [&cancel, timer, done](compute::PeekResponse r) {
                                         cancel.clear_waker();
                                         timer->cancel();
                                         done(std::move(r));
                                       });
      if (id == 0) return;
      cancel.set_waker([coord, id, executor] { asio::post(executor, [coord, id] { coord->cancel_peek(id); }); });
      if (!cancel.check().is_ok()) coord->cancel_peek(id);
      if (cancel.deadline() != CancelToken::Clock::time_point::max()) {
        timer->expires_at(cancel.deadline());
        timer->async_wait([coord, id](const boost::system::error_code& ec) {
          if (!ec) coord->cancel_peek(id);
        });
      }
    });
  });
  if (response.kind == compute::PeekResponse::Kind::kError) co_return response.error;
  if (response.kind == compute::PeekResponse::Kind::kCanceled) co_return canceled_status(cancel);
  if (response.kind == compute::PeekResponse::Kind::kSnapshots) {
    auto scan = compute::IndexScan::open(*scan_peek, std::move(response.parts));
    if (!scan.ok()) co_return scan.status();
    out.scan = std::move(*scan);
    out.scan_owned = is_dataflow;
    co_return out;
  }
  out.rows = std::move(response.rows);
  co_return out;
}

awaitable<Result<ExecResult>> Adapter::read_collections(Session& session, const PreparedStatement& statement,
                                                        const Row& params, CancelToken& cancel) {
  const auto& query = statement.parsed->statement.as<sql::SelectStatement>()->query;
  co_return co_await read_result(session, statement, query, params, cancel);
}

awaitable<Result<ExecResult>> Adapter::read_result(Session& session, const PreparedStatement& statement,
                                                   const sql::Query& query, const Row& params, CancelToken& cancel) {
  auto timing = read_timing(session, statement.as_of);
  if (!timing.ok()) co_return timing.status();
  std::optional<Result<PeekedRows>> peeked;
  // A prepared lookup reads an index alone: not in a transaction that wrote.
  auto cached = timing->pending_writes ? nullptr : cached_read(session, statement, query);
  if (cached && cached->lookup) {
    peeked.emplace(co_await peek_lookup(*cached, params, cancel, *timing));
  } else {
    catalog::SearchPath path = search_path_of(session.database(), session.vars().search_path());
    // Not on the prepared lookup's path: a lookup holds no session function.
    timing->session = session_values_of(session, path);
    peeked.emplace(co_await peek_query(path, session.vars().cluster(), query, statement.param_types, params, cancel,
                                       *timing, /*may_stream=*/true));
  }
  if (!peeked->ok()) co_return peeked->status();
  PeekedRows& read = **peeked;
  note_transaction_read(session, *timing, read.timestamp);
  // max_result_size bounds what one read may return.
  int64_t limit = cached ? cached->max_result_size
                         : catalog_->snapshot()->system_vars().get_bytes(catalog::kMaxResultSize);
  // Its text, for the error, only when there is one.
  auto limit_text = [this] { return *catalog_->snapshot()->system_vars().get(catalog::kMaxResultSize); };
  const char* command = statement.copy_out ? "COPY" : "SELECT";
  ExecResult r;
  r.returns_rows = !statement.copy_out;
  r.columns = statement.result_columns;
  r.copy_out = statement.copy_out;
  // Past this, a result only this read holds goes through the peek stash
  // (stash_stream.hpp), unless ORDER BY needs it whole in memory.
  ResultStasher stasher(stash_, read.finishing.order_by.empty()
                                    ? catalog_->snapshot()->system_vars().get_bytes(
                                          catalog::kComputePeekResponseStashThresholdBytes)
                                    : 0);
  if (read.scan) {
    r.tag = command;
    auto scan = std::make_shared<IndexScanStream>(std::move(read.scan), std::move(read.finishing),
                                                  session.cancel_token(), limit, limit_text(),
                                                  coordinator_->offload_pool());
    if (!read.scan_owned) {
      r.stream = std::move(scan);
      co_return r;
    }
    auto stashed = co_await stash_stream(std::move(scan), std::move(stasher), session.cancel_token());
    if (!stashed.ok()) co_return stashed.status();
    co_return with_stashed(std::move(r), std::move(*stashed));
  }
  auto finished = read.finishing.apply(read.rows);
  if (!finished.ok()) co_return finished.status();
  std::vector<std::pair<Row, Diff>>().swap(read.rows);
  int64_t bytes = 0;
  for (const Row& row : *finished) bytes += static_cast<int64_t>(row.size());
  if (limit > 0 && bytes > limit) {
    co_return Status::error(sqlstate::kProgramLimitExceeded, "result exceeds max size of " + limit_text());
  }
  if (Status added = stasher.add(std::move(*finished)); !added.is_ok()) co_return added;
  auto stashed = stasher.finish(session.cancel_token());
  if (!stashed.ok()) co_return stashed.status();
  r.tag = command;
  co_return with_stashed(std::move(r), std::move(*stashed));
}

Result<ExecResult> Adapter::explain_timestamp(Session& session, const sql::Explain& explain,
                                              const PreparedStatement& statement) {
  sql::Query query = std::get<sql::Query>(explain.explainee);
  std::optional<sql::AsOf> as_of = std::move(query.as_of);
  query.as_of.reset();
  TANDEM_ASSIGN_OR_RETURN(ReadTiming timing, read_timing(session, as_of));
  catalog::SearchPath path = search_path_of(session.database(), session.vars().search_path());
  TANDEM_ASSIGN_OR_RETURN(TimedPlan timed, plan_timed(path, session.vars().cluster(), query, statement.param_types,
                                                      Row(), timing));
  const planner::TimestampDetermination& d = timed.determination;
  auto snapshot = catalog_->snapshot();
  std::string text;
  auto line = [&text](std::string_view label, const std::string& value) {
    constexpr size_t kWidth = 31;  // "largest not in advance of upper"
    text += std::string(kWidth > label.size() ? kWidth - label.size() : 0, ' ');
    text += label;
    text += ":";
    text += value;
    text += "\n";
  };
  auto frontier = [](Timestamp t) {
    return t == kMaxTimestamp ? std::string("[]") : "[" + planner::format_timestamp_ms(t) + "]";
  };
  line("query timestamp", " " + planner::format_timestamp_ms(d.timestamp));
  if (d.oracle_read_ts) line("oracle read timestamp", " " + planner::format_timestamp_ms(*d.oracle_read_ts));
  line("largest not in advance of upper", " " + planner::format_timestamp_ms(d.largest_not_in_advance_of_upper));
  line("upper", frontier(d.upper));
  line("since", frontier(d.since));
  line("can respond immediately", d.respond_immediately() ? " true" : " false");
  line("timeline", " Some(EpochMilliseconds)");
  auto wall = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  line("session wall time", " " + planner::format_timestamp_ms(static_cast<Timestamp>(wall.count())));
  for (compute::GlobalId id : timed.inputs) {
    auto f = coordinator_->frontiers().get(id);
    const catalog::Item* item = snapshot->item(catalog::item_id_from_compute(id));
    std::string name = item ? item->name.to_string() : std::to_string(id);
    std::string label = item ? item->id.to_string() : std::to_string(id);
    text += "\nsource " + name + " (" + label + ", " + (f && f->is_table ? "storage" : "compute") + "):\n";
    line("read frontier", frontier(f ? f->since : kMinTimestamp));
    line("write frontier", frontier(f ? f->upper : kMinTimestamp));
  }
  ExecResult r;
  r.returns_rows = true;
  r.columns = statement.result_columns;
  r.rows.push_back(Row::pack_one(Datum::from_string(text)));
  r.tag = "EXPLAIN";
  return r;
}

}  // namespace tandem::frontend
