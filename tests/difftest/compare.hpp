#pragma once
// Comparing tandem's answer with PostgreSQL's.
//
// Rows compare as multisets, or as sequences when the query ends in an
// ORDER BY over every output column. Values compare as text, except double
// precision (parsed, equal within a relative tolerance) and, with
// numeric_by_value, numeric (equal as numbers whatever their scale).
// Column type OIDs must match. Errors compare by SQLSTATE class (the first
// two characters); a tandem error 0A000 (feature not supported) is
// "unsupported", never wrong.

#include <string>

#include "tests/difftest/conn.hpp"

namespace tandem::difftest {

enum class Verdict { kMatch, kErrorMatch, kUnsupported, kWrong };

// What kind of wrong: the minimiser keeps a simplification only if the
// failure stays of the same kind.
enum class FailureKind { kNone, kRows, kNumericText, kTypes, kColumns, kErrorMismatch, kCrash };

const char* failure_kind_name(FailureKind k);

struct Comparison {
  Verdict verdict = Verdict::kMatch;
  FailureKind kind = FailureKind::kNone;
  std::string detail;  // for kWrong: what differs, a few rows of each side
};

struct CompareOptions {
  double float_tolerance = 1e-9;
  bool numeric_by_value = false;
  bool ignore_types = false;
};

Comparison compare(const Result& pg, const Result& td, bool ordered, const CompareOptions& opts);

// A result as text, at most max_rows rows (for reports).
std::string format_result(const Result& r, std::size_t max_rows = 12);

}  // namespace tandem::difftest
