// libFuzzer target for common/'s scalar evaluator (casts, arithmetic and
// numeric, text, date/time, jsonb and array functions), reached through the
// path a constant query takes in a session: arbitrary bytes as a query
// (SELECT without FROM, VALUES), bound by plan_query (type inference,
// implicit casts, overload resolution) and evaluated by execute_query, its
// parameters all NULL.
//
// Evaluation errors are fine (they must carry a SQLSTATE and a message);
// crashes, UB, hangs and stack overflows are not. pg_sleep returns at once.

#include <cstdint>
#include <string_view>
#include <vector>

#include "planner/parser/parser.hpp"
#include "planner/testing/fuzz_check.hpp"
#include "planner/query_planner.hpp"

using namespace tandem;
using namespace tandem::planner;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  auto query = sql::parse_query(sql);
  if (!query.ok()) return 0;
  std::vector<ColumnType> param_types;
  auto plan = plan_query(*query, param_types);
  if (!plan.ok()) {
    testing::fuzz_check_error(plan.status());
    return 0;
  }
  const std::vector<Datum> nulls(param_types.size(), Datum::null());
  const Row params = Row::pack(nulls);
  static const SessionValues session{"materialize", "materialize", "public"};
  EvalContext ctx;
  ctx.sleep = [](double) { return Status::ok(); };
  ctx.statement_time = 0;
  ctx.mz_now = 5;
  ctx.session = &session;
  auto rows = execute_query(**plan, params, ctx);
  if (!rows.ok()) testing::fuzz_check_error(rows.status());
  return 0;
}
