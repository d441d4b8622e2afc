#include "frontend/session/session_vars.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

#include "common/version.hpp"

namespace tandem::frontend {
namespace {

// Sorted by name (case-insensitively) so SHOW ALL lists them in order.
constexpr std::array kVars = {
    VarDefinition{"application_name", "", "Sets the application name to be reported in statistics and logs.", true},
    VarDefinition{"client_encoding", "UTF8", "Sets the client's character set encoding.", true},
    VarDefinition{"client_min_messages", "notice", "Sets the message levels that are sent to the client."},
    VarDefinition{"cluster", "quickstart", "Sets the current cluster."},
    VarDefinition{"database", "materialize", "Sets the current database.", false},
    VarDefinition{"DateStyle", "ISO, MDY", "Sets the display format for date and time values.", true},
    VarDefinition{"extra_float_digits", "1", "Adjusts the number of digits displayed for floating-point values."},
    VarDefinition{"integer_datetimes", "on", "Reports whether the server uses 64-bit-integer dates and times.", true, true},
    VarDefinition{"IntervalStyle", "postgres", "Sets the display format for interval values.", true},
    VarDefinition{"is_superuser", "off", "Reports whether the current session is a superuser.", true, true},
    VarDefinition{"max_query_result_size", "1GB", "The maximum size in bytes for a single query's result."},
    VarDefinition{"search_path", "public", "Sets the schema search order for names that are not schema-qualified."},
    VarDefinition{"server_encoding", "UTF8", "Shows the server (database) character set encoding.", true, true},
    VarDefinition{"server_version", kServerVersion, "Shows the server version.", true, true},
    VarDefinition{"server_version_num", kServerVersionNum, "Shows the server version as an integer.", false, true},
    VarDefinition{"standard_conforming_strings", "on", "Causes '...' strings to treat backslashes literally.", true, true},
    VarDefinition{"statement_timeout", "0", "Sets the maximum allowed duration of any statement."},
    VarDefinition{"TimeZone", "UTC", "Sets the time zone for displaying and interpreting time stamps.", true},
    VarDefinition{"transaction_isolation", "strict serializable", "Sets the current transaction's isolation level."},
};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

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

Status invalid_value(const VarDefinition& def, std::string_view value, std::string hint = "") {
  Status s = Status::error(sqlstate::kInvalidParameterValue,
                           "invalid value for parameter \"" + std::string(def.name) + "\": \"" +
                               std::string(value) + "\"");
  if (!hint.empty()) return std::move(s).with_hint(std::move(hint));
  return s;
}

// statement_timeout accepts PostgreSQL's duration forms: a plain integer is
// milliseconds; units us, ms, s, min, h, d.
Result<int64_t> parse_duration_ms(std::string_view v) {
  v = trim(v);
  int64_t n = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (ec != std::errc() || n < 0) return Status::error(sqlstate::kInvalidParameterValue, "");
  std::string unit = lower(trim(std::string_view(p, v.data() + v.size() - p)));
  if (unit.empty() || unit == "ms") return n;
  if (unit == "us") return n / 1000;
  if (unit == "s") return n * 1000;
  if (unit == "min") return n * 60 * 1000;
  if (unit == "h") return n * 60 * 60 * 1000;
  if (unit == "d") return n * 24 * 60 * 60 * 1000;
  return Status::error(sqlstate::kInvalidParameterValue, "");
}

std::string format_duration_ms(int64_t ms) {
  if (ms == 0) return "0";
  if (ms % (60 * 60 * 1000) == 0) return std::to_string(ms / (60 * 60 * 1000)) + "h";
  if (ms % (60 * 1000) == 0) return std::to_string(ms / (60 * 1000)) + "min";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
  return std::to_string(ms) + "ms";
}

}  // namespace

const VarDefinition* SessionVars::find(std::string_view name) {
  for (const auto& def : kVars) {
    if (iequals(def.name, name)) return &def;
  }
  // PostgreSQL spellings that name the same variable.
  if (iequals(name, "transaction isolation level") || iequals(name, "default_transaction_isolation"))
    return find("transaction_isolation");
  if (iequals(name, "time zone") || iequals(name, "timezone")) return find("TimeZone");
  if (iequals(name, "names")) return find("client_encoding");
  return nullptr;
}

SessionVars::SessionVars() {
  for (const auto& def : kVars) {
    values_[def.name] = std::string(def.default_value);
    defaults_[def.name] = std::string(def.default_value);
  }
}

Result<std::string> SessionVars::normalize(const VarDefinition& def, std::string_view raw) const {
  std::string_view value = trim(raw);
  std::string_view name = def.name;
  if (name == "client_encoding") {
    std::string v = lower(value);
    if (v == "utf8" || v == "utf-8" || v == "unicode") return std::string("UTF8");
    return Status::error(sqlstate::kFeatureNotSupported,
                         "invalid value for parameter \"client_encoding\": \"" + std::string(value) + "\"")
        .with_detail("tandem supports only UTF8.");
  }
  if (name == "DateStyle") {
    std::string v = lower(value);
    if (v.find("iso") != std::string::npos || v == "mdy" || v == "iso, mdy") return std::string("ISO, MDY");
    return invalid_value(def, value, "tandem supports only the ISO, MDY date style.");
  }
  if (name == "TimeZone") {
    std::string v = lower(value);
    if (v == "utc" || v == "etc/utc" || v == "gmt" || v == "z" || v == "+00:00" || v == "00:00" || v == "0" ||
        v == "zulu" || v == "universal")
      return std::string("UTC");
    return invalid_value(def, value, "tandem supports only the UTC time zone.");
  }
  if (name == "IntervalStyle") {
    if (iequals(value, "postgres")) return std::string("postgres");
    return invalid_value(def, value, "tandem supports only the postgres interval style.");
  }
  if (name == "extra_float_digits") {
    int n = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || p != value.data() + value.size())
      return Status::error(sqlstate::kInvalidParameterValue,
                           "invalid value for parameter \"extra_float_digits\": \"" + std::string(value) + "\"");
    if (n < -15 || n > 3)
      return Status::error(sqlstate::kInvalidParameterValue,
                           std::to_string(n) + " is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)");
    return std::to_string(n);
  }
  if (name == "statement_timeout") {
    auto ms = parse_duration_ms(value);
    if (!ms.ok()) return invalid_value(def, value);
    return format_duration_ms(*ms);
  }
  if (name == "transaction_isolation") {
    std::string v = lower(value);
    if (v == "strict serializable" || v == "serializable") return v;
    // Materialize runs the weaker PostgreSQL levels as serializable.
    if (v == "read committed" || v == "repeatable read" || v == "read uncommitted") return std::string("serializable");
    return invalid_value(def, value);
  }
  if (name == "client_min_messages") {
    std::string v = lower(value);
    for (const char* level : {"debug5", "debug4", "debug3", "debug2", "debug1", "debug", "log", "notice",
                              "warning", "error", "info"}) {
      if (v == level) return v;
    }
    return invalid_value(def, value);
  }
  if (name == "cluster" || name == "database") {
    if (value.empty()) return invalid_value(def, value);
  }
  return std::string(value);
}

void SessionVars::refresh_cached(const VarDefinition& def) {
  if (def.name == "statement_timeout") {
    statement_timeout_ms_ = *parse_duration_ms(values_[def.name]);
  } else if (def.name == "extra_float_digits") {
    extra_float_digits_ = std::stoi(values_[def.name]);
  }
}

Result<std::string> SessionVars::get(std::string_view name) const {
  const VarDefinition* def = find(name);
  if (def == nullptr) {
    return Status::error(sqlstate::kUndefinedObject,
                         "unrecognized configuration parameter \"" + std::string(name) + "\"");
  }
  return values_.at(def->name);
}

// The definition of a variable SET/RESET may change.
static Result<const VarDefinition*> writable(std::string_view name) {
  const VarDefinition* def = SessionVars::find(name);
  if (def == nullptr) {
    return Status::error(sqlstate::kUndefinedObject,
                         "unrecognized configuration parameter \"" + std::string(name) + "\"");
  }
  if (def->read_only) {
    return Status::error(sqlstate::kCantChangeRuntimeParam,
                         "parameter \"" + std::string(def->name) + "\" cannot be changed");
  }
  return def;
}

Result<bool> SessionVars::set(std::string_view name, std::string_view value) {
  TANDEM_ASSIGN_OR_RETURN(const VarDefinition* def, writable(name));
  TANDEM_ASSIGN_OR_RETURN(std::string normalized, normalize(*def, value));
  values_[def->name] = std::move(normalized);
  refresh_cached(*def);
  return def->reported;
}

Result<bool> SessionVars::reset(std::string_view name) {
  TANDEM_ASSIGN_OR_RETURN(const VarDefinition* def, writable(name));
  values_[def->name] = defaults_[def->name];
  refresh_cached(*def);
  return def->reported;
}

Status SessionVars::set_startup(std::string_view name, std::string_view value) {
  const VarDefinition* def = find(name);
  if (def == nullptr) {
    return Status::error(sqlstate::kUndefinedObject,
                         "unrecognized configuration parameter \"" + std::string(name) + "\"");
  }
  TANDEM_ASSIGN_OR_RETURN(std::string normalized, normalize(*def, value));
  values_[def->name] = normalized;
  defaults_[def->name] = std::move(normalized);
  refresh_cached(*def);
  return Status::ok();
}

std::vector<std::tuple<std::string, std::string, std::string>> SessionVars::all() const {
  std::vector<std::tuple<std::string, std::string, std::string>> out;
  for (const auto& def : kVars) {
    out.emplace_back(std::string(def.name), values_.at(def.name), std::string(def.description));
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return lower(std::get<0>(a)) < lower(std::get<0>(b));
  });
  return out;
}

std::vector<std::pair<std::string, std::string>> SessionVars::reported() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& def : kVars) {
    if (def.reported) out.emplace_back(std::string(def.name), values_.at(def.name));
  }
  return out;
}

const std::string& SessionVars::cluster() const { return values_.at("cluster"); }
const std::string& SessionVars::search_path() const { return values_.at("search_path"); }
const std::string& SessionVars::transaction_isolation() const { return values_.at("transaction_isolation"); }

}  // namespace tandem::frontend
