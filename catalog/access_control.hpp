#pragma once
// Roles, role membership, object ownership and privileges: the catalog's
// access-control state, held by every CatalogSnapshot and persisted with it.
//
// Model (Materialize's, which follows PostgreSQL's):
//   * A role has an id (`p` PUBLIC, `s1` mz_system, `u<n>` user roles), a
//     name and attributes (INHERIT, always on; SUPERUSER; LOGIN). Roles are
//     created with CREATE ROLE or, as Materialize does for a user that
//     authenticated, on its first statement (Catalog::ensure_role).
//   * Every role is a member of PUBLIC. GRANT r TO m makes m a member of r;
//     membership is transitive and always inherits privileges.
//   * Every object (database, schema, item, cluster, and "system" for the
//     system privileges) has an owner and an ACL: (grantee, grantor,
//     privileges) entries. The creator owns what it creates; the ACL then
//     holds the owner's entry with all privileges of the object's type, as
//     Materialize shows it (`alice=arwd/alice`).
//   * A role has privilege P on object O when it is a superuser, or when it
//     or a role it is (transitively) a member of, or PUBLIC, owns O or holds
//     P in O's ACL. Ownership implies all privileges, so the owner may DROP,
//     ALTER and GRANT.
//   * An object with no stored ACL is one created before roles existed: it
//     belongs to mz_system and PUBLIC holds all its privileges, so such data
//     directories keep working (only DROP/ALTER need mz_system).
//   * System items (the catalog relations) are readable by every role;
//     their schemas are usable by every role.
//
// Privilege letters (Materialize's ACL strings): r SELECT, a INSERT,
// w UPDATE, d DELETE, U USAGE, C CREATE, R CREATEROLE, B CREATEDB,
// N CREATECLUSTER, printed in the order a r w d U C R B N.
//
// Threading: plain data, immutable inside a published snapshot.

#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/global_id.hpp"

namespace tandem::catalog {

struct RoleId {
  enum class Kind : uint8_t { kPublic = 0, kSystem = 1, kUser = 2 };
  Kind kind = Kind::kUser;
  uint64_t value = 0;

  static RoleId public_role() { return {Kind::kPublic, 0}; }
  static RoleId system(uint64_t v) { return {Kind::kSystem, v}; }
  static RoleId user(uint64_t v) { return {Kind::kUser, v}; }
  // "p", "s1", "u3".
  std::string to_string() const;
  static std::optional<RoleId> parse(std::string_view s);
  auto operator<=>(const RoleId&) const = default;
  bool operator==(const RoleId&) const = default;
};

inline const RoleId kPublicRoleId = RoleId::public_role();
inline const RoleId kMzSystemRoleIdValue = RoleId::system(1);
// The bootstrap role that owns the default database and schema.
inline const RoleId kMaterializeRoleIdValue = RoleId::user(1);
inline constexpr const char* kPublicRoleName = "PUBLIC";

struct Role {
  RoleId id;
  std::string name;
  bool inherit = true;
  bool superuser = false;
  bool login = false;
  bool operator==(const Role&) const = default;
};

// CREATE/ALTER ROLE's options; unset ones keep their value (ALTER) or
// default (CREATE: INHERIT, NOSUPERUSER, NOLOGIN).
struct RoleAttributes {
  std::optional<bool> superuser;
  std::optional<bool> login;
  std::optional<bool> inherit;
};

// The OID pg_roles shows: mz_system 16661, u<n> 16661 + n (materialize, u1,
// keeps 16662), PUBLIC 0.
uint32_t role_oid(RoleId id);

namespace privilege {
inline constexpr uint32_t kSelect = 1u << 0;
inline constexpr uint32_t kInsert = 1u << 1;
inline constexpr uint32_t kUpdate = 1u << 2;
inline constexpr uint32_t kDelete = 1u << 3;
inline constexpr uint32_t kUsage = 1u << 4;
inline constexpr uint32_t kCreate = 1u << 5;
inline constexpr uint32_t kCreateRole = 1u << 6;
inline constexpr uint32_t kCreateDb = 1u << 7;
inline constexpr uint32_t kCreateCluster = 1u << 8;
}  // namespace privilege

// "arwd", "UC", ...
std::string privilege_letters(uint32_t bits);
// The bit of one privilege name (SELECT, insert, CREATECLUSTER, ...).
std::optional<uint32_t> privilege_from_name(std::string_view name);
// SELECT, INSERT, ... for one bit.
const char* privilege_name(uint32_t bit);

enum class ObjectType : uint8_t {
  kDatabase, kSchema, kTable, kView, kMaterializedView, kIndex, kSource, kCluster, kSystem,
};
// TABLE, VIEW, MATERIALIZED VIEW, INDEX, SOURCE, SCHEMA, DATABASE, CLUSTER, SYSTEM.
const char* object_type_name(ObjectType type);
// The privileges an object of `type` can hold (ALL PRIVILEGES).
uint32_t all_privileges(ObjectType type);

// Object keys, as the ACL map and the catalog store spell them.
std::string item_object(ItemId id);
std::string schema_object(SchemaId id);
std::string cluster_object(ClusterId id);
std::string database_object(std::string_view name);
std::string system_object();

struct AclItem {
  RoleId grantee;
  RoleId grantor;
  uint32_t privileges = 0;
  bool operator==(const AclItem&) const = default;
};

struct ObjectAcl {
  RoleId owner;
  std::vector<AclItem> items;  // in grant order (the owner's entry first)
  bool operator==(const ObjectAcl&) const = default;
  // Adds or removes `bits` of (grantee, grantor); drops empty entries.
  void grant(RoleId grantee, RoleId grantor, uint32_t bits);
  void revoke(RoleId grantee, uint32_t bits);
};
// "alice=arwd/alice", "=UC/materialize" (PUBLIC has an empty name).
std::string acl_item_text(const AclItem& item, const std::string& grantee, const std::string& grantor);

class AccessControl {
 public:
  const Role* role(RoleId id) const;
  const Role* find_role(std::string_view name) const;
  // Every role (PUBLIC excluded), in id order.
  std::vector<const Role*> roles() const;
  // (role, member, grantor) of every direct membership, by role then member.
  struct Membership {
    RoleId role;
    RoleId member;
    RoleId grantor;
  };
  std::vector<Membership> memberships() const;

  // `id`, every role it is transitively a member of, and PUBLIC.
  std::set<RoleId> effective_roles(RoleId id) const;
  bool is_superuser(RoleId id) const;
  // True when `role` is a (transitive) member of `of` (or is `of`).
  bool is_member(RoleId role, RoleId of) const;

  // The stored ACL of `object`, or the default for objects that predate
  // roles (owner mz_system, PUBLIC holding all of `type`'s privileges).
  ObjectAcl acl(const std::string& object, ObjectType type) const;
  bool has_acl(const std::string& object) const { return acls_.count(object) > 0; }
  bool is_owner(RoleId role, const std::string& object, ObjectType type) const;
  // True when `role` holds every privilege of `bits` on `object`.
  bool has_privileges(RoleId role, const std::string& object, ObjectType type, uint32_t bits) const;
  // Objects whose owner is `role`, as keys.
  std::vector<std::string> owned_by(RoleId role) const;

 private:
  friend class Catalog;
  friend class CatalogSnapshot;
  std::map<RoleId, Role> roles_;
  std::map<std::string, RoleId, std::less<>> role_names_;
  std::map<RoleId, std::map<RoleId, RoleId>> members_;  // role -> member -> grantor
  std::map<std::string, ObjectAcl> acls_;
};

}  // namespace tandem::catalog
