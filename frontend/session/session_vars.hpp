#pragma once
// SessionVars: the per-session configuration parameters (PostgreSQL GUCs as
// Materialize exposes them) behind SET / RESET / SHOW and the ParameterStatus
// messages. Names are case-insensitive; values are kept as the text SHOW
// prints. Some variables are reported to the client (GUC_REPORT in
// PostgreSQL) whenever they change: set() says so.
//
// Threading: owned by one session; not thread-safe.

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.hpp"

namespace tandem::frontend {

struct VarDefinition {
  std::string_view name;           // canonical spelling, as SHOW ALL prints it
  std::string_view default_value;
  std::string_view description;
  bool reported = false;           // sent as ParameterStatus on change
  bool read_only = false;          // SET fails with 55P02 / 0A000
};

class SessionVars {
 public:
  SessionVars();

  // Value of a variable; 42704 `unrecognized configuration parameter "x"`.
  Result<std::string> get(std::string_view name) const;
  // Validates and sets. Returns true when the variable is reported to the
  // client (the caller then sends ParameterStatus).
  Result<bool> set(std::string_view name, std::string_view value);
  // RESET name: back to the default (or the startup value).
  Result<bool> reset(std::string_view name);
  // Values given in the StartupMessage become the defaults RESET returns to.
  Status set_startup(std::string_view name, std::string_view value);

  // Every variable in name order: (name, value, description) for SHOW ALL.
  std::vector<std::tuple<std::string, std::string, std::string>> all() const;
  // The variables reported to the client at connection start.
  std::vector<std::pair<std::string, std::string>> reported() const;

  // Canonical spelling of a variable name, or nullptr if unknown.
  static const VarDefinition* find(std::string_view name);

  // Typed accessors used on hot paths.
  int64_t statement_timeout_ms() const { return statement_timeout_ms_; }
  int extra_float_digits() const { return extra_float_digits_; }
  const std::string& cluster() const;
  const std::string& search_path() const;
  const std::string& transaction_isolation() const;

 private:
  Result<std::string> normalize(const VarDefinition& def, std::string_view value) const;
  void refresh_cached(const VarDefinition& def);

  std::map<std::string_view, std::string> values_;    // keyed by canonical name
  std::map<std::string_view, std::string> defaults_;  // startup values override built-in
  int64_t statement_timeout_ms_ = 0;
  int extra_float_digits_ = 1;
};

}  // namespace tandem::frontend
