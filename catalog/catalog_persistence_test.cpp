#include <catch2/catch.hpp>

#include "catalog/catalog_test_support.hpp"

using namespace tandem;
using namespace tandem::catalog;
using namespace tandem::catalog::testing;

namespace {

std::vector<ItemId> replay_ids(const Catalog& c) {
  std::vector<ItemId> out;
  for (const PersistedItem& p : c.items_to_replay()) out.push_back(p.id);
  return out;
}

}  // namespace

TEST_CASE("first open creates materialize.public and quickstart", "[catalog][persistence]") {
  CatalogFixture f;
  auto snap = f.catalog().snapshot();
  CHECK(snap->has_database("materialize"));
  REQUIRE(snap->find_schema("materialize", "public") != nullptr);
  for (const char* s : kSystemSchemas) {
    REQUIRE(snap->find_schema("materialize", s) != nullptr);
    CHECK(snap->find_schema("materialize", s)->is_system());
  }
  REQUIRE(snap->find_cluster("quickstart") != nullptr);
  CHECK(snap->find_cluster("quickstart")->id == ClusterId::user(1));
  CHECK(snap->find_cluster("mz_system")->id == ClusterId::system(1));
  CHECK(snap->find_cluster("mz_catalog_server") != nullptr);
  CHECK(f.catalog().items_to_replay().empty());
  // Reopening does not create them twice.
  f.reopen();
  CHECK(f.catalog().state().clusters().size() == 3);
  CHECK(f.catalog().state().schemas("materialize").size() == 1 + kSystemSchemas.size());
}

TEST_CASE("items persist as create_sql and replay in id order", "[catalog][persistence]") {
  CatalogFixture f;
  ItemId t = create(f.catalog(), table_spec("t", 101));
  ItemId v = create(f.catalog(), view_spec("v", {t}));
  ItemId mv = create(f.catalog(), mv_spec("mv", {v}, quickstart(f.catalog()), 103));
  ItemId idx = create(f.catalog(), index_spec("mv_idx", mv, quickstart(f.catalog())));
  ItemId gone = create(f.catalog(), view_spec("gone", {t}));
  REQUIRE(f.catalog().drop_items(std::vector<ItemId>{gone}, DropBehavior::kRestrict).ok());

  f.reopen();
  Catalog& c = f.catalog();
  // Nothing is planned yet: items wait for the coordinator's replay.
  CHECK(c.state().items().empty());
  REQUIRE(replay_ids(c) == std::vector<ItemId>{t, v, mv, idx});
  CHECK(c.items_to_replay()[0].create_sql == "CREATE TABLE materialize.public.t (a int, b int)");
  CHECK(c.items_to_replay()[0].shard == std::optional<storage::ShardId>(101));
  CHECK(c.items_to_replay()[1].shard == std::nullopt);
  CHECK(c.items_to_replay()[2].shard == std::optional<storage::ShardId>(103));

  // Replay: same ids, no new ids consumed.
  REQUIRE(c.replay_item(t, table_spec("t", 101)).ok());
  // A replayed spec that names another shard is refused.
  CHECK_FALSE(c.replay_item(v, table_spec("v", 5)).ok());
  REQUIRE(c.replay_item(v, view_spec("v", {t})).ok());
  REQUIRE(c.replay_item(mv, mv_spec("mv", {v}, quickstart(c), 103)).ok());
  REQUIRE(c.replay_item(idx, index_spec("mv_idx", mv, quickstart(c))).ok());
  CHECK_FALSE(c.replay_item(idx, index_spec("mv_idx", mv, quickstart(c))).ok());
  CHECK_FALSE(c.replay_item(gone, view_spec("gone", {t})).ok());
  CHECK(c.state().dependents(v) == std::vector<ItemId>{mv});
  CHECK(c.state().find_item(user_name("mv"))->id == mv);

  // Ids are never reused: the dropped u5 stays burnt across restarts.
  ItemId next = create(c, view_spec("after", {t}));
  CHECK(next == ItemId::user(6));
  f.reopen();
  CHECK(replay_ids(f.catalog()) == std::vector<ItemId>{t, v, mv, idx, next});
}

TEST_CASE("ids are never reused after drop and reopen", "[catalog][persistence]") {
  CatalogFixture f;
  ItemId a = create(f.catalog(), view_spec("a", {}));
  REQUIRE(f.catalog().drop_items(std::vector<ItemId>{a}, DropBehavior::kRestrict).ok());
  f.reopen();
  CHECK(f.catalog().items_to_replay().empty());
  ItemId b = create(f.catalog(), view_spec("a", {}));
  CHECK(b == ItemId::user(2));
  CHECK(f.catalog().allocate_transient_id() == ItemId::transient(1));
  CHECK(f.catalog().allocate_transient_id() == ItemId::transient(2));
}

TEST_CASE("renames, rewrites and drops are durable", "[catalog][persistence]") {
  CatalogFixture f;
  ItemId t = create(f.catalog(), table_spec("t", 1));
  ItemId v = create(f.catalog(), view_spec("v", {t}));
  REQUIRE(f.catalog().rename_item(t, "t2", {{t, "CREATE TABLE materialize.public.t2 (a int, b int)"}}).is_ok());
  REQUIRE(f.catalog().update_create_sql({{v, "CREATE VIEW v AS SELECT * FROM t2"}}).is_ok());
  f.reopen();
  REQUIRE(f.catalog().items_to_replay().size() == 2);
  CHECK(f.catalog().items_to_replay()[0].create_sql == "CREATE TABLE materialize.public.t2 (a int, b int)");
  CHECK(f.catalog().items_to_replay()[1].create_sql == "CREATE VIEW v AS SELECT * FROM t2");
}

TEST_CASE("schemas: create, drop RESTRICT/CASCADE, persistence", "[catalog][persistence]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  REQUIRE(c.create_schema(std::nullopt, "s", false).ok());
  auto dup = c.create_schema(std::nullopt, "s", false);
  REQUIRE_FALSE(dup.ok());
  CHECK(dup.status().sqlstate() == sqlstate::kDuplicateSchema);
  CHECK(dup.status().message() == "schema 's' already exists");
  auto quiet = c.create_schema(std::nullopt, "s", true);
  REQUIRE(quiet.ok());
  CHECK(quiet->notices.size() == 1);
  CHECK_FALSE(c.create_schema(std::nullopt, "mz_catalog", false).ok());
  auto bad_db = c.create_schema(std::string("nodb"), "x", false);
  REQUIRE_FALSE(bad_db.ok());
  CHECK(bad_db.status().sqlstate() == sqlstate::kInvalidCatalogName);

  ItemId t = create(c, table_spec("t", 1, "s"));
  ItemId v = create(c, view_spec("v_in_public", {t}));
  f.reopen();
  REQUIRE(f.catalog().state().find_schema("materialize", "s") != nullptr);
  REQUIRE(f.catalog().replay_item(t, table_spec("t", 1, "s")).ok());
  REQUIRE(f.catalog().replay_item(v, view_spec("v_in_public", {t})).ok());

  auto restrict = f.catalog().drop_schema(std::nullopt, "s", false, DropBehavior::kRestrict);
  REQUIRE_FALSE(restrict.ok());
  CHECK(restrict.status().message() ==
        "schema 'materialize.s' cannot be dropped without CASCADE while it contains objects");
  auto sys = f.catalog().drop_schema(std::nullopt, "mz_internal", false, DropBehavior::kCascade);
  REQUIRE_FALSE(sys.ok());
  CHECK(sys.status().sqlstate() == sqlstate::kInsufficientPrivilege);

  auto cascade = f.catalog().drop_schema(std::nullopt, "s", false, DropBehavior::kCascade);
  REQUIRE(cascade.ok());
  CHECK(cascade->dropped.size() == 2);  // t and its dependent in public
  auto missing = f.catalog().drop_schema(std::nullopt, "s", true, DropBehavior::kRestrict);
  REQUIRE(missing.ok());
  CHECK(missing->notices.size() == 1);
  f.reopen();
  CHECK(f.catalog().state().find_schema("materialize", "s") == nullptr);
  CHECK(f.catalog().items_to_replay().empty());
}
