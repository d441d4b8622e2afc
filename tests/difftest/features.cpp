#include "tests/difftest/features.hpp"

#include <sstream>

namespace tandem::difftest {

const std::vector<FeatureInfo>& all_features() {
  static const std::vector<FeatureInfo> kAll = {
      {"zero-column-tables", "tables with no columns (CREATE TABLE z ())"},
      {"numeric", "numeric columns, literals, casts, and avg() / sum(bigint), which return numeric"},
      {"floats", "double precision columns and literals"},
      {"special-floats", "NaN and -Infinity values in double precision columns"},
      {"dates", "date columns, literals and date arithmetic"},
      {"jsonb", "jsonb columns and literals, -> ->> @> ? ||, jsonb_typeof, to_jsonb, jsonb_build_object"},
      {"inner-join", "[INNER] JOIN"},
      {"left-join", "LEFT [OUTER] JOIN"},
      {"right-join", "RIGHT [OUTER] JOIN"},
      {"full-join", "FULL [OUTER] JOIN"},
      {"cross-join", "CROSS JOIN"},
      {"comma-join", "FROM a, b"},
      {"using", "JOIN ... USING (cols)"},
      {"natural", "NATURAL JOIN"},
      {"group-by", "GROUP BY"},
      {"group-by-no-agg", "GROUP BY whose select list has no aggregate"},
      {"aggregates", "count, sum, avg, min, max"},
      {"count-distinct", "count(DISTINCT e)"},
      {"window-functions", "f(...) OVER (PARTITION BY ... ORDER BY ... [ROWS|GROUPS|RANGE frame]) in select lists"},
      {"variance", "var_samp, var_pop, variance, stddev_samp, stddev_pop, stddev"},
      {"bitwise", "the integer operators & | # ~ << >>"},
      {"distinct-on", "SELECT DISTINCT ON (leading ORDER BY columns) ... ORDER BY every column"},
      {"having", "HAVING"},
      {"distinct", "SELECT DISTINCT"},
      {"set-ops", "UNION / INTERSECT / EXCEPT"},
      {"set-ops-all", "the ALL forms of the set operations"},
      {"intersect-except-all", "INTERSECT ALL and EXCEPT ALL (UNION ALL is set-ops-all alone)"},
      {"scalar-subquery", "(SELECT agg ...) as a value"},
      {"in-subquery", "e [NOT] IN (SELECT ...)"},
      {"in-paren-subquery", "e [NOT] IN ((SELECT ... ORDER BY ... LIMIT ...)): the subquery in its own parentheses"},
      {"exists-subquery", "[NOT] EXISTS (SELECT ...)"},
      {"correlated", "subqueries that reference the outer query"},
      {"ctes", "WITH name AS (...)"},
      {"derived-tables", "(SELECT ...) AS x in FROM"},
      {"paren-limit", "(SELECT ... ORDER BY ... LIMIT/OFFSET) as a query, set-operation branch or derived table"},
      {"order-limit", "top-level ORDER BY with LIMIT/OFFSET"},
      {"select-star", "SELECT *"},
      {"case", "CASE WHEN"},
      {"coalesce-nullif", "COALESCE and NULLIF"},
      {"casts", "CAST between numeric types and to text"},
      {"numeric-division", "division (/ and %) of numbers"},
      {"functions", "abs, round, length, upper, lower, substr"},
      {"like", "[NOT] LIKE"},
      {"between", "[NOT] BETWEEN"},
      {"in-list", "e [NOT] IN (literals)"},
      {"views", "CREATE VIEW over random queries, read after every change"},
      {"indexes", "CREATE INDEX / CREATE DEFAULT INDEX on those views"},
      {"materialized-views", "CREATE MATERIALIZED VIEW over random queries"},
      {"dml", "INSERT / UPDATE / DELETE between checks"},
      {"transactions", "data changes inside BEGIN ... COMMIT"},
      {"rollback", "data changes inside BEGIN ... ROLLBACK"},
  };
  return kAll;
}

bool Features::disable(const std::string& csv, std::string* error) {
  std::stringstream in(csv);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name.empty()) continue;
    bool known = false;
    for (const auto& f : all_features()) known = known || name == f.name;
    if (!known) {
      *error = "unknown feature '" + name + "' (see --list-features)";
      return false;
    }
    disabled_.insert(name);
  }
  return true;
}

}  // namespace tandem::difftest
