#include "storage/durable_store.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <random>

using tandem::storage::DurableStore;
using tandem::storage::DurableStoreOptions;
using tandem::storage::Family;

namespace {
std::string temp_dir() {
  auto p = std::filesystem::temp_directory_path() /
           ("tandem-store-test-" + std::to_string(std::random_device{}()));
  return p.string();
}
}  // namespace

TEST_CASE("durable store persists values across reopen") {
  std::string dir = temp_dir();
  {
    auto store = DurableStore::open({dir, true});
    REQUIRE(store.ok());
    REQUIRE((*store)->put(Family::kCatalog, "u1", "CREATE TABLE t (a int)").is_ok());
    REQUIRE((*store)->close().is_ok());
  }
  {
    auto store = DurableStore::open({dir, true});
    REQUIRE(store.ok());
    auto v = (*store)->get(Family::kCatalog, "u1");
    REQUIRE(v.ok());
    REQUIRE(v->has_value());
    CHECK(**v == "CREATE TABLE t (a int)");
    auto missing = (*store)->get(Family::kShards, "u1");
    REQUIRE(missing.ok());
    CHECK(!missing->has_value());
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("a second open of a locked data directory fails cleanly") {
  std::string dir = temp_dir();
  auto first = DurableStore::open({dir, true});
  REQUIRE(first.ok());
  auto second = DurableStore::open({dir, true});
  REQUIRE(!second.ok());
  CHECK(second.status().sqlstate() == "58030");
  (*first)->close();
  std::filesystem::remove_all(dir);
}
