// Catalog: roles, role membership, ownership and privileges (the model is
// in access_control.hpp). Who may run these is the adapter's check; here
// each operation validates, writes one batch and publishes, as all DDL.
#include <algorithm>

#include "catalog/catalog.hpp"
#include "catalog/catalog_errors.hpp"

namespace tandem::catalog {
namespace {

Status reserved_role_name(const std::string& name) {
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "public" || lower.rfind("mz_", 0) == 0 || lower.rfind("pg_", 0) == 0) {
    return Status::error(sqlstate::kReservedName, "role name \"" + name + "\" is reserved");
  }
  return Status::ok();
}

Status unknown_role(const std::string& name) {
  return Status::error(sqlstate::kUndefinedObject, "unknown role '" + name + "'");
}

}  // namespace

ObjectAcl Catalog::owner_acl(RoleId owner, ObjectType type) {
  ObjectAcl acl{owner, {}};
  acl.grant(owner, owner, all_privileges(type));
  return acl;
}

Status Catalog::load_access_control(CatalogStore::Loaded& loaded, CatalogSnapshot& state) {
  AccessControl& access = state.access_;
  if (!loaded.roles_initialized) {
    // The bootstrap roles and the default privileges (README: "Roles and
    // privileges"): mz_system, the superuser; materialize, the bootstrap
    // role owning the default database and schema; PUBLIC may use and
    // create in those and in quickstart, and may create clusters.
    CatalogStore::Batch batch;
    Role mz_system{kMzSystemRoleIdValue, "mz_system", true, true, true};
    Role materialize{kMaterializeRoleIdValue, "materialize", true, false, true};
    batch.put_role(mz_system);
    batch.put_role(materialize);
    loaded.roles.push_back(mz_system);
    loaded.roles.push_back(materialize);
    next_user_role_ = std::max<uint64_t>(next_user_role_, 2);
    batch.put_next_id(IdSpace::kRole, next_user_role_);
    auto add = [&](const std::string& object, RoleId owner, ObjectType type, uint32_t public_bits) {
      ObjectAcl acl = owner_acl(owner, type);
      acl.grant(kPublicRoleId, owner, public_bits);
      batch.put_acl(object, acl);
      loaded.acls[object] = acl;
    };
    const uint32_t use_create = privilege::kUsage | privilege::kCreate;
    add(database_object(kDefaultDatabase), kMaterializeRoleIdValue, ObjectType::kDatabase, use_create);
    for (const Schema& s : loaded.schemas) {
      if (s.database == kDefaultDatabase && s.name == kPublicSchema) {
        add(schema_object(s.id), kMaterializeRoleIdValue, ObjectType::kSchema, use_create);
      }
    }
    for (const Cluster& c : loaded.clusters) {
      if (c.name == kDefaultClusterName) add(cluster_object(c.id), kMzSystemRoleIdValue, ObjectType::kCluster, use_create);
    }
    ObjectAcl system{kMzSystemRoleIdValue, {}};
    system.grant(kPublicRoleId, kMzSystemRoleIdValue, privilege::kCreateCluster);
    batch.put_acl(system_object(), system);
    loaded.acls[system_object()] = system;
    batch.mark_roles_initialized();
    TANDEM_RETURN_IF_ERROR(store_.commit(batch));
  }
  for (const Role& r : loaded.roles) {
    access.roles_[r.id] = r;
    access.role_names_[r.name] = r.id;
  }
  for (const auto& m : loaded.members) access.members_[m.role][m.member] = m.grantor;
  access.acls_ = std::move(loaded.acls);
  return Status::ok();
}

Result<RoleId> Catalog::add_role(Role role) {
  role.id = RoleId::user(next_user_role_);
  auto next = working_copy();
  CatalogStore::Batch batch;
  batch.put_role(role);
  batch.put_next_id(IdSpace::kRole, next_user_role_ + 1);
  next->access_.roles_[role.id] = role;
  next->access_.role_names_[role.name] = role.id;
  TANDEM_RETURN_IF_ERROR(commit(std::move(next), batch));
  ++next_user_role_;
  return role.id;
}

Result<RoleId> Catalog::create_role(const std::string& name, const RoleAttributes& attributes) {
  TANDEM_RETURN_IF_ERROR(reserved_role_name(name));
  if (current_->access_.find_role(name) != nullptr) {
    return Status::error(sqlstate::kDuplicateObject, "role '" + name + "' already exists");
  }
  return add_role(Role{RoleId{}, name, attributes.inherit.value_or(true), attributes.superuser.value_or(false),
                       attributes.login.value_or(false)});
}

Result<RoleId> Catalog::ensure_role(const std::string& name) {
  if (const Role* r = current_->access_.find_role(name)) return r->id;
  // A name CREATE ROLE would refuse (mz_*, pg_*) still gets a role: the
  // user authenticated, and it holds only what PUBLIC holds.
  return add_role(Role{RoleId{}, name, true, false, true});
}

Status Catalog::alter_role(const std::string& name, const RoleAttributes& attributes) {
  const Role* old = current_->access_.find_role(name);
  if (old == nullptr) return unknown_role(name);
  if (old->id.kind != RoleId::Kind::kUser) {
    return Status::error(sqlstate::kInsufficientPrivilege, "system role '" + name + "' cannot be modified");
  }
  Role role = *old;
  if (attributes.superuser) role.superuser = *attributes.superuser;
  if (attributes.login) role.login = *attributes.login;
  if (attributes.inherit) role.inherit = *attributes.inherit;
  auto next = working_copy();
  CatalogStore::Batch batch;
  batch.put_role(role);
  next->access_.roles_[role.id] = role;
  return commit(std::move(next), batch);
}

Result<DdlResult> Catalog::drop_roles(const std::vector<std::string>& names, bool if_exists) {
  DdlResult result;
  auto next = working_copy();
  CatalogStore::Batch batch;
  AccessControl& access = next->access_;
  for (const std::string& name : names) {
    const Role* role = access.find_role(name);
    if (role == nullptr) {
      if (!if_exists) return unknown_role(name);
      Status notice = Status::error(sqlstate::kUndefinedObject, "role \"" + name + "\" does not exist, skipping");
      result.notices.push_back(notice);
      continue;
    }
    RoleId id = role->id;
    if (id.kind != RoleId::Kind::kUser) {
      return Status::error(sqlstate::kInsufficientPrivilege, "system role '" + name + "' cannot be dropped");
    }
    if (!access.owned_by(id).empty()) {
      return Status::error(sqlstate::kDependentObjectsStillExist,
                           "role \"" + name + "\" cannot be dropped because some objects depend on it");
    }
    // Its grants, the grants it made, and its memberships go with it.
    for (auto& [object, acl] : access.acls_) {
      size_t before = acl.items.size();
      std::erase_if(acl.items, [&](const AclItem& i) { return i.grantee == id || i.grantor == id; });
      if (acl.items.size() != before) batch.put_acl(object, acl);
    }
    for (auto it = access.members_.begin(); it != access.members_.end();) {
      if (it->first == id) {
        for (const auto& [member, grantor] : it->second) batch.delete_member(id, member);
        it = access.members_.erase(it);
        continue;
      }
      if (it->second.erase(id) > 0) batch.delete_member(it->first, id);
      ++it;
    }
    batch.delete_role(id);
    access.role_names_.erase(role->name);
    access.roles_.erase(id);
  }
  TANDEM_RETURN_IF_ERROR(commit(std::move(next), batch));
  return result;
}

Status Catalog::grant_role(RoleId role, RoleId member, RoleId grantor) {
  const AccessControl& access = current_->access_;
  const Role* r = access.role(role);
  const Role* m = access.role(member);
  if (r == nullptr || m == nullptr) return errors::internal("grant of an unknown role");
  if (access.is_member(role, member)) {
    return Status::error(sqlstate::kInvalidGrantOperation,
                         "role \"" + m->name + "\" is a member of role \"" + r->name + "\"");
  }
  if (access.members_.count(role) > 0 && access.members_.at(role).count(member) > 0) return Status::ok();
  auto next = working_copy();
  CatalogStore::Batch batch;
  batch.put_member(role, member, grantor);
  next->access_.members_[role][member] = grantor;
  return commit(std::move(next), batch);
}

Status Catalog::revoke_role(RoleId role, RoleId member) {
  auto it = current_->access_.members_.find(role);
  if (it == current_->access_.members_.end() || it->second.count(member) == 0) return Status::ok();
  auto next = working_copy();
  CatalogStore::Batch batch;
  batch.delete_member(role, member);
  next->access_.members_[role].erase(member);
  if (next->access_.members_[role].empty()) next->access_.members_.erase(role);
  return commit(std::move(next), batch);
}

Status Catalog::update_privileges(const std::string& object, ObjectType type, RoleId grantee, RoleId grantor,
                                  uint32_t bits, bool grant) {
  auto next = working_copy();
  ObjectAcl acl = next->access_.acl(object, type);
  if (grant) {
    acl.grant(grantee, grantor, bits);
  } else {
    acl.revoke(grantee, bits);
  }
  CatalogStore::Batch batch;
  batch.put_acl(object, acl);
  next->access_.acls_[object] = std::move(acl);
  return commit(std::move(next), batch);
}

Status Catalog::set_owner(const std::string& object, ObjectType type, RoleId owner) {
  auto next = working_copy();
  ObjectAcl acl = next->access_.acl(object, type);
  RoleId old = acl.owner;
  if (old == owner) return Status::ok();
  // The owner's own entry moves to the new owner (PostgreSQL's aclnewowner).
  uint32_t held = 0;
  for (const AclItem& i : acl.items) {
    if (i.grantee == old && i.grantor == old) held |= i.privileges;
  }
  std::erase_if(acl.items, [&](const AclItem& i) { return i.grantee == old && i.grantor == old; });
  for (AclItem& i : acl.items) {
    if (i.grantor == old) i.grantor = owner;
  }
  acl.owner = owner;
  acl.grant(owner, owner, held);
  CatalogStore::Batch batch;
  batch.put_acl(object, acl);
  next->access_.acls_[object] = std::move(acl);
  return commit(std::move(next), batch);
}

}  // namespace tandem::catalog
