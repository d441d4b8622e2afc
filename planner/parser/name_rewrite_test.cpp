// rewrite_object_names / object_references: which names in a query are
// catalog object references (CTE scoping as the binder resolves it, every
// place a subquery can hide), and how a rename keeps column qualifiers valid.

#include "planner/parser/name_rewrite.hpp"

#include <catch2/catch.hpp>
#include <map>

#include "planner/parser/parser.hpp"
#include "planner/parser/printer.hpp"

using namespace tandem::sql;

namespace {

Query parse(const std::string& sql) {
  auto q = parse_query(sql);
  if (!q.ok()) FAIL(q.status().to_string());
  return std::move(*q);
}

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ".") + p;
  return s;
}

std::vector<std::string> refs(const std::string& sql) {
  std::vector<std::string> out;
  for (const auto& r : object_references(parse(sql))) out.push_back(join(r));
  return out;
}

// Qualifies every reference as the catalog would with search_path = public
// in database db: {x} -> {db, public, x}, {s, x} -> {db, s, x}.
std::optional<std::vector<std::string>> qualify(const std::vector<std::string>& parts) {
  if (parts.size() == 1) return std::vector<std::string>{"db", "public", parts[0]};
  if (parts.size() == 2) return std::vector<std::string>{"db", parts[0], parts[1]};
  return std::nullopt;
}

// Renames db.public.<from> to db.public.<to> (references must be qualified).
ObjectNameMapper renaming(std::string from, std::string to) {
  return [from, to](const std::vector<std::string>& parts) -> std::optional<std::vector<std::string>> {
    if (parts == std::vector<std::string>{"db", "public", from}) return std::vector<std::string>{"db", "public", to};
    return std::nullopt;
  };
}

// Rewrites, checks the result still round-trips, and returns it printed.
std::string rewritten(const std::string& sql, const ObjectNameMapper& map, size_t expected_count) {
  Query q = parse(sql);
  CHECK(rewrite_object_names(q, map) == expected_count);
  std::string printed = print(q);
  Query again = parse(printed);
  CHECK(again == q);
  return printed;
}

}  // namespace

TEST_CASE("object references: FROM items, joins and subqueries everywhere", "[name_rewrite]") {
  CHECK(refs("SELECT 1") == std::vector<std::string>{});
  CHECK(refs("SELECT * FROM t, s.u, d.s.v") == std::vector<std::string>{"t", "s.u", "d.s.v"});
  CHECK(refs("SELECT * FROM a JOIN (b LEFT JOIN c ON EXISTS (SELECT 1 FROM d)) AS j ON true") ==
        std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(refs("SELECT (SELECT max(x) FROM a), ARRAY(SELECT y FROM b) FROM c "
             "WHERE z IN (SELECT z FROM d) AND z > ANY (SELECT z FROM e) AND EXISTS (SELECT 1 FROM f)") ==
        std::vector<std::string>{"a", "b", "c", "d", "e", "f"});
  CHECK(refs("SELECT * FROM a, LATERAL (SELECT * FROM b WHERE b.x = a.x) AS l, "
             "generate_series(1, (SELECT count(*) FROM c)) AS g") == std::vector<std::string>{"a", "b", "c"});
  CHECK(refs("SELECT CASE WHEN (SELECT true FROM a) THEN 1 ELSE (SELECT 2 FROM b) END, "
             "count(*) FILTER (WHERE x IN (SELECT x FROM c)) FROM d GROUP BY (SELECT 1 FROM e) "
             "HAVING (SELECT true FROM f) ORDER BY (SELECT 1 FROM g) LIMIT (SELECT 1 FROM h)") ==
        std::vector<std::string>{"a", "b", "c", "d", "e", "f", "g", "h"});
  CHECK(refs("SELECT * FROM a UNION (SELECT * FROM b) EXCEPT VALUES ((SELECT 1 FROM c))") ==
        std::vector<std::string>{"a", "b", "c"});
  CHECK(refs("SELECT sum(x) OVER (PARTITION BY (SELECT 1 FROM a) ORDER BY (SELECT 2 FROM b)) FROM c") ==
        std::vector<std::string>{"a", "b", "c"});
  CHECK(refs("SELECT sum(x) OVER w FROM c WINDOW w AS (PARTITION BY (SELECT 1 FROM a))") ==
        std::vector<std::string>{"c", "a"});
}

TEST_CASE("object references: CTE names shadow catalog names in their scope only", "[name_rewrite]") {
  // The CTE is visible in the body and in nested subqueries.
  CHECK(refs("WITH c AS (SELECT * FROM t) SELECT * FROM c, (SELECT * FROM c) AS d "
             "WHERE x IN (SELECT x FROM c)") == std::vector<std::string>{"t"});
  // A CTE defined inside a derived table is not visible outside it.
  CHECK(refs("SELECT * FROM (WITH c AS (SELECT 1) SELECT * FROM c) AS x, c") == std::vector<std::string>{"c"});
  // A CTE body sees only the CTEs before it (not itself, not later ones).
  CHECK(refs("WITH a AS (SELECT * FROM b), b AS (SELECT * FROM a) SELECT * FROM a, b") ==
        std::vector<std::string>{"b"});
  CHECK(refs("WITH a AS (SELECT * FROM a) SELECT * FROM a") == std::vector<std::string>{"a"});
  // WITH RECURSIVE: every CTE of the WITH is visible in every body.
  CHECK(refs("WITH RECURSIVE r (n) AS (VALUES (1) UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r") ==
        std::vector<std::string>{});
  // Only one-part names can mean a CTE.
  CHECK(refs("WITH t AS (SELECT 1) SELECT * FROM public.t, t") == std::vector<std::string>{"public.t"});
  // An inner WITH shadows an outer one of the same name and ends with its query.
  CHECK(refs("WITH c AS (SELECT * FROM t) SELECT * FROM (WITH c AS (SELECT * FROM c) SELECT * FROM c) AS i, c") ==
        std::vector<std::string>{"t"});
}

TEST_CASE("qualifying every reference of a view's query", "[name_rewrite]") {
  CHECK(rewritten("SELECT a FROM t JOIN s.u ON t.a = u.a WHERE a IN (SELECT b FROM w)", qualify, 3) ==
        "SELECT a FROM db.public.t JOIN db.s.u ON (t.a = u.a) WHERE (a IN (SELECT b FROM db.public.w))");
  // Already qualified names and CTEs are left alone.
  CHECK(rewritten("WITH c AS (SELECT * FROM t) SELECT * FROM c, x.y.z", qualify, 1) ==
        "WITH c AS (SELECT * FROM db.public.t) SELECT * FROM c, x.y.z");
  // Qualifying keeps the last part, so no alias is needed for `t.a`.
  CHECK(rewritten("SELECT t.a, t.* FROM t", qualify, 1) == "SELECT t.a, t.* FROM db.public.t");
}

TEST_CASE("renaming keeps column qualifiers bound to the renamed reference", "[name_rewrite]") {
  // No qualifier uses the old name: no alias.
  CHECK(rewritten("SELECT a FROM db.public.t", renaming("t", "t2"), 1) == "SELECT a FROM db.public.t2");
  // `t.a` and `t.*` qualify by the old name: the reference keeps it as an alias.
  CHECK(rewritten("SELECT t.a FROM db.public.t", renaming("t", "t2"), 1) == "SELECT t.a FROM db.public.t2 AS t");
  CHECK(rewritten("SELECT t.* FROM db.public.t", renaming("t", "t2"), 1) == "SELECT t.* FROM db.public.t2 AS t");
  CHECK(rewritten("SELECT x FROM db.public.u WHERE EXISTS (SELECT 1 FROM db.public.t WHERE t.k = u.k)",
                  renaming("t", "t2"), 1) ==
        "SELECT x FROM db.public.u WHERE EXISTS (SELECT 1 FROM db.public.t2 AS t WHERE (t.k = u.k))");
  // Only qualifiers that can see the reference count: its SELECT, nested
  // subqueries, and the ORDER BY of its query; not a sibling or outer SELECT.
  CHECK(rewritten("SELECT t.a FROM db.public.t WHERE t.a IN (SELECT a FROM db.public.t WHERE b = 'y')",
                  renaming("t", "t2"), 2) ==
        "SELECT t.a FROM db.public.t2 AS t WHERE (t.a IN (SELECT a FROM db.public.t2 WHERE (b = 'y')))");
  CHECK(rewritten("SELECT a FROM db.public.t ORDER BY t.a", renaming("t", "t2"), 1) ==
        "SELECT a FROM db.public.t2 AS t ORDER BY t.a");
  CHECK(rewritten("SELECT t.a FROM db.public.u AS t UNION SELECT a FROM db.public.t", renaming("t", "t2"), 1) ==
        "SELECT t.a FROM db.public.u AS t UNION SELECT a FROM db.public.t2");
  CHECK(rewritten("SELECT * FROM db.public.t JOIN db.public.u ON t.k = u.k", renaming("t", "t2"), 1) ==
        "SELECT * FROM db.public.t2 AS t JOIN db.public.u ON (t.k = u.k)");
  // An explicit alias stays as written.
  CHECK(rewritten("SELECT x.a FROM db.public.t AS x", renaming("t", "t2"), 1) == "SELECT x.a FROM db.public.t2 AS x");
  // Every reference is rewritten, other names are not.
  CHECK(rewritten("SELECT * FROM db.public.t, db.public.u, (SELECT * FROM db.public.t) AS s", renaming("t", "t2"), 2) ==
        "SELECT * FROM db.public.t2, db.public.u, (SELECT * FROM db.public.t2) AS s");
  // A CTE called like the renamed item is not a reference to it.
  CHECK(rewritten("WITH t AS (SELECT * FROM db.public.t) SELECT * FROM t", renaming("t", "t2"), 1) ==
        "WITH t AS (SELECT * FROM db.public.t2) SELECT * FROM t");
  // A mapper returning the same parts replaces nothing.
  CHECK(rewritten("SELECT * FROM db.public.t", [](const std::vector<std::string>& p) { return p; }, 0) ==
        "SELECT * FROM db.public.t");
}
