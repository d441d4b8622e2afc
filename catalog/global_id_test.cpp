#include <catch2/catch.hpp>

#include <map>

#include "catalog/global_id.hpp"

using namespace tandem::catalog;

TEST_CASE("ids print and parse as s1/u1/t1", "[catalog][global_id]") {
  CHECK(ItemId::user(1).to_string() == "u1");
  CHECK(ItemId::system(42).to_string() == "s42");
  CHECK(ItemId::transient(7).to_string() == "t7");
  CHECK(ClusterId::user(3).to_string() == "u3");

  CHECK(parse_id<ItemTag>("u12") == ItemId::user(12));
  CHECK(parse_id<ItemTag>("s1") == ItemId::system(1));
  CHECK(parse_id<ItemTag>("t99") == ItemId::transient(99));
  CHECK_FALSE(parse_id<ItemTag>("u"));
  CHECK_FALSE(parse_id<ItemTag>("x1"));
  CHECK_FALSE(parse_id<ItemTag>("u0"));
  CHECK_FALSE(parse_id<ItemTag>("u01"));
  CHECK_FALSE(parse_id<ItemTag>("u-1"));
  CHECK_FALSE(parse_id<ItemTag>("u1a"));
  CHECK_FALSE(parse_id<ItemTag>("u99999999999999999999"));
}

TEST_CASE("ids order system < user < transient, then by value", "[catalog][global_id]") {
  CHECK(ItemId::system(100) < ItemId::user(1));
  CHECK(ItemId::user(1) < ItemId::user(2));
  CHECK(ItemId::user(100) < ItemId::transient(1));
  std::map<ItemId, int> m{{ItemId::user(10), 0}, {ItemId::system(5), 1}, {ItemId::user(2), 2}};
  std::vector<ItemId> order;
  for (auto& [id, v] : m) order.push_back(id);
  CHECK(order == std::vector<ItemId>{ItemId::system(5), ItemId::user(2), ItemId::user(10)});
}

TEST_CASE("compute ids round-trip and keep user ids unchanged", "[catalog][global_id]") {
  CHECK(to_compute_id(ItemId::user(17)) == 17);
  for (ItemId id : {ItemId::system(1), ItemId::user(5), ItemId::transient(kMaxIdValue)}) {
    CHECK(item_id_from_compute(to_compute_id(id)) == id);
  }
  CHECK(to_compute_id(ItemId::system(1)) != to_compute_id(ItemId::user(1)));
  CHECK(to_compute_id(ItemId::transient(1)) != to_compute_id(ItemId::user(1)));
}
