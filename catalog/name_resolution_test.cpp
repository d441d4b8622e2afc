#include <catch2/catch.hpp>

#include "catalog/catalog_test_support.hpp"

using namespace tandem;
using namespace tandem::catalog;
using namespace tandem::catalog::testing;

namespace {

PartialName two(const std::string& schema, const std::string& item) {
  return PartialName{std::nullopt, schema, item};
}
PartialName three(const std::string& db, const std::string& schema, const std::string& item) {
  return PartialName{db, schema, item};
}

}  // namespace

TEST_CASE("names resolve through the search_path and qualified forms", "[catalog][resolve]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  REQUIRE(c.create_schema(std::nullopt, "s", false).ok());
  ItemId pub_t = create(c, table_spec("t", 1));
  ItemId s_t = create(c, table_spec("t", 2, "s"));
  ItemId s_only = create(c, view_spec("only_in_s", {}, "s"));
  auto tables = c.register_system_item(system_view_spec(kMzCatalogSchema, "mz_tables"));
  REQUIRE(tables.ok());
  auto pg_class = c.register_system_item(system_view_spec(kPgCatalogSchema, "pg_class"));
  REQUIRE(pg_class.ok());
  auto shadow = c.register_system_item(system_view_spec(kMzInternalSchema, "t"));
  REQUIRE(shadow.ok());
  auto snap = c.snapshot();

  SearchPath path;  // materialize, [public]
  CHECK((*snap->resolve_item(unqualified("t"), path))->id == pub_t);
  CHECK((*snap->resolve_item(two("s", "t"), path))->id == s_t);
  CHECK((*snap->resolve_item(three("materialize", "s", "t"), path))->id == s_t);
  CHECK((*snap->resolve_item(three("materialize", "public", "t"), path))->id == pub_t);

  // mz_catalog and pg_catalog are searched implicitly, first.
  CHECK((*snap->resolve_item(unqualified("mz_tables"), path))->id == *tables);
  CHECK((*snap->resolve_item(unqualified("pg_class"), path))->id == *pg_class);
  // Other system schemas are not on the implicit path, but resolve qualified,
  // from any database spelling.
  CHECK((*snap->resolve_item(unqualified("t"), path))->id == pub_t);
  CHECK((*snap->resolve_item(two("mz_internal", "t"), path))->id == *shadow);
  CHECK((*snap->resolve_item(three("materialize", "mz_catalog", "mz_tables"), path))->id == *tables);

  // search_path order decides.
  SearchPath s_first{"materialize", {"s", "public"}};
  CHECK((*snap->resolve_item(unqualified("t"), s_first))->id == s_t);
  CHECK((*snap->resolve_item(unqualified("only_in_s"), s_first))->id == s_only);
  // A listed system schema is searched at its listed position.
  SearchPath internal_first{"materialize", {"mz_internal", "public"}};
  CHECK((*snap->resolve_item(unqualified("t"), internal_first))->id == *shadow);
  // Missing schemas on the path are skipped.
  SearchPath with_missing{"materialize", {"nope", "public"}};
  CHECK((*snap->resolve_item(unqualified("t"), with_missing))->id == pub_t);
}

TEST_CASE("resolution errors carry Materialize's texts and SQLSTATEs", "[catalog][resolve]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  create(c, view_spec("only_in_s_later", {}));
  auto snap = c.snapshot();
  SearchPath path;

  auto missing = snap->resolve_item(unqualified("x"), path);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().sqlstate() == sqlstate::kUndefinedTable);
  CHECK(missing.status().message() == "unknown catalog item 'x'");

  auto missing_q = snap->resolve_item(two("public", "x"), path);
  REQUIRE_FALSE(missing_q.ok());
  CHECK(missing_q.status().message() == "unknown catalog item 'public.x'");

  auto bad_schema = snap->resolve_item(two("nosuch", "x"), path);
  REQUIRE_FALSE(bad_schema.ok());
  CHECK(bad_schema.status().sqlstate() == sqlstate::kInvalidSchemaName);
  CHECK(bad_schema.status().message() == "unknown schema 'nosuch'");

  auto bad_db = snap->resolve_item(three("nodb", "public", "x"), path);
  REQUIRE_FALSE(bad_db.ok());
  CHECK(bad_db.status().sqlstate() == sqlstate::kInvalidCatalogName);
  CHECK(bad_db.status().message() == "unknown database 'nodb'");

  // Not on the search path: not found unqualified.
  SearchPath empty_path{"materialize", {}};
  CHECK_FALSE(snap->resolve_item(unqualified("only_in_s_later"), empty_path).ok());

  auto schema = snap->resolve_schema(std::nullopt, "public", path);
  REQUIRE(schema.ok());
  CHECK((*schema)->to_string() == "materialize.public");
  CHECK((*snap->resolve_schema(std::nullopt, "mz_catalog", path))->database.empty());
}

TEST_CASE("listings per schema and kind are ordered by name", "[catalog][resolve]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  ItemId t = create(c, table_spec("zt", 1));
  create(c, view_spec("bv", {t}));
  create(c, view_spec("av", {t}));
  create(c, index_spec("zt_idx", t, quickstart(c)));
  auto snap = c.snapshot();
  std::vector<std::string> all;
  for (const Item* i : snap->items_in_schema("materialize", "public")) all.push_back(i->name.item);
  CHECK(all == std::vector<std::string>{"av", "bv", "zt", "zt_idx"});
  std::vector<std::string> views;
  for (const Item* i : snap->items_in_schema("materialize", "public", ItemKind::kView)) {
    views.push_back(i->name.item);
  }
  CHECK(views == std::vector<std::string>{"av", "bv"});
  CHECK(snap->indexes_on(t).size() == 1);
  CHECK(snap->dependents(t).size() == 3);
  CHECK(item_kind_type_name(ItemKind::kMaterializedView) == "materialized-view");
}
