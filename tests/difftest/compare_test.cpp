#include "tests/difftest/compare.hpp"

#include <catch2/catch.hpp>

namespace tandem::difftest {
namespace {

constexpr unsigned kNumericOid = 1700, kInt4Oid = 23, kFloat8Oid = 701;

Result rows(std::vector<unsigned> types, std::vector<std::vector<std::optional<std::string>>> values) {
  Result r;
  r.status = Result::Status::kOk;
  r.types = std::move(types);
  r.rows = std::move(values);
  return r;
}

}  // namespace

TEST_CASE("rows compare as a multiset unless the order is total", "[difftest]") {
  const Result pg = rows({kInt4Oid}, {{"1"}, {"2"}});
  const Result td = rows({kInt4Oid}, {{"2"}, {"1"}});
  CHECK(compare(pg, td, false, {}).verdict == Verdict::kMatch);
  const Comparison ordered = compare(pg, td, true, {});
  CHECK(ordered.verdict == Verdict::kWrong);
  CHECK(ordered.kind == FailureKind::kRows);
}

TEST_CASE("a numeric printed with another scale is its own kind of wrong", "[difftest]") {
  const Result pg = rows({kNumericOid}, {{"1.000"}});
  const Result td = rows({kNumericOid}, {{"1"}});
  const Comparison c = compare(pg, td, false, {});
  CHECK(c.verdict == Verdict::kWrong);
  CHECK(c.kind == FailureKind::kNumericText);
  CompareOptions by_value;
  by_value.numeric_by_value = true;
  CHECK(compare(pg, td, false, by_value).verdict == Verdict::kMatch);
}

TEST_CASE("doubles compare within a relative tolerance", "[difftest]") {
  const Result pg = rows({kFloat8Oid}, {{"0.30000000000000004"}, {"-0"}});
  const Result td = rows({kFloat8Oid}, {{"0.3"}, {"0"}});
  CHECK(compare(pg, td, false, {}).verdict == Verdict::kMatch);
  // Roundoff around zero (PostgreSQL's float variance of equal values).
  CHECK(compare(rows({kFloat8Oid}, {{"5.149508686859382e-32"}}), rows({kFloat8Oid}, {{"0"}}), false, {}).verdict ==
        Verdict::kMatch);
  CHECK(compare(rows({kFloat8Oid}, {{"1e-9"}}), rows({kFloat8Oid}, {{"0"}}), false, {}).verdict == Verdict::kWrong);
}

TEST_CASE("statements that may show any member of a group of equal values", "[difftest]") {
  CHECK(chooses_group_member("SELECT DISTINCT a FROM t"));
  CHECK(chooses_group_member("select a from t group by a"));
  CHECK(chooses_group_member("SELECT max(a) FROM t"));
  CHECK(chooses_group_member("SELECT a FROM t UNION SELECT b FROM u"));
  // A window over a sorted sequence: rows tied under the ORDER BY (0 and
  // 0.000) may land inside it either way.
  CHECK(chooses_group_member("SELECT a FROM t ORDER BY 1 LIMIT 5 OFFSET 3"));
  CHECK(chooses_group_member("SELECT a FROM t ORDER BY 1 OFFSET 2"));
  CHECK_FALSE(chooses_group_member("SELECT a * 2 FROM t ORDER BY 1"));
  CHECK_FALSE(chooses_group_member("SELECT a FROM t WHERE a > 0"));
}

TEST_CASE("errors compare by SQLSTATE class; 0A000 on either side is unsupported", "[difftest]") {
  Result pg;
  pg.status = Result::Status::kError;
  pg.sqlstate = "22012";
  Result td = pg;
  td.sqlstate = "22003";
  CHECK(compare(pg, td, false, {}).verdict == Verdict::kErrorMatch);
  td.sqlstate = "0A000";
  CHECK(compare(pg, td, false, {}).verdict == Verdict::kUnsupported);
  const Result answered = rows({kInt4Oid}, {{"1"}});
  CHECK(compare(pg, answered, false, {}).verdict == Verdict::kOneSidedDataError);
  CompareOptions strict;
  strict.strict_errors = true;
  CHECK(compare(pg, answered, false, strict).verdict == Verdict::kWrong);
}

}  // namespace tandem::difftest
