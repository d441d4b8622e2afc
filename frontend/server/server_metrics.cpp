#include "frontend/server/server_metrics.hpp"

namespace tandem::frontend {

namespace {

// In the order of sql::Statement::Node's alternatives.
constexpr std::string_view kKindNames[] = {
    "select",
    "set_variable", "reset_variable", "show_variable", "start_transaction", "set_transaction", "commit",
    "rollback", "discard", "maintenance",
    "create_table", "create_view", "create_materialized_view", "create_index", "create_cluster",
    "create_cluster_replica", "create_schema", "drop_objects", "alter_object_rename", "alter_table",
    "alter_system_set",
    "alter_system_reset",
    "create_role", "alter_role", "drop_role", "grant_privileges", "grant_role", "alter_owner",
    "insert", "update", "delete", "truncate", "copy", "subscribe",
    "declare", "fetch", "close", "prepare", "execute", "deallocate", "savepoint",
    "show_objects", "show_columns", "show_create", "explain", "unsupported"};
static_assert(std::size(kKindNames) == kStatementKinds, "a statement kind without a metrics label");

}  // namespace

std::string_view statement_kind_name(size_t kind) { return kind < kStatementKinds ? kKindNames[kind] : "unknown"; }

std::string_view statement_outcome_name(StatementOutcome outcome) {
  switch (outcome) {
    case StatementOutcome::kSuccess:
      return "success";
    case StatementOutcome::kError:
      return "error";
    case StatementOutcome::kCanceled:
      return "canceled";
  }
  return "unknown";
}

std::string_view http_endpoint_name(HttpEndpoint endpoint) {
  switch (endpoint) {
    case HttpEndpoint::kSql:
      return "/api/sql";
    case HttpEndpoint::kWebSocket:
      return "/api/experimental/sql";
    case HttpEndpoint::kHealth:
      return "health";
    case HttpEndpoint::kMetrics:
      return "/metrics";
    case HttpEndpoint::kConsole:
      return "console";
    case HttpEndpoint::kOther:
      return "other";
  }
  return "other";
}

}  // namespace tandem::frontend
