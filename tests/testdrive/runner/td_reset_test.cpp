#include "tests/testdrive/runner/td_reset.hpp"

#include <catch2/catch.hpp>

namespace tandem::td {

TEST_CASE("reset: DROP statements per SHOW OBJECTS type") {
  CHECK(drop_statement("table", "t") == "DROP TABLE IF EXISTS \"t\" CASCADE");
  CHECK(drop_statement("materialized-view", "mv") == "DROP MATERIALIZED VIEW IF EXISTS \"mv\" CASCADE");
  CHECK(drop_statement("index", "we\"ird") == "DROP INDEX IF EXISTS \"we\"\"ird\" CASCADE");
  CHECK(drop_statement("view", "v") == "DROP VIEW IF EXISTS \"v\" CASCADE");
  CHECK(drop_statement("role", "r").empty());
  CHECK(quote_identifier("Mixed Case") == "\"Mixed Case\"");
}

}  // namespace tandem::td
