#include "tests/difftest/compare.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace tandem::difftest {

namespace {

constexpr unsigned kFloat4 = 700, kFloat8 = 701, kNumeric = 1700;

using Row = std::vector<std::optional<std::string>>;

constexpr double kFloatZeroTolerance = 1e-12;

bool is_float(unsigned oid) { return oid == kFloat4 || oid == kFloat8; }

double parse_double(const std::string& s) {
  if (s == "NaN") return std::nan("");
  if (s == "Infinity") return INFINITY;
  if (s == "-Infinity") return -INFINITY;
  return std::strtod(s.c_str(), nullptr);
}

bool floats_equal(const std::string& a, const std::string& b, double tol) {
  if (a == b) return true;
  const double x = parse_double(a), y = parse_double(b);
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
  if (std::isinf(x) || std::isinf(y)) return x == y;
  const double scale = std::max(std::fabs(x), std::fabs(y));
  // Within the relative tolerance, or both within roundoff of zero: a
  // result that cancels to about zero (a variance of equal values) is 0 in
  // one engine and 5e-32 in another, depending on the order of summation.
  return std::fabs(x - y) <= tol * scale || std::fabs(x - y) < kFloatZeroTolerance;
}

// Numeric text without trailing fractional zeros ("2.500" -> "2.5", "3.0" -> "3").
std::string numeric_value(const std::string& s) {
  if (s.find('.') == std::string::npos || s == "NaN") return s;
  std::string out = s;
  while (out.back() == '0') out.pop_back();
  if (out.back() == '.') out.pop_back();
  if (out == "-0") out = "0";
  return out;
}

bool values_equal(const std::optional<std::string>& a, const std::optional<std::string>& b, unsigned oid,
                  const CompareOptions& opts, bool numeric_by_value) {
  if (!a || !b) return !a && !b;
  if (is_float(oid)) return floats_equal(*a, *b, opts.float_tolerance);
  if (oid == kNumeric && numeric_by_value) return numeric_value(*a) == numeric_value(*b);
  return *a == *b;
}

bool rows_equal(const Row& a, const Row& b, const std::vector<unsigned>& types, const CompareOptions& opts,
                bool numeric_by_value) {
  for (std::size_t c = 0; c < a.size(); ++c) {
    if (!values_equal(a[c], b[c], types[c], opts, numeric_by_value)) return false;
  }
  return true;
}

// A sort key under which rows equal by values_equal are (almost always)
// adjacent: floats rounded to 9 significant digits, numerics normalised.
std::string sort_key(const Row& r, const std::vector<unsigned>& types, bool numeric_by_value) {
  std::string key;
  for (std::size_t c = 0; c < r.size(); ++c) {
    if (!r[c]) {
      key += "\x01|";
      continue;
    }
    if (is_float(types[c])) {
      char buf[64];
      // + 0.0 makes -0 (PostgreSQL prints "-0") sort with 0.
      std::snprintf(buf, sizeof buf, "%.9g", parse_double(*r[c]) + 0.0);
      key += buf;
    } else if (types[c] == kNumeric && numeric_by_value) {
      key += numeric_value(*r[c]);
    } else {
      key += *r[c];
    }
    key += "|";
  }
  return key;
}

std::string format_row(const Row& r) {
  std::string out = "(";
  for (std::size_t c = 0; c < r.size(); ++c) {
    if (c) out += ", ";
    out += r[c] ? *r[c] : "NULL";
  }
  return out + ")";
}

// Rows of a missing from b (as a multiset, with tolerance), at most `limit`.
std::vector<Row> missing(const std::vector<Row>& a, const std::vector<Row>& b, const std::vector<unsigned>& types,
                         const CompareOptions& opts, bool nbv, std::size_t limit) {
  std::vector<bool> used(b.size(), false);
  std::vector<Row> out;
  for (const auto& r : a) {
    bool found = false;
    for (std::size_t j = 0; j < b.size() && !found; ++j) {
      if (!used[j] && rows_equal(r, b[j], types, opts, nbv)) {
        used[j] = true;
        found = true;
      }
    }
    if (!found && out.size() < limit) out.push_back(r);
  }
  return out;
}

bool same_multiset(std::vector<Row> a, std::vector<Row> b, const std::vector<unsigned>& types,
                   const CompareOptions& opts, bool nbv) {
  if (a.size() != b.size()) return false;
  auto by_key = [&](const Row& x, const Row& y) { return sort_key(x, types, nbv) < sort_key(y, types, nbv); };
  std::sort(a.begin(), a.end(), by_key);
  std::sort(b.begin(), b.end(), by_key);
  bool equal = true;
  for (std::size_t i = 0; i < a.size() && equal; ++i) equal = rows_equal(a[i], b[i], types, opts, nbv);
  if (equal || a.size() > 3000) return equal;
  return missing(a, b, types, opts, nbv, 1).empty();  // rows that sorted apart by rounding
}

// Under a total ORDER BY, rows that sort equal may still print differently
// (numeric 1 and 1.000): the sequence is compared by value, the rows as a
// multiset by text.
bool same_rows(const std::vector<Row>& a, const std::vector<Row>& b, const std::vector<unsigned>& types, bool ordered,
               const CompareOptions& opts, bool nbv) {
  if (!same_multiset(a, b, types, opts, nbv)) return false;
  if (!ordered) return true;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!rows_equal(a[i], b[i], types, opts, true)) return false;
  }
  return true;
}

}  // namespace

bool chooses_group_member(const std::string& sql) {
  std::string upper;
  upper.reserve(sql.size());
  for (char ch : sql) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  // LIMIT / OFFSET / FETCH cut a sorted sequence at a position: of rows
  // that tie under the ORDER BY (0 and 0.000), which land inside the window
  // is unspecified.
  for (const char* word :
       {"GROUP BY", "DISTINCT", "UNION", "INTERSECT", "EXCEPT", "MIN(", "MAX(", "LIMIT", "OFFSET", "FETCH"}) {
    if (upper.find(word) != std::string::npos) return true;
  }
  return false;
}

const char* failure_kind_name(FailureKind k) {
  switch (k) {
    case FailureKind::kNone: return "none";
    case FailureKind::kRows: return "wrong rows";
    case FailureKind::kNumericText: return "numeric printed differently (equal by value)";
    case FailureKind::kTypes: return "column types differ";
    case FailureKind::kColumns: return "column count differs";
    case FailureKind::kErrorMismatch: return "error mismatch";
    case FailureKind::kCrash: return "tandemd crashed or hung";
  }
  return "?";
}

Comparison compare(const Result& pg, const Result& td, bool ordered, const CompareOptions& opts) {
  Comparison out;
  auto wrong = [&](FailureKind k, std::string detail) {
    out.verdict = Verdict::kWrong;
    out.kind = k;
    out.detail = std::move(detail);
    return out;
  };
  if (td.status == Result::Status::kLost) return wrong(FailureKind::kCrash, "tandem: " + td.message);
  // tandem's "feature not supported" is counted apart; so is PostgreSQL's
  // own (a FULL JOIN it cannot plan, ...): there is no oracle then.
  if ((td.status == Result::Status::kError && td.sqlstate == "0A000") ||
      (pg.status == Result::Status::kError && pg.sqlstate == "0A000")) {
    out.verdict = Verdict::kUnsupported;
    out.detail = td.status == Result::Status::kError && td.sqlstate == "0A000" ? "tandem: " + td.message
                                                                               : "postgres: " + pg.message;
    return out;
  }
  if (pg.status != Result::Status::kOk || td.status != Result::Status::kOk) {
    auto describe = [](const Result& r) {
      return r.ok() ? std::string("ok, ") + std::to_string(r.rows.size()) + " rows"
                    : "ERROR " + r.sqlstate + ": " + r.message;
    };
    if (pg.status == Result::Status::kError && td.status == Result::Status::kError) {
      const bool same = pg.sqlstate.substr(0, 2) == td.sqlstate.substr(0, 2);
      if (same || !opts.strict_error_class) {
        out.verdict = Verdict::kErrorMatch;
        out.class_differs = !same;
        out.detail = "postgres: " + describe(pg) + "\ntandem:   " + describe(td);
        return out;
      }
    }
    const Result& failed = pg.ok() ? td : pg;
    const std::string cls = failed.sqlstate.substr(0, 2);
    if (!opts.strict_errors && failed.status == Result::Status::kError && (cls == "22" || cls == "21")) {
      out.verdict = Verdict::kOneSidedDataError;
      out.detail = "postgres: " + describe(pg) + "\ntandem:   " + describe(td);
      return out;
    }
    return wrong(FailureKind::kErrorMismatch, "postgres: " + describe(pg) + "\ntandem:   " + describe(td));
  }
  if (pg.types.size() != td.types.size()) {
    return wrong(FailureKind::kColumns, "postgres has " + std::to_string(pg.types.size()) + " columns, tandem " +
                                            std::to_string(td.types.size()));
  }
  if (!opts.ignore_types && pg.types != td.types) {
    std::string d = "column type OIDs: postgres";
    for (unsigned t : pg.types) d += " " + std::to_string(t);
    d += ", tandem";
    for (unsigned t : td.types) d += " " + std::to_string(t);
    return wrong(FailureKind::kTypes, d);
  }
  if (same_rows(pg.rows, td.rows, pg.types, ordered, opts, opts.numeric_by_value)) return out;
  const bool by_value = !opts.numeric_by_value && same_rows(pg.rows, td.rows, pg.types, ordered, opts, true);
  std::string d = "postgres: " + std::to_string(pg.rows.size()) + " rows, tandem: " + std::to_string(td.rows.size()) +
                  " rows" + (ordered ? " (ordered)" : "");
  const auto lost = missing(pg.rows, td.rows, pg.types, opts, false, 5);
  const auto extra = missing(td.rows, pg.rows, pg.types, opts, false, 5);
  if (!lost.empty()) {
    d += "\n  missing in tandem:";
    for (const auto& r : lost) d += " " + format_row(r);
  }
  if (!extra.empty()) {
    d += "\n  extra in tandem:  ";
    for (const auto& r : extra) d += " " + format_row(r);
  }
  if (lost.empty() && extra.empty()) {
    d += "\n  same rows, different order";
    for (std::size_t i = 0; i < pg.rows.size() && i < td.rows.size(); ++i) {
      if (!rows_equal(pg.rows[i], td.rows[i], pg.types, opts, true)) {
        d += "; first at row " + std::to_string(i + 1) + ": postgres " + format_row(pg.rows[i]) + ", tandem " +
             format_row(td.rows[i]);
        break;
      }
    }
  }
  return wrong(by_value ? FailureKind::kNumericText : FailureKind::kRows, d);
}

std::string format_result(const Result& r, std::size_t max_rows) {
  if (r.status == Result::Status::kLost) return "connection lost: " + r.message;
  if (r.status == Result::Status::kError) return "ERROR " + r.sqlstate + ": " + r.message;
  std::string out = std::to_string(r.rows.size()) + " rows";
  for (std::size_t i = 0; i < r.rows.size() && i < max_rows; ++i) out += "\n  " + format_row(r.rows[i]);
  if (r.rows.size() > max_rows) out += "\n  ...";
  return out;
}

}  // namespace tandem::difftest
