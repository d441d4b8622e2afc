#pragma once
// Formatting of result values for comparison with expected output, following
// Materialize's sqllogictest runner, which in
// standard mode reproduces SQLite's sqllogictest formatting.
//
// Input is a value in PostgreSQL's text format (what PQexec returns) with its
// column's type OID; output depends on the column's declared type letter:
//
//   value    | B            | I              | R                   | T
//   NULL     | NULL         | NULL           | NULL                | NULL
//   bool     | true/false   | 1/0            | (text)              | true/false
//   integer  | (text)       | as is          | N.000               | as is
//   float    | (text)       | truncated      | %.3f (cockroach:    | %.3f
//            |              |                | shortest round-trip)|
//   numeric  | (text)       | standard: truncated toward zero;     | as is
//            |              | cockroach: rounded half away from 0; |
//            |              | R standard: at most 3 decimals (half |
//            |              | away from zero); R cockroach: as is  |
//   text     | (text)       | 0              | (text)              | as is, "" -> (empty)
//   bytea    | (text)       | (text)         | (text)              | UTF-8 if valid
//
// "(text)" is PostgreSQL's text form unchanged; so is every other type. In
// cockroach mode every space inside a value becomes U+2420 (␠), because rows
// are written one per line with values separated by spaces.

#include <string>
#include <string_view>

#include "sqllogic/runner/record.hpp"

namespace tandem::slt {

// PostgreSQL type OIDs the formatter distinguishes (pg_type.dat).
namespace pg_oid {
inline constexpr unsigned kBool = 16;
inline constexpr unsigned kBytea = 17;
inline constexpr unsigned kChar = 18;
inline constexpr unsigned kName = 19;
inline constexpr unsigned kInt8 = 20;
inline constexpr unsigned kInt2 = 21;
inline constexpr unsigned kInt4 = 23;
inline constexpr unsigned kText = 25;
inline constexpr unsigned kOid = 26;
inline constexpr unsigned kFloat4 = 700;
inline constexpr unsigned kFloat8 = 701;
inline constexpr unsigned kUnknown = 705;
inline constexpr unsigned kBpchar = 1042;
inline constexpr unsigned kVarchar = 1043;
inline constexpr unsigned kNumeric = 1700;
}  // namespace pg_oid

// The placeholder for a space inside a value in cockroach mode (U+2420).
inline constexpr std::string_view kSpaceSymbol = "\xE2\x90\xA0";

struct Cell {
  bool is_null = false;
  std::string_view text;  // PostgreSQL text format; ignored when is_null.
  unsigned type_oid = 0;
};

std::string format_value(const Cell& cell, char type_letter, OutputMode mode);

// Rounds a decimal number in plain notation ("-12.345") to `scale` fraction
// digits. `truncate` rounds toward zero, otherwise half away from zero.
// Returns `text` unchanged if it is not a plain decimal (NaN, Infinity).
// Never returns "-0"-style negative zeros.
std::string round_decimal(std::string_view text, int scale, bool truncate);

}  // namespace tandem::slt
