// Builtin catalog relations: registration gives the same ids (and OIDs) at
// every boot, rows follow the snapshot, and each row has its relation's
// arity.
#include "catalog/builtin_relations.hpp"

#include "catalog/catalog_test_support.hpp"

namespace tandem::catalog {
namespace {

using testing::CatalogFixture;

const Item* builtin(const CatalogSnapshot& s, const char* schema, const char* name) {
  return s.find_item(QualifiedName{"", schema, name});
}

// Each row unpacked as text (NULL as "NULL") for comparisons.
std::vector<std::vector<std::string>> rows_of(Catalog& catalog, const char* schema, const char* name,
                                              SearchPath path = {}) {
  auto s = catalog.snapshot();
  const Item* item = builtin(*s, schema, name);
  REQUIRE(item != nullptr);
  std::vector<std::vector<std::string>> out;
  for (const Row& row : builtin_rows(*s, *item, BuiltinContext{path, "materialize", {}})) {
    RowArena arena;
    std::vector<std::string> values;
    for (const Datum& d : unpack(row, &arena)) {
      if (d.is_null()) values.push_back("NULL");
      else if (d.kind() == DatumKind::kString) values.emplace_back(d.as_string());
      else if (d.kind() == DatumKind::kBool) values.push_back(d.as_bool() ? "t" : "f");
      else values.push_back(std::to_string(d.as_integer()));
    }
    REQUIRE(values.size() == item->desc.arity());
    out.push_back(std::move(values));
  }
  return out;
}

TEST_CASE("builtin relations get the same ids at every boot") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  const Item* tables = builtin(*f.catalog().snapshot(), kMzCatalogSchema, "mz_tables");
  REQUIRE(tables != nullptr);
  ItemId first = tables->id;
  CHECK(first.is_system());
  CHECK(is_builtin_catalog_relation(*tables));
  f.reopen();
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  CHECK(builtin(*f.catalog().snapshot(), kMzCatalogSchema, "mz_tables")->id == first);
  CHECK(item_oid(first) == 16400 + first.value);
  CHECK(item_oid(ItemId::user(7)) == 20007);
}

TEST_CASE("mz_tables and pg_class follow creates and drops") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  ItemSpec spec = testing::table_spec("t", 1);
  spec.owner = kMaterializeRoleIdValue;
  auto created = f.catalog().create_item(std::move(spec));
  REQUIRE(created.ok());
  ItemId t = *created->created_item;

  auto user_rows = [&](const char* schema, const char* name, size_t id_column) {
    std::vector<std::vector<std::string>> out;
    for (auto& r : rows_of(f.catalog(), schema, name)) {
      if (r[id_column].rfind("u", 0) == 0 || r[id_column] == std::to_string(item_oid(t))) out.push_back(r);
    }
    return out;
  };
  auto tables = user_rows(kMzCatalogSchema, "mz_tables", 0);
  REQUIRE(tables.size() == 1);
  CHECK(tables[0][0] == t.to_string());
  CHECK(tables[0][1] == std::to_string(item_oid(t)));
  CHECK(tables[0][3] == "t");
  CHECK(tables[0][4] == kMaterializeRoleId);

  auto classes = user_rows(kPgCatalogSchema, "pg_class", 0);
  REQUIRE(classes.size() == 1);
  CHECK(classes[0][1] == "t");
  CHECK(classes[0][12] == "r");  // relkind

  // pg_attribute: NOT NULL and DEFAULT from the table's details.
  auto attributes = user_rows(kPgCatalogSchema, "pg_attribute", 0);
  REQUIRE(attributes.size() == 2);
  CHECK(attributes[0][1] == "a");
  CHECK(attributes[0][6] == "t");  // attnotnull
  CHECK(attributes[1][7] == "t");  // atthasdef
  auto defaults = rows_of(f.catalog(), kPgCatalogSchema, "pg_attrdef");
  REQUIRE(defaults.size() == 1);
  CHECK(defaults[0][2] == "42");

  std::vector<ItemId> drop{t};
  REQUIRE(f.catalog().drop_items(drop, DropBehavior::kRestrict).ok());
  CHECK(user_rows(kMzCatalogSchema, "mz_tables", 0).empty());
  CHECK(user_rows(kPgCatalogSchema, "pg_class", 0).empty());
}

TEST_CASE("mz_search_path_schemas lists pg_catalog then the existing path schemas") {
  CatalogFixture f;
  REQUIRE(register_builtin_relations(f.catalog()).is_ok());
  SearchPath path;
  path.schemas = {"nowhere", kPublicSchema};
  auto rows = rows_of(f.catalog(), kMzInternalSchema, "mz_search_path_schemas", path);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0][3] == kPgCatalogSchema);
  CHECK(rows[0][4] == "t");  // implicit: current_schemas(false) leaves it out
  CHECK(rows[1][3] == kPublicSchema);
  CHECK(rows[1][4] == "f");
  path.schemas = {kPublicSchema, kPgCatalogSchema};
  rows = rows_of(f.catalog(), kMzInternalSchema, "mz_search_path_schemas", path);
  REQUIRE(rows.size() == 2);
  CHECK(rows[1][3] == kPgCatalogSchema);
  CHECK(rows[1][4] == "f");
}

}  // namespace
}  // namespace tandem::catalog
