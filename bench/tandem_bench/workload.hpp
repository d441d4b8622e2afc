#pragma once
// Building blocks the scenarios share: tables loaded by COPY, and the query
// streams (point lookups, hydration churn, index walks, writes) they run.
// Keys of lookups are spread over the table by a multiplicative hash of the
// iteration number, so consecutive lookups do not hit the same rows.
// Threading: called from the scenario's thread.

#include <cstdint>
#include <string>

#include "bench/tandem_bench/scenario.hpp"

namespace tandem::bench {

inline uint64_t spread(uint64_t i, uint64_t n) { return (i * 2654435761ULL) % n; }

// `name`(k int, v int) with keys 0..rows-1 (v = k * 7 % 1000) and an index
// `name`_k on k, hydrated before this returns.
void load_keyed_table(ArmContext& ctx, const std::string& name, uint64_t rows);

// big(id bigint, v int) with `rows` rows (v = id % 100003), no index: what
// the hydration churn indexes again and again.
void load_big_table(ArmContext& ctx, uint64_t rows);

// Prepared point lookups `SELECT v FROM table WHERE k = $1` over keys
// [first_key, first_key + keys), at the session's isolation level.
StreamSpec point_lookups(const std::string& name, const std::string& table, uint64_t first_key, uint64_t keys,
                         const std::string& isolation, int connections);

// Hydration churn on big: CREATE INDEX big_churn ON big (v), a lookup through
// it (which waits until the index is hydrated), DROP INDEX; closed loop, one
// connection, on the session's cluster.
StreamSpec hydration_churn();

// Full walks of an index: a fast-path scan of `table`'s index with a filter
// no row passes (`SELECT k FROM table WHERE v = -1`), closed loop.
StreamSpec index_walks(const std::string& table, int connections);

// The shape of most scenarios: calibrate each `measured` stream (sharing the
// target utilization among them), run them for `d` beside `steady` (phase
// "quiet"), then again with `load` added (phase `loaded_phase`).
void quiet_then_loaded(ArmContext& ctx, std::vector<StreamSpec> measured, const std::vector<StreamSpec>& steady,
                       const StreamSpec& load, const std::string& loaded_phase, Duration d);

// "SET transaction_isolation = ..." for a session_setup list.
std::string isolation_setup(const std::string& level);

}  // namespace tandem::bench
