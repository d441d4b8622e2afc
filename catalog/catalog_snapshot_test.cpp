#include <catch2/catch.hpp>

#include <atomic>
#include <thread>

#include "catalog/catalog_test_support.hpp"

using namespace tandem;
using namespace tandem::catalog;
using namespace tandem::catalog::testing;

TEST_CASE("an old snapshot is unchanged by later writes", "[catalog][snapshot]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  ItemId t = create(c, table_spec("t", 1));
  auto before = c.snapshot();
  uint64_t version = before->version();

  ItemId v = create(c, view_spec("v", {t}));
  REQUIRE(c.rename_item(t, "renamed").is_ok());
  REQUIRE(c.set_system_var(kMaxResultSize, "1MB").is_ok());
  REQUIRE(c.create_cluster(ClusterSpec{"c", "25cc", 1, "CREATE CLUSTER c"}, false).ok());

  CHECK(before->version() == version);
  CHECK(before->item(v) == nullptr);
  CHECK(before->item(t)->name.item == "t");
  CHECK(before->find_item(user_name("renamed")) == nullptr);
  CHECK(before->dependents(t).empty());
  CHECK(before->system_vars().get_bytes(kMaxResultSize) == int64_t{1} << 30);
  CHECK(before->find_cluster("c") == nullptr);

  auto after = c.snapshot();
  CHECK(after->version() > version);
  CHECK(after->item(t)->name.item == "renamed");
  CHECK(after->system_vars().get_bytes(kMaxResultSize) == 1 << 20);

  // A failed write publishes nothing.
  CHECK_FALSE(c.create_item(view_spec("v", {})).ok());
  CHECK(c.snapshot() == after);
}

TEST_CASE("readers on other threads see whole versions while the writer works", "[catalog][snapshot]") {
  CatalogFixture f;
  Catalog& c = f.catalog();
  std::atomic<bool> done{false};
  std::atomic<int> bad{0};
  std::thread reader([&] {
    SearchPath path;
    while (!done.load()) {
      auto snap = c.snapshot();
      // Invariant of every version: each view vN depends on table tN, and
      // both resolve by name.
      for (const Item* item : snap->items()) {
        if (item->kind != ItemKind::kView) continue;
        std::string table("t");  // built in two steps: GCC 12 -Wrestrict false positive
        table += item->name.item.substr(1);
        auto resolved = snap->resolve_item(PartialName{std::nullopt, std::nullopt, table}, path);
        if (!resolved.ok() || item->dependencies != std::vector<ItemId>{(*resolved)->id}) ++bad;
      }
    }
  });
  for (int i = 0; i < 40; ++i) {
    std::string n = std::to_string(i);
    ItemId t = create(c, table_spec("t" + n, static_cast<storage::ShardId>(i + 1)));
    create(c, view_spec("v" + n, {t}));
    if (i % 3 == 0) REQUIRE(c.drop_items(std::vector<ItemId>{t}, DropBehavior::kCascade).ok());
  }
  done.store(true);
  reader.join();
  CHECK(bad.load() == 0);
}
