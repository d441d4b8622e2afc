#pragma once
// Timestamp selection for reads (Materialize's
// coord/timestamp_selection.rs, determine_timestamp_for).
//
// Given the inputs a read uses (their since and upper), the isolation level,
// an optional AS OF [AT LEAST] and the oracle's read timestamp, the
// candidate starts at the minimum and joins in:
//   * the AS OF time (AS OF t: exactly t, nothing else joins in);
//   * the inputs' since (except for AS OF t, which must be valid as given);
//   * the oracle read timestamp, under strict serializable (not with AS OF);
//   * upper - 1, under serializable (not with AS OF [AT LEAST]);
// and fails with `Timestamp (t) is not valid for all inputs` unless every
// since <= t. A read without inputs (constants, mz_now()) reads at the oracle
// read timestamp under either level. A strict serializable timestamp may be
// at or past an input's upper: compute then parks the peek until it is
// sealed. A serializable one is below every upper (when the since allows),
// so it answers without waiting.
// Inside an explicit transaction every read after the first uses the first
// one's timestamp (`transaction_ts`): it is valid if every since <= it.
// Threading: pure functions.
#include <optional>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "common/timestamp.hpp"
#include "compute/plan/global_id.hpp"
#include "planner/parser/ast_query.hpp"

namespace tandem::planner {

enum class IsolationLevel : uint8_t { kStrictSerializable, kSerializable };

// "strict serializable" / "serializable" (SessionVars normalizes the
// PostgreSQL levels to serializable).
IsolationLevel isolation_from_name(std::string_view name);

struct QueryWhen {
  enum class Kind : uint8_t { kImmediately, kAtTimestamp, kAtLeastTimestamp };
  Kind kind = Kind::kImmediately;
  Timestamp ts = kMinTimestamp;
};

struct TimestampInput {
  compute::GlobalId id = 0;
  Timestamp since = kMinTimestamp;
  Timestamp upper = kMinTimestamp;
};

struct TimestampDetermination {
  Timestamp timestamp = kMinTimestamp;
  Timestamp since = kMinTimestamp;  // the join of the inputs' sinces
  Timestamp upper = kMaxTimestamp;  // the meet of the inputs' uppers (max: no inputs)
  Timestamp largest_not_in_advance_of_upper = kMinTimestamp;
  std::optional<Timestamp> oracle_read_ts;  // when the oracle was consulted
  // since <= timestamp < upper: no input has to seal anything first.
  bool respond_immediately() const { return since <= timestamp && timestamp < upper; }
};

Result<TimestampDetermination> determine_timestamp(const std::vector<TimestampInput>& inputs,
                                                   IsolationLevel isolation, const QueryWhen& when,
                                                   Timestamp oracle_read_ts,
                                                   std::optional<Timestamp> transaction_ts);

// Evaluates an AS OF [AT LEAST] expression: a constant castable to a
// non-null mz_timestamp (integers, numeric, text, timestamps); else
// Materialize's error.
Result<QueryWhen> evaluate_as_of(const sql::AsOf& as_of);

// "1690473216287 (2023-07-27 15:53:36.287)": an EpochMillis time as
// EXPLAIN TIMESTAMP prints it.
std::string format_timestamp_ms(Timestamp ts);

}  // namespace tandem::planner
