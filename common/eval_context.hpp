#pragma once
// EvalContext: per-evaluation state and hooks for scalar evaluation.
//  * arena: receives var-length results (text built by functions); the
//    caller clears it between rows/batches once results are copied out.
//  * is_canceled: polled by long-running functions (pg_sleep); returning
//    true makes them fail with 57014 "canceling statement due to user
//    request".
//  * sleep: how pg_sleep waits (the runtime decides: a worker must not block
//    a dataflow); without it pg_sleep is 0A000.
//  * statement_time: now()/current_timestamp, microseconds since 2000-01-01
//    UTC, fixed for the statement; absent -> now() is 0A000.
//  * mz_now: the query's timestamp (EpochMillis) for mz_now(); absent ->
//    mz_now() is 0A000 (reads substitute it before compute sees the plan).
//  * session: the session's user, database and current schema for
//    current_user, current_database() and current_schema; absent -> 0A000
//    (reads substitute them before compute sees the plan).
// Threading: one context per evaluating thread.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "common/row_arena.hpp"
#include "common/status.hpp"

namespace tandem {

// What the session functions return.
struct SessionValues {
  std::string user;
  std::string database;
  std::string schema;  // the first schema of the search path
};

struct EvalContext {
  RowArena arena;
  std::function<bool()> is_canceled;
  std::function<Status(double seconds)> sleep;
  std::optional<int64_t> statement_time;
  std::optional<uint64_t> mz_now;
  const SessionValues* session = nullptr;
};

}  // namespace tandem
