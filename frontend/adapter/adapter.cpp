#include "frontend/adapter/adapter.hpp"

#include <cctype>

#include <chrono>
#include <future>

#include <boost/asio/defer.hpp>
#include <boost/asio/post.hpp>

#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <spdlog/spdlog.h>

#include "catalog/builtin_relations.hpp"
#include "common/eval_context.hpp"
#include "common/func_resolve.hpp"
#include "frontend/adapter/catalog_ops.hpp"
#include "frontend/adapter/privileges.hpp"
#include "frontend/adapter/role_statements.hpp"
#include "frontend/adapter/introspection.hpp"
#include "frontend/adapter/explain_statement.hpp"
#include "frontend/adapter/session_catalog.hpp"
#include "frontend/adapter/session_commit.hpp"
#include "frontend/adapter/session_statements.hpp"
#include "frontend/adapter/memory_limit.hpp"
#include "planner/explain/explain.hpp"
#include "planner/query_planner.hpp"
#include "planner/read_planner.hpp"

namespace tandem::frontend {
namespace asio = boost::asio;
using asio::awaitable;
using asio::use_awaitable;

namespace {

// The command word PostgreSQL would use, for "X is not supported" errors.
const char* statement_kind(const sql::Statement& s) {
  static constexpr const char* kNames[] = {
      "SELECT", "SET", "RESET", "SHOW", "BEGIN", "SET TRANSACTION", "COMMIT", "ROLLBACK", "DISCARD", "VACUUM",
      "CREATE TABLE", "CREATE VIEW", "CREATE MATERIALIZED VIEW", "CREATE INDEX", "CREATE CLUSTER",
      "CREATE CLUSTER REPLICA", "CREATE SCHEMA", "DROP", "ALTER ... RENAME", "ALTER TABLE", "ALTER SYSTEM SET",
      "ALTER SYSTEM RESET", "CREATE ROLE", "ALTER ROLE", "DROP ROLE", "GRANT", "GRANT ROLE", "ALTER ... OWNER",
      "INSERT", "UPDATE", "DELETE", "TRUNCATE", "COPY", "SUBSCRIBE", "DECLARE", "FETCH",
      "CLOSE", "PREPARE", "EXECUTE", "DEALLOCATE", "SAVEPOINT", "SHOW OBJECTS", "SHOW COLUMNS", "SHOW CREATE", "EXPLAIN",
      "UNSUPPORTED"};
  static_assert(std::size(kNames) == std::variant_size_v<sql::Statement::Node>);
  return kNames[s.node.index()];
}

Status not_supported_yet(const sql::Statement& s) {
  return Status::error(sqlstate::kFeatureNotSupported, std::string(statement_kind(s)) + " is not supported yet");
}

Result<std::vector<ColumnType>> param_types_from_oids(std::span<const uint32_t> oids) {
  std::vector<ColumnType> types;
  for (uint32_t oid : oids) {
    TypeId id = TypeId::kUnknown;
    if (oid != 0 && !type_from_oid(oid, &id)) {
      return Status::error(sqlstate::kUndefinedObject, "type with OID " + std::to_string(oid) + " does not exist");
    }
    types.push_back(ColumnType{id});
  }
  return types;
}

catalog::SearchPath path_of(const Session& session) {
  return search_path_of(session.database(), session.vars().search_path());
}

bool runs_on_coordinator(const sql::Statement& s) {
  return s.as<sql::CreateTable>() || s.as<sql::CreateIndex>() || s.as<sql::CreateView>() || s.as<sql::CreateCluster>() ||
         s.as<sql::CreateMaterializedView>() ||
         s.as<sql::AlterRename>() || s.as<sql::AlterTableAddConstraint>() ||
         s.as<sql::DropObjects>() || s.as<sql::Insert>() ||
         s.as<sql::Update>() ||
         s.as<sql::Delete>() || s.as<sql::Truncate>() || s.as<sql::Copy>() || s.as<sql::AlterSystemSet>() ||
         s.as<sql::AlterSystemReset>() || is_role_statement(s);
}

std::vector<ResultColumn> to_result_columns(const std::vector<planner::OutputColumn>& columns) {
  std::vector<ResultColumn> out;
  for (const auto& c : columns) out.push_back({c.name, c.type});
  return out;
}

}  // namespace

int64_t statement_time_now() {
  constexpr int64_t kPostgresEpochUnixMicros = 946684800LL * 1000000;
  auto now = std::chrono::system_clock::now();
  return std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() -
         kPostgresEpochUnixMicros;
}

SessionValues session_values_of(const Session& session, const catalog::SearchPath& path) {
  return SessionValues{session.user(), session.database(), path.schemas.empty() ? "" : path.schemas.front()};
}

void init_eval_context(EvalContext& ctx, CancelToken& cancel) {
  // now(): fixed for the statement.
  ctx.statement_time = statement_time_now();
  ctx.is_canceled = [&cancel] { return !cancel.check().is_ok(); };
  ctx.sleep = [&cancel](double seconds) { return cancel.sleep_for(std::chrono::duration<double>(seconds)); };
}

namespace {

// Runs `fn` (returning awaitable<Result<T>>) on `executor` and resumes the
// caller on its own executor with the result.
template <class T, class Executor, class Fn>
awaitable<Result<T>> run_on(Executor executor, Fn fn) {
  std::optional<Result<T>> result;
  co_await asio::co_spawn(
      executor, [&]() -> awaitable<void> { result.emplace(co_await fn()); }, use_awaitable);
  co_return std::move(*result);
}

// Adapts a callback-style coordinator operation to an awaitable (defined below).
template <class Value, class Start>
awaitable<Value> await_callback(Start start);

// Commits `writes` through the coordinator; nullopt on success. The write is
// acknowledged on whichever thread fed it to compute (the coordinator's, the
// storage committer's or a session's): the caller resumes on its own
// executor, never on that thread.
awaitable<std::optional<Status>> commit(Coordinator* coord, std::vector<TableWrite> writes) {
  auto executor = co_await asio::this_coro::executor;
  // Named, not a temporary of the co_await expression (g++ 12, see
  // commit_from_session).
  auto start = [coord, executor, &writes](auto done) {
    coord->write(std::move(writes), [executor, done](Result<Timestamp> ts) mutable {
      std::optional<Status> result;
      if (!ts.ok()) result = ts.status();
      asio::post(executor, [done, result = std::move(result)]() mutable { done(std::move(result)); });
    });
  };
  auto committed = await_callback<std::optional<Status>>(std::move(start));
  co_return co_await std::move(committed);
}

}  // namespace

awaitable<std::optional<Status>> commit_from_session(Coordinator* coord, Session& session,
                                                     std::vector<TableWrite> writes) {
  auto executor = co_await asio::this_coro::executor;
  // An inline commit feeds compute after the reply is sent, not before:
  // run by the session's owner, else once this thread is back in its event
  // loop.
  Coordinator::FeedLater feed_later;
  if (session.runs_after_reply()) {
    feed_later = [&session](std::function<void()> feed) { session.after_reply(std::move(feed)); };
  } else {
    feed_later = [executor](std::function<void()> feed) { asio::defer(executor, std::move(feed)); };
  }
  if (auto committed = coord->try_write_inline(writes, feed_later)) {
    co_return committed->ok() ? std::optional<Status>() : std::optional<Status>(committed->status());
  }
  // The start and its awaitable are named, not temporaries of the co_await
  // expression: g++ 12 may destroy a temporary lambda's captures there twice
  // (see frontend/adapter/index_scan_stream.cpp), and `executor` is not
  // trivially destructible.
  auto start = [coord, executor, &writes](auto done) {
    coord->write_and_ack(std::move(writes), [executor, done](Result<Timestamp> ts) mutable {
      std::optional<Status> result;
      if (!ts.ok()) result = ts.status();
      asio::post(executor, [done, result = std::move(result)]() mutable { done(std::move(result)); });
    });
  };
  auto acknowledged = await_callback<std::optional<Status>>(std::move(start));
  co_return co_await std::move(acknowledged);
}

namespace {

// Commits a staged COPY (Coordinator::commit_staged), acknowledged back on
// this coroutine's executor; nullopt on success.
awaitable<std::optional<Status>> commit_staged_from_session(Coordinator* coord, std::unique_ptr<StagedWrite> write) {
  auto executor = co_await asio::this_coro::executor;
  // Named, not a temporary of the co_await expression (see
  // commit_from_session).
  auto start = [coord, executor, &write](auto done) {
    coord->commit_staged(std::move(write), [executor, done](Result<Timestamp> ts) mutable {
      std::optional<Status> result;
      if (!ts.ok()) result = ts.status();
      asio::post(executor, [done, result = std::move(result)]() mutable { done(std::move(result)); });
    });
  };
  auto acknowledged = await_callback<std::optional<Status>>(std::move(start));
  co_return co_await std::move(acknowledged);
}

// Adapts a callback-style coordinator operation to an awaitable.
template <class Value, class Start>
awaitable<Value> await_callback(Start start) {
  return asio::async_initiate<decltype(use_awaitable), void(Value)>(
      [start = std::move(start)](auto handler) mutable {
        auto shared = std::make_shared<decltype(handler)>(std::move(handler));
        start([shared](Value v) { std::move(*shared)(std::move(v)); });
      },
      use_awaitable);
}

// A statement that created dataflows (CREATE INDEX, CREATE MATERIALIZED
// VIEW) answers once each has reached its cluster's compute, which may wait
// for the replay of a table the cluster had not read before.
awaitable<Result<ExecResult>> after_dataflows(Engine& engine, Result<ExecResult> result) {
  Coordinator* coord = &engine.coordinator;
  for (uint64_t cluster : engine.dataflow_clusters) {
    co_await await_callback<bool>(
        [coord, cluster](auto done) { coord->when_dispatched(cluster, [done]() mutable { done(true); }); });
  }
  co_return result;
}

// Plans a read with NULL parameters to learn its result columns and fix its
// parameter types (extended in place), as PostgreSQL's Parse does.
Result<planner::ReadPlan> describe_read(const sql::Query& query, const SessionCatalog& reader,
                                        std::vector<ColumnType>& param_types) {
  planner::PlanContext ctx;
  compute::GlobalId scratch = 1;
  ctx.allocate_id = [&scratch] { return scratch++; };
  ctx.mz_now = kMinTimestamp;  // any time: the shape does not depend on it
  const SessionValues any_session;
  ctx.statement_time = 0;
  ctx.session = &any_session;
  std::vector<ColumnType> types = param_types;
  std::vector<Datum> nulls(types.size(), Datum::null());
  auto plan = planner::plan_read(query, reader, types, nulls, ctx);
  if (!plan.ok() && plan.status().sqlstate() == sqlstate::kUndefinedParameter) {
    // Binding found more parameters than were declared: retry with them all.
    nulls.assign(types.size(), Datum::null());
    types = param_types;
    types.resize(nulls.size(), ColumnType{TypeId::kUnknown});
    plan = planner::plan_read(query, reader, types, nulls, ctx);
  }
  if (plan.ok()) param_types = std::move(types);
  return plan;
}

// SUBSCRIBE's output columns come from describing its query.
Result<std::shared_ptr<const BoundSubscribe>> prepare_subscribe(
    const sql::Subscribe& subscribe, std::shared_ptr<const catalog::CatalogSnapshot> snapshot,
    const catalog::SearchPath& path, std::vector<ColumnType>& param_types) {
  TANDEM_ASSIGN_OR_RETURN(auto plan, describe_read(subscribe_query(subscribe), SessionCatalog(std::move(snapshot), path),
                                                   param_types));
  if (!param_types.empty()) {
    return Status::error(sqlstate::kFeatureNotSupported, "SUBSCRIBE with parameters is not supported");
  }
  return bind_subscribe(subscribe, to_result_columns(plan.columns));
}

}  // namespace

Result<std::unique_ptr<Adapter>> Adapter::open(storage::DurableStore& store, CoordinatorOptions options,
                                               BootOptions boot) {
  std::unique_ptr<Adapter> a(new Adapter());
  if (!boot.default_cluster_size.empty()) {
    if (auto workers = workers_for_size(boot.default_cluster_size); !workers.ok()) return workers.status();
  }
  TANDEM_ASSIGN_OR_RETURN(a->catalog_, catalog::Catalog::open(store, boot.default_cluster_size));
  for (const auto& [name, value] : boot.system_parameter_defaults) {
    auto vars = a->catalog_->snapshot();
    std::string key = name;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (vars->system_vars().overrides().count(key) != 0) continue;
    TANDEM_RETURN_IF_ERROR(a->catalog_->set_system_var(name, value));
  }
  // Builtin relations first, in a fixed order, so their system ids (and
  // OIDs) are the same at every boot.
  TANDEM_RETURN_IF_ERROR(catalog::register_builtin_relations(*a->catalog_));
  TANDEM_RETURN_IF_ERROR(register_introspection_relations(*a->catalog_));
  apply_memory_limit(*a->catalog_);
  auto snapshot = a->catalog_->snapshot();
  const catalog::Cluster* quickstart = snapshot->find_cluster(catalog::kDefaultClusterName);
  if (quickstart != nullptr) {
    options.default_cluster = cluster_key(quickstart->id);
    options.default_compute = cluster_compute(quickstart->size, snapshot->system_vars());
  }
  TANDEM_ASSIGN_OR_RETURN(a->coordinator_, Coordinator::open(store, options));
  apply_compaction_lag(*a->catalog_, *a->coordinator_);
  TANDEM_ASSIGN_OR_RETURN(a->stash_, storage::PeekStash::open(store));
  if (int64_t discarded = a->stash_->stats().discarded; discarded > 0) {
    spdlog::info("discarded {} peek stash blocks a previous process left", discarded);
  }
  // Replay on the coordinator thread, which owns the catalog from now on:
  // every cluster's runtime first, then the items in id order.
  std::promise<Status> replayed;
  asio::post(a->coordinator_->executor(), [&] {
    for (const catalog::Cluster* c : snapshot->clusters()) {
      Status added = a->coordinator_->add_cluster(cluster_key(c->id), cluster_compute(c->size, snapshot->system_vars()));
      if (!added.is_ok()) {
        replayed.set_value(added);
        return;
      }
    }
    Engine engine{*a->catalog_, *a->coordinator_};
    replayed.set_value(replay_catalog(engine));
  });
  TANDEM_RETURN_IF_ERROR(replayed.get_future().get());
  return a;
}

Adapter::~Adapter() = default;

Result<std::vector<sql::ParsedStatement>> Adapter::parse(std::string_view text) const {
  return sql::parse_statements(text);
}

bool Adapter::ends_transaction(const sql::ParsedStatement& statement) {
  auto* savepoint = statement.statement.as<sql::Savepoint>();
  return statement.statement.as<sql::Commit>() != nullptr || statement.statement.as<sql::Rollback>() != nullptr ||
         (savepoint != nullptr && savepoint->kind == sql::Savepoint::Kind::kRollbackTo);
}

Result<std::shared_ptr<const PreparedStatement>> Adapter::prepare(Session& session,
                                                                  std::optional<sql::ParsedStatement> statement,
                                                                  std::span<const uint32_t> param_type_oids) {
  auto prepared = std::make_shared<PreparedStatement>();
  TANDEM_ASSIGN_OR_RETURN(prepared->param_types, param_types_from_oids(param_type_oids));
  if (!statement) return std::shared_ptr<const PreparedStatement>(std::move(prepared));
  prepared->sql = statement->sql;
  const sql::Statement& s = statement->statement;
  auto text = [](std::string name) { return ResultColumn{std::move(name), ColumnType{TypeId::kText, -1, false}}; };

  if (auto columns = describe_session_statement(s, &prepared->returns_rows)) {
    prepared->result_columns = std::move(*columns);
    if (auto* show = s.as<sql::ShowVariable>(); show && !show->all && !SessionVars::find(show->name)) {
      // A system parameter: its name as written is the column name.
      auto value = catalog_->snapshot()->system_vars().get(show->name);
      if (!value.ok()) return value.status();
      prepared->result_columns = {text(show->name)};
    }
  } else if (s.as<sql::AlterSystemSet>() || s.as<sql::AlterSystemReset>()) {
    // Checked and applied when executed.
  } else if (s.as<sql::SelectStatement>()) {
    auto* select = statement->statement.as<sql::SelectStatement>();
    if (select->query.as_of) {
      // AS OF applies to the whole read: kept beside the query, planned without it.
      if (auto when = planner::evaluate_as_of(*select->query.as_of); !when.ok()) return when.status();
      prepared->as_of = std::move(select->query.as_of);
      select->query.as_of.reset();
    }
    auto constant = planner::plan_query(select->query, prepared->param_types);
    if (constant.ok()) {
      prepared->plan = std::move(*constant);
      for (const auto& c : prepared->plan->columns) prepared->result_columns.push_back({c.name, c.type});
    } else if (constant.status().sqlstate() == sqlstate::kFeatureNotSupported) {
      // Not a constant query: plan it over the catalog to learn its shape;
      // it is planned again per execution.
      TANDEM_ASSIGN_OR_RETURN(auto plan, describe_read(select->query, SessionCatalog(catalog_->snapshot(), path_of(session)),
                                                       prepared->param_types));
      prepared->reads_collections = true;
      prepared->result_columns = to_result_columns(plan.columns);
    } else {
      return constant.status();
    }
    prepared->returns_rows = true;
  } else if (auto* insert = s.as<sql::Insert>()) {
    auto snapshot = catalog_->snapshot();
    catalog::SearchPath path = path_of(session);
    TANDEM_ASSIGN_OR_RETURN(auto bound, bind_insert(*snapshot, path, *insert, prepared->param_types));
    if (bound->source) {
      TANDEM_ASSIGN_OR_RETURN(auto plan, describe_read(*bound->source, SessionCatalog(snapshot, path),
                                                       prepared->param_types));
      // Without a column list, a query with fewer columns fills the first
      // ones; the rest take their defaults.
      if (insert->columns.empty() && plan.columns.size() < bound->targets.size()) {
        bound->targets.resize(plan.columns.size());
      }
      for (size_t i = 0; i < plan.columns.size() && i < bound->targets.size(); ++i) {
        const ColumnType& from = plan.columns[i].type;
        const auto& column = bound->desc.columns[bound->targets[i]];
        if (!from.same_type(column.type) && !can_cast(from.id, column.type.id, CastContext::kAssignment)) {
          return Status::error(sqlstate::kDatatypeMismatch, "column \"" + column.name + "\" is of type " +
                                                                format_type(column.type) + " but expression is of type " +
                                                                format_type(from))
              .with_hint("You will need to rewrite or cast the expression.");
        }
        bound->source_types.push_back(from);
      }
      if (plan.columns.size() != bound->targets.size()) {
        return Status::error(sqlstate::kSyntaxError, plan.columns.size() > bound->targets.size()
                                                         ? "INSERT has more expressions than target columns"
                                                         : "INSERT has more target columns than expressions");
      }
    }
    if (!bound->returning.empty()) {
      prepared->returns_rows = true;
      prepared->result_columns = bound->returning.columns;
    }
    prepared->insert = std::move(bound);
  } else if (s.as<sql::Update>() || s.as<sql::Delete>() || s.as<sql::Truncate>()) {
    auto snapshot = catalog_->snapshot();
    catalog::SearchPath path = path_of(session);
    if (auto* update = s.as<sql::Update>()) {
      TANDEM_ASSIGN_OR_RETURN(prepared->modify, bind_update(*snapshot, path, *update, prepared->param_types));
    } else if (auto* del = s.as<sql::Delete>()) {
      TANDEM_ASSIGN_OR_RETURN(prepared->modify, bind_delete(*snapshot, path, *del, prepared->param_types));
    } else {
      const auto& tables = s.as<sql::Truncate>()->tables;
      TANDEM_ASSIGN_OR_RETURN(prepared->modify, bind_truncate(*snapshot, path, tables[0]));
      for (size_t i = 1; i < tables.size(); ++i) {
        TANDEM_ASSIGN_OR_RETURN(auto more, bind_truncate(*snapshot, path, tables[i]));
        prepared->also_truncate.push_back(std::move(more));
      }
    }
    // Plan the read once to type its parameters (it is planned again per execution).
    TANDEM_ASSIGN_OR_RETURN(auto plan, describe_read(prepared->modify->read, SessionCatalog(snapshot, path),
                                                     prepared->param_types));
    (void)plan;
    if (!prepared->modify->returning.empty()) {
      prepared->returns_rows = true;
      prepared->result_columns = prepared->modify->returning.columns;
    }
  } else if (auto* copy = s.as<sql::Copy>()) {
    auto snapshot = catalog_->snapshot();
    catalog::SearchPath path = path_of(session);
    if (copy->subscribe) {
      if (copy->direction == sql::Copy::Direction::kFrom) {
        return Status::error(sqlstate::kSyntaxError, "COPY (SUBSCRIBE ...) requires TO STDOUT");
      }
      TANDEM_ASSIGN_OR_RETURN(prepared->copy_out, copy_format_from_options(copy->options));
      TANDEM_ASSIGN_OR_RETURN(prepared->subscribe, prepare_subscribe(*copy->subscribe, snapshot, path,
                                                                     prepared->param_types));
      prepared->result_columns = prepared->subscribe->columns;
    } else if (copy->direction == sql::Copy::Direction::kFrom) {
      if (!copy->table) return Status::error(sqlstate::kSyntaxError, "COPY FROM requires a table");
      TANDEM_ASSIGN_OR_RETURN(prepared->copy_in, bind_copy_in(*snapshot, path, *copy));
      for (size_t c : prepared->copy_in->target->targets) {
        const auto& column = prepared->copy_in->target->desc.columns[c];
        prepared->result_columns.push_back({column.name, column.type});
      }
    } else {
      TANDEM_ASSIGN_OR_RETURN(prepared->copy_out, copy_format_from_options(copy->options));
      sql::Query query;
      if (copy->query) {
        query = *copy->query;
      } else {
        // COPY t [(cols)] TO STDOUT reads SELECT cols FROM t.
        sql::Select select;
        if (copy->columns.empty()) {
          sql::Expr star;
          star.node = sql::Star{};
          select.projection.push_back({std::move(star), std::nullopt});
        }
        for (const auto& c : copy->columns) {
          sql::Expr col;
          col.node = sql::ColumnRef{{c}};
          select.projection.push_back({std::move(col), std::nullopt});
        }
        sql::TableRef ref;
        ref.node = sql::TableName{*copy->table, std::nullopt};
        select.from.push_back(std::move(ref));
        query.body.node = std::move(select);
      }
      TANDEM_ASSIGN_OR_RETURN(auto plan, describe_read(query, SessionCatalog(snapshot, path), prepared->param_types));
      prepared->result_columns = to_result_columns(plan.columns);
      prepared->copy_out_query = std::move(query);
    }
  } else if (auto* explain = s.as<sql::Explain>(); explain && explain->stage == sql::Explain::Stage::kTimestamp) {
    if (explain->format != sql::Explain::Format::kText) {
      return Status::error(sqlstate::kFeatureNotSupported, "EXPLAIN TIMESTAMP AS JSON is not supported yet");
    }
    prepared->returns_rows = true;
    prepared->result_columns = {text("Timestamp")};
  } else if (auto* explain = s.as<sql::Explain>()) {
    TANDEM_ASSIGN_OR_RETURN(std::string column, planner::explain_column_name(*explain));
    prepared->returns_rows = true;
    prepared->result_columns = {text(column)};
  } else if (s.as<sql::ShowObjects>()) {
    prepared->returns_rows = true;
    prepared->result_columns = {text("name")};
    auto kind = s.as<sql::ShowObjects>()->kind;
    if (kind == sql::ShowObjects::Kind::kObjects) prepared->result_columns.push_back(text("type"));
    if (kind == sql::ShowObjects::Kind::kClusters) prepared->result_columns.push_back(text("replicas"));
    if (kind == sql::ShowObjects::Kind::kMaterializedViews) prepared->result_columns.push_back(text("cluster"));
    if (kind == sql::ShowObjects::Kind::kIndexes) {
      for (const char* c : {"on", "cluster", "key"}) prepared->result_columns.push_back(text(c));
    }
  } else if (s.as<sql::ShowCreate>()) {
    prepared->returns_rows = true;
    prepared->result_columns = {text("name"), text("create_sql")};
  } else if (s.as<sql::ShowColumns>()) {
    prepared->returns_rows = true;
    prepared->result_columns = {text("name"), ResultColumn{"nullable", ColumnType{TypeId::kBool, -1, false}},
                                text("type")};
  } else if (s.as<sql::CreateTable>() || s.as<sql::DropObjects>() || s.as<sql::CreateIndex>() ||
             s.as<sql::CreateView>() || s.as<sql::CreateMaterializedView>() || s.as<sql::CreateCluster>() || s.as<sql::AlterRename>() ||
             s.as<sql::AlterTableAddConstraint>() || is_role_statement(s)) {
    // Validated when executed, against the catalog as it is then.
  } else if (auto* subscribe = s.as<sql::Subscribe>()) {
    TANDEM_ASSIGN_OR_RETURN(prepared->subscribe, prepare_subscribe(*subscribe, catalog_->snapshot(), path_of(session),
                                                                   prepared->param_types));
    prepared->returns_rows = true;
    prepared->result_columns = prepared->subscribe->columns;
  } else if (auto* declare = s.as<sql::Declare>()) {
    const sql::Statement& inner = *declare->statement;
    if (!inner.as<sql::SelectStatement>() && !inner.as<sql::Subscribe>()) {
      return Status::error(sqlstate::kFeatureNotSupported, "DECLARE supports SELECT and SUBSCRIBE");
    }
    sql::ParsedStatement parsed{inner, statement->sql, statement->offset};
    TANDEM_ASSIGN_OR_RETURN(prepared->declared, prepare(session, std::move(parsed), param_type_oids));
    prepared->param_types = prepared->declared->param_types;
  } else if (auto* fetch = s.as<sql::Fetch>()) {
    TANDEM_ASSIGN_OR_RETURN(prepared->result_columns, fetch_columns(session, *fetch));
    prepared->returns_rows = true;
  } else if (s.as<sql::Close>()) {
    // Checked when executed.
  } else if (s.as<sql::Prepare>() || s.as<sql::Execute>() || s.as<sql::Deallocate>()) {
    TANDEM_RETURN_IF_ERROR(prepare_sql_statement(session, s, *prepared));
  } else if (auto* unsupported = s.as<sql::Unsupported>()) {
    return Status::error(sqlstate::kFeatureNotSupported, unsupported->what + " is not supported");
  } else {
    return not_supported_yet(s);
  }
  prepared->parsed = std::move(statement);
  return std::shared_ptr<const PreparedStatement>(std::move(prepared));
}

Result<ExecResult> Adapter::execute_constant(const PreparedStatement& statement, const Row& params,
                                             CancelToken& cancel, std::optional<Timestamp> mz_now,
                                             const SessionValues* session) {
  EvalContext ctx;
  init_eval_context(ctx, cancel);
  ctx.mz_now = mz_now;
  ctx.session = session;
  TANDEM_ASSIGN_OR_RETURN(std::vector<Row> rows, planner::execute_query(*statement.plan, params, ctx));
  TANDEM_RETURN_IF_ERROR(cancel.check());
  ExecResult r;
  r.returns_rows = true;
  r.columns = statement.result_columns;
  r.tag = "SELECT " + std::to_string(rows.size());
  r.rows = std::move(rows);
  return r;
}

awaitable<Result<ExecResult>> Adapter::execute(Session& session, const PreparedStatement& statement,
                                               const Row& params, CancelToken& cancel,
                                               asio::thread_pool& blocking_pool) {
  if (!statement.parsed) {
    ExecResult r;
    r.empty_query = true;
    co_return r;
  }
  const sql::Statement& s = statement.parsed->statement;
  if (auto* show = s.as<sql::ShowVariable>(); show && !show->all && !SessionVars::find(show->name)) {
    auto value = catalog_->snapshot()->system_vars().get(show->name);
    if (!value.ok()) co_return value.status();
    ExecResult r;
    r.returns_rows = true;
    r.columns = statement.result_columns;
    r.rows.push_back(Row::pack_one(Datum::from_string(*value)));
    r.tag = "SHOW";
    co_return r;
  }
  if (s.as<sql::Prepare>() || s.as<sql::Execute>() || s.as<sql::Deallocate>()) {
    co_return co_await execute_sql_prepared(session, statement, cancel, blocking_pool);
  }
  if (Status allowed = co_await check_session_privileges(session, statement); !allowed.is_ok()) co_return allowed;
  if (session.in_transaction()) {
    auto handled = co_await execute_in_transaction(session, statement, params, cancel);
    if (handled) co_return std::move(*handled);
  }
  if (Status allowed = check_subscribe_transaction(session, s); !allowed.is_ok()) co_return allowed;
  if (statement.subscribe) {
    auto started = co_await start_subscribe(session, statement);
    // A cancel request (or shutdown) ends the stream, and so the subscribe.
    if (started.ok() && started->stream) {
      cancel.set_waker([stream = started->stream] {
        stream->abandon(Status::error(sqlstate::kQueryCanceled, "canceling statement due to user request"));
      });
    }
    co_return started;
  }
  if (statement.declared) co_return co_await declare_cursor(session, statement, params, cancel);
  if (s.as<sql::Fetch>()) co_return co_await fetch_cursor(session, statement, cancel);
  if (auto* close = s.as<sql::Close>()) co_return close_cursor(session, *close);
  if (auto result = execute_session_statement(session, s)) co_return std::move(*result);
  if (statement.plan != nullptr) {
    // A constant read has no inputs: mz_now() is the oracle's read time (or
    // the transaction's, or AS OF's).
    auto timing = read_timing(session, statement.as_of);
    if (!timing.ok()) co_return timing.status();
    auto determined = planner::determine_timestamp({}, timing->isolation, timing->when, coordinator_->read_ts(),
                                                   timing->transaction_ts);
    if (!determined.ok()) co_return determined.status();
    Timestamp mz_now = determined->timestamp;
    note_transaction_read(session, *timing, mz_now);
    if (statement.plan->uses_session) {
      timing->session = session_values_of(session, search_path_of(session.database(), session.vars().search_path()));
    }
    const SessionValues* values = timing->session ? &*timing->session : nullptr;
    if (!statement.plan->may_block) co_return execute_constant(statement, params, cancel, mz_now, values);
    // Off the I/O thread while it may wait.
    co_return co_await run_on<ExecResult>(blocking_pool.get_executor(), [&]() -> awaitable<Result<ExecResult>> {
      co_return execute_constant(statement, params, cancel, mz_now, values);
    });
  }
  // Reads and INSERT ... VALUES first: a prepared lookup or insert needs
  // neither the catalog snapshot nor the search path below.
  if (statement.reads_collections) co_return co_await read_collections(session, statement, params, cancel);
  if (statement.insert && !statement.insert->source && !statement.insert->may_block) {
    // INSERT ... VALUES is evaluated here, on the session's thread; only the
    // ready write goes to the coordinator.
    EvalContext ctx;
    init_eval_context(ctx, cancel);
    auto write = evaluate_insert(*statement.insert, params, ctx);
    if (!write.ok()) co_return write.status();
    auto result = returning_result(statement.insert->returning, *write, 1, params, ctx,
                                   "INSERT 0 " + std::to_string(write->updates.size()));
    if (!result.ok()) co_return result.status();
    std::vector<TableWrite> writes;
    writes.push_back(std::move(*write));
    auto committed = co_await commit_from_session(coordinator_.get(), session, std::move(writes));
    if (committed) co_return *committed;
    co_return std::move(*result);
  }
  auto snapshot = catalog_->snapshot();
  catalog::SearchPath path = path_of(session);
  if (auto* show = s.as<sql::ShowObjects>()) {
    if (show->kind == sql::ShowObjects::Kind::kClusters) co_return show_clusters(*snapshot);
    co_return show_objects(*snapshot, path, *show);
  }
  if (auto* show = s.as<sql::ShowCreate>()) co_return show_create(*snapshot, path, *show);
  if (auto* explain = s.as<sql::Explain>(); explain && explain->stage == sql::Explain::Stage::kTimestamp) {
    co_return explain_timestamp(session, *explain, statement);
  }
  // COPY (query) TO STDOUT reads like a SELECT, on the session's thread.
  if (statement.copy_out_query) {
    co_return co_await read_result(session, statement, *statement.copy_out_query, params, cancel);
  }
  if (auto* explain = s.as<sql::Explain>()) {
    auto routing = [this](catalog::ClusterId id) { return coordinator_->read_routing(cluster_key(id)); };
    co_return explain_plan_statement(snapshot, path, session.vars().cluster(), *explain, statement.param_types,
                                     statement.result_columns, routing);
  }
  if (auto* show = s.as<sql::ShowColumns>()) co_return show_columns(*snapshot, path, *show);
  if (statement.reads_collections || runs_on_coordinator(s)) {
    co_return co_await run_on<ExecResult>(coordinator_->executor(), [&]() -> awaitable<Result<ExecResult>> {
      co_return co_await execute_on_coordinator(session, statement, params, cancel);
    });
  }
  co_return not_supported_yet(s);
}

awaitable<Status> Adapter::check_session_privileges(Session& session, const PreparedStatement& statement) {
  // The session's role exists from its first statement on: created, as
  // Materialize does for a user that authenticated, when it does not.
  auto snapshot = catalog_->snapshot();
  if (!session.role_ensured()) {
    if (snapshot->access().find_role(session.user()) == nullptr) {
      auto created = co_await run_on<catalog::RoleId>(coordinator_->executor(),
                                                      [&]() -> awaitable<Result<catalog::RoleId>> {
                                                        co_return catalog_->ensure_role(session.user());
                                                      });
      if (!created.ok()) co_return created.status();
      snapshot = catalog_->snapshot();
    }
    session.set_role_ensured();
  }
  // Checked once per catalog version and session context (user,
  // search_path, cluster, database): a prepared
  // point lookup pays one comparison.
  const std::string& cluster = session.vars().cluster();
  std::string context =
      session.user() + '\0' + session.vars().search_path() + '\0' + cluster + '\0' + session.database();
  if (statement.privileges_checked_version == snapshot->version() && statement.privileges_checked_context == context) {
    co_return Status::ok();
  }
  Status allowed = check_privileges(*snapshot, session.user(), path_of(session), cluster, statement.parsed->statement);
  if (allowed.is_ok()) {
    statement.privileges_checked_version = snapshot->version();
    statement.privileges_checked_context = std::move(context);
  }
  co_return allowed;
}

awaitable<Result<ExecResult>> Adapter::execute_on_coordinator(Session& session, const PreparedStatement& statement,
                                                              const Row& params, CancelToken& cancel) {
  const sql::Statement& s = statement.parsed->statement;
  catalog::SearchPath path = path_of(session);
  Engine engine{*catalog_, *coordinator_};
  engine.owner = session_role(*catalog_->snapshot(), session.user());
  if (auto role = execute_role_statement(*catalog_, session.user(), path, s)) co_return std::move(*role);
  if (auto* create = s.as<sql::CreateTable>()) co_return create_table(engine, path, *create);
  if (auto* create = s.as<sql::CreateIndex>()) {
    co_return co_await after_dataflows(engine, create_index(engine, path, session.vars().cluster(), *create));
  }
  if (auto* create = s.as<sql::CreateView>()) co_return create_view(engine, path, *create);
  if (auto* create = s.as<sql::CreateMaterializedView>()) {
    co_return co_await after_dataflows(engine,
                                       create_materialized_view(engine, path, session.vars().cluster(), *create));
  }
  if (auto* create = s.as<sql::CreateCluster>()) co_return create_cluster(engine, *create);
  if (auto* rename = s.as<sql::AlterRename>()) co_return alter_rename(engine, path, *rename);
  if (auto* add = s.as<sql::AlterTableAddConstraint>()) co_return alter_table_add_constraint(engine, path, *add);
  if (s.as<sql::AlterSystemSet>() || s.as<sql::AlterSystemReset>()) {
    if (!is_superuser(*catalog_->snapshot(), session.user())) {
      co_return Status::error(sqlstate::kInsufficientPrivilege, "permission denied to alter system")
          .with_detail("You must be the 'mz_system' role");
    }
    Status st;
    if (auto* set = s.as<sql::AlterSystemSet>()) {
      std::string value;
      for (size_t i = 0; i < set->values.size(); ++i) value += (i ? ", " : "") + set->values[i].text;
      st = set->to_default ? catalog_->reset_system_var(set->name) : catalog_->set_system_var(set->name, value);
    } else {
      auto* reset = s.as<sql::AlterSystemReset>();
      st = reset->all ? catalog_->reset_all_system_vars() : catalog_->reset_system_var(reset->name);
    }
    if (!st.is_ok()) co_return st;
    apply_memory_limit(*catalog_);
    apply_compaction_lag(*catalog_, *coordinator_);
    ExecResult r;
    r.tag = "ALTER SYSTEM";
    co_return r;
  }
  if (auto* drop = s.as<sql::DropObjects>()) co_return drop_objects(engine, path, *drop);
  if (statement.insert) {
    EvalContext ctx;
    init_eval_context(ctx, cancel);
    std::optional<Result<TableWrite>> evaluated;
    if (statement.insert->source) {
      auto peeked = co_await peek_query(path, session.vars().cluster(), *statement.insert->source,
                                        statement.param_types, params, cancel);
      if (!peeked.ok()) co_return peeked.status();
      auto rows = peeked->finishing.apply(peeked->rows);
      if (!rows.ok()) co_return rows.status();
      evaluated.emplace(evaluate_insert_select(*statement.insert, *rows, params, ctx));
    } else {
      evaluated.emplace(evaluate_insert(*statement.insert, params, ctx));
    }
    auto& write = *evaluated;
    if (!write.ok()) co_return write.status();
    auto result = returning_result(statement.insert->returning, *write, 1, params, ctx,
                                   "INSERT 0 " + std::to_string(write->updates.size()));
    if (!result.ok()) co_return result.status();
    std::vector<TableWrite> writes;
    writes.push_back(std::move(*write));
    Coordinator* coord = coordinator_.get();
    auto committed = co_await commit(coord, std::move(writes));
    if (committed) co_return *committed;
    co_return std::move(*result);
  }
  const std::string& cluster = session.vars().cluster();
  if (statement.modify) co_return co_await modify_table(path, cluster, statement, params, cancel);
  if (statement.copy_in) {
    ExecResult r;
    r.copy_in = true;
    r.columns = statement.result_columns;
    co_return r;
  }
  co_return not_supported_yet(s);
}

Result<std::unique_ptr<CopyInBuilder>> Adapter::begin_copy_in(Session& session, const PreparedStatement& statement,
                                                              CancelToken& cancel) {
  // Parsed and packed on the session's thread as the data arrives; the
  // coordinator only sequences the ready write. In a transaction the rows
  // stay in memory, with its other pending writes.
  auto builder = std::make_unique<CopyInBuilder>(statement.copy_in);
  if (!session.in_transaction()) builder->stage_into(coordinator_.get());
  init_eval_context(builder->context(), cancel);
  TANDEM_RETURN_IF_ERROR(builder->start());
  return builder;
}

awaitable<Result<ExecResult>> Adapter::finish_copy_in(Session& session, std::unique_ptr<CopyInBuilder> builder) {
  size_t count = 0;
  auto write = builder->finish(&count);
  if (!write.ok()) co_return write.status();
  if (auto staged = builder->take_staged()) {
    builder.reset();
    auto committed = co_await commit_staged_from_session(coordinator_.get(), std::move(staged));
    if (committed) co_return *committed;
    ExecResult r;
    r.tag = "COPY " + std::to_string(count);
    co_return r;
  }
  builder.reset();
  if (session.in_transaction()) {
    if (Status added = add_to_transaction(session, std::move(*write)); !added.is_ok()) co_return added;
    ExecResult r;
    r.tag = "COPY " + std::to_string(count);
    co_return r;
  }
  std::vector<TableWrite> writes;
  writes.push_back(std::move(*write));
  auto committed = co_await commit_from_session(coordinator_.get(), session, std::move(writes));
  if (committed) co_return *committed;
  ExecResult r;
  r.tag = "COPY " + std::to_string(count);
  co_return r;
}

awaitable<Result<ExecResult>> Adapter::modify_table(const catalog::SearchPath& path, const std::string& cluster,
                                                    const PreparedStatement& statement, const Row& params,
                                                    CancelToken& cancel) {
  Coordinator* coord = coordinator_.get();
  co_await await_callback<bool>([coord](auto granted) { coord->lock_modifications([granted]() mutable { granted(true); }); });
  struct Unlock {
    Coordinator* coord;
    ~Unlock() { coord->unlock_modifications(); }
  } unlock{coord};
  EvalContext ctx;
  init_eval_context(ctx, cancel);
  int64_t affected = 0;
  std::vector<TableWrite> writes;
  std::vector<const BoundModify*> targets{statement.modify.get()};
  for (const auto& more : statement.also_truncate) targets.push_back(more.get());
  for (const BoundModify* target : targets) {
    auto peeked = co_await peek_query(path, cluster, target->read, statement.param_types, params, cancel);
    if (!peeked.ok()) co_return peeked.status();
    int64_t n = 0;
    auto write = apply_modify(*target, peeked->rows, params, ctx, &n);
    if (!write.ok()) co_return write.status();
    affected += n;
    writes.push_back(std::move(*write));
  }
  auto result = modify_result(statement.parsed->statement, *statement.modify, writes.front(), affected, params, ctx);
  if (!result.ok()) co_return result.status();
  auto committed = co_await commit(coord, std::move(writes));
  if (committed) co_return *committed;
  co_return std::move(*result);
}

}  // namespace tandem::frontend
