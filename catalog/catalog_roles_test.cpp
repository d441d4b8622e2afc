// Roles, membership, ownership and privileges: the rules of
// access_control.hpp and their persistence across a reopen.
#include <catch2/catch.hpp>

#include "catalog/catalog_test_support.hpp"

using namespace tandem;
using namespace tandem::catalog;
using namespace tandem::catalog::testing;

namespace {

constexpr uint32_t kRead = privilege::kSelect;

}  // namespace

TEST_CASE("bootstrap roles and default privileges", "[catalog][roles]") {
  CatalogFixture f;
  auto s = f.catalog().snapshot();
  const AccessControl& a = s->access();
  REQUIRE(a.find_role("mz_system") != nullptr);
  CHECK(a.find_role("mz_system")->superuser);
  REQUIRE(a.find_role("materialize") != nullptr);
  CHECK(a.find_role("materialize")->id == RoleId::user(1));
  CHECK_FALSE(a.find_role("materialize")->superuser);
  const Cluster* quickstart = s->find_cluster("quickstart");
  REQUIRE(quickstart != nullptr);
  // Anyone may use and create on quickstart; only mz_system owns it.
  RoleId nobody = RoleId::user(99);
  CHECK(a.has_privileges(nobody, cluster_object(quickstart->id), ObjectType::kCluster,
                         privilege::kUsage | privilege::kCreate));
  CHECK_FALSE(a.is_owner(nobody, cluster_object(quickstart->id), ObjectType::kCluster));
  CHECK_FALSE(a.is_owner(RoleId::user(1), cluster_object(quickstart->id), ObjectType::kCluster));
  CHECK(a.is_owner(kMzSystemRoleIdValue, cluster_object(quickstart->id), ObjectType::kCluster));
  CHECK(a.has_privileges(nobody, system_object(), ObjectType::kSystem, privilege::kCreateCluster));
  CHECK_FALSE(a.has_privileges(nobody, system_object(), ObjectType::kSystem, privilege::kCreateRole));
}

TEST_CASE("owners, grants and memberships decide privileges and survive a reopen", "[catalog][roles]") {
  CatalogFixture f;
  auto alice = f.catalog().ensure_role("alice");
  auto bob = f.catalog().ensure_role("bob");
  auto readers = f.catalog().create_role("readers", {});
  REQUIRE(alice.ok());
  REQUIRE(bob.ok());
  REQUIRE(readers.ok());
  CHECK(f.catalog().create_role("mz_x", {}).status().sqlstate() == "42939");
  CHECK(f.catalog().create_role("alice", {}).status().sqlstate() == "42710");

  ItemSpec spec = table_spec("t", 1);
  spec.owner = *alice;
  auto created = f.catalog().create_item(std::move(spec));
  REQUIRE(created.ok());
  std::string t = item_object(*created->created_item);

  auto check = [&](const Catalog& c) {
    const AccessControl& a = c.snapshot()->access();
    CHECK(a.is_owner(*alice, t, ObjectType::kTable));
    CHECK_FALSE(a.is_owner(*bob, t, ObjectType::kTable));
    CHECK(a.has_privileges(*bob, t, ObjectType::kTable, kRead));  // through readers
    CHECK_FALSE(a.has_privileges(*bob, t, ObjectType::kTable, privilege::kInsert));
    CHECK(a.find_role("readers")->login == false);
    CHECK(a.find_role("bob")->login);
  };
  REQUIRE(f.catalog().update_privileges(t, ObjectType::kTable, *readers, *alice, kRead, true).is_ok());
  CHECK_FALSE(f.catalog().snapshot()->access().has_privileges(*bob, t, ObjectType::kTable, kRead));
  REQUIRE(f.catalog().grant_role(*readers, *bob, kMzSystemRoleIdValue).is_ok());
  // A cycle is refused.
  CHECK(f.catalog().grant_role(*bob, *readers, kMzSystemRoleIdValue).sqlstate() == "0LP01");
  check(f.catalog());
  f.reopen();
  check(f.catalog());

  // A role that owns something cannot be dropped; its grants go with it.
  CHECK(f.catalog().drop_roles({"alice"}, false).status().sqlstate() == "2BP01");
  REQUIRE(f.catalog().drop_roles({"readers"}, false).ok());
  CHECK_FALSE(f.catalog().snapshot()->access().has_privileges(*bob, t, ObjectType::kTable, kRead));
  REQUIRE(f.catalog().set_owner(t, ObjectType::kTable, *bob).is_ok());
  f.reopen();
  const AccessControl& a = f.catalog().snapshot()->access();
  CHECK(a.acl(t, ObjectType::kTable).owner == *bob);
  CHECK(a.acl(t, ObjectType::kTable).items.size() == 1);
  CHECK(a.acl(t, ObjectType::kTable).items[0].grantee == *bob);
  REQUIRE(f.catalog().drop_roles({"alice"}, false).ok());
  // Dropping a table drops its ACL.
  ItemSpec u = table_spec("u", 2);
  u.owner = *bob;
  auto made = f.catalog().create_item(std::move(u));
  REQUIRE(made.ok());
  CHECK(f.catalog().snapshot()->access().has_acl(item_object(*made->created_item)));
  REQUIRE(f.catalog().drop_items(std::vector<ItemId>{*made->created_item}, DropBehavior::kRestrict).ok());
  CHECK_FALSE(f.catalog().snapshot()->access().has_acl(item_object(*made->created_item)));
  f.reopen();
  CHECK_FALSE(f.catalog().snapshot()->access().has_acl(item_object(*made->created_item)));
}
