#pragma once
// How tandem-td renders result values and durations.
//
// Values arrive in PostgreSQL's text format; testdrive compares the values
// its Rust client decodes, so a few types are rewritten to that form:
//   NULL                -> <null>
//   bool (t/f)          -> true / false
//   float4/float8       -> Rust's f32/f64 Display: shortest round-trip
//                          digits, never an exponent (1e+20 ->
//                          100000000000000000000, 1.0 -> 1), inf, -inf, NaN
//   timestamptz "...+00"-> "... UTC"
// Everything else is compared as PostgreSQL's text.

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace tandem::td {

inline constexpr unsigned kBoolOid = 16;
inline constexpr unsigned kFloat4Oid = 700;
inline constexpr unsigned kFloat8Oid = 701;
inline constexpr unsigned kTimestampTzOid = 1184;

std::string format_value(unsigned type_oid, std::string_view text, bool is_null);

// A value as it would be written in an expected row: quoted (with \" \\ \n
// \t \r escapes) when empty or when it holds whitespace, a quote, a
// backslash or a leading `#`.
std::string quote_value(std::string_view value);

// Parses a duration like testdrive's (humantime): a number with a unit of
// ns, us, ms, s, m, min, h (e.g. 500ms, 10s, 1.5s, 2m). Returns nullopt
// for anything else.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);

// 10s, 500ms: the shortest exact form.
std::string format_duration(std::chrono::milliseconds duration);

}  // namespace tandem::td
