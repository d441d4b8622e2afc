#include "frontend/adapter/role_statements.hpp"

#include "frontend/adapter/catalog_ops.hpp"
#include "frontend/adapter/privileges.hpp"

namespace tandem::frontend {
namespace {

using catalog::ObjectType;
using catalog::RoleId;

ExecResult tagged(std::string tag) {
  ExecResult r;
  r.tag = std::move(tag);
  return r;
}

catalog::RoleAttributes attributes_of(const sql::RoleOptions& o) {
  return catalog::RoleAttributes{o.superuser, o.login, o.inherit};
}

// A role named in GRANT/REVOKE; `public` (unquoted) is PUBLIC.
Result<RoleId> role_named(const catalog::CatalogSnapshot& s, const std::string& name, bool allow_public) {
  if (allow_public && name == "public") return catalog::kPublicRoleId;
  if (const catalog::Role* r = s.access().find_role(name)) return r->id;
  return Status::error(sqlstate::kUndefinedObject, "unknown role '" + name + "'");
}

struct Target {
  std::string object;
  ObjectType type;
};

Result<Target> item_target(const catalog::CatalogSnapshot& s, const catalog::SearchPath& path,
                           const sql::ObjectName& name) {
  TANDEM_ASSIGN_OR_RETURN(const catalog::Item* item, s.resolve_item(partial_name(name), path));
  if (item->id.is_system()) return Status::error(sqlstate::kInsufficientPrivilege,
                                                 "system item '" + item->name.to_string() + "' cannot be modified");
  return Target{catalog::item_object(item->id), catalog::object_type_of(*item)};
}

Result<Target> schema_target(const catalog::CatalogSnapshot& s, const catalog::SearchPath& path,
                             const sql::ObjectName& name) {
  std::optional<std::string> db =
      name.parts.size() == 2 ? std::optional<std::string>(name.parts[0]) : std::nullopt;
  TANDEM_ASSIGN_OR_RETURN(const catalog::Schema* schema, s.resolve_schema(db, name.parts.back(), path));
  if (schema->is_system()) {
    return Status::error(sqlstate::kInsufficientPrivilege, "system schema '" + schema->name + "' cannot be modified");
  }
  return Target{catalog::schema_object(schema->id), ObjectType::kSchema};
}

Result<Target> cluster_target(const catalog::CatalogSnapshot& s, const std::string& name) {
  TANDEM_ASSIGN_OR_RETURN(const catalog::Cluster* c, s.resolve_cluster(name));
  if (c->is_system()) {
    return Status::error(sqlstate::kInsufficientPrivilege, "system cluster '" + c->name + "' cannot be modified");
  }
  return Target{catalog::cluster_object(c->id), ObjectType::kCluster};
}

Result<ExecResult> grant_privileges(catalog::Catalog& catalog, const std::string& user,
                                    const catalog::SearchPath& path, const sql::GrantPrivileges& g) {
  auto s = catalog.snapshot();
  using T = sql::GrantPrivileges::Target;
  std::vector<Target> targets;
  if (g.target == T::kSystem) targets.push_back({catalog::system_object(), ObjectType::kSystem});
  for (const auto& name : g.objects) {
    switch (g.target) {
      case T::kTable: {
        TANDEM_ASSIGN_OR_RETURN(Target t, item_target(*s, path, name));
        targets.push_back(t);
        break;
      }
      case T::kSchema: {
        TANDEM_ASSIGN_OR_RETURN(Target t, schema_target(*s, path, name));
        targets.push_back(t);
        break;
      }
      case T::kCluster: {
        TANDEM_ASSIGN_OR_RETURN(Target t, cluster_target(*s, name.parts.back()));
        targets.push_back(t);
        break;
      }
      case T::kDatabase:
        if (!s->has_database(name.parts.back())) {
          return Status::error(sqlstate::kInvalidCatalogName, "unknown database '" + name.parts.back() + "'");
        }
        targets.push_back({catalog::database_object(name.parts.back()), ObjectType::kDatabase});
        break;
      case T::kSystem: break;
    }
  }
  std::vector<RoleId> grantees;
  for (const auto& r : g.roles) {
    TANDEM_ASSIGN_OR_RETURN(RoleId id, role_named(*s, r, true));
    grantees.push_back(id);
  }
  for (const Target& t : targets) {
    uint32_t all = catalog::all_privileges(t.type);
    uint32_t bits = 0;
    if (g.privileges.empty()) bits = all;
    for (const auto& p : g.privileges) {
      auto bit = catalog::privilege_from_name(p);
      if (!bit || (*bit & all) == 0) {
        return Status::error(sqlstate::kInvalidGrantOperation,
                             "invalid privilege types " + p + " for " + catalog::object_type_name(t.type));
      }
      bits |= *bit;
    }
    // The grantor is the object's owner, as in PostgreSQL when a superuser
    // or a member of the owning role grants.
    RoleId grantor = s->access().acl(t.object, t.type).owner;
    for (RoleId grantee : grantees) {
      TANDEM_RETURN_IF_ERROR(catalog.update_privileges(t.object, t.type, grantee, grantor, bits, g.grant));
    }
  }
  (void)user;
  return tagged(g.grant ? "GRANT" : "REVOKE");
}

Result<ExecResult> alter_owner(catalog::Catalog& catalog, const catalog::SearchPath& path, const sql::AlterOwner& a) {
  auto s = catalog.snapshot();
  TANDEM_ASSIGN_OR_RETURN(RoleId owner, role_named(*s, a.new_owner, false));
  Target t;
  switch (a.type) {
    case sql::ObjectType::kCluster: {
      TANDEM_ASSIGN_OR_RETURN(t, cluster_target(*s, a.name.parts.back()));
      break;
    }
    case sql::ObjectType::kSchema: {
      TANDEM_ASSIGN_OR_RETURN(t, schema_target(*s, path, a.name));
      break;
    }
    case sql::ObjectType::kClusterReplica:
      return Status::error(sqlstate::kFeatureNotSupported, "ALTER CLUSTER REPLICA ... OWNER TO is not supported");
    default: {
      TANDEM_ASSIGN_OR_RETURN(t, item_target(*s, path, a.name));
      break;
    }
  }
  TANDEM_RETURN_IF_ERROR(catalog.set_owner(t.object, t.type, owner));
  return tagged(std::string("ALTER ") + catalog::object_type_name(t.type));
}

}  // namespace

bool is_role_statement(const sql::Statement& s) {
  return s.as<sql::CreateRole>() || s.as<sql::AlterRole>() || s.as<sql::DropRole>() || s.as<sql::GrantRole>() ||
         s.as<sql::GrantPrivileges>() || s.as<sql::AlterOwner>();
}

std::optional<Result<ExecResult>> execute_role_statement(catalog::Catalog& catalog, const std::string& user,
                                                         const catalog::SearchPath& path,
                                                         const sql::Statement& statement) {
  if (auto* x = statement.as<sql::CreateRole>()) {
    auto created = catalog.create_role(x->name, attributes_of(x->options));
    if (!created.ok()) return Result<ExecResult>(created.status());
    return Result<ExecResult>(tagged("CREATE ROLE"));
  }
  if (auto* x = statement.as<sql::AlterRole>()) {
    Status st = catalog.alter_role(x->name, attributes_of(x->options));
    if (!st.is_ok()) return Result<ExecResult>(st);
    return Result<ExecResult>(tagged("ALTER ROLE"));
  }
  if (auto* x = statement.as<sql::DropRole>()) {
    for (const auto& name : x->names) {
      if (name == user) {
        return Result<ExecResult>(Status::error(sqlstate::kObjectInUse, "current role cannot be dropped"));
      }
    }
    auto dropped = catalog.drop_roles(x->names, x->if_exists);
    if (!dropped.ok()) return Result<ExecResult>(dropped.status());
    ExecResult r = tagged("DROP ROLE");
    for (const Status& n : dropped->notices) r.notices.push_back(ResultNotice{ResultNotice::Severity::kNotice, n});
    return Result<ExecResult>(std::move(r));
  }
  if (auto* x = statement.as<sql::GrantRole>()) {
    auto s = catalog.snapshot();
    RoleId grantor = session_role(*s, user);
    for (const auto& role : x->roles) {
      auto r = role_named(*s, role, false);
      if (!r.ok()) return Result<ExecResult>(r.status());
      for (const auto& member : x->members) {
        auto m = role_named(*s, member, false);
        if (!m.ok()) return Result<ExecResult>(m.status());
        Status st = x->grant ? catalog.grant_role(*r, *m, grantor) : catalog.revoke_role(*r, *m);
        if (!st.is_ok()) return Result<ExecResult>(st);
      }
    }
    return Result<ExecResult>(tagged(x->grant ? "GRANT ROLE" : "REVOKE ROLE"));
  }
  if (auto* x = statement.as<sql::GrantPrivileges>()) return grant_privileges(catalog, user, path, *x);
  if (auto* x = statement.as<sql::AlterOwner>()) return alter_owner(catalog, path, *x);
  return std::nullopt;
}

}  // namespace tandem::frontend
