#include "catalog/access_control.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace tandem::catalog {
namespace {

struct PrivilegeInfo {
  uint32_t bit;
  char letter;
  const char* name;
};
// Display order of the letters.
constexpr PrivilegeInfo kPrivileges[] = {
    {privilege::kInsert, 'a', "INSERT"},         {privilege::kSelect, 'r', "SELECT"},
    {privilege::kUpdate, 'w', "UPDATE"},         {privilege::kDelete, 'd', "DELETE"},
    {privilege::kUsage, 'U', "USAGE"},           {privilege::kCreate, 'C', "CREATE"},
    {privilege::kCreateRole, 'R', "CREATEROLE"}, {privilege::kCreateDb, 'B', "CREATEDB"},
    {privilege::kCreateCluster, 'N', "CREATECLUSTER"},
};

}  // namespace

std::string RoleId::to_string() const {
  switch (kind) {
    case Kind::kPublic: return "p";
    case Kind::kSystem: return "s" + std::to_string(value);
    case Kind::kUser: return "u" + std::to_string(value);
  }
  return "";
}

std::optional<RoleId> RoleId::parse(std::string_view s) {
  if (s == "p") return public_role();
  if (s.size() < 2 || (s[0] != 's' && s[0] != 'u')) return std::nullopt;
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(s.data() + 1, s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return s[0] == 's' ? system(v) : user(v);
}

uint32_t role_oid(RoleId id) {
  if (id.kind == RoleId::Kind::kPublic) return 0;
  if (id.kind == RoleId::Kind::kSystem) return static_cast<uint32_t>(16660 + id.value);
  return static_cast<uint32_t>(16661 + id.value);
}

std::string privilege_letters(uint32_t bits) {
  std::string out;
  for (const auto& p : kPrivileges) {
    if (bits & p.bit) out += p.letter;
  }
  return out;
}

std::optional<uint32_t> privilege_from_name(std::string_view name) {
  std::string upper(name);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  for (const auto& p : kPrivileges) {
    if (upper == p.name) return p.bit;
  }
  return std::nullopt;
}

const char* privilege_name(uint32_t bit) {
  for (const auto& p : kPrivileges) {
    if (p.bit == bit) return p.name;
  }
  return "";
}

const char* object_type_name(ObjectType type) {
  switch (type) {
    case ObjectType::kDatabase: return "DATABASE";
    case ObjectType::kSchema: return "SCHEMA";
    case ObjectType::kTable: return "TABLE";
    case ObjectType::kView: return "VIEW";
    case ObjectType::kMaterializedView: return "MATERIALIZED VIEW";
    case ObjectType::kIndex: return "INDEX";
    case ObjectType::kSource: return "SOURCE";
    case ObjectType::kCluster: return "CLUSTER";
    case ObjectType::kSystem: return "SYSTEM";
  }
  return "";
}

uint32_t all_privileges(ObjectType type) {
  using namespace privilege;
  switch (type) {
    case ObjectType::kTable: return kSelect | kInsert | kUpdate | kDelete;
    case ObjectType::kView:
    case ObjectType::kMaterializedView:
    case ObjectType::kSource: return kSelect;
    case ObjectType::kIndex: return 0;
    case ObjectType::kDatabase:
    case ObjectType::kSchema:
    case ObjectType::kCluster: return kUsage | kCreate;
    case ObjectType::kSystem: return kCreateRole | kCreateDb | kCreateCluster;
  }
  return 0;
}

std::string item_object(ItemId id) { return "i:" + id.to_string(); }
std::string schema_object(SchemaId id) { return "s:" + id.to_string(); }
std::string cluster_object(ClusterId id) { return "c:" + id.to_string(); }
std::string database_object(std::string_view name) { return "d:" + std::string(name); }
std::string system_object() { return "system"; }

void ObjectAcl::grant(RoleId grantee, RoleId grantor, uint32_t bits) {
  for (AclItem& item : items) {
    if (item.grantee == grantee && item.grantor == grantor) {
      item.privileges |= bits;
      return;
    }
  }
  if (bits == 0) return;
  // In grant order, the owner's entry first, as PostgreSQL keeps an ACL.
  items.push_back({grantee, grantor, bits});
}

void ObjectAcl::revoke(RoleId grantee, uint32_t bits) {
  for (AclItem& item : items) {
    if (item.grantee == grantee) item.privileges &= ~bits;
  }
  std::erase_if(items, [](const AclItem& item) { return item.privileges == 0; });
}

std::string acl_item_text(const AclItem& item, const std::string& grantee, const std::string& grantor) {
  return grantee + "=" + privilege_letters(item.privileges) + "/" + grantor;
}

const Role* AccessControl::role(RoleId id) const {
  auto it = roles_.find(id);
  return it == roles_.end() ? nullptr : &it->second;
}

const Role* AccessControl::find_role(std::string_view name) const {
  auto it = role_names_.find(name);
  return it == role_names_.end() ? nullptr : role(it->second);
}

std::vector<const Role*> AccessControl::roles() const {
  std::vector<const Role*> out;
  for (const auto& [id, r] : roles_) out.push_back(&r);
  return out;
}

std::vector<AccessControl::Membership> AccessControl::memberships() const {
  std::vector<Membership> out;
  for (const auto& [role, members] : members_) {
    for (const auto& [member, grantor] : members) out.push_back({role, member, grantor});
  }
  return out;
}

std::set<RoleId> AccessControl::effective_roles(RoleId id) const {
  std::set<RoleId> out{id, kPublicRoleId};
  std::vector<RoleId> work{id};
  while (!work.empty()) {
    RoleId r = work.back();
    work.pop_back();
    for (const auto& [role, members] : members_) {
      if (members.count(r) > 0 && out.insert(role).second) work.push_back(role);
    }
  }
  return out;
}

bool AccessControl::is_superuser(RoleId id) const {
  const Role* r = role(id);
  return r != nullptr && r->superuser;
}

bool AccessControl::is_member(RoleId role, RoleId of) const { return effective_roles(role).count(of) > 0; }

ObjectAcl AccessControl::acl(const std::string& object, ObjectType type) const {
  auto it = acls_.find(object);
  if (it != acls_.end()) return it->second;
  ObjectAcl def{kMzSystemRoleIdValue, {}};
  uint32_t all = type == ObjectType::kSystem ? privilege::kCreateCluster : all_privileges(type);
  def.grant(kPublicRoleId, kMzSystemRoleIdValue, all);
  return def;
}

bool AccessControl::is_owner(RoleId role, const std::string& object, ObjectType type) const {
  if (is_superuser(role)) return true;
  RoleId owner = acl(object, type).owner;
  return effective_roles(role).count(owner) > 0;
}

bool AccessControl::has_privileges(RoleId role, const std::string& object, ObjectType type, uint32_t bits) const {
  if (is_superuser(role)) return true;
  ObjectAcl a = acl(object, type);
  std::set<RoleId> mine = effective_roles(role);
  if (mine.count(a.owner) > 0) return true;
  uint32_t held = 0;
  for (const AclItem& item : a.items) {
    if (mine.count(item.grantee) > 0) held |= item.privileges;
  }
  return (held & bits) == bits;
}

std::vector<std::string> AccessControl::owned_by(RoleId role) const {
  std::vector<std::string> out;
  for (const auto& [object, a] : acls_) {
    if (a.owner == role) out.push_back(object);
  }
  return out;
}

}  // namespace tandem::catalog
