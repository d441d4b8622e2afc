#pragma once
// PreparedStatement and Portal: the extended protocol's named objects.
// A PreparedStatement is a parsed statement with its parameter types and
// result shape fixed at Parse time (PostgreSQL infers unspecified parameter
// types then). A Portal is a prepared statement bound to parameter values
// and result formats, plus the execution state that lets Execute with a row
// limit resume (PortalSuspended).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/row.hpp"
#include "common/types.hpp"
#include "frontend/adapter/exec_result.hpp"
#include "frontend/adapter/read_plan_cache.hpp"
#include "frontend/adapter/table_insert.hpp"
#include "frontend/adapter/table_modify.hpp"
#include "frontend/adapter/subscribe.hpp"
#include "frontend/adapter/table_copy.hpp"
#include "planner/parser/parser.hpp"
#include "planner/query_plan.hpp"

namespace tandem::frontend {

struct PreparedStatement {
  std::string sql;  // the statement's own text
  // nullopt for an empty query (EmptyQueryResponse on execute).
  std::optional<sql::ParsedStatement> parsed;
  std::vector<ColumnType> param_types;
  bool returns_rows = false;
  std::vector<ResultColumn> result_columns;
  // The catalog version and session context (search_path, cluster,
  // database) at which check_privileges last allowed this statement; the
  // statement belongs to one session, used by one thread at a time.
  mutable uint64_t privileges_checked_version = 0;
  mutable std::string privileges_checked_context;
  // For constant queries: the plan made at Parse time, executed per Execute.
  std::shared_ptr<const planner::QueryPlan> plan;
  // For queries over collections: a point lookup is planned once per
  // catalog version (read_cache); anything else is re-planned per execution
  // with the parameter values, as Materialize does.
  bool reads_collections = false;
  mutable ReadPlanCache read_cache;
  // SELECT ... AS OF [AT LEAST] t: evaluated per execution; `parsed` holds
  // the query without it.
  std::optional<sql::AsOf> as_of;
  // For INSERT: the bound rows.
  std::shared_ptr<const BoundInsert> insert;
  // For UPDATE, DELETE and TRUNCATE: the read and the new values.
  std::shared_ptr<const BoundModify> modify;
  // TRUNCATE of further tables (after `modify`), all in one write.
  std::vector<std::shared_ptr<const BoundModify>> also_truncate;
  // For COPY FROM STDIN: the target and format.
  std::shared_ptr<const BoundCopyIn> copy_in;
  // For COPY TO STDOUT: the query read and the output format.
  std::optional<sql::Query> copy_out_query;
  std::optional<CopyFormat> copy_out;
  // For SUBSCRIBE and COPY (SUBSCRIBE ...) TO STDOUT.
  std::shared_ptr<const BoundSubscribe> subscribe;
  // For DECLARE c CURSOR FOR stmt: stmt, prepared.
  std::shared_ptr<const PreparedStatement> declared;
};

struct Portal {
  std::shared_ptr<const PreparedStatement> statement;
  Row params;                          // one datum per parameter
  std::vector<int16_t> result_formats;  // normalized: one per result column
  // Execution state: the first Execute runs the statement and keeps its
  // result; later ones continue at next_row.
  std::optional<ExecResult> result;
  size_t next_row = 0;
};

}  // namespace tandem::frontend
