#pragma once
// System parameters: the values ALTER SYSTEM SET/RESET change and SHOW reads,
// with Materialize's names, each typed and with a default. SystemVars is a
// plain value holding only the overridden parameters (normalized); the
// catalog persists each override in its column family, includes the current
// SystemVars in every CatalogSnapshot, and writes through Catalog so a change
// is durable before it is visible. Only superusers may change parameters:
// the coordinator checks that, not this class.
//
// Types and accepted spellings (names are case-insensitive):
//   bool     on/off, true/false, yes/no, 1/0 (whole words only)
//                                              -> shown "on"/"off"
//   int      a decimal integer within the parameter's bounds
//   bytes    an integer with an optional unit B, kB, MB, GB, TB (powers of
//            1024, case-insensitive, optional space)  -> shown "1GB", "512kB"
//   duration an integer with a unit us, ms, s, min, h, d (bare = ms);
//            stored in microseconds            -> shown "100ms", "2min"
//   string   any text
// Errors: 42704 `unrecognized configuration parameter "x"`; 22023
// `invalid value for parameter "x": "v"`.
// Threading: plain value; a const SystemVars is safe to read from any thread.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace tandem::catalog {

enum class VarType : uint8_t { kBool, kInt, kBytes, kDuration, kString };

struct VarDefinition {
  std::string_view name;
  VarType type;
  std::string_view default_value;  // in the parameter's accepted syntax
  std::string_view description;
  int64_t min = 0;  // bounds for kInt (inclusive)
  int64_t max = INT64_MAX;
};

// Every known parameter, in name order.
std::span<const VarDefinition> system_var_definitions();
// nullptr when `name` (any case) is not a known parameter.
const VarDefinition* find_system_var(std::string_view name);

// A parameter's value: its normalized text and, for non-string types, its
// number (bool 0/1, int, bytes, duration in microseconds).
struct VarValue {
  std::string text;
  int64_t number = 0;

  bool operator==(const VarValue&) const = default;
};

// Parses `value` for `def`; 22023 when it does not fit the type or bounds.
Result<VarValue> parse_var_value(const VarDefinition& def, std::string_view value);

class SystemVars {
 public:
  // Validates and records an override. Unknown name: 42704; bad value: 22023.
  Status set(std::string_view name, std::string_view value);
  // Drops the override (back to the default). Unknown name: 42704.
  Status reset(std::string_view name);
  void reset_all() { overrides_.clear(); }

  // The current value as SHOW prints it. Unknown name: 42704.
  Result<std::string> get(std::string_view name) const;
  // Typed reads. REQUIRES: `name` is a known parameter of the matching type
  // (asserted) — callers name parameters by constant.
  bool get_bool(std::string_view name) const;
  int64_t get_int(std::string_view name) const;
  int64_t get_bytes(std::string_view name) const;
  int64_t get_duration_us(std::string_view name) const;
  std::string get_string(std::string_view name) const;

  // (name, current value) for every parameter, in name order (SHOW ALL).
  std::vector<std::pair<std::string, std::string>> all() const;
  // Overridden parameters only, by lower-case name (what is persisted).
  const std::map<std::string, VarValue>& overrides() const { return overrides_; }

  bool operator==(const SystemVars&) const = default;

 private:
  VarValue current(const VarDefinition& def) const;
  std::map<std::string, VarValue> overrides_;
};

// Parameter names used by other layers.
inline constexpr const char* kEnableComputeInteractiveRuntime = "enable_compute_interactive_runtime";
inline constexpr const char* kEnableComputeInteractiveDataflows = "enable_compute_interactive_dataflows";
inline constexpr const char* kEnableComputeMaintenanceBackground = "enable_compute_maintenance_background";
inline constexpr const char* kComputeIndexPeekInlineBudget = "compute_index_peek_inline_budget";
inline constexpr const char* kEnableComputeIndexPeekOffload = "enable_compute_index_peek_offload";
inline constexpr const char* kMaxResultSize = "max_result_size";
inline constexpr const char* kMaxQueryHeapSize = "max_query_heap_size";
inline constexpr const char* kMaxConcurrentInteractiveDataflows = "max_concurrent_interactive_dataflows";
inline constexpr const char* kMaxConnections = "max_connections";
inline constexpr const char* kPersistFastPathLimit = "persist_fast_path_limit";
inline constexpr const char* kMemoryLimit = "memory_limit";
inline constexpr const char* kComputePeekResponseStashThresholdBytes =
    "compute_peek_response_stash_threshold_bytes";
inline constexpr const char* kIdleInTransactionSessionTimeout = "idle_in_transaction_session_timeout";
inline constexpr const char* kAllowedClusterReplicaSizes = "allowed_cluster_replica_sizes";
inline constexpr const char* kCompactionLag = "compaction_lag";

}  // namespace tandem::catalog
