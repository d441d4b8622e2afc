#pragma once
// Comparing tandem's answer with PostgreSQL's.
//
// Rows compare as multisets, or as sequences when the query ends in an
// ORDER BY over every output column. Values compare as text, except double
// precision (parsed, equal within a relative tolerance or 1e-12) and, with
// numeric_by_value, numeric (equal as numbers whatever their scale).
// Column type OIDs must match. Errors compare by SQLSTATE class (the first
// two characters); a tandem error 0A000 (feature not supported) is
// "unsupported", never wrong, and so is a PostgreSQL 0A000 (no oracle).
// Two errors of different classes count as an error match (with
// Comparison::class_differs set) unless strict_error_class.

#include <string>

#include "tests/difftest/conn.hpp"

namespace tandem::difftest {

enum class Verdict { kMatch, kErrorMatch, kUnsupported, kOneSidedDataError, kWrong };

// What kind of wrong: the minimiser keeps a simplification only if the
// failure stays of the same kind.
enum class FailureKind { kNone, kRows, kNumericText, kTypes, kColumns, kErrorMismatch, kCrash };

const char* failure_kind_name(FailureKind k);

struct Comparison {
  Verdict verdict = Verdict::kMatch;
  FailureKind kind = FailureKind::kNone;
  std::string detail;  // for kWrong: what differs, a few rows of each side
  bool class_differs = false;  // kErrorMatch of two different SQLSTATE classes
};

struct CompareOptions {
  double float_tolerance = 1e-9;
  bool numeric_by_value = false;
  bool ignore_types = false;
  // Both failed, with different SQLSTATE classes: wrong only when strict.
  // A statement that can fail in several ways (a division by zero in one
  // row, an overflow in another) may report any of them: neither SQL nor
  // PostgreSQL fixes the order in which rows and expressions are evaluated.
  bool strict_error_class = false;
  // One side failed with a data exception (class 22: division by zero,
  // overflow, out of range) or a cardinality violation (21: a scalar
  // subquery with several rows), the other answered: wrong only when
  // strict. Which expressions run for which rows is the engine's choice
  // (PostgreSQL skips the scan behind a join with an empty side, folds
  // constants, evaluates an initplan lazily; tandem evaluates where its
  // plan does), so such a pair is counted apart (kOneSidedDataError).
  bool strict_errors = false;
  // Rows equal by value whose numerics print with different scales, from a
  // statement that chooses one member of a group of equal numerics (GROUP
  // BY, DISTINCT, a set operation, min / max: `1` and `1.000` are one
  // group, and either may be shown): wrong only when strict.
  bool strict_numeric_members = false;
};

// True when `sql` may show one chosen member of a group of equal values:
// it groups (GROUP BY, DISTINCT, UNION / INTERSECT / EXCEPT), takes a
// min() / max(), or cuts a sorted sequence (LIMIT / OFFSET / FETCH), where
// rows tied under the ORDER BY may land inside the window in either order.
bool chooses_group_member(const std::string& sql);

Comparison compare(const Result& pg, const Result& td, bool ordered, const CompareOptions& opts);

// A result as text, at most max_rows rows (for reports).
std::string format_result(const Result& r, std::size_t max_rows = 12);

}  // namespace tandem::difftest
