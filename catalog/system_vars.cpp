#include "catalog/system_vars.hpp"

#include <algorithm>
#include <array>
#include <cassert>
#include <cctype>

namespace tandem::catalog {
namespace {

constexpr int64_t kKiB = 1024;
constexpr int64_t kMiB = kKiB * 1024;
constexpr int64_t kGiB = kMiB * 1024;
constexpr int64_t kTiB = kGiB * 1024;

// Sorted by name.
constexpr std::array<VarDefinition, 15> kDefinitions = {{
    {kAllowedClusterReplicaSizes, VarType::kString, "",
     "Comma-separated cluster sizes CREATE CLUSTER may use (empty: any)."},
    // Materialize's default compaction window for indexes, materialized
    // views and tables.
    {kCompactionLag, VarType::kDuration, "1s",
     "How far every index's, materialized view's and table's since trails its upper when no read holds it back: "
     "AS OF reads older than this are refused (at least 1ms)."},
    {kComputeIndexPeekInlineBudget, VarType::kInt, "1024",
     "Cursor positions a fast-path index walk runs inline before moving to the offload pool.", 0,
     INT64_MAX},
    // Materialize's default is in the megabytes; 1MB keeps a result's memory
    // to about one socket buffer's worth of rows per statement while a
    // client reads, at the cost of writing larger results to RocksDB once.
    {kComputePeekResponseStashThresholdBytes, VarType::kBytes, "1MB",
     "Peek results (without ORDER BY) larger than this stream to the client from the RocksDB stash (0: never)."},
    {kEnableComputeIndexPeekOffload, VarType::kBool, "on",
     "Move long fast-path index walks to the offload pool."},
    {kEnableComputeInteractiveDataflows, VarType::kBool, "on",
     "Run transient peek dataflows on the interactive runtime."},
    {kEnableComputeInteractiveRuntime, VarType::kBool, "on",
     "Serve peeks from the interactive runtime."},
    {kEnableComputeMaintenanceBackground, VarType::kBool, "on",
     "With the interactive runtime on, run a cluster's maintenance workers as background work (SCHED_BATCH, nice 10), "
     "so reads preempt long steps (read when a cluster is created)."},
    {kIdleInTransactionSessionTimeout, VarType::kDuration, "2min",
     "Terminate sessions idle inside a transaction for longer than this (0: never)."},
    {kMaxConcurrentInteractiveDataflows, VarType::kInt, "8",
     "Peek dataflows a cluster runs at once; more wait in a FIFO queue (mz_interactive_admission).", 1,
     INT64_MAX},
    {kMaxConnections, VarType::kInt, "5000", "Maximum number of concurrent connections.", 0,
     INT64_MAX},
    {kMaxQueryHeapSize, VarType::kBytes, "4GB",
     "Most a query's temporary dataflow may hold in arrangements (resident or spilled) before it fails with "
     "53200 (0: no limit)."},
    {kMaxResultSize, VarType::kBytes, "1GB", "Maximum size of a query result."},
    {kMemoryLimit, VarType::kBytes, "0B",
     "Memory for resident arrangement batches before they spill to RocksDB (0: tandemd's --memory-limit)."},
    {kPersistFastPathLimit, VarType::kInt, "1000",
     "Largest LIMIT served by reading a table shard directly (0: off).", 0, INT64_MAX},
}};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

Status invalid_value(std::string_view name, std::string_view value) {
  return Status::error(sqlstate::kInvalidParameterValue,
                       "invalid value for parameter \"" + std::string(name) + "\": \"" +
                           std::string(value) + "\"");
}

Status unknown_parameter(std::string_view name) {
  return Status::error(sqlstate::kUndefinedObject,
                       "unrecognized configuration parameter \"" + std::string(name) + "\"");
}

// Splits "  123 unit" into its number and (lower-cased, trimmed) unit.
// False when there is no leading non-negative decimal integer or it overflows.
bool split_number(std::string_view text, int64_t* number, std::string* unit) {
  text = trim(text);
  size_t i = 0;
  int64_t n = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    int d = text[i] - '0';
    if (n > (INT64_MAX - d) / 10) return false;
    n = n * 10 + d;
    ++i;
  }
  if (i == 0) return false;
  *number = n;
  *unit = lower(trim(text.substr(i)));
  return true;
}

bool checked_mul(int64_t a, int64_t b, int64_t* out) {
  return !__builtin_mul_overflow(a, b, out);
}

std::string show_bytes(int64_t n) {
  struct Unit { int64_t size; const char* name; };
  static constexpr Unit kUnits[] = {{kTiB, "TB"}, {kGiB, "GB"}, {kMiB, "MB"}, {kKiB, "kB"}};
  for (const Unit& u : kUnits) {
    if (n != 0 && n % u.size == 0) return std::to_string(n / u.size) + u.name;
  }
  return std::to_string(n) + "B";
}

std::string show_duration(int64_t us) {
  struct Unit { int64_t size; const char* name; };
  static constexpr Unit kUnits[] = {{86'400'000'000, "d"}, {3'600'000'000, "h"},
                                    {60'000'000, "min"},   {1'000'000, "s"},
                                    {1'000, "ms"}};
  for (const Unit& u : kUnits) {
    if (us != 0 && us % u.size == 0) return std::to_string(us / u.size) + u.name;
  }
  return us == 0 ? "0" : std::to_string(us) + "us";
}

}  // namespace

std::span<const VarDefinition> system_var_definitions() { return kDefinitions; }

const VarDefinition* find_system_var(std::string_view name) {
  std::string key = lower(name);
  for (const VarDefinition& def : kDefinitions) {
    if (def.name == key) return &def;
  }
  return nullptr;
}

Result<VarValue> parse_var_value(const VarDefinition& def, std::string_view value) {
  switch (def.type) {
    case VarType::kBool: {
      std::string v = lower(trim(value));
      if (v == "on" || v == "true" || v == "yes" || v == "1") return VarValue{"on", 1};
      if (v == "off" || v == "false" || v == "no" || v == "0") return VarValue{"off", 0};
      return invalid_value(def.name, value);
    }
    case VarType::kInt: {
      std::string_view v = trim(value);
      bool negative = !v.empty() && v.front() == '-';
      if (negative) v.remove_prefix(1);
      int64_t n = 0;
      std::string unit;
      if (!split_number(v, &n, &unit) || !unit.empty()) return invalid_value(def.name, value);
      if (negative) n = -n;
      if (n < def.min || n > def.max) return invalid_value(def.name, value);
      return VarValue{std::to_string(n), n};
    }
    case VarType::kBytes: {
      int64_t n = 0;
      std::string unit;
      if (!split_number(value, &n, &unit)) return invalid_value(def.name, value);
      int64_t scale;
      if (unit.empty() || unit == "b") scale = 1;
      else if (unit == "kb") scale = kKiB;
      else if (unit == "mb") scale = kMiB;
      else if (unit == "gb") scale = kGiB;
      else if (unit == "tb") scale = kTiB;
      else return invalid_value(def.name, value);
      int64_t bytes = 0;
      if (!checked_mul(n, scale, &bytes)) return invalid_value(def.name, value);
      return VarValue{show_bytes(bytes), bytes};
    }
    case VarType::kDuration: {
      int64_t n = 0;
      std::string unit;
      if (!split_number(value, &n, &unit)) return invalid_value(def.name, value);
      int64_t scale;
      if (unit == "us") scale = 1;
      else if (unit.empty() || unit == "ms") scale = 1'000;
      else if (unit == "s") scale = 1'000'000;
      else if (unit == "min") scale = 60'000'000;
      else if (unit == "h") scale = 3'600'000'000;
      else if (unit == "d") scale = 86'400'000'000;
      else return invalid_value(def.name, value);
      int64_t us = 0;
      if (!checked_mul(n, scale, &us)) return invalid_value(def.name, value);
      return VarValue{show_duration(us), us};
    }
    case VarType::kString:
      return VarValue{std::string(value), 0};
  }
  return invalid_value(def.name, value);
}

Status SystemVars::set(std::string_view name, std::string_view value) {
  const VarDefinition* def = find_system_var(name);
  if (def == nullptr) return unknown_parameter(name);
  TANDEM_ASSIGN_OR_RETURN(VarValue parsed, parse_var_value(*def, value));
  overrides_[std::string(def->name)] = std::move(parsed);
  return Status::ok();
}

Status SystemVars::reset(std::string_view name) {
  const VarDefinition* def = find_system_var(name);
  if (def == nullptr) return unknown_parameter(name);
  overrides_.erase(std::string(def->name));
  return Status::ok();
}

VarValue SystemVars::current(const VarDefinition& def) const {
  auto it = overrides_.find(std::string(def.name));
  if (it != overrides_.end()) return it->second;
  Result<VarValue> v = parse_var_value(def, def.default_value);
  assert(v.ok() && "builtin default must parse");
  return std::move(v).value();
}

Result<std::string> SystemVars::get(std::string_view name) const {
  const VarDefinition* def = find_system_var(name);
  if (def == nullptr) return unknown_parameter(name);
  return current(*def).text;
}

namespace {
const VarDefinition& typed(std::string_view name, VarType type) {
  const VarDefinition* def = find_system_var(name);
  assert(def != nullptr && def->type == type);
  (void)type;
  return *def;
}
}  // namespace

bool SystemVars::get_bool(std::string_view name) const {
  return current(typed(name, VarType::kBool)).number != 0;
}
int64_t SystemVars::get_int(std::string_view name) const {
  return current(typed(name, VarType::kInt)).number;
}
int64_t SystemVars::get_bytes(std::string_view name) const {
  return current(typed(name, VarType::kBytes)).number;
}
int64_t SystemVars::get_duration_us(std::string_view name) const {
  return current(typed(name, VarType::kDuration)).number;
}
std::string SystemVars::get_string(std::string_view name) const {
  return current(typed(name, VarType::kString)).text;
}

std::vector<std::pair<std::string, std::string>> SystemVars::all() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const VarDefinition& def : kDefinitions) {
    out.emplace_back(std::string(def.name), current(def).text);
  }
  return out;
}

}  // namespace tandem::catalog
