#include "frontend/adapter/adapter.hpp"

#include <chrono>

#include "common/eval_context.hpp"
#include "frontend/adapter/session_statements.hpp"
#include "planner/query_planner.hpp"

namespace tandem::frontend {
namespace {

// The command word PostgreSQL would use, for "X is not supported" errors.
const char* statement_kind(const sql::Statement& s) {
  static constexpr const char* kNames[] = {
      "SELECT", "SET", "RESET", "SHOW", "BEGIN", "SET TRANSACTION", "COMMIT", "ROLLBACK", "DISCARD",
      "CREATE TABLE", "CREATE VIEW", "CREATE MATERIALIZED VIEW", "CREATE INDEX", "CREATE CLUSTER",
      "CREATE CLUSTER REPLICA", "CREATE SCHEMA", "DROP", "ALTER ... RENAME", "ALTER SYSTEM SET",
      "ALTER SYSTEM RESET", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "COPY", "SUBSCRIBE", "DECLARE", "FETCH",
      "CLOSE", "PREPARE", "EXECUTE", "DEALLOCATE", "SHOW OBJECTS", "SHOW COLUMNS", "SHOW CREATE", "EXPLAIN",
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

}  // namespace

Adapter::Adapter(storage::DurableStore& store) : store_(store) {}

Result<std::vector<sql::ParsedStatement>> Adapter::parse(std::string_view text) const {
  return sql::parse_statements(text);
}

bool Adapter::ends_transaction(const sql::ParsedStatement& statement) {
  return statement.statement.as<sql::Commit>() != nullptr || statement.statement.as<sql::Rollback>() != nullptr;
}

Result<std::shared_ptr<const PreparedStatement>> Adapter::prepare(Session& session,
                                                                  std::optional<sql::ParsedStatement> statement,
                                                                  std::span<const uint32_t> param_type_oids) {
  (void)session;
  auto prepared = std::make_shared<PreparedStatement>();
  TANDEM_ASSIGN_OR_RETURN(prepared->param_types, param_types_from_oids(param_type_oids));
  if (!statement) return std::shared_ptr<const PreparedStatement>(std::move(prepared));
  prepared->sql = statement->sql;
  const sql::Statement& s = statement->statement;

  if (auto columns = describe_session_statement(s, &prepared->returns_rows)) {
    prepared->result_columns = std::move(*columns);
  } else if (auto* select = s.as<sql::SelectStatement>()) {
    TANDEM_ASSIGN_OR_RETURN(prepared->plan, planner::plan_query(select->query, prepared->param_types));
    prepared->returns_rows = true;
    for (const auto& c : prepared->plan->columns) prepared->result_columns.push_back({c.name, c.type});
  } else if (auto* unsupported = s.as<sql::Unsupported>()) {
    return Status::error(sqlstate::kFeatureNotSupported, unsupported->what + " is not supported");
  } else {
    return not_supported_yet(s);
  }
  prepared->parsed = std::move(statement);
  return std::shared_ptr<const PreparedStatement>(std::move(prepared));
}

bool Adapter::may_block(const PreparedStatement& statement) const {
  return statement.plan != nullptr && statement.plan->may_block;
}

Result<ExecResult> Adapter::execute(Session& session, const PreparedStatement& statement, const Row& params,
                                    CancelToken& cancel) {
  if (!statement.parsed) {
    ExecResult r;
    r.empty_query = true;
    return r;
  }
  const sql::Statement& s = statement.parsed->statement;
  if (auto result = execute_session_statement(session, s)) return std::move(*result);
  if (statement.plan == nullptr) return not_supported_yet(s);

  EvalContext ctx;
  // now(): microseconds since 2000-01-01 UTC, fixed for the statement.
  constexpr int64_t kPostgresEpochUnixMicros = 946684800LL * 1000000;
  auto now = std::chrono::system_clock::now();
  ctx.statement_time = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() -
                       kPostgresEpochUnixMicros;
  ctx.is_canceled = [&cancel] { return !cancel.check().is_ok(); };
  ctx.sleep = [&cancel](double seconds) { return cancel.sleep_for(std::chrono::duration<double>(seconds)); };

  TANDEM_ASSIGN_OR_RETURN(std::vector<Row> rows, planner::execute_query(*statement.plan, params, ctx));
  TANDEM_RETURN_IF_ERROR(cancel.check());
  ExecResult r;
  r.returns_rows = true;
  r.columns = statement.result_columns;
  r.tag = "SELECT " + std::to_string(rows.size());
  r.rows = std::move(rows);
  return r;
}

}  // namespace tandem::frontend
