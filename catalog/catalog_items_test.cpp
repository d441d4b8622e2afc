#include <catch2/catch.hpp>

#include "catalog/catalog_test_support.hpp"

using namespace tandem;
using namespace tandem::catalog;
using namespace tandem::catalog::testing;

namespace {

std::vector<ItemId> ids_of(const DdlResult& r) {
  std::vector<ItemId> out;
  for (const auto& item : r.dropped) out.push_back(item->id);
  return out;
}

}  // namespace

TEST_CASE("create assigns increasing user ids and stores the spec", "[catalog][items]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  ItemId t = create(c, table_spec("t", 7));
  ItemId v = create(c, view_spec("v", {t}));
  CHECK(t == ItemId::user(1));
  CHECK(v == ItemId::user(2));
  const Item* item = c.state().item(t);
  REQUIRE(item != nullptr);
  CHECK(item->name.to_string() == "materialize.public.t");
  CHECK(item->kind == ItemKind::kTable);
  REQUIRE(item->table() != nullptr);
  CHECK(item->table()->columns[0].not_null);
  CHECK(item->table()->columns[1].default_sql == std::optional<std::string>("42"));
  CHECK(item->table()->primary_key == std::optional<std::vector<size_t>>(std::vector<size_t>{0}));
  CHECK(item->shard() == std::optional<storage::ShardId>(7));
  CHECK(item->desc.column_index("b") == std::optional<size_t>(1));
  CHECK(c.state().dependents(t) == std::vector<ItemId>{v});
  // An index depends on what it indexes even when the spec forgets to say so.
  ItemId idx = create(c, index_spec("t_idx", t, quickstart(c)));
  CHECK(c.state().item(idx)->dependencies == std::vector<ItemId>{t});
}

TEST_CASE("duplicate names: 42P07, or a notice with IF NOT EXISTS", "[catalog][items]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  ItemId t = create(c, table_spec("t", 1));
  auto dup = c.create_item(view_spec("t", {}));
  REQUIRE_FALSE(dup.ok());
  CHECK(dup.status().sqlstate() == sqlstate::kDuplicateTable);
  CHECK(dup.status().message() == "catalog item 't' already exists");

  auto quiet = c.create_item(view_spec("t", {}), CreateMode::kIfNotExists);
  REQUIRE(quiet.ok());
  CHECK_FALSE(quiet->created_item.has_value());
  REQUIRE(quiet->notices.size() == 1);
  CHECK(quiet->notices[0].message() == "catalog item 't' already exists, skipping");
  CHECK(c.state().item(t)->kind == ItemKind::kTable);

  // Failed creates consume no id.
  ItemId next = create(c, view_spec("v", {t}));
  CHECK(next == ItemId::user(2));

  // Unknown schema / database, system schema, unknown cluster.
  auto no_schema = c.create_item(table_spec("x", 2, "nosuch"));
  REQUIRE_FALSE(no_schema.ok());
  CHECK(no_schema.status().sqlstate() == sqlstate::kInvalidSchemaName);
  ItemSpec in_system = view_spec("x", {});
  in_system.name.schema = kMzCatalogSchema;
  auto sys = c.create_item(in_system);
  REQUIRE_FALSE(sys.ok());
  CHECK(sys.status().sqlstate() == sqlstate::kInsufficientPrivilege);
  auto bad_cluster = c.create_item(index_spec("i", t, ClusterId::user(999)));
  REQUIRE_FALSE(bad_cluster.ok());
  CHECK(bad_cluster.status().sqlstate() == sqlstate::kUndefinedObject);
  auto bad_dep = c.create_item(view_spec("w", {ItemId::user(999)}));
  REQUIRE_FALSE(bad_dep.ok());
  CHECK(c.state().find_item(user_name("w")) == nullptr);
}

TEST_CASE("RESTRICT vs CASCADE over table -> view -> index -> view", "[catalog][items]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  ItemId t = create(c, table_spec("t", 1));
  ItemId v1 = create(c, view_spec("v1", {t}));
  ItemId idx = create(c, index_spec("v1_idx", v1, quickstart(c)));
  // v2 reads v1 through its index.
  ItemId v2 = create(c, view_spec("v2", {v1, idx}));
  ItemId other = create(c, table_spec("other", 2));
  ItemId other_idx = create(c, index_spec("other_idx", other, quickstart(c)));

  auto restrict_t = c.drop_items(std::vector<ItemId>{t}, DropBehavior::kRestrict);
  REQUIRE_FALSE(restrict_t.ok());
  CHECK(restrict_t.status().sqlstate() == sqlstate::kDependentObjectsStillExist);
  CHECK(restrict_t.status().message() == "cannot drop table \"t\": still depended upon by view \"v1\"");
  CHECK(c.state().item(t) != nullptr);

  auto restrict_v1 = c.drop_items(std::vector<ItemId>{v1}, DropBehavior::kRestrict);
  REQUIRE_FALSE(restrict_v1.ok());
  CHECK(restrict_v1.status().message() == "cannot drop view \"v1\": still depended upon by view \"v2\"");

  // An index alone never blocks RESTRICT: it goes with its table.
  auto drop_other = c.drop_items(std::vector<ItemId>{other}, DropBehavior::kRestrict);
  REQUIRE(drop_other.ok());
  CHECK(ids_of(*drop_other) == std::vector<ItemId>{other_idx, other});

  // Dropping a dependent together with what it depends on is fine.
  auto both = c.drop_items(std::vector<ItemId>{v1, v2}, DropBehavior::kRestrict);
  REQUIRE(both.ok());
  CHECK(ids_of(*both) == std::vector<ItemId>{v2, idx, v1});
  CHECK(c.state().item(v1) == nullptr);
  CHECK(c.state().dependents(t).empty());

  // Rebuild the chain and cascade from the bottom.
  ItemId w1 = create(c, view_spec("w1", {t}));
  ItemId widx = create(c, index_spec("w1_idx", w1, quickstart(c)));
  ItemId w2 = create(c, view_spec("w2", {w1, widx}));
  auto cascade = c.drop_items(std::vector<ItemId>{t}, DropBehavior::kCascade);
  REQUIRE(cascade.ok());
  CHECK(ids_of(*cascade) == std::vector<ItemId>{w2, widx, w1, t});
  CHECK(c.state().items().empty());
}

TEST_CASE("DROP ... IF EXISTS by name, with kind checks", "[catalog][items]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  ItemId t = create(c, table_spec("t", 1));
  create(c, view_spec("v", {t}));
  SearchPath path;
  std::vector<PartialName> names{unqualified("v"), unqualified("missing")};

  auto strict = c.drop_objects(ItemKind::kView, names, false, DropBehavior::kRestrict, path);
  REQUIRE_FALSE(strict.ok());
  CHECK(strict.status().message() == "unknown catalog item 'missing'");
  CHECK(c.state().find_item(user_name("v")) != nullptr);

  auto wrong = c.drop_objects(ItemKind::kView, std::vector<PartialName>{unqualified("t")}, false,
                              DropBehavior::kRestrict, path);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.status().sqlstate() == sqlstate::kWrongObjectType);
  CHECK(wrong.status().message() == "materialize.public.t is not a view");

  auto lenient = c.drop_objects(ItemKind::kView, names, true, DropBehavior::kRestrict, path);
  REQUIRE(lenient.ok());
  REQUIRE(lenient->notices.size() == 1);
  CHECK(lenient->notices[0].message() == "view \"missing\" does not exist, skipping");
  CHECK(lenient->dropped.size() == 1);
  CHECK(c.state().find_item(user_name("v")) == nullptr);
}

TEST_CASE("system items cannot be dropped or renamed", "[catalog][items]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  auto sys = c.register_system_item(system_view_spec(kMzCatalogSchema, "mz_views"));
  REQUIRE(sys.ok());
  CHECK(*sys == ItemId::system(1));
  CHECK(c.state().item(*sys)->name.to_string() == "mz_catalog.mz_views");
  auto drop = c.drop_items(std::vector<ItemId>{*sys}, DropBehavior::kCascade);
  REQUIRE_FALSE(drop.ok());
  CHECK(drop.status().message() == "system item 'mz_catalog.mz_views' cannot be modified");
  CHECK_FALSE(c.rename_item(*sys, "x").is_ok());
  // A user view over a builtin blocks nothing on the builtin side but is a
  // normal dependent.
  ItemId v = create(c, view_spec("v", {*sys}));
  CHECK(c.state().dependents(*sys) == std::vector<ItemId>{v});
  // Builtins must live in system schemas.
  CHECK_FALSE(c.register_system_item(view_spec("not_system", {})).ok());
}

TEST_CASE("rename keeps the id and dependencies, and create_sql rewrites are atomic", "[catalog][items]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  ItemId t = create(c, table_spec("t", 1));
  ItemId v = create(c, view_spec("v", {t}));
  create(c, view_spec("taken", {}));

  Status clash = c.rename_item(t, "taken");
  REQUIRE_FALSE(clash.is_ok());
  CHECK(clash.sqlstate() == sqlstate::kDuplicateTable);

  SqlRewrites rewrites{{t, "CREATE TABLE materialize.public.t2 (a int, b int)"},
                       {v, "CREATE VIEW materialize.public.v AS SELECT * FROM materialize.public.t2"}};
  REQUIRE(c.rename_item(t, "t2", rewrites).is_ok());
  const Item* renamed = c.state().item(t);
  CHECK(renamed->name.item == "t2");
  CHECK(renamed->create_sql == rewrites[t]);
  CHECK(c.state().find_item(user_name("t")) == nullptr);
  CHECK(c.state().find_item(user_name("t2")) == renamed);
  CHECK(c.state().item(v)->create_sql == rewrites[v]);
  CHECK(c.state().dependents(t) == std::vector<ItemId>{v});

  // A rewrite naming an unknown item fails the whole rename.
  SqlRewrites bad{{ItemId::user(999), "x"}};
  CHECK_FALSE(c.rename_item(t, "t3", bad).is_ok());
  CHECK(c.state().item(t)->name.item == "t2");

  REQUIRE(c.update_create_sql({{v, "CREATE VIEW materialize.public.v AS SELECT 2"}}).is_ok());
  CHECK(c.state().item(v)->create_sql == "CREATE VIEW materialize.public.v AS SELECT 2");
}

TEST_CASE("OR REPLACE drops the old view and its dependents and allocates a new id", "[catalog][items]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  ItemId t = create(c, table_spec("t", 1));
  ItemId v = create(c, view_spec("v", {t}));
  ItemId idx = create(c, index_spec("v_idx", v, quickstart(c)));
  ItemId w = create(c, view_spec("w", {v}));

  auto replaced = c.create_item(view_spec("v", {t}), CreateMode::kOrReplace);
  REQUIRE(replaced.ok());
  REQUIRE(replaced->created_item.has_value());
  CHECK(*replaced->created_item == ItemId::user(5));
  CHECK(ids_of(*replaced) == std::vector<ItemId>{w, idx, v});
  CHECK(c.state().find_item(user_name("v"))->id == ItemId::user(5));
  CHECK(c.state().item(w) == nullptr);

  // Self-reference through a dependent is rejected; nothing changes.
  ItemId w2 = create(c, view_spec("w2", {ItemId::user(5)}));
  auto cyclic = c.create_item(view_spec("v", {w2}), CreateMode::kOrReplace);
  REQUIRE_FALSE(cyclic.ok());
  CHECK(cyclic.status().message() == "cannot replace view \"v\": depended upon by new \"v\" definition");
  CHECK(c.state().item(w2) != nullptr);

  // A different kind is not replaceable.
  auto other_kind = c.create_item(view_spec("t", {}), CreateMode::kOrReplace);
  REQUIRE_FALSE(other_kind.ok());
  CHECK(other_kind.status().sqlstate() == sqlstate::kWrongObjectType);
  // Not existing: plain create.
  auto fresh = c.create_item(view_spec("fresh", {}), CreateMode::kOrReplace);
  REQUIRE(fresh.ok());
  CHECK(fresh->dropped.empty());
}
