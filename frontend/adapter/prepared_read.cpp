// Prepared lookups (issue 5 item 10a): a prepared SELECT that is a point
// lookup is planned once per catalog version (frontend/adapter/
// read_plan_cache.hpp, planner/prepared_lookup.hpp); each execution only
// evaluates its keys from the parameters, picks its timestamp and peeks.
// Runs on the session's thread, like the rest of the read path.
#include "frontend/adapter/adapter.hpp"
#include "frontend/adapter/catalog_ops.hpp"
#include "frontend/adapter/session_catalog.hpp"
#include "planner/read_planner.hpp"

namespace tandem::frontend {
using boost::asio::awaitable;

std::shared_ptr<const CachedRead> Adapter::cached_read(const Session& session, const PreparedStatement& statement,
                                                       const sql::Query& query) {
  auto snapshot = catalog_->snapshot();
  const std::string& search_path = session.vars().search_path();
  const std::string& cluster = session.vars().cluster();
  auto cached = statement.read_cache.get();
  if (cached && cached->planned_under(snapshot->version(), session.database(), search_path, cluster)) return cached;
  if (!cached && statement.read_cache.first_use()) return nullptr;

  auto resolved = snapshot->resolve_cluster(cluster);
  if (!resolved.ok()) return nullptr;
  auto entry = std::make_shared<CachedRead>();
  entry->catalog_version = snapshot->version();
  entry->database = session.database();
  entry->search_path = search_path;
  entry->cluster = cluster;
  entry->cluster_id = (*resolved)->id;
  entry->inline_budget = snapshot->system_vars().get_int(catalog::kComputeIndexPeekInlineBudget);
  entry->max_result_size = snapshot->system_vars().get_bytes(catalog::kMaxResultSize);
  entry->offload = snapshot->system_vars().get_bool(catalog::kEnableComputeIndexPeekOffload);
  SessionCatalog reader(snapshot, search_path_of(session.database(), search_path), entry->cluster_id);
  std::vector<ColumnType> types = statement.param_types;
  planner::PlanContext ctx;
  auto planned = planner::plan_prepared_lookup(query, reader, types, ctx);
  // A statement that no longer plans (its table was dropped) is planned per
  // execution, which reports the error, until the catalog changes again.
  if (!planned.ok() || types.size() != statement.param_types.size()) return nullptr;
  entry->lookup = std::move(*planned);
  statement.read_cache.set(entry);
  return entry;
}

awaitable<Result<Adapter::PeekedRows>> Adapter::peek_lookup(const CachedRead& cached, const Row& params,
                                                            CancelToken& cancel, const ReadTiming& timing) {
  const planner::PreparedLookup& lookup = *cached.lookup;
  RowArena arena;
  std::vector<Datum> values = unpack(params.ref(), &arena);
  auto keys = lookup.keys(values);
  if (!keys.ok()) co_return keys.status();
  TimedPlan timed;
  timed.plan.plan = planner::PeekExisting{lookup.collection, lookup.index_id, std::move(*keys), lookup.mfp};
  timed.plan.finishing = lookup.finishing;
  timed.inputs = {lookup.index_id};
  timed.cluster_id = cached.cluster_id;
  timed.inline_budget = cached.inline_budget;
  timed.offload = cached.offload;
  auto determination = determine_timestamp(timed.inputs, cluster_key(timed.cluster_id), timing, coordinator_->read_ts(),
                                           &timed.read_hold);
  if (!determination.ok()) co_return determination.status();
  timed.determination = std::move(*determination);
  co_return co_await peek_timed(std::move(timed), cancel);
}

}  // namespace tandem::frontend
