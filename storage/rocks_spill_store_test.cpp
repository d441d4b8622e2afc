#include "storage/rocks_spill_store.hpp"

#include <catch2/catch.hpp>

#include "storage/test_support.hpp"

namespace tandem::storage {
namespace {

TEST_CASE("spill blocks round-trip, erase by id, and are discarded at the next open",
          "[storage][spill]") {
  testing::ScratchDir dir;
  const std::string big(200000, 'x');
  {
    auto durable = testing::open_durable(dir.path(), false);
    RocksSpillStore spill(*durable);
    REQUIRE(spill.put_block(7, 0, "block zero").is_ok());
    REQUIRE(spill.put_block(7, 1, big).is_ok());
    REQUIRE(spill.put_block(8, 0, "other batch").is_ok());
    std::string out;
    REQUIRE(spill.get_block(7, 1, out).is_ok());
    CHECK(out == big);
    REQUIRE(spill.erase(7).is_ok());
    CHECK_FALSE(spill.get_block(7, 0, out).is_ok());
    CHECK_FALSE(spill.get_block(7, 1, out).is_ok());
    REQUIRE(spill.get_block(8, 0, out).is_ok());
    CHECK(out == "other batch");
    // Durable families are untouched by the spill's life cycle.
    REQUIRE(durable->put(Family::kMeta, "kept", "yes").is_ok());
  }
  auto durable = testing::open_durable(dir.path(), false);
  RocksSpillStore spill(*durable);
  std::string out;
  CHECK_FALSE(spill.get_block(8, 0, out).is_ok());
  auto kept = durable->get(Family::kMeta, "kept");
  REQUIRE(kept.ok());
  CHECK(*kept == std::optional<std::string>("yes"));
}

}  // namespace
}  // namespace tandem::storage
